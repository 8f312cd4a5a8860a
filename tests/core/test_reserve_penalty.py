# RULES.md §4 excess penalty (a reserve of more than 6 cards gives the
# opponents one played special back, usable after the builders' next turn)
# and §5 refuel (the smaller team may take a special it never had).
from apixagon.codes import (
    BEEHIVE,
    BEEKEEPER,
    OK,
    RAIN_MOVE,
    SILENT_SWARM,
    SMOKER,
    SPECIAL_USED,
    THREE_VS_TWO,
    TWO_VS_ONE,
)
from util import cell, cells, new, occupy_royal, play, put, put_run, refused, set_ply

A, B = 0, 1
SPOTS = ("A1", "A3", "A5", "C1", "C3", "C5", "C7", "E1", "E3")  # no two adjacent


def builders(mode, start, n, team=A, ply=0):
    """team owns lone cards on the first n SPOTS (cards 0..n-1) and a lone
    card 20 on G7; the other team owns the Royal Cell (card 30) and a card
    on I9; specials unlocked. The turn count is set to ply."""
    g = new(mode, start)
    for k in range(n):
        put(g, team, k, SPOTS[k])
    put(g, team, 20, "G7")
    occupy_royal(g, team ^ 1, 30)
    put(g, team ^ 1, 0, "I9")
    set_ply(g, ply)
    return g


def build(g, team, n):
    assert g.deck_empty(team) == OK
    assert g.reserve(team, cells(*SPOTS[:n])) == OK


def test_excess_penalty_after_player_2s_turn_silent_swarm():
    g = builders(SILENT_SWARM, B, 7)
    assert g.smoker(B, cell("G7")) == OK  # B1 plays its Smoker
    put(g, A, 21, "G9")
    build(g, A, 7)  # A1, the keeper: 7 cards
    assert g.check_special(B, SMOKER) == SPECIAL_USED  # B2: not yet
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")  # A2: the builders' next turn
    assert g.check_special(B, SMOKER) == OK
    assert g.smoker(B, cell("G9")) == OK  # B1: the Smoker is back
    play(g, A, 1, "A3")
    refused(g, SPECIAL_USED, g.smoker, B, cell("A1"))  # only one comes back


def test_no_penalty_for_6_cards():
    g = builders(SILENT_SWARM, B, 6)
    assert g.smoker(B, cell("G7")) == OK
    put(g, A, 21, "G9")
    build(g, A, 6)
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))
    play(g, B, 2, "I5")
    play(g, A, 1, "A3")
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))


def test_only_a_played_special_comes_back():
    # B played its Smoker only: the Rains and the Beekeeper are still in
    # hand, and a second Smoker is the one special that can come back.
    g = builders(SILENT_SWARM, B, 7)
    assert g.smoker(B, cell("G7")) == OK
    put(g, A, 21, "G9")
    build(g, A, 7)
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")
    assert g.beekeeper(B, cell("I9"), cell("I8")) == OK  # its own Beekeeper
    play(g, A, 1, "A3")
    assert g.beekeeper(B, cell("I8"), cell("I9")) == OK  # the played one back
    play(g, A, 2, "A5")
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))  # and no more


def test_excess_penalty_after_player_1s_turn_beehive():
    g = builders(BEEHIVE, A, 7, A, 3)  # B2 to play
    assert g.smoker(B, cell("G7")) == OK
    put(g, A, 21, "G9")
    assert g.seat_to_play() == 3
    build(g, A, 7)  # A3, the keeper
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))  # B3
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")  # A1: the builders' next turn
    assert g.smoker(B, cell("G9")) == OK  # B1


def test_refuel_the_smaller_team_takes_the_beekeeper_it_never_had():
    g = builders(TWO_VS_ONE, B, 7)
    play(g, B, 1, "I7")  # B1
    build(g, A, 7)  # A1, the keeper of the larger team
    refused(g, SPECIAL_USED, g.beekeeper, B, cell("I7"), cell("I5"))
    play(g, B, 2, "H9")
    play(g, A, 0, "A1")  # A2
    assert g.check_special(B, BEEKEEPER) == OK
    assert g.beekeeper(B, cell("I7"), cell("I5")) == OK
    play(g, A, 1, "A3")
    refused(g, SPECIAL_USED, g.beekeeper, B, cell("I5"), cell("I7"))


def test_refuel_the_smaller_team_takes_its_second_rain():
    g = builders(THREE_VS_TWO, A, 7, A, 3)  # B2 to play; A3 builds next
    put_run(g, A, 26, ("H6", "H7"), list(range(8)) + [20])
    play(g, B, 1, "F9")  # B2
    build(g, A, 7)  # A3
    assert g.rain(B, cell("H5")) == OK  # B1: its one Rain
    play(g, A, 0, "A1")  # A1: the builders' next turn
    assert g.check_special(B, RAIN_MOVE) == OK
    assert g.rain(B, cell("H8")) == OK  # B2: the Rain it never had
    play(g, A, 1, "A3")
    refused(g, SPECIAL_USED, g.beekeeper, B, cell("F9"), cell("F7"))
    refused(g, SPECIAL_USED, g.rain, B, cell("C4"))


def test_the_larger_team_gets_a_played_special_back_too():
    g = builders(TWO_VS_ONE, A, 7, B)  # B, the single player, builds
    assert g.smoker(A, cell("G7")) == OK  # A1
    put(g, B, 21, "G9")
    build(g, B, 7)  # B1
    refused(g, SPECIAL_USED, g.smoker, A, cell("G9"))  # A2
    play(g, A, 1, "I7")
    play(g, B, 0, "A1")  # B1 again: the builders' next turn
    assert g.smoker(A, cell("G9")) == OK


def test_refuel_or_a_played_special_instead():
    g = builders(TWO_VS_ONE, B, 7)
    assert g.smoker(B, cell("G7")) == OK  # B1 plays its one Smoker
    put(g, A, 21, "G9")
    build(g, A, 7)
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")
    assert g.smoker(B, cell("G9")) == OK  # the played Smoker back
    play(g, A, 1, "A3")
    assert g.check_special(B, BEEKEEPER) == SPECIAL_USED  # one special only

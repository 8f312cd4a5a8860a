# RULES.md §4 reserve deck: declared on the board, built by the keeper as
# its whole turn, once per game, from isolated cards and groups of at most 2
# own cards (D-7, D-12), never specials, sealed cards or the Royal card; §4
# excess penalty and §5 refuel (D-11); §4 End: as in §3.3 with the reserve
# deck (D-10). Reason codes are the core's: not a reserve mode or deck not
# declared empty -> not-allowed-in-mode; already built -> special-used; not
# the keeper -> not-your-turn; a wrong cell or a group of 3+ -> bad-target.
# Team seats and specials: test_rules_teams.
from apixagon.codes import (
    BAD_CELL,
    BAD_TARGET,
    BEEHIVE,
    BEEKEEPER,
    CARDS_OUT,
    DECK_EMPTY,
    DRAW,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    QUEENS_GAMBIT,
    RAIN_MOVE,
    RESERVE,
    ROYAL_IMMOVABLE,
    SEALED,
    SILENT_SWARM,
    SMOKER,
    SPECIAL_USED,
    TEEN,
    THREE_VS_TWO,
    TWO_VS_ONE,
)
from apixagon.geometry import NONE, ROYAL
from util import cell, cells, new, occupy_royal, play, put, put_run, refused, set_ply, state

A, B = 0, 1
SPOTS = ("A1", "A3", "A5", "C1", "C3", "C5", "C7", "E1", "E3")  # no two adjacent


def swarm(mode=SILENT_SWARM, stp=False):
    """Team A: a lone card on A1, a pair D1-D2, a group of three G4-G5-G6;
    team B: one card on I9. A1 (the keeper in the Silent Swarm) to play."""
    g = new(mode, 0, 0, stp)
    put(g, A, 0, "A1")
    put(g, A, 1, "D1")
    put(g, A, 2, "D2")
    put(g, A, 3, "G4")
    put(g, A, 4, "G5")
    put(g, A, 5, "G6")
    put(g, B, 0, "I9")
    return g


# §4 reserve deck: when, who, which cards.


def test_deck_empty_opens_the_reserve_and_takes_no_turn():
    """§4 reserve: only once the team's deck is declared run out (on the
    board); the declaration takes no turn."""
    g = swarm()
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, A, cells("A1"))  # not declared
    assert g.deck_empty(A) == OK
    assert g.deck_declared_empty(A) and not g.deck_declared_empty(B)
    assert g.ply() == 0 and g.side_to_play() == A and not g.over()
    assert g.check_reserve(A, cells("A1")) == OK
    assert g.undo() == DECK_EMPTY and not g.deck_declared_empty(A)
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, A, cells("A1"))


def test_reserve_refused_outside_the_silent_team_modes():
    """§4 reserve: only in the team modes with the code of silence (not the
    2-player game, §7 Teen or §6 Junior: not-allowed-in-mode)."""
    for mode in (QUEENS_GAMBIT, TEEN):
        g = new(mode)
        put(g, A, 0, "A1")
        refused(g, NOT_ALLOWED_IN_MODE, g.reserve, A, cells("A1"))
    g = new(JUNIOR)
    play(g, NONE, 0, ROYAL)
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, NONE, cells("E5"))


def test_lone_cards_and_pairs_may_be_taken_back():
    """§4 reserve: isolated cards and groups of at most 2 own cards."""
    g = swarm()
    g.deck_empty(A)
    for group in (("A1",), ("D1",), ("D2",), ("D1", "D2"), ("A1", "D2", "D1")):
        assert g.check_reserve(A, cells(*group)) == OK, group


def test_groups_of_three_may_not_d7():
    """§4 reserve, D-7: not from a group of 3 or more, judged on the board as it
    stood when the recovery began; all the cells or none."""
    g = swarm()
    g.deck_empty(A)
    for name in ("G4", "G5", "G6"):
        refused(g, BAD_TARGET, g.reserve, A, cells(name))
    # D-7: judged as the board stood; taking G4 does not make G5-G6 a pair.
    refused(g, BAD_TARGET, g.reserve, A, cells("G4", "G5"))
    refused(g, BAD_TARGET, g.reserve, A, cells("A1", "G6"))  # all or nothing


def test_bad_targets():
    """§4 reserve: own normal cards on the board only, never specials, each
    once (bad-target, bad-cell)."""
    g = swarm()
    put(g, A, 31, "A5")  # an own Rain
    g.deck_empty(A)
    refused(g, BAD_TARGET, g.reserve, A, cells("A3"))  # free cell
    refused(g, BAD_TARGET, g.reserve, A, cells("I9"))  # opponent's card
    refused(g, BAD_TARGET, g.reserve, A, cells("A5"))  # a special
    refused(g, BAD_TARGET, g.reserve, A, cells("A1", "A1"))  # twice
    refused(g, BAD_CELL, g.reserve, A, bytes([61]))
    refused(g, BAD_CELL, g.reserve, A, bytes([0, 255]))


def test_an_own_rain_counts_in_the_group():
    """§4 D-12: an own Rain links cards into a group and counts in its size."""
    g = swarm()
    put(g, A, 31, "B1")  # A1 + Rain: a group of 2
    g.deck_empty(A)
    assert g.check_reserve(A, cells("A1")) == OK
    put(g, A, 6, "C1")  # A1, B1, C1: a group of 3
    refused(g, BAD_TARGET, g.reserve, A, cells("A1"))


def test_no_sealed_or_royal_card():
    """§4 reserve: never sealed cards or the Royal card."""
    g = swarm()
    put_run(g, A, 26, ("H5", "H6", "H7", "H8"), list(range(7)))
    occupy_royal(g, A, 20)
    g.deck_empty(A)
    refused(g, SEALED, g.reserve, A, cells("H6"))
    refused(g, ROYAL_IMMOVABLE, g.reserve, A, cells("E5"))


def test_only_the_keeper_of_the_team_to_play():
    """§4: only the keeper builds the reserve, on its own turn."""
    g = swarm()
    g.deck_empty(A)
    g.deck_empty(B)
    refused(g, NOT_YOUR_TURN, g.reserve, B, cells("I9"))  # team A's turn
    refused(g, NOT_YOUR_TURN, g.reserve, A, cells("A1"), 2)  # seat given wrong
    set_ply(g, 2)  # A2
    refused(g, NOT_YOUR_TURN, g.reserve, A, cells("A1"))
    set_ply(g, 3)  # B2
    refused(g, NOT_YOUR_TURN, g.reserve, B, cells("I9"))
    set_ply(g, 1)  # B1
    assert g.reserve(B, cells("I9"), 1) == OK


def test_keepers_by_mode():
    """§4 keepers: player 1 with 4 players, player 3 with 6; §5: the larger
    team's player 1 (2v1) or 3 (3v2), the smaller team's player 1."""
    # §4: player 1 of 2, player 3 of 3; §5: the smaller team's player 1.
    want = ((SILENT_SWARM, 1, 1), (BEEHIVE, 3, 3), (TWO_VS_ONE, 1, 1), (THREE_VS_TWO, 3, 1))
    for mode, ka, kb in want:
        g = new(mode)
        assert g.keeper(A) == ka and g.keeper(B) == kb, mode
    g = swarm(BEEHIVE)
    g.deck_empty(A)
    for p in (0, 2):  # A1, A2
        set_ply(g, p)
        refused(g, NOT_YOUR_TURN, g.reserve, A, cells("A1"))
    set_ply(g, 4)  # A3
    assert g.reserve(A, cells("A1"), 3) == OK
    g = swarm(THREE_VS_TWO)
    g.deck_empty(B)
    set_ply(g, 3)  # B2
    refused(g, NOT_YOUR_TURN, g.reserve, B, cells("I9"))
    set_ply(g, 1)  # B1
    assert g.reserve(B, cells("I9")) == OK


def test_the_reserve_is_the_keepers_whole_turn():
    """§4: the keeper's turn takes the cards back and makes no other move; the
    recovered cards are played again; undo restores it."""
    g = swarm()
    g.deck_empty(A)
    before = state(g)
    assert g.reserve(A, cells("A1", "D1", "D2")) == OK
    for k in (0, 1, 2):
        assert g.where(A, k) == NONE
    assert not g.board[cell("A1")] and not g.board[cell("D1")]
    assert g.reserve_used(A) and g.side_to_play() == B
    refused(g, NOT_YOUR_TURN, g.place, A, 0, cell("A1"))
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")  # a recovered card is played again
    assert g.undo() and g.undo() and g.undo() == RESERVE and state(g) == before


def test_once_per_game():
    """§4: once per game per team (special-used)."""
    g = swarm()
    g.deck_empty(A)
    assert g.reserve(A, cells("A1")) == OK
    play(g, B, 1, "I7")
    play(g, A, 0, "A3")
    play(g, B, 2, "I5")
    assert g.seat_to_play() == 1  # the keeper again
    refused(g, SPECIAL_USED, g.reserve, A, cells("A3"))


# §4 excess penalty and §5 refuel.


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
    """§4 excess penalty: a reserve of more than 6 cards gives the opponents one
    special they had played, usable after the builders' next turn (player 2
    with 4 players); one only; undo keeps it."""
    g = builders(SILENT_SWARM, B, 7)
    assert g.smoker(B, cell("G7")) == OK  # B1 plays its Smoker
    put(g, A, 21, "G9")
    build(g, A, 7)  # A1, the keeper: 7 cards
    assert g.check_special(B, SMOKER) == SPECIAL_USED  # B2: not yet
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")  # A2: the builders' next turn
    assert g.check_special(B, SMOKER) == OK
    before = state(g)
    assert g.smoker(B, cell("G9")) == OK  # B1: the Smoker is back
    assert g.undo() and state(g) == before  # taken back, it is there again
    assert g.smoker(B, cell("G9")) == OK
    play(g, A, 1, "A3")
    refused(g, SPECIAL_USED, g.smoker, B, cell("A1"))  # only one comes back


def test_no_penalty_for_6_cards():
    """§4 excess penalty: 6 cards are no excess."""
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


def test_excess_penalty_after_player_1s_turn_beehive():
    """§4 excess penalty with 6 players: usable after the builders' player 1."""
    g = builders(BEEHIVE, A, 7, A, 3)  # B2 to play
    assert g.smoker(B, cell("G7")) == OK
    put(g, A, 21, "G9")
    assert g.seat_to_play() == 3
    build(g, A, 7)  # A3, the keeper
    refused(g, SPECIAL_USED, g.smoker, B, cell("G9"))  # B3
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")  # A1: the builders' next turn
    assert g.smoker(B, cell("G9")) == OK  # B1


def test_the_larger_team_gets_a_played_special_back_too():
    """§4 excess penalty, §5: the single player's reserve gives the larger team
    a played special back."""
    g = builders(TWO_VS_ONE, A, 7, B)  # B, the single player, builds
    assert g.smoker(A, cell("G7")) == OK  # A1
    put(g, B, 21, "G9")
    build(g, B, 7)  # B1
    refused(g, SPECIAL_USED, g.smoker, A, cell("G9"))  # A2
    play(g, A, 1, "I7")
    play(g, B, 0, "A1")  # B1 again: the builders' next turn
    assert g.smoker(A, cell("G9")) == OK


def test_refuel_the_smaller_team_takes_the_beekeeper_it_never_had():
    """§5 refuel, D-11: the smaller team may take back its removed Beekeeper."""
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
    """§5 refuel, D-11: or its removed second Rain (3v2); one special only."""
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


def test_refuel_or_a_played_special_instead():
    """§5 refuel, D-11: or a played special instead; one special only."""
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


# §4 End: as in §3.3, with the reserve deck (D-10).


def stuck_team_a(ply):
    """Team A has all its cards on the board (rows A-D, E1-E4, and a lone
    card 30 on I9); B plays a turn, then A's seat ply+1 is to play."""
    g = new(SILENT_SWARM)
    for k in range(30):
        put(g, A, k, k)
    put(g, A, 30, "I9")
    set_ply(g, ply)
    play(g, B, 0, "G5")
    return g


def test_a_stuck_keeper_still_has_its_reserve():
    """§4 End and D-10: a team whose keeper is next, with every card on the
    board, is not out of moves: the keeper declares and builds the reserve."""
    g = stuck_team_a(3)  # A1, the keeper, comes next: the reserve is a move
    assert not g.over() and g.seat_to_play() == 1
    assert g.deck_empty(A) == OK
    assert g.reserve(A, cells("I9")) == OK


def test_deck_empty_after_the_reserve_ends_the_game_by_count():
    """§4 End and D-10: once the reserve is built, the team's next deck-empty
    (the reserve ran out) ends the game by the D-6 count."""
    g = swarm()
    g.deck_empty(A)
    assert g.reserve(A, cells("A1")) == OK
    assert g.deck_empty(A) == OK and g.over() == CARDS_OUT  # the reserve ran out
    assert g.count_runs(A) == g.count_runs(B) == (0, 0) and g.winner() == DRAW


def test_deck_empty_twice_before_the_reserve_is_refused():
    """D-10: the count waits for the reserve; declaring the deck empty again
    before the keeper has built it ends nothing (bad-target)."""
    g = swarm()
    assert g.deck_empty(A) == OK and not g.over()
    refused(g, BAD_TARGET, g.deck_empty, A)


def test_special_then_place_no_reserve_while_a_placement_is_due():
    """§4 and D-2 special_then_place: the keeper A1 plays a Smoker, then A's
    deck is declared empty with A1's placement still due: no reserve in the
    same turn."""
    g = swarm(SILENT_SWARM, True)
    occupy_royal(g, B, 30)
    assert g.smoker(A, cell("I9")) == OK
    g.deck_empty(A)
    refused(g, SPECIAL_USED, g.reserve, A, cells("A1"))


def test_only_a_special_played_when_the_penalty_fell_comes_back_d11():
    """§4 excess penalty, D-11: B had played its Smoker only when the penalty
    fell: a second Smoker is the one special that can come back; the
    Beekeeper B plays afterwards is gone for good ("tra quelle già
    giocate")."""
    g = builders(SILENT_SWARM, B, 7)
    assert g.smoker(B, cell("G7")) == OK
    put(g, A, 21, "G9")
    build(g, A, 7)
    play(g, B, 1, "I7")
    play(g, A, 0, "A1")
    assert g.beekeeper(B, cell("I9"), cell("I8")) == OK  # its own Beekeeper
    play(g, A, 1, "A3")
    refused(g, SPECIAL_USED, g.beekeeper, B, cell("I8"), cell("I9"))  # not a second
    assert g.smoker(B, cell("G9")) == OK  # the Smoker played before the penalty
    play(g, A, 2, "A5")
    refused(g, SPECIAL_USED, g.smoker, B, cell("A5"))  # and no more

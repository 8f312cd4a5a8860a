# RULES.md §4 reserve deck (D-7), excess penalty; §5 the smaller team's refuel.
from apixagon.codes import (
    BAD_TARGET,
    BEEHIVE,
    CARDS_OUT,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    QUEENS_GAMBIT,
    ROYAL_IMMOVABLE,
    SEALED,
    SILENT_SWARM,
    SPECIAL_USED,
    TEEN,
    THREE_VS_TWO,
    TWO_VS_ONE,
)
from apixagon.geometry import NONE
from util import cell, new, occupy_royal, put, put_run, set_ply, state

SPREAD = ("A1", "A3", "A5", "C1", "C4", "C7", "G3", "G6", "G9", "I5", "I7", "I9")


def cells(*names):
    return bytes([cell(n) for n in names])


def swarm():
    """Team A (to play, seat A1 = keeper): an isolated card on A1, a pair on
    D1-D2, a group of three on G4-G5-G6; team B far away. Deck declared."""
    g = new(SILENT_SWARM)
    put(g, 0, 0, "A1")
    put(g, 0, 1, "D1")
    put(g, 0, 2, "D2")
    put(g, 0, 3, "G4")
    put(g, 0, 4, "G5")
    put(g, 0, 5, "G6")
    put(g, 1, 0, "I9")
    return g


def test_reserve_only_after_the_deck_is_declared_empty():
    g = swarm()
    assert g.reserve(0, cells("A1")) == NOT_ALLOWED_IN_MODE
    assert g.deck_empty(0) == OK
    assert g.side_to_play() == 0  # a declaration takes no turn
    assert g.check_reserve(0, cells("A1")) == OK


def test_reserve_not_in_queens_gambit_or_teen():
    for mode in (QUEENS_GAMBIT, TEEN):
        g = new(mode)
        put(g, 0, 0, "A1")
        assert g.reserve(0, cells("A1")) == NOT_ALLOWED_IN_MODE


def test_isolated_cards_and_pairs_but_no_larger_group():
    g = swarm()
    g.deck_empty(0)
    assert g.check_reserve(0, cells("A1", "D1", "D2")) == OK
    assert g.check_reserve(0, cells("G4")) == BAD_TARGET
    # D-7: judged on the board as it stood: lifting G4 does not make G5 a pair.
    assert g.check_reserve(0, cells("G4", "G5")) == BAD_TARGET
    assert g.check_reserve(0, cells("A1", "A1")) == BAD_TARGET
    assert g.check_reserve(0, cells("I9")) == BAD_TARGET  # opponent's card
    assert g.check_reserve(0, cells("B4")) == BAD_TARGET  # free cell


def test_no_specials_sealed_or_royal_cards():
    g = swarm()
    put(g, 0, 31, "C6")  # an own Rain
    assert len(put_run(g, 0, 26, ("H5", "H6", "H7", "H8"), (0, 1, 2, 3, 4, 5))) == 4  # sealed
    occupy_royal(g, 0, 30)
    g.deck_empty(0)
    assert g.check_reserve(0, cells("C6")) == BAD_TARGET
    assert g.check_reserve(0, cells("H6")) == SEALED
    assert g.check_reserve(0, cells("E5")) == ROYAL_IMMOVABLE


def test_an_own_rain_counts_in_the_group():
    g = swarm()
    put(g, 0, 31, "B1")  # A1 + Rain B1 + ... is now a group of 2
    g.deck_empty(0)
    assert g.check_reserve(0, cells("A1")) == OK
    put(g, 0, 6, "C1")  # A1, B1 (Rain), C1: a group of 3
    assert g.check_reserve(0, cells("A1")) == BAD_TARGET


def test_only_the_keeper_builds_it():
    g = swarm()
    g.deck_empty(0)
    set_ply(g, 2)  # A2 to play
    assert g.reserve(0, cells("A1")) == NOT_YOUR_TURN
    g = new(BEEHIVE)
    put(g, 0, 0, "A1")
    g.deck_empty(0)
    assert g.reserve(0, cells("A1")) == NOT_YOUR_TURN  # A1 is not the keeper
    set_ply(g, 4)  # A3
    assert g.reserve(0, cells("A1")) == OK
    for mode, side, keeper in ((TWO_VS_ONE, 0, 1), (THREE_VS_TWO, 0, 3), (THREE_VS_TWO, 1, 1)):
        assert new(mode).keeper(side) == keeper


def test_reserve_is_the_whole_turn_once_per_game():
    g = swarm()
    g.deck_empty(0)
    assert g.reserve(0, cells("A1", "D1", "D2")) == OK
    assert g.where(0, 0) == NONE and g.where(0, 1) == NONE
    assert not g.board[cell("A1")] and g.reserve_used(0)
    assert g.side_to_play() == 1
    assert g.place(1, 1, cell("I7")) == OK
    assert g.place(0, 0, cell("A1")) == OK  # recovered cards are played again
    assert g.place(1, 2, cell("I5")) == OK
    assert g.seat_to_play() == 1  # the keeper again
    assert g.reserve(0, cells("A1")) == SPECIAL_USED
    assert g.deck_empty(0) == OK and g.over() == CARDS_OUT  # the reserve ran out


def excess(mode):
    """Team A builds a reserve of 7 cards; team B's Smoker was already used."""
    g = new(mode)
    occupy_royal(g, 1, 30)
    for k in range(7):
        put(g, 0, k, SPREAD[k])
    put(g, 1, 0, "E1")
    g.s[8] = 0  # team B's Smoker: played earlier
    g.deck_empty(0)
    assert g.reserve(0, cells(*SPREAD[:7])) == OK
    return g


def test_excess_penalty_gives_a_played_special_back_later():
    g = excess(SILENT_SWARM)
    put(g, 0, 20, "A1")
    assert g.smoker(1, cell("A1")) == SPECIAL_USED  # not before A's next turn
    assert g.place(1, 1, cell("E9")) == OK
    assert g.place(0, 21, cell("A3")) == OK  # A2: the builders' next turn
    before = state(g)
    assert g.smoker(1, cell("A1")) == OK  # the penalty special
    assert g.undo() and state(g) == before
    assert g.smoker(1, cell("A1")) == OK
    assert g.place(0, 22, cell("C1")) == OK
    assert g.smoker(1, cell("A3")) == SPECIAL_USED  # only one comes back


def test_no_penalty_for_six_cards():
    g = new(SILENT_SWARM)
    occupy_royal(g, 1, 30)
    for k in range(6):
        put(g, 0, k, SPREAD[k])
    g.s[8] = 0
    g.deck_empty(0)
    assert g.reserve(0, cells(*SPREAD[:6])) == OK
    put(g, 0, 20, "A1")
    assert g.place(1, 1, cell("E9")) == OK
    assert g.place(0, 21, cell("A3")) == OK
    assert g.smoker(1, cell("A1")) == SPECIAL_USED


def test_smaller_team_may_take_the_beekeeper_it_never_had():
    g = excess(TWO_VS_ONE)
    put(g, 0, 20, "A1")
    assert g.place(1, 1, cell("E9")) == OK
    assert g.place(0, 21, cell("A3")) == OK
    assert g.beekeeper(1, cell("E9"), cell("C4")) == OK

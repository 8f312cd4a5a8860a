# RULES.md §4 reserve deck (D-7) and the deck-empty declaration. The reason
# codes are the core's decisions: not a reserve mode or deck not declared
# empty -> not-allowed-in-mode; already built -> special-used; not the
# keeper -> not-your-turn; a wrong cell or a group of 3+ -> bad-target.
# Excess penalty and §5 refuel: test_reserve_penalty.
from apixagon.codes import (
    BAD_CELL,
    BAD_TARGET,
    BEEHIVE,
    CARDS_OUT,
    DECK_EMPTY,
    DRAW,
    EXHAUSTED,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    QUEENS_GAMBIT,
    RESERVE,
    ROYAL_IMMOVABLE,
    SEALED,
    SILENT_SWARM,
    SPECIAL_USED,
    TEEN,
    THREE_VS_TWO,
    TWO_VS_ONE,
)
from apixagon.geometry import NONE, ROYAL
from util import cell, cells, new, occupy_royal, play, put, put_run, refused, set_ply, state

A, B = 0, 1


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


def test_deck_empty_opens_the_reserve_and_takes_no_turn():
    g = swarm()
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, A, cells("A1"))  # not declared
    assert g.deck_empty(A) == OK
    assert g.deck_declared_empty(A) and not g.deck_declared_empty(B)
    assert g.ply() == 0 and g.side_to_play() == A and not g.over()
    assert g.check_reserve(A, cells("A1")) == OK
    assert g.undo() == DECK_EMPTY and not g.deck_declared_empty(A)
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, A, cells("A1"))


def test_reserve_refused_outside_the_silent_team_modes():
    for mode in (QUEENS_GAMBIT, TEEN):
        g = new(mode)
        put(g, A, 0, "A1")
        refused(g, NOT_ALLOWED_IN_MODE, g.reserve, A, cells("A1"))
    g = new(JUNIOR)
    play(g, NONE, 0, ROYAL)
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, NONE, cells("E5"))


def test_lone_cards_and_pairs_may_be_taken_back():
    g = swarm()
    g.deck_empty(A)
    for group in (("A1",), ("D1",), ("D2",), ("D1", "D2"), ("A1", "D2", "D1")):
        assert g.check_reserve(A, cells(*group)) == OK, group


def test_groups_of_three_may_not_d7():
    g = swarm()
    g.deck_empty(A)
    for name in ("G4", "G5", "G6"):
        refused(g, BAD_TARGET, g.reserve, A, cells(name))
    # D-7: judged as the board stood; taking G4 does not make G5-G6 a pair.
    refused(g, BAD_TARGET, g.reserve, A, cells("G4", "G5"))
    refused(g, BAD_TARGET, g.reserve, A, cells("A1", "G6"))  # all or nothing


def test_bad_targets():
    g = swarm()
    put(g, A, 31, "A5")  # an own Rain
    g.deck_empty(A)
    refused(g, BAD_TARGET, g.reserve, A, b"")  # nothing taken
    refused(g, BAD_TARGET, g.reserve, A, cells("A3"))  # free cell
    refused(g, BAD_TARGET, g.reserve, A, cells("I9"))  # opponent's card
    refused(g, BAD_TARGET, g.reserve, A, cells("A5"))  # a special
    refused(g, BAD_TARGET, g.reserve, A, cells("A1", "A1"))  # twice
    refused(g, BAD_CELL, g.reserve, A, bytes([61]))
    refused(g, BAD_CELL, g.reserve, A, bytes([0, 255]))


def test_an_own_rain_counts_in_the_group():
    g = swarm()
    put(g, A, 31, "B1")  # A1 + Rain: a group of 2
    g.deck_empty(A)
    assert g.check_reserve(A, cells("A1")) == OK
    put(g, A, 6, "C1")  # A1, B1, C1: a group of 3
    refused(g, BAD_TARGET, g.reserve, A, cells("A1"))


def test_no_sealed_or_royal_card():
    g = swarm()
    put_run(g, A, 26, ("H5", "H6", "H7", "H8"), list(range(7)))
    occupy_royal(g, A, 20)
    g.deck_empty(A)
    refused(g, SEALED, g.reserve, A, cells("H6"))
    refused(g, ROYAL_IMMOVABLE, g.reserve, A, cells("E5"))


def test_only_the_keeper_of_the_team_to_play():
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
    g = swarm()
    g.deck_empty(A)
    assert g.reserve(A, cells("A1")) == OK
    play(g, B, 1, "I7")
    play(g, A, 0, "A3")
    play(g, B, 2, "I5")
    assert g.seat_to_play() == 1  # the keeper again
    refused(g, SPECIAL_USED, g.reserve, A, cells("A3"))


def test_deck_empty_a_second_time_ends_the_game():
    g = swarm()
    assert g.deck_empty(A) == OK and not g.over()
    assert g.deck_empty(A) == OK and g.over() == CARDS_OUT  # no reserve built
    g = swarm()
    g.deck_empty(A)
    assert g.reserve(A, cells("A1")) == OK
    assert g.deck_empty(A) == OK and g.over() == CARDS_OUT  # the reserve ran out
    assert g.count_runs(A) == g.count_runs(B) == (0, 0) and g.winner() == DRAW


def test_deck_empty_ends_teen_and_the_queens_gambit_at_once():
    for mode in (QUEENS_GAMBIT, TEEN):
        g = new(mode)
        assert g.deck_empty(B) == OK and g.over() == CARDS_OUT
    g = new(JUNIOR)
    refused(g, NOT_ALLOWED_IN_MODE, g.deck_empty, NONE)


def test_special_then_place_no_reserve_while_a_placement_is_due():
    g = swarm(SILENT_SWARM, True)
    occupy_royal(g, B, 30)
    g.deck_empty(A)
    assert g.smoker(A, cell("I9")) == OK
    refused(g, SPECIAL_USED, g.reserve, A, cells("A1"))


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


def test_exhaustion_counts_the_reserve_only_for_the_keeper():
    g = stuck_team_a(3)  # A1, the keeper, comes next: the reserve is a move
    assert not g.over() and g.seat_to_play() == 1
    assert g.deck_empty(A) == OK
    assert g.reserve(A, cells("I9")) == OK
    g = stuck_team_a(1)  # A2 comes next: stuck
    assert g.over() == EXHAUSTED

# RULES.md §3.3: the end of the game (two sequences of 4, exhaustion, D-6).
from apixagon.codes import CARDS_OUT, DRAW, EXHAUSTED, GAME_OVER, OK, TWO_SEQUENCES
from apixagon.deck import symbols
from apixagon.geometry import NCELLS
from util import cell, new, occupy_royal, put, put_run, set_ply, state, with_sym


def test_second_sequence_of_4_ends_the_game_at_once():
    g = new()
    first = put_run(g, 0, 5, ("G4", "G5", "G6", "G7"))
    second = put_run(g, 0, 1, ("B1", "B2", "B3"), first)
    assert g.count_runs(0) == (2, 1) and not g.over()
    last = with_sym(1, first + second)[0]
    assert g.place(0, last, cell("B4")) == OK
    assert g.over() == TWO_SEQUENCES and g.winner() == 0
    assert g.place(1, 3, cell("I9")) == GAME_OVER
    assert g.deck_empty(1) == GAME_OVER
    assert g.undo()  # a take-back reopens the game
    assert not g.over() and g.side_to_play() == 0


def test_one_sequence_of_4_does_not_end_it():
    g = new()
    cards = put_run(g, 0, 5, ("G4", "G5", "G6"))
    assert g.place(0, with_sym(5, cards)[0], cell("G7")) == OK
    assert not g.over() and g.count_runs(0) == (1, 1)


def test_a_run_of_5_is_still_one_sequence_d1():
    g = new()
    cards = put_run(g, 0, 5, ("G4", "G5", "G6", "G7"))
    assert g.place(0, with_sym(5, cards)[0], cell("G8")) == OK
    assert not g.over() and g.count_runs(0) == (1, 1)


def test_two_sequences_sharing_one_card_win_d1():
    hinge = 12
    s, t = symbols(hinge)[0], symbols(hinge)[1]
    g = new()
    put(g, 0, hinge, "D4")
    row = put_run(g, 0, s, ("D1", "D2", "D3"), (hinge,))
    up = with_sym(t, row + [hinge])[:2]  # D4 -> E4 -> F4 -> G4 (i+1, c)
    put(g, 0, up[0], "E4")
    put(g, 0, up[1], "F4")
    assert not g.over()
    last = with_sym(t, row + up + [hinge])[0]
    assert g.place(0, last, cell("G4")) == OK
    assert g.over() == TWO_SEQUENCES and g.winner() == 0


def fill_black(g):
    """All 31 black cards on the board: black has nothing left to place."""
    free = [x for x in range(NCELLS) if not g.board[x] and x != 30]
    for k in range(31):
        g.board[free[k]] = 1 + k
        g.loc[k] = free[k] + 1
    return free[31:]


def test_exhaustion_ends_the_game_with_the_d6_count():
    g = new()
    rest = fill_black(g)
    set_ply(g, 1)  # gold plays; then black, with nothing to play, is stuck
    assert g.place(1, 0, rest[-1]) == OK
    assert g.over() == EXHAUSTED
    b3 = g.count_runs(0)[0]
    assert b3 > 0 and g.winner() == 0  # black has the sequences of 3


def test_no_exhaustion_while_a_special_is_usable():
    g = new()
    occupy_royal(g, 1, 30)
    rest = fill_black(g)
    set_ply(g, 1)
    assert g.place(1, 0, rest[-1]) == OK
    assert not g.over()  # black can still play its Smoker
    assert g.smoker(0, rest[-1]) == OK


def test_declared_run_out_ends_the_queens_gambit():
    g = new()
    put_run(g, 1, 5, ("G4", "G5", "G6"))
    assert g.deck_empty(0) == OK
    assert g.over() == CARDS_OUT and g.winner() == 1


def test_d6_tie_break_then_draw():
    g = new()
    put_run(g, 0, 5, ("G4", "G5", "G6", "G7"))
    put_run(g, 1, 1, ("B1", "B2", "B3"))
    assert g.deck_empty(1) == OK
    assert g.winner() == 0  # 1 to 1 in threes, 1 to 0 in fours
    g = new()
    put_run(g, 0, 5, ("G4", "G5", "G6"))
    put_run(g, 1, 1, ("B1", "B2", "B3"))
    assert g.deck_empty(0) == OK
    assert g.winner() == DRAW


def test_game_over_changes_nothing():
    g = new()
    assert g.deck_empty(0) == OK
    before = state(g)
    assert g.place(0, 1, cell("A1")) == GAME_OVER
    assert g.forced_removal(0) == GAME_OVER
    assert state(g) == before

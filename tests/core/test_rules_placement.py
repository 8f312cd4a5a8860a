# RULES.md §2 (runs, sequences, D-1) and §3 placement rules 1-4 (D-3, D-4).
from apixagon.codes import (
    ADJACENT_OPPONENT,
    CARD_ALREADY_PLAYED,
    NOT_YOUR_TURN,
    OCCUPIED,
    OK,
    ROYAL_LOCKED,
    UNKNOWN_CARD,
)
from apixagon.deck import symbols
from apixagon.geometry import NCELLS, ROYAL
from util import cell, new, put, put_run, set_ply, state, with_sym, without_sym

S = 0  # a symbol used for the runs below


def black_pair():
    """Black run C2-C3 carrying S, gold to play (§2: a run of 2)."""
    g = new()
    cards = put_run(g, 0, S, ("C2", "C3"))
    set_ply(g, 1)
    return g, cards


def test_first_card_anywhere_but_the_royal_cell():
    for x in range(NCELLS):
        g = new()
        want = ROYAL_LOCKED if x == ROYAL else OK
        assert g.place(0, 5, x) == want


def test_isolated_placement_is_legal_d3():
    g, cards = black_pair()
    assert g.place(1, without_sym(S)[0], cell("G5")) == OK


def test_beside_own_cards_any_card_rule3():
    g = new()
    put(g, 0, with_sym(S)[0], "C2")
    assert g.place(0, without_sym(S)[0], cell("B2")) == OK


def test_beside_an_opponent_without_a_run_is_illegal():
    # The manual's second picture: a single card is no sequence to block.
    g = new()
    put(g, 0, 3, "C2")
    set_ply(g, 1)
    for k in range(31):
        if k != 3:
            assert g.check_place(1, k, cell("C3")) == ADJACENT_OPPONENT
    before = state(g)
    assert g.place(1, 4, cell("C3")) == ADJACENT_OPPONENT
    assert state(g) == before  # an illegal move changes nothing


def test_block_needs_the_runs_symbol():
    g, cards = black_pair()
    blocker = with_sym(S, cards)[0]
    wrong = without_sym(S)[0]  # shares another symbol with them (the Raccoon case)
    assert g.check_place(1, wrong, cell("C4")) == ADJACENT_OPPONENT
    assert g.check_place(1, wrong, cell("C1")) == ADJACENT_OPPONENT
    assert g.place(1, blocker, cell("C4")) == OK


def test_block_only_at_an_open_end_along_the_axis():
    g, cards = black_pair()
    blocker = with_sym(S, cards)[0]
    # D3 and B3 touch both cards but lie off the run's axis.
    assert g.check_place(1, blocker, cell("D3")) == ADJACENT_OPPONENT
    assert g.check_place(1, blocker, cell("B3")) == ADJACENT_OPPONENT


def test_extension_beside_an_opponent_d4():
    g, cards = black_pair()
    put(g, 1, without_sym(S)[0], "D5")  # gold touches C4, the open end
    set_ply(g, 2)
    assert g.check_place(0, without_sym(S, cards)[1], cell("C4")) == ADJACENT_OPPONENT
    assert g.check_place(0, without_sym(S, cards)[1], cell("C5")) == ADJACENT_OPPONENT
    assert g.place(0, with_sym(S, cards)[0], cell("C4")) == OK


def test_rain_counts_as_its_owners_card():
    g = new()
    put(g, 1, 31, "H6")  # a gold Rain
    for k in range(31):
        assert g.check_place(0, k, cell("H7")) == ADJACENT_OPPONENT
    assert g.check_place(0, 0, cell("G4")) == OK


def test_occupied_already_played_turn_and_card():
    g, cards = black_pair()
    assert g.place(1, 9, cell("C2")) == OCCUPIED
    assert g.place(0, 9, cell("H5")) == NOT_YOUR_TURN
    assert g.place(1, 31, cell("H5")) == UNKNOWN_CARD
    assert g.place(1, 9, cell("H5")) == OK
    assert g.place(0, cards[0], cell("A1")) == CARD_ALREADY_PLAYED
    assert g.place(0, 9, cell("A1")) == OK  # each side has its own card 9
    assert g.place(1, 9, cell("I9")) == CARD_ALREADY_PLAYED


def test_runs_on_each_axis_count_as_sequences():
    for cells in (("C2", "C3", "C4"), ("C2", "D3", "E4"), ("C2", "D2", "E2")):
        g = new()
        put_run(g, 0, S, cells)
        assert g.count_runs(0) == (1, 0), cells
        assert g.count_runs(1) == (0, 0)
        for name in cells:
            assert g.run_length_through(cell(name)) == 3


def test_a_run_is_same_side_consecutive_and_sharing():
    g = new()
    cards = with_sym(S)
    put(g, 0, cards[0], "C2")
    put(g, 1, cards[1], "C3")  # an opponent card breaks the line
    put(g, 0, cards[2], "C4")
    assert g.count_runs(0) == (0, 0)
    g = new()
    put(g, 0, cards[0], "C2")
    put(g, 0, 31, "C3")  # a Rain carries no symbol: it ends a run
    put(g, 0, cards[2], "C4")
    assert g.count_runs(0) == (0, 0)
    assert g.run_length_through(cell("C3")) == 0


def test_distinct_sequences_share_a_card_d1():
    g = new()
    cards = put_run(g, 0, S, ("C2", "C3", "C4"))
    x = cards[0]  # card on C2 also starts a run of another symbol up an axis
    t = [s for s in symbols(x) if s != S][0]
    for k, name in zip(with_sym(t, cards), ("D2", "E2")):
        put(g, 0, k, name)
    assert g.count_runs(0) == (2, 0)


def test_same_line_two_symbols_are_two_runs_d1():
    hinge = 12
    s1, s2 = symbols(hinge)[0], symbols(hinge)[1]
    g = new()
    a = with_sym(s1, (hinge,))[:2]
    b = with_sym(s2, (hinge,) + tuple(a))[:2]
    put(g, 0, a[0], "D1")
    put(g, 0, a[1], "D2")
    put(g, 0, hinge, "D3")
    put(g, 0, b[0], "D4")
    put(g, 0, b[1], "D5")
    assert g.count_runs(0) == (2, 0)


def test_a_run_of_five_is_one_sequence():
    g = new()
    put_run(g, 0, S, ("D1", "D2", "D3", "D4", "D5"))
    assert g.count_runs(0) == (1, 1)
    assert g.is_sealed(cell("D1")) and g.is_sealed(cell("D5"))


def test_sealing_needs_four():
    g = new()
    put_run(g, 0, S, ("D1", "D2", "D3"))
    assert not g.is_sealed(cell("D2"))
    put(g, 0, with_sym(S)[3], "D4")
    assert g.is_sealed(cell("D2")) and g.is_sealed(cell("D4"))

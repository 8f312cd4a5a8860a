# RULES.md §3.1: the Royal Cell, D-5.
from apixagon.codes import OK, ROYAL_IMMOVABLE, ROYAL_LOCKED, SPECIALS_LOCKED
from apixagon.geometry import ROYAL
from util import cell, mark_had3, new, put, put_run, set_ply, with_sym, without_sym

S = 0


def three_by_real_turns():
    """Black builds a sequence of 3 on C2-C4 by real turns, gold plays far."""
    g = new()
    black = with_sym(S)[:3]
    gold = [k for k in range(31)][:3]
    for b, gcard, bc, gc in zip(black, gold, ("C2", "C3", "C4"), ("I5", "I7", "I9")):
        assert g.place(0, b, cell(bc)) == OK
        assert g.place(1, gcard, cell(gc)) == OK
    return g


def test_royal_locked_without_a_sequence_of_3():
    g = new()
    assert g.place(0, 0, ROYAL) == ROYAL_LOCKED
    put_run(g, 0, S, ("C2", "C3"))
    assert g.check_place(0, 7, ROYAL) == ROYAL_LOCKED


def test_royal_on_a_later_turn_after_a_sequence_of_3():
    g = three_by_real_turns()
    assert g.had_three(0) and not g.had_three(1)
    assert g.check_place(0, 20, ROYAL) == OK
    assert not g.royal_allowed(1)  # gold never had one


def test_not_in_the_turn_the_three_is_made():
    # The flag is set at the end of the turn: a 3 that exists on the board
    # without having been there at the end of an own turn does not count.
    g = new()
    put_run(g, 0, S, ("C2", "C3", "C4"))
    assert g.check_place(0, 20, ROYAL) == ROYAL_LOCKED


def test_d5_only_while_the_sequence_of_3_is_still_there():
    g = new()
    mark_had3(g, 0)
    assert g.check_place(0, 20, ROYAL) == ROYAL_LOCKED  # the 3 is gone
    put_run(g, 0, S, ("C2", "C3", "C4"))
    assert g.check_place(0, 20, ROYAL) == OK


def test_royal_ignores_rule_4_and_takes_any_card():
    g = three_by_real_turns()
    put(g, 1, without_sym(S)[5], "E6")  # gold touches the Royal Cell
    put(g, 1, without_sym(S)[6], "D4")
    for k in range(31):
        if g.where(0, k) == 255:
            assert g.check_place(0, k, ROYAL) == OK


def test_royal_ends_the_turn_and_unlocks_specials_for_both():
    g = three_by_real_turns()
    assert g.rain(0, cell("I8")) == SPECIALS_LOCKED
    assert g.place(0, 20, ROYAL) == OK
    assert g.specials_unlocked()
    assert g.side_to_play() == 1  # the opponent is the first who may use one
    assert g.smoker(1, cell("C2")) == OK


def test_royal_card_is_immovable_and_counts_in_runs():
    g = new()
    cards = put_run(g, 0, S, ("E3", "E4", "E5"))  # the last on the Royal Cell
    assert g.count_runs(0) == (1, 0)
    put(g, 1, 30 if 30 not in cards else 29, "A1")
    set_ply(g, 1)
    assert g.check_smoker(1, ROYAL) == ROYAL_IMMOVABLE
    assert g.check_beekeeper(1, ROYAL, cell("H5")) == ROYAL_IMMOVABLE
    set_ply(g, 2)
    assert g.check_beekeeper(0, ROYAL, cell("H5")) == ROYAL_IMMOVABLE

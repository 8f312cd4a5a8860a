# RULES.md §3.1: the Royal Cell, D-5.
from apixagon.codes import OK, ROYAL_IMMOVABLE, ROYAL_LOCKED, SPECIALS_LOCKED
from apixagon.geometry import ROYAL
from rulekit import c, carrying, game, had_three, not_carrying, put, run, set_ply

S = 0


def three_by_real_turns():
    """Black builds a sequence of 3 on C2-C4 by real turns, gold plays far."""
    g = game()
    black = carrying(S)[:3]
    gold = [k for k in range(31)][:3]
    for b, gcard, bc, gc in zip(black, gold, ("C2", "C3", "C4"), ("I5", "I7", "I9")):
        assert g.place(0, b, c(bc)) == OK
        assert g.place(1, gcard, c(gc)) == OK
    return g


def test_royal_locked_without_a_sequence_of_3():
    g = game()
    assert g.place(0, 0, ROYAL) == ROYAL_LOCKED
    run(g, 0, S, ("C2", "C3"))
    assert g.check_place(0, 7, ROYAL) == ROYAL_LOCKED


def test_royal_on_a_later_turn_after_a_sequence_of_3():
    g = three_by_real_turns()
    assert g.had_three(0) and not g.had_three(1)
    assert g.check_place(0, 20, ROYAL) == OK
    assert not g.royal_allowed(1)  # gold never had one


def test_not_in_the_turn_the_three_is_made():
    # The flag is set at the end of the turn: a 3 that exists on the board
    # without having been there at the end of an own turn does not count.
    g = game()
    run(g, 0, S, ("C2", "C3", "C4"))
    assert g.check_place(0, 20, ROYAL) == ROYAL_LOCKED


def test_d5_only_while_the_sequence_of_3_is_still_there():
    g = game()
    had_three(g, 0)
    assert g.check_place(0, 20, ROYAL) == ROYAL_LOCKED  # the 3 is gone
    run(g, 0, S, ("C2", "C3", "C4"))
    assert g.check_place(0, 20, ROYAL) == OK


def test_royal_ignores_rule_4_and_takes_any_card():
    g = three_by_real_turns()
    put(g, 1, not_carrying(S)[5], "E6")  # gold touches the Royal Cell
    put(g, 1, not_carrying(S)[6], "D4")
    for k in range(31):
        if g.where(0, k) == 255:
            assert g.check_place(0, k, ROYAL) == OK


def test_royal_ends_the_turn_and_unlocks_specials_for_both():
    g = three_by_real_turns()
    assert g.rain(0, c("I8")) == SPECIALS_LOCKED
    assert g.place(0, 20, ROYAL) == OK
    assert g.specials_unlocked()
    assert g.side_to_play() == 1  # the opponent is the first who may use one
    assert g.smoker(1, c("C2")) == OK


def test_royal_card_is_immovable_and_counts_in_runs():
    g = game()
    cards = run(g, 0, S, ("E3", "E4", "E5"))  # the last on the Royal Cell
    assert g.count_runs(0) == (1, 0)
    put(g, 1, 30 if 30 not in cards else 29, "A1")
    set_ply(g, 1)
    assert g.check_smoker(1, ROYAL) == ROYAL_IMMOVABLE
    assert g.check_beekeeper(1, ROYAL, c("H5")) == ROYAL_IMMOVABLE
    set_ply(g, 2)
    assert g.check_beekeeper(0, ROYAL, c("H5")) == ROYAL_IMMOVABLE

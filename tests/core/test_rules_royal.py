# RULES.md §3.1: the Royal Cell (§3 rule 1, D-5), the Royal card, and the
# unlocking of the specials.
from apixagon.codes import (
    ADJACENT_OPPONENT,
    BEEKEEPER,
    NOT_YOUR_TURN,
    OCCUPIED,
    OK,
    RAIN_MOVE,
    ROYAL_IMMOVABLE,
    ROYAL_LOCKED,
    SMOKER,
    SPECIALS_LOCKED,
)
from apixagon.geometry import ROYAL
from util import (
    cell,
    mark_had3,
    new,
    play,
    put,
    put_run,
    refused,
    set_ply,
    state,
    with_sym,
    without_sym,
)

S = 5  # black's run symbol


def three_by_turns():
    """Black builds G4-G5-G6 on S by real turns; gold plays far away. Gold
    to play after black's third card."""
    g = new()
    cards = with_sym(S)[:3]
    play(g, 0, cards[0], "G4")
    play(g, 1, 1, "A1")
    play(g, 0, cards[1], "G5")
    play(g, 1, 2, "A3")
    assert not g.royal_allowed(0)
    play(g, 0, cards[2], "G6")
    return g, cards


def test_rule1_royal_cell_locked_at_the_start():
    """§3 rule 1: the Royal Cell is locked at the start, and beside a mere run of 2."""
    g = new()
    for k in range(31):
        assert g.check_place(0, k, ROYAL) == ROYAL_LOCKED
    refused(g, ROYAL_LOCKED, g.place, 0, 0, ROYAL)
    cards = put_run(g, 0, S, ("C2", "C3"))
    refused(g, ROYAL_LOCKED, g.place, 0, without_sym(S, cards)[0], ROYAL)


def test_sequence_of_3_opens_it_from_the_next_own_turn():
    """§3.1: a sequence of 3 at the end of an own turn opens the Royal Cell on a
    later own turn, for any normal card."""
    g, cards = three_by_turns()
    assert g.had_three(0) and g.count_runs(0) == (1, 0)
    refused(g, NOT_YOUR_TURN, g.place, 0, 9, ROYAL)
    play(g, 1, 3, "A5")
    assert g.royal_allowed(0)
    for k in without_sym(S, cards):
        assert g.check_place(0, k, ROYAL) == OK  # any normal card
    play(g, 0, without_sym(S, cards)[0], ROYAL)
    assert g.owner(ROYAL) == 0


def test_a_sequence_not_there_at_the_end_of_an_own_turn_does_not_count():
    """§3.1: the sequence of 3 must be there at the end of one of the side's turns."""
    # The run was put on the board without black ending a turn with it.
    g = new()
    cards = put_run(g, 0, S, ("G4", "G5", "G6"))
    assert g.count_runs(0) == (1, 0) and not g.had_three(0)
    refused(g, ROYAL_LOCKED, g.place, 0, without_sym(S, cards)[0], ROYAL)
    play(g, 0, without_sym(S, cards)[0], "A1")  # a turn ends with the run
    assert g.had_three(0)
    play(g, 1, 1, "I9")
    assert g.check_place(0, without_sym(S, cards)[1], ROYAL) == OK


def test_the_other_side_still_locked_out():
    """§3.1: only the side that had the sequence of 3 (NOTATION royal-locked)."""
    # The manual's Verdi: the same card on the centre, without their own 3.
    g, cards = three_by_turns()
    assert not g.royal_allowed(1)
    for k in range(4, 31):
        assert g.check_place(1, k, ROYAL) == ROYAL_LOCKED
    refused(g, ROYAL_LOCKED, g.place, 1, 9, ROYAL)


def test_d5_only_while_a_sequence_of_3_remains():
    """§3.1, D-5: only while the side still has a sequence of 3 (any one)."""
    g = new()
    cards = put_run(g, 0, S, ("G4", "G5", "G6"))
    mark_had3(g, 0)
    assert g.check_place(0, 20, ROYAL) == OK
    g.board[cell("G5")] = 0  # the run is broken (as by a removal)
    g.loc[cards[1]] = 0
    assert g.count_runs(0) == (0, 0)
    refused(g, ROYAL_LOCKED, g.place, 0, 20, ROYAL)
    other = put_run(g, 0, 26, ("B1", "B2", "B3"), cards)  # another 3
    assert g.count_runs(0)[0] == 1
    assert g.check_place(0, without_sym(26, other + cards)[0], ROYAL) == OK


def test_royal_placement_ignores_rule_4():
    """§3.1: any normal card on the Royal Cell, ignoring rule 4."""
    g, cards = three_by_turns()
    put(g, 1, 7, "E4")  # lone gold cards beside the centre: rule 4 would
    put(g, 1, 8, "F6")  # forbid any card there
    play(g, 1, 3, "A5")
    k = without_sym(S, cards)[0]
    assert g.check_place(0, k, cell("D4")) == ADJACENT_OPPONENT
    for c in range(31):
        if g.where(0, c) == 255:
            assert g.check_place(0, c, ROYAL) == OK  # any card not yet played
    play(g, 0, k, ROYAL)


def test_royal_card_counts_in_runs():
    """§3.1: the Royal card belongs to its side and counts in runs."""
    g, cards = three_by_turns()
    more = put_run(g, 0, 26, ("E3", "E4"), cards)
    play(g, 1, 3, "A5")
    assert g.count_runs(0) == (1, 0)
    play(g, 0, with_sym(26, cards + more)[0], ROYAL)  # E3-E4-E5 on 26
    assert g.count_runs(0) == (2, 0)
    assert g.run_length_through(ROYAL) == 3


def test_occupied_royal_cell():
    """§3.1 and NOTATION occupied: one card on the Royal Cell for the game."""
    g, cards = three_by_turns()
    play(g, 1, 3, "A5")
    play(g, 0, 20, ROYAL)
    mark_had3(g, 1)
    put_run(g, 1, 0, ("H5", "H6", "H7"), (1, 2, 3))
    assert g.royal_allowed(1)
    refused(g, OCCUPIED, g.place, 1, 9, ROYAL)


def test_occupying_ends_the_turn_and_unlocks_the_specials():
    """§3.1: occupying the Royal Cell ends the turn and unlocks the specials for
    both sides, the opponent first (NOTATION specials-locked)."""
    g, cards = three_by_turns()
    play(g, 1, 3, "A5")
    assert not g.specials_unlocked()
    for kind in (RAIN_MOVE, BEEKEEPER, SMOKER):
        assert g.check_special(0, kind) == SPECIALS_LOCKED
    refused(g, SPECIALS_LOCKED, g.smoker, 0, cell("A5"))
    play(g, 0, 20, ROYAL)
    assert g.specials_unlocked() and g.side_to_play() == 1
    for kind in (RAIN_MOVE, BEEKEEPER, SMOKER):
        assert g.check_special(1, kind) == OK  # the opponent first
        assert g.check_special(0, kind) == NOT_YOUR_TURN
    assert g.smoker(1, cell("G4")) == OK
    assert g.check_special(0, SMOKER) == OK  # then the occupant too


def test_royal_card_is_immovable():
    """§3.1, §3.2: the Royal card is immovable (NOTATION royal-immovable)."""
    g, cards = three_by_turns()
    play(g, 1, 3, "A5")
    play(g, 0, 20, ROYAL)
    refused(g, ROYAL_IMMOVABLE, g.smoker, 1, ROYAL)
    refused(g, ROYAL_IMMOVABLE, g.beekeeper, 1, ROYAL, cell("I9"))
    set_ply(g, g.ply() + 1)
    refused(g, ROYAL_IMMOVABLE, g.beekeeper, 0, ROYAL, cell("I9"))
    before = state(g)
    assert g.check_smoker(0, ROYAL) != OK and state(g) == before

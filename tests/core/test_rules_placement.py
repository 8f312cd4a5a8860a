# RULES.md §2 (runs, sequences of 3 and 4, sealing; a card in runs on two
# axes) and §3 placement rules 2-4 (D-3, D-4) with the turn checks every
# placement goes through. Every refusal asserts its NOTATION.md reason code
# and an unchanged position. Rule 1 and §3.1: test_rules_royal; D-1 and
# the D-6 count: test_rules_end.
from apixagon.codes import (
    ADJACENT_OPPONENT,
    BAD_CELL,
    CARD_ALREADY_PLAYED,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OCCUPIED,
    OK,
    ROYAL_LOCKED,
    UNKNOWN_CARD,
)
from apixagon.deck import symbols
from apixagon.geometry import NCELLS, NONE, ROYAL
from util import (
    cell,
    common,
    new,
    play,
    put,
    put_run,
    refused,
    set_ply,
    with_sym,
    without_sym,
)

S = 0  # the symbol of the runs below


def black_pair():
    """Black run C2-C3 on S (§2: a run of 2), gold to play."""
    g = new()
    cards = put_run(g, 0, S, ("C2", "C3"))
    set_ply(g, 1)
    return g, cards


# §2: runs, sequences, sealing.


def test_any_adjacent_pair_is_a_run_of_2():
    """§2 run: any two adjacent cards of one side share one symbol, a run of 2
    (seen through rule 4: the block takes that symbol and no other)."""
    for a, b in ((1, 2), (4, 17), (12, 30), (25, 26), (9, 23)):
        g = new()
        put(g, 0, a, "C2")
        put(g, 0, b, "C3")
        set_ply(g, 1)
        s = common(a, b)
        assert g.check_place(1, with_sym(s)[0], cell("C4")) == OK
        assert g.check_place(1, without_sym(s)[0], cell("C4")) == ADJACENT_OPPONENT


def test_runs_on_each_axis_count_as_sequences():
    """§2 run and sequence of 3: on each of the three axes."""
    for cells in (("C2", "C3", "C4"), ("C2", "D3", "E4"), ("C2", "D2", "E2")):
        g = new()
        put_run(g, 0, S, cells)
        assert g.count_runs(0) == (1, 0), cells
        assert g.count_runs(1) == (0, 0)
        for name in cells:
            assert g.run_length_through(cell(name)) == 3


def test_runs_of_2_3_4_5():
    """§2 sequences of 3 and 4: a run of 2 is neither; a longer run is one
    maximal run (counted once, as D-6 counts)."""
    g = new()
    cards = put_run(g, 0, 5, ("G4", "G5"))
    assert g.count_runs(0) == (0, 0)  # a run of 2 is no sequence
    cards += put_run(g, 0, 5, ("G6",), cards)
    assert g.count_runs(0) == (1, 0)
    cards += put_run(g, 0, 5, ("G7",), cards)
    assert g.count_runs(0) == (1, 1)
    cards += put_run(g, 0, 5, ("G8",), cards)
    assert g.count_runs(0) == (1, 1)  # D-6: a maximal run counts once
    assert g.count_runs(1) == (0, 0)


def test_no_run_without_a_common_symbol_or_a_straight_line():
    """§2 run: all the cards carry one common symbol, on consecutive cells of
    one axis."""
    g = new()
    a, b = 0, 1
    c = without_sym(common(a, b), (a, b))[0]
    for name, k in (("A1", a), ("A2", b), ("A3", c)):
        put(g, 0, k, name)
    assert g.count_runs(0) == (0, 0)  # A1-A2 and A2-A3 share other symbols
    g = new()
    put_run(g, 0, 5, ("C3", "C4", "D5"))  # a bend: C3-C4 along the row, then up
    assert g.count_runs(0) == (0, 0)


def test_gaps_rains_and_the_opponent_end_a_run():
    """§2 run: same side, consecutive cells; a gap, an opponent card (even
    with the symbol) or a Rain (no symbol) ends it."""
    # G6 empty, a black Rain on G6, a gold card carrying the symbol on G6.
    for side, card in ((None, 0), (0, 31), (1, with_sym(5)[0])):
        g = new()
        put_run(g, 0, 5, ("G4", "G5", "G7", "G8"))
        if side is not None:
            put(g, side, card, "G6")
        assert g.count_runs(0) == (0, 0), side
        assert g.run_length_through(cell("G6")) == 0


def test_a_card_in_runs_on_two_axes():
    """§2: a card can be in several runs (different axes)."""
    hinge = 12
    s, t = symbols(hinge)[0], symbols(hinge)[1]
    g = new()
    put(g, 0, hinge, "D4")
    row = put_run(g, 0, s, ("D2", "D3"), (hinge,))
    put_run(g, 0, t, ("E4", "F4"), row + [hinge])  # axis (i+1, c)
    assert g.count_runs(0) == (2, 0)


def test_sealed_cards_are_those_in_a_sequence_of_4():
    """§2 sealed: the cards of a sequence of 4 (or longer), and only those."""
    g = new()
    put_run(g, 0, 5, ("G4", "G5", "G6"))
    put(g, 0, 31, "F4")  # a Rain beside the run
    for name in ("G4", "G5", "G6", "F4"):
        assert not g.is_sealed(cell(name))
    put_run(g, 0, 5, ("G7",), [k for k in range(31) if g.loc[k]])
    for name in ("G4", "G5", "G6", "G7"):
        assert g.is_sealed(cell(name))
    assert not g.is_sealed(cell("F4")) and not g.is_sealed(cell("A1"))
    put_run(g, 0, 5, ("G8",), [k for k in range(31) if g.loc[k]])
    assert g.is_sealed(cell("G8")) and g.is_sealed(cell("G4"))  # a run of 5


# §3 placement rules 2-4 and the turn.


def test_rule2_first_card_anywhere_but_the_royal_cell():
    """§3 rule 2 (and rule 1): the first card goes on any cell but the Royal Cell."""
    for x in range(NCELLS):
        g = new()
        assert g.check_place(0, 7, x) == (ROYAL_LOCKED if x == ROYAL else OK)
    g = new()
    refused(g, ROYAL_LOCKED, g.place, 0, 7, ROYAL)
    play(g, 0, 7, "I9")
    assert g.where(0, 7) == cell("I9") and g.owner(cell("I9")) == 0
    assert g.card_at(cell("I9")) == 7


def test_rule3_d3_isolated_placement_is_legal():
    """§3 rule 3, D-3: a placement touching no card is legal, any card."""
    g, cards = black_pair()
    play(g, 1, without_sym(S)[0], "G5")  # far from black: any card
    play(g, 0, without_sym(S, cards)[0], "A5")  # far from both


def test_rule3_beside_own_cards_any_card():
    """§3 rule 3: beside own cards only, any card is legal."""
    g, cards = black_pair()
    set_ply(g, 2)
    for k in without_sym(S, cards):
        assert g.check_place(0, k, cell("B1")) == OK  # beside C2 only
    play(g, 0, without_sym(S, cards)[0], "C4")  # the open end, a non-extension


def test_rule4_beside_a_lone_opponent_card_is_illegal():
    """§3 rule 4, D-4: beside an opponent card that is in no run, nothing is legal."""
    # The manual's first counter-example: one card is no sequence to block.
    g = new()
    put(g, 0, 3, "C2")
    set_ply(g, 1)
    for k in range(31):
        for name in ("C1", "C3", "B1", "B2", "D2", "D3"):
            assert g.check_place(1, k, cell(name)) == ADJACENT_OPPONENT
    refused(g, ADJACENT_OPPONENT, g.place, 1, 3, cell("C3"))


def test_rule4_block_with_the_runs_symbol():
    """§3 rule 4 block: an open end of an opponent run, with the run's symbol."""
    g, cards = black_pair()
    for k in with_sym(S):
        assert g.check_place(1, k, cell("C4")) == OK
        assert g.check_place(1, k, cell("C1")) == OK
    play(g, 1, with_sym(S)[0], "C4")  # gold's own card 0: decks are separate
    assert g.owner(cell("C4")) == 1


def test_rule4_block_with_a_wrong_symbol_is_illegal():
    """§3 rule 4, D-4: a block without the run's symbol is illegal."""
    # The manual's Raccoon: a symbol shared with the card beside, not the run's.
    g, cards = black_pair()
    for k in without_sym(S):
        assert common(k, cards[1]) != S
        assert g.check_place(1, k, cell("C4")) == ADJACENT_OPPONENT
        assert g.check_place(1, k, cell("C1")) == ADJACENT_OPPONENT
    refused(g, ADJACENT_OPPONENT, g.place, 1, without_sym(S)[0], cell("C4"))


def test_rule4_block_only_on_the_runs_axis():
    """§3 rule 4 and §2 open end: a block only on the run's axis."""
    g, cards = black_pair()
    blocker = with_sym(S)[0]
    for name in ("D3", "D4", "B2", "B3", "D2", "B1"):
        refused(g, ADJACENT_OPPONENT, g.place, 1, blocker, cell(name))


def test_rule4_d4_extension_beside_an_opponent():
    """§3 rule 4 extension, D-4: an open end of an own run, with its symbol,
    beside an opponent card."""
    g, cards = black_pair()
    put(g, 1, 9, "D5")  # gold touches C4, the open end of black's run
    set_ply(g, 2)
    ext = with_sym(S, cards)
    for k in ext:
        assert g.check_place(0, k, cell("C4")) == OK
    for k in without_sym(S, cards):
        assert g.check_place(0, k, cell("C4")) == ADJACENT_OPPONENT
    for k in with_sym(S, cards) + without_sym(S, cards):
        assert g.check_place(0, k, cell("C5")) == ADJACENT_OPPONENT  # no open end
    refused(g, ADJACENT_OPPONENT, g.place, 0, without_sym(S, cards)[0], cell("C4"))
    play(g, 0, ext[0], "C4")
    assert g.count_runs(0) == (1, 0)


def test_rule4_a_lone_own_card_is_no_extension():
    """§3 rule 4 extension and §2: a lone own card, or a line of cards of two
    sides, is no run to extend."""
    g = new()
    put(g, 0, 0, "C2")
    put(g, 1, 9, "D4")  # touches C3
    set_ply(g, 2)
    for k in range(1, 31):
        assert g.check_place(0, k, cell("C3")) == ADJACENT_OPPONENT
    g = new()
    put(g, 0, 1, "C2")
    put(g, 1, 2, "C3")  # C2-C3: cards of two sides are no run
    for k in with_sym(common(1, 2), (1,)):
        assert g.check_place(0, k, cell("C4")) == ADJACENT_OPPONENT


def test_a_rain_counts_as_its_owners_card_and_ends_a_run():
    """§3 rule 3 (a Rain counts as a card of its owner) and §2 (a Rain carries
    no symbol: it ends a run)."""
    g = new()
    put(g, 0, 31, "C3")  # a black Rain
    set_ply(g, 1)
    for k in range(31):
        assert g.check_place(1, k, cell("C4")) == ADJACENT_OPPONENT  # rule 3
    refused(g, ADJACENT_OPPONENT, g.place, 1, 4, cell("C4"))
    g = new()
    put(g, 0, 1, "C2")
    put(g, 0, 31, "C3")  # card + Rain: no run to block at C4
    set_ply(g, 1)
    for k in range(31):
        assert g.check_place(1, k, cell("C4")) == ADJACENT_OPPONENT
    g, cards = black_pair()
    put(g, 1, 31, "C4")  # gold Rain at the open end
    assert g.check_place(1, with_sym(S)[0], cell("C5")) == OK  # own Rain only
    set_ply(g, 2)
    # Beyond the Rain C5 is no open end of the black run.
    assert g.check_place(0, with_sym(S, cards)[0], cell("C5")) == ADJACENT_OPPONENT


def test_occupied_cell():
    """NOTATION occupied: a placement on a card."""
    g, cards = black_pair()
    refused(g, OCCUPIED, g.place, 1, with_sym(S)[0], cell("C3"))
    refused(g, OCCUPIED, g.place, 1, 9, cell("C2"))


def test_card_already_played():
    """NOTATION card-already-played; each side plays its own deck (§1)."""
    g = new()
    play(g, 0, 4, "A1")
    play(g, 1, 4, "I9")  # gold's card 4 is another card
    refused(g, CARD_ALREADY_PLAYED, g.place, 0, 4, cell("E1"))
    play(g, 0, 5, "E1")
    refused(g, CARD_ALREADY_PLAYED, g.place, 1, 4, cell("E9"))


def test_unknown_card_and_bad_cell():
    """NOTATION unknown-card, bad-cell."""
    g = new()
    for k in (31, 32, 255, -1):
        refused(g, UNKNOWN_CARD, g.place, 0, k, cell("A1"))
    for x in (61, 62, 255, -1, NONE):
        refused(g, BAD_CELL, g.place, 0, 1, x)
        assert g.check_place(0, 1, x) == BAD_CELL


def test_turns_alternate_from_the_starting_side():
    """§3 turn and setup: the sides alternate from the one the board was told
    starts (NOTATION not-your-turn)."""
    g = new(0, 0)
    assert g.side_to_play() == 0
    refused(g, NOT_YOUR_TURN, g.place, 1, 1, cell("A1"))
    play(g, 0, 1, "A1")
    assert g.side_to_play() == 1
    refused(g, NOT_YOUR_TURN, g.place, 0, 2, cell("I9"))
    play(g, 1, 1, "I9")
    assert g.side_to_play() == 0
    g = new(0, 1)  # gold starts (the board asks who starts)
    refused(g, NOT_YOUR_TURN, g.place, 0, 1, cell("A1"))
    play(g, 1, 1, "A1")
    assert g.side_to_play() == 0


def test_junior_side_is_refused_in_the_two_player_game():
    """NOTATION not-allowed-in-mode: a Junior line in the two-player game."""
    g = new()
    refused(g, NOT_ALLOWED_IN_MODE, g.place, NONE, 1, cell("A1"))


def test_check_place_changes_nothing():
    """NOTATION: checking a move changes nothing."""
    g, cards = black_pair()
    before = bytes(g.board) + bytes(g.loc) + bytes(g.s)
    for x in range(NCELLS):
        for k in (0, 9, 30):
            g.check_place(1, k, x)
    assert bytes(g.board) + bytes(g.loc) + bytes(g.s) == before

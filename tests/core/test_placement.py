# RULES.md §3 placement rules 1-4 (D-3, D-4) and the turn checks every
# placement goes through; an illegal placement changes nothing.
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
from apixagon.geometry import NCELLS, NONE, ROYAL
from util import cell, common, new, play, put, put_run, refused, set_ply, with_sym, without_sym

S = 0  # the symbol of the runs below


def black_pair():
    """Black run C2-C3 on S (§2: a run of 2), gold to play."""
    g = new()
    cards = put_run(g, 0, S, ("C2", "C3"))
    set_ply(g, 1)
    return g, cards


def test_rule2_first_card_anywhere_but_the_royal_cell():
    for x in range(NCELLS):
        g = new()
        assert g.check_place(0, 7, x) == (ROYAL_LOCKED if x == ROYAL else OK)
    g = new()
    refused(g, ROYAL_LOCKED, g.place, 0, 7, ROYAL)
    play(g, 0, 7, "I9")
    assert g.where(0, 7) == cell("I9") and g.owner(cell("I9")) == 0
    assert g.card_at(cell("I9")) == 7


def test_rule3_d3_isolated_placement_is_legal():
    g, cards = black_pair()
    play(g, 1, without_sym(S)[0], "G5")  # far from black: any card
    play(g, 0, without_sym(S, cards)[0], "A5")  # far from both


def test_rule3_beside_own_cards_any_card():
    g, cards = black_pair()
    set_ply(g, 2)
    for k in without_sym(S, cards):
        assert g.check_place(0, k, cell("B1")) == OK  # beside C2 only
    play(g, 0, without_sym(S, cards)[0], "C4")  # the open end, a non-extension


def test_rule4_beside_a_lone_opponent_card_is_illegal():
    # The manual's first counter-example: one card is no sequence to block.
    g = new()
    put(g, 0, 3, "C2")
    set_ply(g, 1)
    for k in range(31):
        for name in ("C1", "C3", "B1", "B2", "D2", "D3"):
            assert g.check_place(1, k, cell(name)) == ADJACENT_OPPONENT
    refused(g, ADJACENT_OPPONENT, g.place, 1, 3, cell("C3"))


def test_rule4_block_with_the_runs_symbol():
    g, cards = black_pair()
    for k in with_sym(S):
        assert g.check_place(1, k, cell("C4")) == OK
        assert g.check_place(1, k, cell("C1")) == OK
    play(g, 1, with_sym(S)[0], "C4")  # gold's own card 0: decks are separate
    assert g.owner(cell("C4")) == 1


def test_rule4_block_with_a_wrong_symbol_is_illegal():
    # The manual's Raccoon: a symbol shared with the card beside, not the run's.
    g, cards = black_pair()
    for k in without_sym(S):
        assert common(k, cards[1]) != S
        assert g.check_place(1, k, cell("C4")) == ADJACENT_OPPONENT
    refused(g, ADJACENT_OPPONENT, g.place, 1, without_sym(S)[0], cell("C4"))


def test_rule4_block_only_on_the_runs_axis():
    g, cards = black_pair()
    blocker = with_sym(S)[0]
    for name in ("D3", "D4", "B2", "B3", "D2", "B1"):
        refused(g, ADJACENT_OPPONENT, g.place, 1, blocker, cell(name))


def test_any_adjacent_pair_is_a_run_of_2():
    # §2: two adjacent cards of a side share exactly one symbol.
    for a, b in ((1, 2), (4, 17), (12, 30), (25, 26), (9, 23)):
        g = new()
        put(g, 0, a, "C2")
        put(g, 0, b, "C3")
        set_ply(g, 1)
        s = common(a, b)
        assert g.check_place(1, with_sym(s)[0], cell("C4")) == OK
        assert g.check_place(1, without_sym(s)[0], cell("C4")) == ADJACENT_OPPONENT


def test_rule4_d4_extension_beside_an_opponent():
    g, cards = black_pair()
    put(g, 1, 9, "D5")  # gold touches C4, the open end of black's run
    set_ply(g, 2)
    ext = with_sym(S, cards)
    for k in ext:
        assert g.check_place(0, k, cell("C4")) == OK
    for k in without_sym(S, cards):
        assert g.check_place(0, k, cell("C4")) == ADJACENT_OPPONENT
    refused(g, ADJACENT_OPPONENT, g.place, 0, without_sym(S, cards)[0], cell("C4"))
    play(g, 0, ext[0], "C4")
    assert g.count_runs(0) == (1, 0)


def test_rule4_a_lone_own_card_is_no_extension():
    g = new()
    put(g, 0, 0, "C2")
    put(g, 1, 9, "D4")  # touches C3
    set_ply(g, 2)
    for k in range(1, 31):
        assert g.check_place(0, k, cell("C3")) == ADJACENT_OPPONENT


def test_cards_of_two_sides_are_no_run():
    g = new()
    put(g, 0, 1, "C2")
    put(g, 1, 2, "C3")
    s = common(1, 2)
    for k in with_sym(s, (1,)):
        assert g.check_place(0, k, cell("C4")) == ADJACENT_OPPONENT


def test_a_rain_counts_as_its_owners_card_and_ends_a_run():
    g = new()
    put(g, 0, 31, "C3")  # a black Rain
    set_ply(g, 1)
    refused(g, ADJACENT_OPPONENT, g.place, 1, 4, cell("C4"))  # rule 3
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
    g, cards = black_pair()
    refused(g, OCCUPIED, g.place, 1, with_sym(S)[0], cell("C3"))
    refused(g, OCCUPIED, g.place, 1, 9, cell("C2"))


def test_card_already_played():
    g = new()
    play(g, 0, 4, "A1")
    play(g, 1, 4, "I9")  # gold's card 4 is another card
    refused(g, CARD_ALREADY_PLAYED, g.place, 0, 4, cell("E1"))
    play(g, 0, 5, "E1")
    refused(g, CARD_ALREADY_PLAYED, g.place, 1, 4, cell("E9"))


def test_unknown_card_and_bad_cell():
    g = new()
    for k in (31, 32, 255, -1):
        refused(g, UNKNOWN_CARD, g.place, 0, k, cell("A1"))
    for x in (61, 62, 255, -1, NONE):
        refused(g, BAD_CELL, g.place, 0, 1, x)
        assert g.check_place(0, 1, x) == BAD_CELL


def test_turns_alternate_from_the_starting_side():
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
    g = new()
    refused(g, NOT_ALLOWED_IN_MODE, g.place, NONE, 1, cell("A1"))


def test_check_place_changes_nothing():
    g, cards = black_pair()
    before = bytes(g.board) + bytes(g.loc) + bytes(g.s)
    for x in range(NCELLS):
        for k in (0, 9, 30):
            g.check_place(1, k, x)
    assert bytes(g.board) + bytes(g.loc) + bytes(g.s) == before

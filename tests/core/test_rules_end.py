# RULES.md §3.3: the end of the game: two distinct sequences of 4 (§2 D-1)
# win at once; a side that cannot move (exhaustion) or declared run-out ends
# it by the D-6 count. Runs and sealing: test_rules_placement; the end of a
# team game with its reserve deck (D-10): test_rules_reserve.
from apixagon.codes import (
    CARDS_OUT,
    DRAW,
    EXHAUSTED,
    GAME_OVER,
    IN_PROGRESS,
    OK,
    TWO_SEQUENCES,
)
from apixagon.deck import symbols
from apixagon.geometry import NCELLS, ROWS, ROYAL, cell_name
from util import (
    cell,
    cells,
    common,
    new,
    occupy_royal,
    play,
    put,
    put_run,
    refused,
    set_ply,
    with_sym,
)


def two_fours_last_missing(side=0):
    """side holds a sequence of 4 on G4-G7 and a 3 on B1-B3; the card that
    completes B1-B4 is returned."""
    g = new(0, side)
    first = put_run(g, side, 5, ("G4", "G5", "G6", "G7"))
    second = put_run(g, side, 1, ("B1", "B2", "B3"), first)
    assert g.count_runs(side) == (2, 1)
    return g, with_sym(1, first + second)[0]


def test_second_sequence_of_4_wins_at_once():
    """§3.3: the side that owns two distinct sequences of 4 wins at once."""
    for side in (0, 1):
        g, last = two_fours_last_missing(side)
        assert not g.over()
        play(g, side, last, "B4")
        assert g.over() == TWO_SEQUENCES and g.winner() == side


def test_game_over_refuses_everything_and_changes_nothing():
    """§3.3 and NOTATION game-over: every move is refused once the game is
    over, before not-allowed-in-mode; a take-back reopens it."""
    g, last = two_fours_last_missing()
    play(g, 0, last, "B4")
    refused(g, GAME_OVER, g.place, 1, 9, cell("I9"))
    refused(g, GAME_OVER, g.place, 0, 9, cell("I9"))
    refused(g, GAME_OVER, g.rain, 1, cell("B5"))
    refused(g, GAME_OVER, g.smoker, 1, cell("B1"))
    refused(g, GAME_OVER, g.beekeeper, 1, cell("B1"), cell("I9"))
    refused(g, GAME_OVER, g.deck_empty, 1)
    refused(g, GAME_OVER, g.reserve, 1, cells("B1"))
    refused(g, GAME_OVER, g.forced_removal, 1)  # not-allowed-in-mode comes after
    assert g.undo() and g.over() == IN_PROGRESS and g.side_to_play() == 0


def test_one_sequence_of_4_or_one_long_run_does_not_end_it():
    """§3.3 and §2: one sequence of 4, even grown to 6, is one sequence."""
    g = new()
    cards = put_run(g, 0, 5, ("G4", "G5", "G6"))
    play(g, 0, with_sym(5, cards)[0], "G7")
    assert not g.over() and g.count_runs(0) == (1, 1)
    play(g, 1, 1, "A1")
    play(g, 0, with_sym(5, cards)[1], "G8")
    play(g, 1, 2, "A3")
    play(g, 0, with_sym(5, cards)[2], "G9")  # a run of 6: still one (D-1)
    assert not g.over() and g.count_runs(0) == (1, 1)


def test_d1_two_fours_sharing_a_card_on_two_axes():
    """§2 D-1: two sequences of 4 on two axes sharing one card are distinct."""
    hinge = 12
    s, t = symbols(hinge)[0], symbols(hinge)[1]
    g = new()
    put(g, 0, hinge, "D4")
    row = put_run(g, 0, s, ("D1", "D2", "D3"), (hinge,))
    up = put_run(g, 0, t, ("E4", "F4"), row + [hinge])
    assert not g.over()
    play(g, 0, with_sym(t, row + up + [hinge])[0], "G4")
    assert g.over() == TWO_SEQUENCES and g.winner() == 0


def test_d1_two_fours_on_one_line_with_two_symbols():
    """§2 D-1: two sequences of 4 on one line with two symbols (sharing the
    hinge card) are distinct."""
    hinge = 12
    s, t = symbols(hinge)[0], symbols(hinge)[1]
    g = new()
    put(g, 0, hinge, "C4")
    left = put_run(g, 0, s, ("C1", "C2", "C3"), (hinge,))
    right = put_run(g, 0, t, ("C5", "C6"), left + [hinge])
    assert g.count_runs(0) == (2, 1)
    play(g, 0, with_sym(t, left + right + [hinge])[0], "C7")
    assert g.count_runs(0) == (2, 2)
    assert g.over() == TWO_SEQUENCES and g.winner() == 0


def test_a_beekeeper_move_can_complete_the_owners_second_4():
    """§3.3: the game ends when a side owns two sequences of 4, whoever moved."""
    # The game ends when a side owns two sequences of 4, whoever moved.
    g, last = two_fours_last_missing(1)
    occupy_royal(g, 0, 30)
    put(g, 1, last, "I9")
    set_ply(g, 1)  # black to play (gold started)
    assert g.side_to_play() == 0
    assert g.beekeeper(0, cell("I9"), cell("B4")) == OK
    assert g.over() == TWO_SEQUENCES and g.winner() == 1


def test_declared_run_out_ends_the_queens_gambit_by_count():
    """§3.3: in 2 players deck-empty ends the game by the D-6 count."""
    g = new()
    put_run(g, 1, 5, ("G4", "G5", "G6"))
    assert g.deck_empty(0) == OK
    assert g.over() == CARDS_OUT and g.winner() == 1


def test_d6_more_threes_then_more_fours_then_a_draw():
    """§3.3 D-6: more sequences of 3 (a sealed 4 counts as one), then more
    sequences of 4, then a draw."""
    g = new()
    put_run(g, 0, 5, ("G4", "G5", "G6", "G7"))
    put_run(g, 1, 1, ("B1", "B2", "B3"))
    put_run(g, 1, 2, ("D6", "D7", "D8"))
    assert g.deck_empty(0) == OK and g.winner() == 1  # 2 threes beat 1
    g = new()
    put_run(g, 0, 5, ("G4", "G5", "G6", "G7"))  # a sealed 4 counts as one 3
    put_run(g, 1, 1, ("B1", "B2", "B3"))
    assert g.deck_empty(1) == OK and g.winner() == 0  # 1-1, then 1-0 in fours
    g = new()
    put_run(g, 0, 5, ("G4", "G5", "G6"))
    put_run(g, 1, 1, ("B1", "B2", "B3"))
    assert g.deck_empty(0) == OK and g.winner() == DRAW


def d6(g):
    a3, a4 = g.count_runs(0)
    b3, b4 = g.count_runs(1)
    if a3 != b3:
        return 0 if a3 > b3 else 1
    if a4 != b4:
        return 0 if a4 > b4 else 1
    return DRAW


def jam(c3_side):
    """Every cell full but the Royal Cell (locked), A1 and I9; gold to play
    and I9 is gold's. A1 touches gold Rains on A2 and B1 and gold's card 0
    on B2; C3 (card 4) beyond B2 decides if A1 is the open end of a gold run
    on symbol 25. Black keeps its card 0 (it carries 25). The rest is filled
    by thirds, so that no side has a run of 3. Returns gold's unplayed cards."""
    g = new()
    set_ply(g, 1)
    put(g, 1, 31, "A2")
    put(g, 1, 31, "B1")
    put(g, 1, 0, "B2")
    put(g, c3_side, 4, "C3")
    assert common(0, 4) == 25 and with_sym(25)[0] == 0
    for k, name in ((1, "I8"), (2, "H8"), (3, "H9")):
        put(g, 1, k, name)
    nb = [k for k in range(1, 31) if not g.loc[k]]
    ng = [k for k in range(5, 31)]
    for x in range(NCELLS):
        name = cell_name(x)
        if g.board[x] or name in ("E5", "A1", "I9"):
            continue
        third = (ROWS.find(name[0]) + ord(name[1]) - 48) % 3
        if third == 0 or (third == 2 and len(nb) >= len(ng)):
            put(g, 0, nb.pop(0), x)
        else:
            put(g, 1, ng.pop(0), x)
    assert len(ng) >= 2 and not g.board[ROYAL]
    return g, ng


def test_exhaustion_when_no_card_has_a_legal_cell():
    """§3.3: no legal placement for any card not yet on the board and no usable
    special: the game ends by the D-6 count."""
    g, ng = jam(0)
    assert g.count_runs(0)[0] == 0 and g.count_runs(1)[0] == 0
    play(g, 1, ng[0], "I9")
    for k in range(31):
        if not g.loc[k]:
            assert g.check_place(0, k, cell("A1")) != OK
    assert g.over() == EXHAUSTED and g.winner() == d6(g) == DRAW


def test_no_exhaustion_while_a_card_has_a_legal_cell():
    """§3.3: one card with a legal cell keeps the game going."""
    g, ng = jam(1)  # B2-C3 is a gold run on 25: black's card 0 blocks on A1
    play(g, 1, ng[0], "I9")
    assert not g.over()
    play(g, 0, 0, "A1")


def test_no_exhaustion_while_a_special_is_usable():
    """§3.3: a usable special keeps the game going."""
    g, ng = jam(0)
    occupy_royal(g, 1, ng[1])
    play(g, 1, ng[0], "I9")
    assert not g.over()
    assert g.smoker(0, cell("I9")) == OK


def test_exhaustion_when_all_cards_are_on_the_board():
    """§3.3: a side with all 31 cards on the board (no special usable) is stuck."""
    g = new()
    for k in range(31):
        put(g, 0, k, k if k < ROYAL else k + 1)  # rows A-D, E1-E4 and E6
    set_ply(g, 1)
    play(g, 1, 0, "I9")
    assert g.over() == EXHAUSTED and g.winner() == d6(g) == 0

# RULES.md §1: the board (61 cells named like an Abalone board, the Royal
# Cell E5, neighbours, the three line axes) and the canonical deck (the
# projective plane of order 5). The tables behind them (direction numbers,
# line order, HAS) are tested in test_geometry and test_deck.
from apixagon import deck, geometry
from apixagon.geometry import NB, NCELLS, NONE, ROYAL, cell_name, parse_cell


def test_61_cells_named_like_abalone():
    """§1 cell names: rows A..I, row i numbered max(1, i-3)..min(9, i+5),
    cells indexed row by row."""
    names = [cell_name(x) for x in range(NCELLS)]
    assert NCELLS == 61 and len(set(names)) == 61
    rows = "ABCDEFGHI"
    ends = ("A1A5", "B1B6", "C1C7", "D1D8", "E1E9", "F2F9", "G3G9", "H4H9", "I5I9")
    want = []
    for i in range(9):
        lo = max(1, i - 3)
        hi = min(9, i + 5)
        got = [n for n in names if n[0] == rows[i]]
        assert got == [rows[i] + str(k) for k in range(lo, hi + 1)]
        assert got[0] + got[-1] == ends[i]  # as RULES lists them
        want += got
    assert names == want  # A1..A5, B1..B6, ..., I5..I9 in that order
    assert names[:5] == ["A1", "A2", "A3", "A4", "A5"]
    assert names[-5:] == ["I5", "I6", "I7", "I8", "I9"]


def test_royal_cell_is_e5():
    """§1: the centre cell E5 is the Royal Cell."""
    assert ROYAL == parse_cell("E5") == 30
    assert cell_name(ROYAL) == "E5"


def test_parse_cell_rejects_names_off_the_board():
    """§1 cell names: only the 61 names parse, each to its own cell."""
    for bad in ("A6", "A0", "B7", "D9", "E0", "F1", "G2", "H3", "I4", "J1", "Z5"):
        assert parse_cell(bad) == NONE, bad
    for bad in ("E10", "e5", "5E", "E5 ", "", "E", "55", "AA"):
        assert parse_cell(bad) == NONE, bad
    for x in range(NCELLS):
        assert parse_cell(cell_name(x)) == x


def test_neighbours_follow_the_formula():
    """§1 neighbours of (i, c): (i, c-1), (i, c+1), (i+1, c), (i+1, c+1),
    (i-1, c-1), (i-1, c)."""
    for x in range(NCELLS):
        name = cell_name(x)
        i = "ABCDEFGHI".index(name[0])
        k = int(name[1])
        want = []
        for di, dk in ((0, -1), (0, 1), (1, 0), (1, 1), (-1, -1), (-1, 0)):
            if 0 <= i + di <= 8:
                n = parse_cell("ABCDEFGHI"[i + di] + str(k + dk)) if 0 < k + dk < 10 else NONE
                if n != NONE:
                    want.append(n)
        assert sorted(geometry.neighbours(x)) == sorted(want), name
    assert len(geometry.neighbours(ROYAL)) == 6
    assert len(geometry.neighbours(parse_cell("A1"))) == 3


def test_directions_are_paired_opposites():
    """§1 neighbours: each step has its way back (the relation is mutual)."""
    for x in range(NCELLS):
        for d in range(6):
            n = NB[x * 6 + d]
            if n != NONE:
                assert NB[n * 6 + (d + 3) % 6] == x


def test_27_lines_cover_every_cell_once_per_axis():
    """§1 the three line axes: 9 lines per axis, edge to edge, each cell on
    one line of each axis."""
    LINES, LINE_START = geometry.LINES, geometry.LINE_START
    assert geometry.NLINES == 27 and len(LINE_START) == 28
    assert LINE_START[27] == len(LINES) == 3 * 61
    seen = bytearray(NCELLS * 3)
    lengths = []
    for li in range(27):
        a, b = LINE_START[li], LINE_START[li + 1]
        axis = li // 9
        lengths.append(b - a)
        for j in range(a, b):
            seen[LINES[j] * 3 + axis] += 1
            if j + 1 < b:
                assert NB[LINES[j] * 6 + axis] == LINES[j + 1]
        assert NB[LINES[a] * 6 + axis + 3] == NONE  # starts at the edge
        assert NB[LINES[b - 1] * 6 + axis] == NONE  # and runs to the edge
    assert sorted(lengths) == sorted([5, 6, 7, 8, 9, 8, 7, 6, 5] * 3)
    for v in seen:
        assert v == 1


def canonical(c):
    """Card c as RULES.md §1 spells it out."""
    if c < 25:
        m, b = c // 5, c % 5
        return sorted([5 * x + (m * x + b) % 5 for x in range(5)] + [25 + m])
    if c < 30:
        return sorted([5 * (c - 25) + y for y in range(5)] + [30])
    return [25, 26, 27, 28, 29, 30]


def test_canonical_numbering_and_the_worked_examples():
    """§1 canonical numbering: card 5m+b is y = mx+b, card 25+c is x = c,
    card 30 the line at infinity; the examples as RULES gives them."""
    for c in range(31):
        assert sorted(deck.symbols(c)) == canonical(c), c
    assert sorted(deck.symbols(0)) == [0, 5, 10, 15, 20, 25]
    assert sorted(deck.symbols(7)) == [2, 8, 14, 15, 21, 26]
    assert sorted(deck.symbols(25)) == [0, 1, 2, 3, 4, 30]
    assert sorted(deck.symbols(30)) == [25, 26, 27, 28, 29, 30]


def test_projective_plane_of_order_5():
    """§1 decks: 31 cards of 6 symbols (0..30), any two cards share exactly
    one symbol, each symbol is on 6 cards."""
    assert deck.NCARDS == 31 and len(deck.SYMS) == 31 * 6
    count = bytearray(31)
    for a in range(31):
        assert len(set(deck.symbols(a))) == 6
        for s in deck.symbols(a):
            assert 0 <= s < 31
            count[s] += 1
        for b in range(31):
            if a == b:
                continue
            common = [s for s in deck.symbols(a) if deck.HAS[b * 31 + s]]
            assert len(common) == 1  # any two cards share exactly one symbol
            assert deck.COMMON[a * 31 + b] == common[0] == deck.COMMON[b * 31 + a]
    assert list(count) == [6] * 31  # each symbol on 6 cards

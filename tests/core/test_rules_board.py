# RULES.md §1: cells, names, neighbours, axes, the canonical deck.
from apixagon import deck, geometry
from apixagon.geometry import NB, NCELLS, NONE, ROYAL, cell_name, parse_cell


def test_61_cells_named_like_abalone():
    names = [cell_name(x) for x in range(NCELLS)]
    assert len(names) == 61 and len(set(names)) == 61
    rows = "ABCDEFGHI"
    for i in range(9):
        lo = max(1, i - 3)
        hi = min(9, i + 5)
        got = [n for n in names if n[0] == rows[i]]
        assert got == [rows[i] + str(k) for k in range(lo, hi + 1)]
    assert names[:5] == ["A1", "A2", "A3", "A4", "A5"] and names[-1] == "I9"


def test_royal_cell_is_e5():
    assert ROYAL == parse_cell("E5") == 30


def test_parse_cell_rejects_names_off_the_board():
    for bad in ("A6", "A0", "I4", "J1", "E10", "e5", "", "E", "55", "AA"):
        assert parse_cell(bad) == NONE, bad
    for x in range(NCELLS):
        assert parse_cell(cell_name(x)) == x


def test_neighbours_follow_the_formula():
    # (i, c-1), (i, c+1), (i+1, c), (i+1, c+1), (i-1, c-1), (i-1, c)
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
    for x in range(NCELLS):
        for d in range(6):
            n = NB[x * 6 + d]
            if n != NONE:
                assert NB[n * 6 + (d + 3) % 6] == x


def test_27_lines_cover_every_cell_once_per_axis():
    assert len(geometry.LINE_START) == 28
    assert len(geometry.LINES) == 3 * 61
    for axis in range(3):
        cells = []
        for li in range(axis * 9, axis * 9 + 9):
            cells += list(geometry.LINES[geometry.LINE_START[li] : geometry.LINE_START[li + 1]])
        assert sorted(cells) == list(range(61))


def test_deck_examples_from_rules():
    assert sorted(deck.symbols(0)) == [0, 5, 10, 15, 20, 25]
    assert sorted(deck.symbols(7)) == [2, 8, 14, 15, 21, 26]
    assert sorted(deck.symbols(25)) == [0, 1, 2, 3, 4, 30]
    assert sorted(deck.symbols(30)) == [25, 26, 27, 28, 29, 30]


def test_projective_plane_of_order_5():
    count = bytearray(31)
    for a in range(31):
        assert len(set(deck.symbols(a))) == 6
        for s in deck.symbols(a):
            count[s] += 1
        for b in range(31):
            if a == b:
                continue
            common = [s for s in deck.symbols(a) if deck.HAS[b * 31 + s]]
            assert len(common) == 1  # any two cards share exactly one symbol
            assert deck.COMMON[a * 31 + b] == common[0]
    assert list(count) == [6] * 31  # each symbol on 6 cards

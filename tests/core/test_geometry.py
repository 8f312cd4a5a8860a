# RULES.md §1: the board, a hexagon of side 5, 61 cells named like an
# Abalone board; the Royal Cell E5; neighbours and the three line axes.
from apixagon.geometry import (
    LINE_START,
    LINES,
    NB,
    NCELLS,
    NLINES,
    NONE,
    ROWS,
    ROYAL,
    cell_name,
    neighbours,
    parse_cell,
)


def lo(i):
    return max(1, i - 3)


def hi(i):
    return min(9, i + 5)


def rc(x):
    """(row index, number) of cell x, from its name."""
    name = cell_name(x)
    return ROWS.find(name[0]), ord(name[1]) - 48


def at(i, c):
    if i < 0 or i > 8 or c < lo(i) or c > hi(i):
        return NONE
    return parse_cell(ROWS[i] + str(c))


def test_61_cells_named_row_by_row():
    names = []
    for i in range(9):
        for c in range(lo(i), hi(i) + 1):
            names.append(ROWS[i] + str(c))
    assert NCELLS == 61 and len(names) == 61
    for x in range(NCELLS):
        assert cell_name(x) == names[x]
        assert parse_cell(names[x]) == x
    assert names[:5] == ["A1", "A2", "A3", "A4", "A5"]
    assert names[-5:] == ["I5", "I6", "I7", "I8", "I9"]


def test_row_ranges():
    want = ("15", "16", "17", "18", "19", "29", "39", "49", "59")
    for i in range(9):
        assert str(lo(i)) + str(hi(i)) == want[i]
        assert parse_cell(ROWS[i] + str(lo(i))) != NONE
        assert parse_cell(ROWS[i] + str(hi(i))) != NONE


def test_royal_cell_is_e5():
    assert parse_cell("E5") == 30 == ROYAL
    assert cell_name(ROYAL) == "E5"


def test_names_off_the_board_are_refused():
    for s in ("A6", "A0", "B7", "D9", "E0", "F1", "G2", "H3", "I4", "J1", "Z5"):
        assert parse_cell(s) == NONE, s
    for s in ("", "E", "E10", "e5", "5E", "E5 "):
        assert parse_cell(s) == NONE, s


def test_neighbours_follow_the_formula():
    # (i, c-1), (i, c+1), (i+1, c), (i+1, c+1), (i-1, c-1), (i-1, c)
    for x in range(NCELLS):
        i, c = rc(x)
        want = []
        for di, dc in ((0, -1), (0, 1), (1, 0), (1, 1), (-1, -1), (-1, 0)):
            y = at(i + di, c + dc)
            if y != NONE:
                want.append(y)
        assert sorted(neighbours(x)) == sorted(want), cell_name(x)


def test_royal_cell_neighbours():
    got = sorted(cell_name(y) for y in neighbours(ROYAL))
    assert got == ["D4", "D5", "E4", "E6", "F5", "F6"]


def test_neighbour_counts_corners_edges_inside():
    counts = [0] * 7
    for x in range(NCELLS):
        counts[len(neighbours(x))] += 1
    assert counts[3] == 6 and counts[4] == 18 and counts[6] == 37
    for name in ("A1", "A5", "E1", "E9", "I5", "I9"):
        assert len(neighbours(parse_cell(name))) == 3, name


def test_directions_are_paired_opposites():
    for x in range(NCELLS):
        for d in range(6):
            y = NB[x * 6 + d]
            if y != NONE:
                assert NB[y * 6 + (d + 3) % 6] == x


def test_axis_steps():
    # Direction 0 steps along a row, 1 to (i+1, c+1), 2 to (i+1, c).
    x = ROYAL
    assert cell_name(NB[x * 6 + 0]) == "E6"
    assert cell_name(NB[x * 6 + 1]) == "F6"
    assert cell_name(NB[x * 6 + 2]) == "F5"
    assert cell_name(NB[x * 6 + 3]) == "E4"
    assert cell_name(NB[x * 6 + 4]) == "D4"
    assert cell_name(NB[x * 6 + 5]) == "D5"


def test_27_lines_cover_each_cell_once_per_axis():
    assert NLINES == 27 and len(LINE_START) == 28
    assert LINE_START[27] == len(LINES) == 183
    seen = bytearray(NCELLS * 3)
    lengths = []
    for li in range(NLINES):
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


def test_every_row_is_a_line_of_axis_0():
    for i in range(9):
        row = [parse_cell(ROWS[i] + str(c)) for c in range(lo(i), hi(i) + 1)]
        found = False
        for li in range(9):
            if [LINES[j] for j in range(LINE_START[li], LINE_START[li + 1])] == row:
                found = True
        assert found, ROWS[i]

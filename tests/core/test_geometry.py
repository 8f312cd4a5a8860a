# RULES.md §1's board as tables: the neighbours of the Royal Cell and the
# neighbour counts, the direction numbers of the three axes, the rows as
# lines. The rules themselves (names, neighbours, axes) are tested once in
# test_rules_board.
from apixagon.geometry import (
    LINE_START,
    LINES,
    NB,
    NCELLS,
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


def test_axis_steps():
    # Direction 0 steps along a row, 1 to (i+1, c+1), 2 to (i+1, c).
    x = ROYAL
    assert cell_name(NB[x * 6 + 0]) == "E6"
    assert cell_name(NB[x * 6 + 1]) == "F6"
    assert cell_name(NB[x * 6 + 2]) == "F5"
    assert cell_name(NB[x * 6 + 3]) == "E4"
    assert cell_name(NB[x * 6 + 4]) == "D4"
    assert cell_name(NB[x * 6 + 5]) == "D5"


def test_every_row_is_a_line_of_axis_0():
    for i in range(9):
        row = [parse_cell(ROWS[i] + str(c)) for c in range(lo(i), hi(i) + 1)]
        found = False
        for li in range(9):
            if [LINES[j] for j in range(LINE_START[li], LINE_START[li + 1])] == row:
                found = True
        assert found, ROWS[i]

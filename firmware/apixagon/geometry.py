# Board geometry of RULES.md §1: a hexagon of side 5, 61 cells named like an
# Abalone board (rows A..I bottom to top), the Royal Cell E5 in the centre.
# Everything is a table built once at import: bytes, no objects per cell.
from .compat import const

NCELLS = const(61)
ROYAL = const(30)  # E5: 26 cells in rows A..D, then E1..E4
NONE = const(255)  # "no cell" in every table

ROWS = "ABCDEFGHI"

# Directions, ordered so that d and d+3 are opposite; axis = d % 3.
# (row step, number step): along a row, (i+1, c+1), (i+1, c) — §1.
_DIRS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def _lo(i):
    return 1 if i < 4 else i - 3


def _hi(i):
    return 9 if i > 3 else i + 5


def _build():
    start = bytearray(10)
    names = []
    k = 0
    for i in range(9):
        start[i] = k
        for c in range(_lo(i), _hi(i) + 1):
            names.append(ROWS[i] + str(c))
            k += 1
    start[9] = k

    def index(i, c):
        if i < 0 or i > 8 or c < _lo(i) or c > _hi(i):
            return NONE
        return start[i] + c - _lo(i)

    nb = bytearray(NCELLS * 6)
    for i in range(9):
        for c in range(_lo(i), _hi(i) + 1):
            x = index(i, c)
            for d in range(6):
                nb[x * 6 + d] = index(i + _DIRS[d][0], c + _DIRS[d][1])
    # Lines of the three axes: start where the backward neighbour is off the
    # board, walk forward. 27 lines, 183 cells in all.
    lines = bytearray()
    lstart = bytearray()
    for d in range(3):
        for x in range(NCELLS):
            if nb[x * 6 + d + 3] == NONE:
                lstart.append(len(lines))
                y = x
                while y != NONE:
                    lines.append(y)
                    y = nb[y * 6 + d]
    lstart.append(len(lines))
    return "".join(names), bytes(start), bytes(nb), bytes(lines), bytes(lstart)


NAMES, ROW_START, NB, LINES, LINE_START = _build()
NLINES = const(27)


def cell_name(x):
    """'E5' for cell index 30."""
    return NAMES[2 * x : 2 * x + 2]


def parse_cell(s):
    """Cell index of a name like 'E5', or NONE when it is not on the board."""
    if len(s) != 2:
        return NONE
    i = ROWS.find(s[0])
    c = ord(s[1]) - 48
    if i < 0 or c < _lo(i) or c > _hi(i):
        return NONE
    return ROW_START[i] + c - _lo(i)


def neighbours(x):
    """The up to six neighbour cells of x (a fresh tuple: for tests and tools)."""
    return tuple(n for n in NB[x * 6 : x * 6 + 6] if n != NONE)

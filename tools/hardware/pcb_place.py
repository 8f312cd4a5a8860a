"""Where rev B's parts go on its PCB: pure geometry, no KiCad.

The board is the game: 61 hexagonal cells at PITCH, each with its reed
switch at the centre (under the card) and its LED and the LED's capacitor
just above it. The rest of the circuit sits in the corners the hexagon
leaves free of the rectangle, in the block the circuit gave each part
(circuit.py's Block field): power and USB-C at the bottom left, the
RP2040 beside it, the strip's driver under row A, the action pad's reader
and antenna at the bottom right; each shift register at the hexagon
corner nearest the middle of the eight cells it reads.

Coordinates are millimetres from the board's centre, y downward (KiCad's
way), row A at the bottom, nearest the player who set the board up."""

import math

# The cell pitch (centre to centre along a row, flat side to flat side of
# a cell). An assumption: the manual gives no card size; 45 mm takes a
# hexagonal card of up to about 43 mm across its flats with a finger's
# room, and keeps the board under 430 x 420 mm.
PITCH = 45.0
R = PITCH / math.sqrt(3)  # a cell's corner radius
ROWS = "ABCDEFGHI"

# the board's edges (mm from the centre)
X0, X1, Y0, Y1 = -212.0, 212.0, -190.0, 222.0

# parts of a cell, (dx, dy, rotation in degrees) from its centre
CELL_LED = (0.0, -8.0, 0)
CELL_CAP = (4.6, -8.0, 90)
CELL_REED = (0.0, 5.0, 0)

# the blocks' rectangles (x0, y0, x1, y1), filled row by row
# (below row A the board is free from y = 168 down: its cells' parts end
# at y = 162)
REGIONS = {
    "power": (-206.0, 170.0, -150.0, 212.0),
    "mcu": (-140.0, 168.0, -52.0, 216.0),
    "strip": (-46.0, 170.0, -4.0, 216.0),
    "pad": (104.0, 170.0, 160.0, 216.0),
    "shift": (4.0, 170.0, 30.0, 216.0),
}
USB_AT = (-190.0, Y1 - 3.675, 0)  # the receptacle's mouth on the bottom edge
COIL_AT = (184.0, 166.0, 0)  # the action pad's antenna, bottom-right corner
COIL_KEEPOUT = 40.0  # the square around it left free of ground pour
# the mounting holes: the corners and the middle of the top and bottom
# edges, clear of the cells' outlines
HOLES = (
    (-204.0, -182.0),
    (204.0, -182.0),
    (-204.0, 214.0),
    (204.0, 214.0),
    (0.0, -186.0),
    (0.0, 216.0),
)
BIG_GAP = 9.0  # between a block's chips: room for their small parts around them
SAT_GAP = 1.6  # between a small part and its neighbours: room for a via


def cell_xy(name):
    """The centre of a cell ('E5'): row E is the middle one."""
    i = ROWS.index(name[0])
    c = int(name[1:])
    return ((c - 5) - (i - 4) / 2.0) * PITCH, (i - 4) * -1.5 * R


def top_corner(name):
    x, y = cell_xy(name)
    return x, y - R


def register_spots(groups):
    """For each register (its cells), the hexagon corner above one of its
    cells nearest their middle: three cells meet there and leave room."""
    spots = {}
    for r, cells in groups.items():
        xs = [cell_xy(c) for c in cells]
        mx = sum(p[0] for p in xs) / len(xs)
        my = sum(p[1] for p in xs) / len(xs)
        best = min(cells, key=lambda c: (top_corner(c)[0] - mx) ** 2 + (top_corner(c)[1] - my) ** 2)
        spots[r] = top_corner(best)
    return spots


def spiral(cx, cy, region, step=1.0):
    """Points outward from (cx, cy) in squares of growing size, within the
    region: where to try a part, nearest first."""
    yield cx, cy
    k = 1
    while k * step < max(region[2] - region[0], region[3] - region[1]):
        for i in range(-k, k + 1):
            for x, y in ((cx + i * step, cy - k * step), (cx + i * step, cy + k * step)):
                yield x, y
        for i in range(-k + 1, k):
            for x, y in ((cx - k * step, cy + i * step), (cx + k * step, cy + i * step)):
                yield x, y
        k += 1

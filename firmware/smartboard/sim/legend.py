# What the LEDs mean: the one table every legend is drawn from (this
# console's, the companion's terminal view, the web page's and render.py's
# SVG legend), so that a meaning is named once. A row is an LED layer
# value (a palette entry with its blink, smartboard.view) and its name.
# Every entry of the palette that the board lights is here at least once;
# the rows after the first use of an entry are the same colour in another
# role (a side's colour blinking, the corners' fault alarm), named by where
# it shows. tests/host/test_colours.py holds the table to the palettes.
from .. import view

LEGEND = (
    # whose turn it is: the six corner cells (set-up: the Royal Cell says
    # who starts; teaching a deck counts the cards in their side's colour)
    (view.SIDE0, "black / team A"),
    (view.SIDE1, "gold / team B"),
    # the seats of a team game, also Junior's players (view.player_colour)
    (view.SEAT, "seat A1 / player 1"),
    (view.SEAT + 3, "seat B1 / player 2"),
    (view.SEAT + 1, "seat A2 / player 3"),
    (view.SEAT + 4, "seat B2 / player 4"),
    (view.SEAT + 2, "seat A3 / player 5"),
    (view.SEAT + 5, "seat B3 / player 6"),
    # hint mode and the card query
    (view.LEGAL, "legal"),
    (view.EXTEND, "extension"),
    (view.BLOCKS, "block"),
    (view.THREAT | view.SLOW, "threat of 3"),
    (view.ROYAL_OPEN | view.SLOW, "royal open"),
    (view.ROYAL_LOCKED, "royal locked"),
    (view.SEALED_RUN, "sealed"),
    (view.LAST, "last move"),
    # what the players must fix
    (view.ERR_RED | view.FAST, "illegal: lift"),
    (view.ERR_AMBER | view.FAST, "put back"),
    (view.ERR_UNKNOWN | view.FAST, "unknown card"),
    (view.ERR_TAP | view.FAST, "tap on pad"),
    (view.RESERVED, "reserve: confirm"),
    (view.ERR_UNKNOWN | view.SLOW, "reader down"),
    (view.ERR_UNKNOWN | view.FAST, "corners: fault"),
    # set-up
    (view.CLEAR | view.SLOW, "set-up: lift card"),
    (view.SETTING, "set-up: setting"),
    (view.STORAGE | view.SLOW, "storage low"),
    # a side's or a seat's colour in another role: after a power cut, a
    # declaration waiting for CONFIRM on the free cells, the end
    (view.SIDE0 | view.SLOW, "resume: put card back (its side)"),
    (view.SIDE1 | view.SLOW, "deck empty? / winner (side)"),
    (view.SIDE0 | view.FAST, "forced removal? (side)"),
    (view.SEAT + 4, "pass? (seat, free cells)"),
    (view.SEAT + 1 | view.SLOW, "player out? / winner (Junior)"),
)

# A legend row's blink, marked after its name where the colour cannot
# blink: (v >> 6) & 3 of a layer value (view.SLOW, view.FAST)
BLINKS = ("", "*", "**", "**")


def _linear(c):
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def ink(r, g, b):
    """True for black ink on the fill (r, g, b), False for white: whichever
    has the higher WCAG 2.x contrast ratio on it (the two are equal at a
    relative luminance of 0.179; apixagon_host.colours.ink_on)."""
    y = 0.2126 * _linear(r) + 0.7152 * _linear(g) + 0.0722 * _linear(b)
    return y > 0.17913


def lines(items, width=78):
    """The legend as text lines of at most width characters seen: items
    are (text, how many characters of it show) pairs, the painted names
    (a terminal's colour codes take no room)."""
    out = []
    line, seen = "LEDs:", 5
    for text, n in items:
        if seen + 1 + n > width and seen > 6:
            out.append(line)
            line, seen = "     ", 5
        line += " " + text
        seen += 1 + n
    tail = "  (* blinks, ** blinks fast)"
    if seen + len(tail) > width:
        out.append(line)
        line = "     "
    out.append(line + tail)
    return out

"""Pictures of a position: `render_svg(game)` draws the board as SVG, in
the style of python-chess's chess.svg; `svg_to_png` rasterises that very
SVG with CairoSVG.

Every rule question (owners, sealed cards §2, the Royal Cell §3.1, the
specials left §3.2, the last move, the result) goes to the one core,
through position.py; this module only decides where things go and what
colour they are. The symbols' names and art are data (symbols.json,
RULES.md §1).

The board is drawn as the terminal boards draw it (hardware/README.md):
row A at the bottom, I at the top, each row numbered left to right, so
the lines of equal number run from lower right to upper left.
"""

import math
from xml.sax.saxutils import escape, quoteattr

from apixagon import record
from apixagon.codes import BEEKEEPER, JUNIOR, PLACE, RAIN_MOVE, RESERVE, SMOKER
from apixagon.deck import RAIN
from apixagon.geometry import NCELLS, ROW_START, ROWS, ROYAL, cell_name

from . import colours as C
from . import position as P
from . import symbols as S
from .i18n import N_, _

R = 48.0  # a cell's circumradius in SVG units (1 unit = 1 px at the natural size)
SQRT3 = math.sqrt(3.0)
TILE = 42.5  # a card tile's circumradius: the cell shows as a rim around it
BADGE_AT = 25.5  # distance of a symbol's badge from the tile's centre
BADGE_R = 11.0
GLYPH = 18.5  # a symbol's pictogram, drawn this many units wide
TITLE_H = 74.0
LEGEND_H = 118.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Colours. RULES.md §1: Black has black backs and red specials, Gold gold
# backs and green specials; in team games team A plays the black deck and
# team B the gold one (side 0 and 1 of the core, as on the card tags).
PAPER = "#fffdf6"
FRAME = "#dcb56a"
FRAME_EDGE = "#b0843a"
CELL = "#fbf1d8"
CELL_EDGE = "#c9a35a"
# Every text on a ground reads at WCAG 2.x's 4.5:1 or better
# (colours.MIN_CONTRAST, tests/host/test_colours.py); on a live board's LED
# colours a label is black or white, whichever reads better there.
CELL_TEXT = "#7d6235"
LABEL = "#6b5230"
COORD = "#4e3b1f"  # the row letters and numbers, on the frame
INK = "#2b2622"
BADGE = "#fffaf0"
SIDE_FILL = ("#25221f", "#e2ab22")
SIDE_EDGE = ("#575049", "#a8780c")
SIDE_TEXT = ("#ffffff", "#2e2100")
SPECIAL_FILL = ("#c62828", "#2e7d32")
ROYAL_COLOUR = "#7b1fa2"
ROYAL_PALE = "#eadcf3"
ROYAL_LOCKED = "#9d86ab"
ROYAL_LOCKED_TEXT = "#66537a"
LAST = "#1565c0"
SEAL = "#00897b"
MUTED = "#b9b2a6"

_CROWN = "M4 17L2.5 6.5L8 11L12 4L16 11L21.5 6.5L20 17z M4 18.8H20V21H4z"
_PADLOCK = "M6 11V8a6 6 0 0 1 12 0v3h-2.4V8a3.6 3.6 0 0 0-7.2 0v3z M4.5 11h15v10.5h-15z"
# the empty Royal Cell's state in a word, under its crown (translated where drawn)
_ROYAL_WORDS = {"open": N_("open"), "locked": N_("locked")}
_KIND_NAMES = {PLACE: "place", RAIN_MOVE: "rain", BEEKEEPER: "beekeeper", SMOKER: "smoker"}
_DEG = math.pi / 180.0


def _n(v):
    """A coordinate as short, stable text (same game, same bytes)."""
    s = "%.1f" % v
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _hex_points(r):
    # Pointy-top hexagons: rows are horizontal and the neighbours lie at
    # 0, 60, ... 300 degrees, so the corners are at 30, 90, ... degrees.
    pts = []
    for k in range(6):
        a = (30.0 + 60.0 * k) * _DEG
        pts.append("%s,%s" % (_n(r * math.cos(a)), _n(-r * math.sin(a))))
    return " ".join(pts)


def _dir(d):
    """Unit vector of direction d of apixagon.geometry (d and d+3
    opposite): along the row to the right, then (i+1, c+1), (i+1, c),
    left, (i-1, c-1), (i-1, c); on the drawing 0, 60, ... 300 degrees."""
    a = 60.0 * d * _DEG
    return math.cos(a), -math.sin(a)


class Layout:
    """Where a cell's centre lies, in SVG units (the tests sample PNG pixels
    at these points)."""

    def __init__(self, coordinates=True):
        self.w = R * SQRT3  # a cell's width, flat side to flat side
        # The frame's corners lie 1.45 R beyond the corner cells' centres;
        # the coordinate labels one cell beyond the edge cells.
        if coordinates:
            half_w = 5 * self.w + 16
            board_h = 15 * R + 32
        else:
            half_w = 4 * self.w + 1.45 * R + 10
            board_h = 12 * R + 1.45 * R * SQRT3 + 20
        # Whole numbers, so that the natural size is a whole pixel size.
        self.width = float(math.ceil(2 * half_w))
        board_h = math.ceil(board_h)
        self.cx = self.width / 2
        self.cy = TITLE_H + board_h / 2.0
        self.legend_y = TITLE_H + board_h
        self.height = self.legend_y + LEGEND_H

    def at(self, i, c):
        """Centre of (row index i, number c), on the board or just off it."""
        return self.cx + ((c - 5) - (i - 4) / 2.0) * self.w, self.cy - (i - 4) * 1.5 * R

    def center(self, x):
        """Centre of cell index x (0..60)."""
        i = 0
        while ROW_START[i + 1] <= x:
            i += 1
        lo = 1 if i < 4 else i - 3
        return self.at(i, lo + x - ROW_START[i])


class _Svg:
    """The document being built: body lines, and defs, each defined once."""

    def __init__(self):
        self.defs = []
        self.body = []
        self.defined = set()

    def define(self, key, text):
        if key not in self.defined:
            self.defined.add(key)
            self.defs.append(text)
        return key

    def add(self, text):
        self.body.append(text)

    def glyph(self, sym):
        info = S.load()["symbols"][sym]
        key = "sym-%d" % sym
        title = escape("%d %s / %s" % (sym, info["en"], info["it"]))
        return self.define(
            key, '<g id="%s"><title>%s</title>%s</g>' % (key, title, S.svg_paths(info["layers"]))
        )

    def special(self, kind, colour, background):
        key = "special-%s-%s" % (kind, colour.lstrip("#"))
        layers = S.load()["specials"][kind]["layers"]
        return self.define(
            key, '<g id="%s">%s</g>' % (key, S.svg_paths(layers, colour, background))
        )


def _use(key, cx, cy, size, extra=""):
    """Glyph key (drawn in the symbols' box) size units wide, centred on
    (cx, cy)."""
    k = size / float(S.load()["box"])
    return '<use xlink:href="#%s" transform="translate(%s %s) scale(%s)"%s/>' % (
        key,
        _n(cx - size / 2.0),
        _n(cy - size / 2.0),
        ("%.4f" % k).rstrip("0"),
        extra,
    )


def _ring(cx, cy, dashed=False, r=R - 2.5, width=4.0, colour=LAST):
    return (
        '<polygon points="%s" transform="translate(%s %s)" fill="none" stroke="%s" '
        'stroke-width="%s" stroke-linejoin="round"%s/>'
        % (
            _hex_points(r),
            _n(cx),
            _n(cy),
            colour,
            _n(width),
            ' stroke-dasharray="8 5"' if dashed else "",
        )
    )


def _define_shapes(svg):
    svg.define("cell", '<polygon id="cell" points="%s"/>' % _hex_points(R - 0.5))
    svg.define("crown", '<path id="crown" d="%s" fill-rule="evenodd"/>' % _CROWN)
    for side in (0, 1):
        # A card tile: the back's colour, a fine inner line, six badges for
        # the symbols (a badge keeps every pictogram on the same light
        # ground, on black and gold tiles alike).
        parts = [
            '<polygon points="%s" fill="%s" stroke="%s" stroke-width="1.5"/>'
            % (_hex_points(TILE), SIDE_FILL[side], SIDE_EDGE[side]),
            '<polygon points="%s" fill="none" stroke="%s" stroke-width="1" opacity="0.6"/>'
            % (_hex_points(TILE - 3.5), SIDE_EDGE[side]),
        ]
        for d in range(6):
            dx, dy = _dir(d)
            parts.append(
                '<circle cx="%s" cy="%s" r="%s" fill="%s"/>'
                % (_n(BADGE_AT * dx), _n(BADGE_AT * dy), _n(BADGE_R), BADGE)
            )
        svg.define("tile-%d" % side, '<g id="tile-%d">%s</g>' % (side, "".join(parts)))


def _frame(svg, lay):
    # The board's outline: a flat-topped hexagon around the six corner
    # cells A1 A5 E9 I9 I5 E1, each pushed out from the centre.
    pts = []
    for i, c in ((0, 1), (0, 5), (4, 9), (8, 9), (8, 5), (4, 1)):
        x, y = lay.at(i, c)
        dx, dy = x - lay.cx, y - lay.cy
        k = 1.0 + 1.45 * R / math.hypot(dx, dy)
        pts.append("%s,%s" % (_n(lay.cx + dx * k), _n(lay.cy + dy * k)))
    svg.add(
        '<polygon class="frame" points="%s" fill="%s" stroke="%s" stroke-width="3" '
        'stroke-linejoin="round"/>' % (" ".join(pts), FRAME, FRAME_EDGE)
    )


def _coordinates(svg, lay):
    # RULES.md §1: rows A..I bottom to top, row i numbered max(1, i-3) ..
    # min(9, i+5). Each of the board's six edges carries one kind of label
    # one cell beyond it: row letters on the two left edges and the upper
    # right one; numbers on the bottom and lower right edges (where the
    # lines of equal number start, as on an Abalone board) and on the top.
    spots = []
    for i in range(9):
        spots.append((i, (1 if i < 4 else i - 3) - 1, ROWS[i]))
        if i >= 4:
            spots.append((i, 10, ROWS[i]))
    for c in range(1, 10):
        spots.append((max(0, c - 5) - 1, c, str(c)))  # below number c's lowest cell
        if c >= 5:
            spots.append((9, c, str(c)))  # above row I
    out = [
        '<g class="coords" font-size="15" font-weight="bold" fill="%s" text-anchor="middle">'
        % COORD
    ]
    for i, c, text in spots:
        x, y = lay.at(i, c)
        out.append('<text x="%s" y="%s">%s</text>' % (_n(x), _n(y + 5.5), text))
    out.append("</g>")
    svg.add("".join(out))


def _cells(svg, lay, game, names, quiet, fills=None):
    """The 61 cells; the names of the empty ones (not those in quiet,
    where the last move leaves a ghost or an icon). fills: x -> (colour,
    more attributes) for a cell drawn in another colour (a live board's
    LEDs), or None for the usual one."""
    svg.add('<g class="cells">')
    for x in range(NCELLS):
        cx, cy = lay.center(x)
        lit = fills and fills(x)
        fill, more = lit or (ROYAL_PALE if x == ROYAL else CELL, "")
        svg.add(
            '<use xlink:href="#cell" class="cell" data-cell="%s" x="%s" y="%s" fill="%s" '
            'stroke="%s" stroke-width="1.2"%s/>'
            % (cell_name(x), _n(cx), _n(cy), fill, CELL_EDGE, more)
        )
        if names and not game.board[x] and x != ROYAL and x not in quiet:
            svg.add(
                '<text x="%s" y="%s" font-size="12" fill="%s" text-anchor="middle">%s</text>'
                % (_n(cx), _n(cy + 4.5), ink(fill) if lit else CELL_TEXT, cell_name(x))
            )
    svg.add("</g>")


def ink(fill):
    """The label colour for a text on fill ('#rrggbb'): black or white,
    whichever has the higher contrast ratio there."""
    return C.hex_of(C.ink_on(C.rgb_of(fill)))


def _royal_cell(svg, lay, game, fills=None, words=True, state=None):
    """The empty Royal Cell (§3.1): a crown, a padlock while locked, a
    dashed frame while a side may take it, and its state in a word unless
    words is false. On a cell lit in an LED colour (fills) they are drawn
    in that colour's label ink. state: render_svg's royal."""
    if game.board[ROYAL]:
        return  # the Royal card is drawn with the cards
    if state is None:
        state, _who = P.royal_state(game)
    cx, cy = lay.center(ROYAL)
    lit = fills and fills(ROYAL)
    colour = ROYAL_COLOUR if state == "open" else ROYAL_LOCKED
    text = ROYAL_COLOUR if state == "open" else ROYAL_LOCKED_TEXT
    if lit:
        colour = text = ink(lit[0])
    out = ['<g class="royal" data-state="%s">' % state]
    if state == "open":
        out.append(_ring(cx, cy, True, TILE - 2, 3, colour))
    out.append(_use("crown", cx, cy - 6, 34, ' fill="%s"' % colour))
    if state == "locked":
        svg.define("padlock", '<path id="padlock" d="%s" fill-rule="evenodd"/>' % _PADLOCK)
        out.append(_use("padlock", cx + 13, cy + 17, 16, ' fill="%s"' % (colour if lit else INK)))
    if words and state in _ROYAL_WORDS:
        out.append(
            '<text x="%s" y="%s" font-size="11" fill="%s" text-anchor="middle">%s</text>'
            % (
                _n(cx if state == "open" else cx - 6),
                _n(cy + 22),
                text,
                escape(_(_ROYAL_WORDS[state])),
            )
        )
    out.append("</g>")
    svg.add("".join(out))


def _card(svg, lay, game, x, sealed, seal_syms):
    cx, cy = lay.center(x)
    side = game.owner(x)
    card = game.card_at(x)
    classes = "card"
    if sealed[x]:
        classes += " sealed"
    if x == ROYAL:
        classes += " royal-card"
    head = '<g class="%s" data-cell="%s" data-side="%d" transform="translate(%s %s)"' % (
        classes,
        cell_name(x),
        side,
        _n(cx),
        _n(cy),
    )
    if card == RAIN:
        # §3.2: a Rain stays on the board as its owner's card and carries
        # no symbol; drawn in the side's special colour.
        icon = svg.special("rain", "#ffffff", SPECIAL_FILL[side])
        svg.add(
            '%s data-kind="rain"><polygon points="%s" fill="%s" stroke="%s" '
            'stroke-width="1.5"/>%s</g>'
            % (head, _hex_points(TILE), SPECIAL_FILL[side], SIDE_FILL[side], _use(icon, 0, 1, 44))
        )
        return
    slots = P.symbol_slots(game, x)
    out = [
        '%s data-card="%d" data-symbols="%s"><use xlink:href="#tile-%d"/>'
        % (head, card, ",".join(str(s) for s in slots), side)
    ]
    for d in range(6):
        dx, dy = _dir(d)
        bx, by = BADGE_AT * dx, BADGE_AT * dy
        if slots[d] in seal_syms.get(x, ()):
            out.append(
                '<circle class="seal-ring" cx="%s" cy="%s" r="%s" fill="none" stroke="%s" '
                'stroke-width="2.5"/>' % (_n(bx), _n(by), _n(BADGE_R + 0.2), SEAL)
            )
        out.append(_use(svg.glyph(slots[d]), bx, by, GLYPH, ' class="symbol"'))
    royal = x == ROYAL
    out.append(
        '<circle r="11.5" fill="%s"/><text y="5.2" font-size="15" font-weight="bold" '
        'fill="%s" text-anchor="middle">%d</text></g>'
        % (
            ROYAL_COLOUR if royal else SIDE_FILL[side],
            "#ffffff" if royal else SIDE_TEXT[side],
            card,
        )
    )
    if royal:  # §3.1: the Royal card never moves again: a purple frame
        out.append(_ring(cx, cy, colour=ROYAL_COLOUR))
    svg.add("".join(out))


def _seal_bridges(svg, lay, links):
    # §2: a sequence of 4 is sealed. Its cards are joined by a bar through
    # the gaps between the tiles; their shared symbol gets a ring.
    if not links:
        return
    out = ['<g class="seals" stroke="%s" stroke-width="11" stroke-linecap="round">' % SEAL]
    for x, y, s in links:
        (x1, y1), (x2, y2) = lay.center(x), lay.center(y)
        out.append(
            '<line class="seal" data-from="%s" data-to="%s" data-symbol="%d" '
            'x1="%s" y1="%s" x2="%s" y2="%s"/>'
            % (cell_name(x), cell_name(y), s, _n(x1), _n(y1), _n(x2), _n(y2))
        )
    out.append("</g>")
    svg.add("".join(out))


def _ghost(lay, occupant, x):
    # A card the last move took off the board, drawn faintly where it was.
    # occupant: a board byte, 1 + side*32 + card (docs/rules-engine.md).
    cx, cy = lay.center(x)
    side, card = (occupant - 1) >> 5, (occupant - 1) & 31
    return (
        '<g class="ghost" data-cell="%s" opacity="0.35" transform="translate(%s %s)">'
        '<polygon points="%s" fill="%s"/><text y="5.2" font-size="15" font-weight="bold" '
        'fill="%s" text-anchor="middle">%s</text></g>'
        % (
            cell_name(x),
            _n(cx),
            _n(cy),
            _hex_points(TILE),
            SPECIAL_FILL[side] if card == RAIN else SIDE_FILL[side],
            SIDE_TEXT[side],
            "" if card == RAIN else str(card),
        )
    )


def _arrow(x1, y1, x2, y2):
    # From the source's rim to a head touching the destination's ring;
    # dashed and see-through, as it may cross other cards.
    dx, dy = x2 - x1, y2 - y1
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    tx, ty = x2 - ux * 40, y2 - uy * 40  # the tip
    bx, by = tx - ux * 20, ty - uy * 20  # the middle of the head's base
    head = ((tx, ty), (bx - uy * 11, by + ux * 11), (bx + uy * 11, by - ux * 11))
    return (
        '<g class="arrow" opacity="0.85"><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" '
        'stroke-width="4" stroke-dasharray="10 6"/><polygon points="%s" fill="%s"/></g>'
        % (
            _n(x1 + ux * 30),
            _n(y1 + uy * 30),
            _n(bx),
            _n(by),
            LAST,
            " ".join("%s,%s" % (_n(a), _n(b)) for a, b in head),
            LAST,
        )
    )


def _last_move(svg, lay, kind, payload):
    """A blue ring where a card arrived; a dashed one, with the card's
    ghost, where one left; an arrow for a Beekeeper's move (§3.2); the
    Beekeeper's or Smoker's icon where it acted (both are discarded
    after use, so this is their only trace on the board)."""
    if not kind:
        return
    cells = P.move_cells(kind, payload)
    side = payload[0]
    out = []
    if kind in (PLACE, RAIN_MOVE):
        out.append(_ring(*lay.center(cells[0])))
    elif kind == BEEKEEPER:
        (x1, y1), (x2, y2) = lay.center(cells[0]), lay.center(cells[1])
        out.append(_ring(x1, y1, dashed=True))
        out.append(_ring(x2, y2))
        out.append(_arrow(x1, y1, x2, y2))
        icon = svg.special("beekeeper", SPECIAL_FILL[side], BADGE)
        out.append(_use(icon, x1, y1, 40, ' class="special-used" data-kind="beekeeper"'))
    elif kind == SMOKER:
        cx, cy = lay.center(cells[0])
        out.append(_ghost(lay, payload[2], cells[0]))
        out.append(_ring(cx, cy, dashed=True))
        icon = svg.special("smoker", SPECIAL_FILL[side], BADGE)
        out.append(_use(icon, cx, cy, 40, ' class="special-used" data-kind="smoker"'))
    elif kind == RESERVE:  # §4: the keeper took these cards back
        for k, x in enumerate(cells):
            out.append(_ghost(lay, payload[2 + 2 * k], x))
            out.append(_ring(*lay.center(x), dashed=True))
    svg.add(
        '<g class="last-move" data-kind="%s" data-cells="%s">%s</g>'
        % (
            _KIND_NAMES.get(kind, "reserve" if kind == RESERVE else "declaration"),
            " ".join(cell_name(x) for x in cells),
            "".join(out),
        )
    )


def _title(svg, game, title, last_text, stopped=None):
    """The heading, then whose turn it is or the result, with a swatch of
    that side's colour, and the last move."""
    line2 = P.status_text(game, stopped)
    if last_text:
        line2 += "  \u00b7  " + _("last move: %s") % last_text
    side = P.side_shown(game)
    swatch = ""
    x2 = 24
    if side is not None:
        swatch = '<polygon points="%s" transform="translate(32 53)" fill="%s" stroke="%s"/>' % (
            _hex_points(9),
            SIDE_FILL[side],
            SIDE_EDGE[side],
        )
        x2 = 46
    svg.add(
        '<g class="title" fill="%s"><text x="24" y="32" font-size="21" font-weight="bold">%s'
        '</text><text x="%d" y="58" font-size="15">%s</text>%s</g>'
        % (INK, escape(title or "APIXAGON"), x2, escape(line2), swatch)
    )


def _legend(svg, lay, game):
    """Per side: its tile, its cards on the board and its specials (§3.2:
    full colour while in hand, faded once used). On the right, what the
    marks mean."""
    y0 = lay.legend_y
    out = ['<g class="legend" font-size="14" fill="%s">' % INK]
    junior = game.mode == JUNIOR
    on_board = P.cards_on_board(game)
    initial = P.initial_specials(game)
    icons_x = 330
    if not junior:
        out.append(
            '<text x="%s" y="%s" font-size="12" fill="%s">%s</text>'
            % (_n(icons_x - 12), _n(y0 + 12), LABEL, escape(_("specials (faded: used)")))
        )
        if not game.specials_unlocked():  # §3.2
            out.append(
                '<text x="40" y="%s" font-size="12" fill="%s">%s</text>'
                % (
                    _n(y0 + 104),
                    LABEL,
                    escape(_("The specials are locked until the Royal Cell is taken.")),
                )
            )
    for row, side in enumerate((0,) if junior else (0, 1)):
        y = y0 + 36 + row * 34
        out.append(
            '<polygon points="%s" transform="translate(40 %s)" fill="%s" stroke="%s"/>'
            % (_hex_points(13), _n(y), SIDE_FILL[side], SIDE_EDGE[side])
        )
        label = P.side_label(game, side)
        if game.teams:
            label += " (%s)" % (_("black"), _("gold"))[side]
        out.append(
            '<text x="62" y="%s"><tspan font-weight="bold">%s</tspan>  %s</text>'
            % (_n(y + 5), escape(label), escape(_("%d on the board") % on_board[side]))
        )
        if junior:
            continue
        left = game.specials_left(side)
        x = icons_x
        for k, kind in enumerate(S.SPECIAL_KINDS):
            for j in range(max(initial[side][k], left[k])):
                used = j >= left[k]
                icon = svg.special(kind, MUTED if used else SPECIAL_FILL[side], PAPER)
                extra = ' class="special-icon" data-side="%d" data-kind="%s" data-used="%d"'
                out.append(_use(icon, x, y, 26, extra % (side, kind, used)))
                x += 30
    kx = lay.width - 300
    out.append(_ring(kx, y0 + 22, r=12, width=3))
    out.append('<text x="%s" y="%s">%s</text>' % (_n(kx + 24), _n(y0 + 27), escape(_("last move"))))
    out.append(
        '<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="9" '
        'stroke-linecap="round"/>' % (_n(kx - 10), _n(y0 + 54), _n(kx + 10), _n(y0 + 54), SEAL)
    )
    out.append(
        '<text x="%s" y="%s">%s</text>'
        % (_n(kx + 24), _n(y0 + 59), escape(_("sealed sequence of 4")))
    )
    state, who = P.royal_state(game)
    if state == "occupied":
        text = _("Royal Cell taken, specials unlocked")
    elif state == "open":
        text = _("Royal Cell open for %s") % _(" and ").join(P.side_label(game, t) for t in who)
    else:
        text = _("Royal Cell locked")
    text = escape(text)
    out.append(_use("crown", kx, y0 + 86, 22, ' fill="%s"' % ROYAL_COLOUR))
    out.append('<text class="royal-key" x="%s" y="%s">%s</text>' % (_n(kx + 24), _n(y0 + 91), text))
    out.append("</g>")
    svg.add("".join(out))


def render_svg(
    game,
    title=None,
    size=None,
    coordinates=True,
    fills=None,
    chrome=True,
    stopped=None,
    words=True,
    royal=None,
):
    """The position of game as an SVG document (a str). Pure and
    deterministic: the same game gives the same bytes.

    title: the first line (board, log, move number); the second says whose
    turn it is or the result, and the last move. size: the width in
    pixels, the height follows (default: the natural size, 1 unit a
    pixel). coordinates: the row letters and numbers around the board and
    the names of the empty cells. fills: x -> (colour, attributes) or None,
    a cell's own colour (_cells). chrome: the title and the legend; without
    them only the board is drawn (the web companion says the rest in
    words). stopped: how a match stopped that the rules did not end
    ("abandoned"), said instead of whose turn it is. words: false draws
    no word on the board but the cells' names (with chrome false, a
    picture that pages in any language can share). royal: the empty Royal
    Cell's state when the caller knows it better than the position ('open',
    'locked', or 'unknown': the crown alone), as the live board does from
    its LED: whether it is open depends on earlier turns (§3.1, D-5), which
    a position sensed from the cells does not hold."""
    lay = Layout(coordinates)
    svg = _Svg()
    _define_shapes(svg)
    sealed, links = P.sealed_links(game)
    seal_syms = {}
    for x, y, s in links:
        seal_syms.setdefault(x, set()).add(s)
        seal_syms.setdefault(y, set()).add(s)
    kind, payload, last_text = record.last_move(game)
    quiet = () if kind in (PLACE, RAIN_MOVE) else P.move_cells(kind, payload)

    top, tall = (0.0, lay.height) if chrome else (TITLE_H, lay.legend_y - TITLE_H)
    svg.add(
        '<rect%s width="100%%" height="100%%" fill="%s"/>'
        % (' y="%s"' % _n(top) if top else "", PAPER)
    )
    if chrome:
        _title(svg, game, title, last_text, stopped)
    _frame(svg, lay)
    if coordinates:
        _coordinates(svg, lay)
    _cells(svg, lay, game, coordinates, quiet, fills)
    _royal_cell(svg, lay, game, fills, words, royal)
    _seal_bridges(svg, lay, links)
    svg.add('<g class="cards">')
    for x in range(NCELLS):
        if game.board[x]:
            _card(svg, lay, game, x, sealed, seal_syms)
    svg.add("</g>")
    _last_move(svg, lay, kind, payload)
    if chrome:
        _legend(svg, lay, game)

    width, height = pixel_size(lay, size, tall)
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'version="1.1" width="%d" height="%d" viewBox="0 %s %s %s" font-family=%s>'
        % (width, height, _n(top), _n(lay.width), _n(tall), quoteattr(FONT))
    )
    return "\n".join([head, "<defs>"] + svg.defs + ["</defs>"] + svg.body + ["</svg>", ""])


def pixel_size(lay, size=None, tall=None):
    """(width, height) in whole pixels of a picture size pixels wide (the
    natural size if None) and tall units high (the whole layout's if None)."""
    width = int(lay.width) if size is None else int(size)
    return width, int(round((lay.height if tall is None else tall) * width / lay.width))


LEGEND_ROW = 26.0  # the LED legend: a row's height
LEGEND_COL = 300.0  # and a column's width


def led_legend_svg(rows, title=None, columns=2):
    """The LED legend as an SVG document: rows are (colour '#rrggbb', name,
    blink '' / 'slow' / 'fast'), web.live.legend's (smartboard.sim.legend's
    table in one palette). Each colour is a small cell drawn as the board
    draws a lit cell, its blink marked on it (* slow, ** fast) in the
    label ink that reads best on it, its name beside it."""
    per = (len(rows) + columns - 1) // columns
    top = 44.0
    width = 24 + columns * LEGEND_COL
    height = top + per * LEGEND_ROW + 12
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%d" height="%d" '
        'viewBox="0 0 %d %d" font-family=%s>' % (width, height, width, height, quoteattr(FONT)),
        '<rect width="100%%" height="100%%" fill="%s"/>' % PAPER,
        '<text x="24" y="28" font-size="18" font-weight="bold" fill="%s">%s</text>'
        % (INK, escape(_("What the LEDs show") if title is None else title)),
        '<g class="led-legend" font-size="14">',
    ]
    for k, (colour, name, blink) in enumerate(rows):
        x = 24 + (k // per) * LEGEND_COL + 14
        y = top + (k % per) * LEGEND_ROW + LEGEND_ROW / 2
        mark = {"slow": "*", "fast": "**"}.get(blink, "")
        out.append(
            '<g class="entry"%s><polygon points="%s" transform="translate(%s %s)" fill="%s" '
            'stroke="%s"/><text x="%s" y="%s" font-weight="bold" fill="%s" '
            'text-anchor="middle">%s</text><text x="%s" y="%s" fill="%s">%s</text></g>'
            % (
                ' data-blink="%s"' % blink if blink else "",
                _hex_points(12),
                _n(x),
                _n(y),
                colour,
                CELL_EDGE,
                _n(x),
                _n(y + 5),
                ink(colour),
                mark,
                _n(x + 20),
                _n(y + 5),
                INK,
                escape(name),
            )
        )
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


class PngUnavailable(Exception):
    """CairoSVG, or the cairo library it loads, is not installed."""


def svg_to_png(svg):
    """PNG bytes of an SVG document, rasterised by CairoSVG at the size the
    SVG states (python-chess's convention for PNG). Raises PngUnavailable
    when CairoSVG or libcairo is missing."""
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # OSError: cairocffi found no libcairo
        raise PngUnavailable(str(e))
    # A base URL for the document lets CairoSVG cache each <use>d glyph
    # instead of searching the tree for it at every use: the same pixels,
    # about a quarter faster on a crowded board. Every reference is inside
    # the document, so nothing is ever fetched from it.
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), url="file:///apixagon-position.svg")

"""Drawing a board's state for `apixagon monitor`: the hexagon with each
cell in its LED colour and the card on it, the status line, the one-line
forms of the plain log. Pure functions of what the board sent (CELLS and
LED layer bytes, STATUS fields). The palette, the card names and the cell
painting are the firmware's own (smartboard.view, smartboard.sim.console):
the live view shows what `make console` shows, never a copy of it."""

from apixagon.geometry import NCELLS, NONE, ROW_START, ROWS, cell_name, parse_cell
from smartboard import view
from smartboard.sim.console import Console, card_code, card_text
from smartboard.sim.legend import BLINKS, LEGEND
from smartboard.sim.legend import lines as legend_lines

from . import words
from .i18n import N_, _

# The console's cell painter (board palette -> ANSI colours); it needs no
# simulated board for that, only whether to colour.
_COLOUR = Console(None, colour=True)
_MONO = Console(None, colour=False)
_BLINK = "\x1b[5m"  # SGR 5: blinks where the terminal can; "*" marks it anyway
_RESET = "\x1b[0m"


def paint(v, text, colour=True):
    """One cell (or legend entry) in the colour of LED layer value v."""
    cell = (_COLOUR if colour else _MONO)._cell(v, text)
    if colour and v & 0x3F and v & (view.SLOW | view.FAST):
        cell = _BLINK + cell + _RESET
    return cell


def hexagon(layer, cells, letters, colour=True, want=()):
    """The board as 9 text rows, row I on top as the console draws it: a
    cell shows its card (B12, Gbk, ' ? ' for one the board cannot name) or
    its own name when empty, '*' when its LED blinks. want: (cell, token)
    pairs of a resume; an empty cell there shows, in lower case, the card
    that goes back on it (b12, g~~)."""
    back = _wanted(want, letters)
    lines = []
    for i in range(8, -1, -1):
        row = []
        for x in range(ROW_START[i], ROW_START[i + 1]):
            v = layer[x]
            if cells[x]:
                text = card_text(cells[x], letters)
            else:
                text = back.get(x) or cell_name(x).lower() + " "
            mark = "*" if v & (view.SLOW | view.FAST) else " "
            row.append(paint(v, text + mark, colour))
        lines.append("%s %s%s" % (ROWS[i], "   " * abs(4 - i), " ".join(row)))
    return lines


def _wanted(want, letters):
    # cell index -> the 3-character card text (the console's), lower case:
    # a card not there yet, unlike the upper-case ones on the board
    out = {}
    for cell, token in want:
        x = parse_cell(cell)
        code = card_code(token, letters == "AB")
        if x != NONE and x < NCELLS and code >= 0:
            out[x] = card_text(code + 1, letters).lower()
    return out


def legend(colour=True, width=78):
    """What each LED colour means (smartboard.sim.legend, the console's
    legend), wrapped so that no line runs past width columns."""
    items = []
    for v, name in LEGEND:
        name += BLINKS[(v >> 6) & 3]
        items.append((paint(v, name, colour), len(name)))
    return legend_lines(items, width)


# STATUS display= (docs/protocol.md) in words; translated where shown
DISPLAYS = {
    "adult": N_("adult"),
    "hint": N_("hint"),
    "card_query": N_("card query"),
    "card query": N_("card query"),
}


def status_line(status):
    """The match as STATUS tells it (docs/protocol.md)."""
    st = status
    phase = st.get("phase", "?")
    parts = ["[%s]" % phase, words.setup_text(st)]
    winner = st.get("winner")
    sides = st.get("sides", "BG")
    if winner:
        parts.append(words.winner_text(winner, sides))
    elif phase == "play" and st.get("to_play") and sides != "JJ":  # Junior: no turns (§6)
        parts.append(_("to play: %s") % words.side_name(st["to_play"], sides))
    # moves: the record's move lines, as the move events and `logs` count
    # them (ply, the turn counter, leaves out declarations and the last move)
    moves = st.get("moves", st.get("ply"))
    if moves is not None:
        parts.append(_("moves %s") % moves)
    if st.get("last"):
        parts.append(_("last: %s") % st["last"].replace("_", " "))
    if st.get("display"):  # card_query (or card query, older firmware): in words
        shown = DISPLAYS.get(st["display"])
        parts.append(_("display %s") % (_(shown) if shown else st["display"].replace("_", " ")))
    if st.get("unlogged") == "1":
        parts.append(_("NOT SAVED"))
    elif st.get("room") == "0":
        parts.append(_("STORAGE FULL: pull the matches"))
    elif st.get("low") == "1":
        parts.append(_("STORAGE LOW: pull the matches"))
    return "  ".join(parts)


def status_notes(status):
    """The lines under the status line: the refusal in force (STATUS
    refused=), the declaration DECLARE previews (declare=), the cards a
    resume waits for (want=), the computer's move the board waits for
    (expect=) and who the computer plays (computer=). Older firmware sends
    none of them."""
    out = []
    if status.get("refused"):
        out.append(words.status_refusal(status["refused"], status.get("moves")))
    if status.get("declare"):
        out.append(words.declaration(status["declare"], status.get("sides", "BG")))
    want = words.want_cells(status.get("want", ""))
    if want:
        out.append(words.want_line(want))
    if status.get("expect"):
        out.append(words.expect_line(status["expect"], status.get("sides", "BG")))
    if status.get("computer"):
        out.append(words.computer_text(status["computer"], status.get("sides", "BG")))
    out += words.storage_notes(status)
    return out


def cells_text(cells, letters):
    """The plain log's form of a cells event: the occupied cells with their
    cards (E4=B12 E6=G05, ? for a card the board cannot name), or '-'."""
    out = []
    for x in range(NCELLS):
        if cells[x]:
            out.append("%s=%s" % (cell_name(x), card_text(cells[x], letters).strip()))
    return " ".join(out) or "-"


def led_text(layer):
    """The plain log's form of a leds event: one character per cell, '.'
    dark, else the palette index as a letter, lower case when blinking."""
    out = []
    for v in layer:
        c = v & 0x3F
        ch = "." if c == view.OFF else chr(ord("A") + c)
        out.append(ch.lower() if v & (view.SLOW | view.FAST) else ch)
    return "".join(out)

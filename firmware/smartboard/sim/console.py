# The simulated board on a terminal (`make run`): the real firmware loop
# under the MicroPython unix port, the 61 LEDs drawn as the hexagon, and
# typed commands for the hands of the players. See HELP.
import sys

from apixagon.codes import JUNIOR, MODES, OUT
from apixagon.geometry import NCELLS, NONE, ROW_START, ROWS, cell_name, parse_cell
from apixagon.record import mode_letters, side_letters

from .. import board as B
from .. import buttons, tag, view
from .. import settings as S
from ..report import refused_text
from .legend import BLINKS, LEGEND, ink
from .legend import lines as legend_lines
from .rig import Rig

HELP = """\
  put CELL CARD   put a card on a cell     CARD: B12 G3 (A/B in team games),
  lift CELL       lift the card off it           Brain Gbee Gsmoker
  clear           lift every card (set-up: readies the board for a match)
  tap CARD        tap a card on the action pad (specials, card query, and
                  in profile B the identity of the next card put down)
  mode | confirm | declare [long]   press a button (long: held 0.9 s)
  noise MISS TORN  NFC read faults per 1000 reads     wait MS    show
  help            this text                 quit    leave
Set-up: mode = game mode, declare = who starts, confirm = start the match."""


def card_code(text, teams):
    """Tag code of a card token (B12, Grain, Abee, Bsmoker), or -1."""
    if len(text) < 2:
        return -1
    letters = "AB" if teams else "BG"
    side = letters.find(text[0].upper())
    if text[0].upper() == "J":
        side = 0
    if side < 0:
        return -1
    rest = text[1:].lower()
    if rest == "rain":
        return tag.code(side, tag.RAIN, 0)
    if rest in ("rain2", "rain1"):
        return tag.code(side, tag.RAIN, 1 if rest == "rain2" else 0)
    if rest in ("bee", "beekeeper"):
        return tag.code(side, tag.BEEKEEPER, 0)
    if rest in ("smoker", "smoke"):
        return tag.code(side, tag.SMOKER, 0)
    try:
        i = int(rest)
    except ValueError:
        return -1
    return tag.code(side, tag.NORMAL, i) if 0 <= i <= 30 else -1


def card_text(state, letters):
    if not state:
        return "   "
    if state >= 0xFC:
        return " ? "
    c = state - 1
    k = tag.kind_of(c)
    s = letters[tag.side_of(c)]
    if k == tag.NORMAL:
        return "%s%02d" % (s, tag.index_of(c))
    return s + ("~~", "bk", "sm")[k - 1]


class Console:
    def __init__(self, rig, colour=True, out=None):
        self.rig = rig
        self.colour = colour
        self.out = out or sys.stdout

    def teams(self):
        return self.letters() == "AB"

    def letters(self):
        ref = self.rig.board.ref
        if ref is not None:
            return side_letters(ref.game)
        st = self.rig.board.settings  # set-up: the match the settings describe
        return mode_letters(st.get(S.GAME_MODE), self.rig.board.players())

    def draw(self):
        b = self.rig.board
        layer = b.view.layer
        letters = self.letters()
        lines = []
        for i in range(8, -1, -1):
            row = []
            for x in range(ROW_START[i], ROW_START[i + 1]):
                v = layer[x]
                text = card_text(b.sensed[x], letters)
                if not b.sensed[x]:
                    text = cell_name(x).lower() + " "
                mark = "*" if v & (view.SLOW | view.FAST) else " "
                row.append(self._cell(v, text + mark))
            lines.append("%s %s%s" % (ROWS[i], "   " * abs(4 - i), " ".join(row)))
        lines.append(self.status())
        self.out.write("\n".join(lines) + "\n")

    def _cell(self, v, text):
        r, g, b = view.colour_of(v)
        if not self.colour:
            return "%-5s" % text if not v & 0x3F else "%-5s" % text.upper()
        if not v & 0x3F:
            return text
        # the ink as an exact colour (a terminal's own black and white
        # vary), whichever of the two reads better on this fill
        fg = "0;0;0" if ink(r, g, b) else "255;255;255"
        return "\x1b[38;2;%s;48;2;%d;%d;%dm%s\x1b[0m" % (fg, r, g, b, text)

    def status(self):
        b = self.rig.board
        s = b.settings
        parts = ["[%s]" % B.PHASES[b.phase]]
        if b.ref is None:
            m = s.get(S.GAME_MODE)
            parts.append("mode %s" % MODES[m])
            parts.append("start %s" % self.letters()[s.get(S.START)])
            if b.players():
                parts.append("players %d" % b.players())
            if s.get(S.STP):
                parts.append("special_then_place")
        else:
            g = b.ref.game
            if g.over():
                w = g.winner()
                if g.mode == JUNIOR:
                    parts.append("player %d wins" % w if w else "all cards placed")
                else:
                    parts.append("draw" if w > 1 else "%s wins" % self.letters()[w])
            else:
                t = g.side_to_play()
                seat = g.seat_to_play() if g.teams else ""
                parts.append("to play: %s%s" % (self.letters()[t], seat))
            parts.append("moves %d" % g.nmoves())  # record lines (ply: turns)
            if b.declaring:
                kind, arg = b.declaration()
                who = "J%d" % arg if kind == OUT else self.letters()[arg]
                parts.append("declare %s %s? (confirm)" % (who, B.DECLARATIONS[kind]))
            if b.ref.refusal is not None:
                parts.append("refused: %s" % refused_text(b.ref))
        parts.append("display %s" % B.DISPLAY_NAMES[s.get(S.DISPLAY)])
        parts.append("t=%d.%03ds" % (self.rig.now() // 1000, self.rig.now() % 1000))
        if b.message:
            parts.append("| " + b.message)
            b.message = ""
        return "  ".join(parts)

    def legend(self):
        items = []
        for v, name in LEGEND:
            name += BLINKS[(v >> 6) & 3]
            items.append((self._cell(v, name), len(name)))
        self.out.write("\n".join(legend_lines(items)) + "\n")

    def command(self, line):
        """Run one typed command; False to quit. Errors are printed, and
        change nothing."""
        words = line.split()
        if not words:
            return True
        w = words[0].lower()
        rig = self.rig
        try:
            if w in ("quit", "exit", "q"):
                return False
            if w == "help":
                self.out.write(HELP + "\n")
                self.legend()
                return True
            if w in ("put", "place"):
                x = self._cell_arg(words, 1)
                c, on = rig.card_to_put(self._card_arg(words, 2))
                if on >= 0 and on != x:
                    # a card is in one place: it would read on two cells
                    raise ValueError(
                        "%s is on %s: a card cannot lie on two cells (lift it first)"
                        % (words[2], cell_name(on))
                    )
                rig.put(cell_name(x), c)
            elif w == "lift":
                rig.lift(cell_name(self._cell_arg(words, 1)))
            elif w == "clear":
                if rig.board.phase != B.SETUP:
                    # in a match a lift is a take-back: its cards stay
                    raise ValueError(
                        "clear is for set-up: after the match press confirm, then clear"
                    )
                for x in range(NCELLS):
                    if rig.cells.cells[rig.layout.sensor[x]]:
                        rig.lift(cell_name(x))
                        rig.run(60)  # one after the other, as a hand does
            elif w == "tap":
                rig.tap(self._card_arg(words, 1))
            elif w in ("mode", "confirm", "declare"):
                long = len(words) > 1 and words[1] == "long"
                rig.press(buttons.NAMES.index(w), long)
            elif w == "noise":
                rig.cells.miss = int(words[1])
                rig.cells.torn = int(words[2]) if len(words) > 2 else 0
            elif w == "wait":
                rig.run(int(words[1]))
            elif w != "show":
                raise ValueError("unknown command %r (try help)" % w)
        except (ValueError, IndexError) as e:
            msg = str(e) if isinstance(e, ValueError) else "missing argument (try help)"
            self.out.write("error: %s\n" % msg)
            return True
        rig.settle()
        self.draw()
        return True

    def _cell_arg(self, words, i):
        x = parse_cell(words[i].upper())
        if x == NONE or x >= NCELLS:
            raise ValueError("no cell %r on the board" % words[i])
        return x

    def _card_arg(self, words, i):
        c = card_code(words[i], self.teams())
        if c < 0:
            raise ValueError("no card %r (B12, Grain, Gbee, Bsmoker)" % words[i])
        return c


def main(argv):
    profile = "A"
    path = "build/apixagon-settings.bin"
    colour = True
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--profile" and i + 1 < len(argv) and argv[i + 1] in ("A", "B"):
            profile = argv[i + 1]
            i += 1
        elif a == "--settings" and i + 1 < len(argv):
            path = argv[i + 1]
            i += 1
        elif a == "--plain":
            colour = False
        else:
            print("usage: simboard [--profile A|B] [--settings FILE] [--plain]")
            return 2
        i += 1
    con = Console(Rig(profile, path), colour)
    print("APIXAGON simulated board, profile %s. Type help." % profile)
    con.rig.settle()
    con.draw()
    while True:
        try:
            line = input("> ")
        except EOFError:
            break
        if not con.command(line):
            break
    return 0

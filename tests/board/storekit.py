# The simulated board wired as the start-up code does it (serial_main):
# the board, its match log on the simulated flash (smartboard.sim.flash),
# the serial link on a port that keeps the replies, and a listener keeping
# what the board says. For tests/board/test_matchlog_storage.py and
# test_matchlog_boot.py.
import gc

from apixagon.geometry import NCELLS, ROW_START, cell_name
from boardkit import rig
from logkit import ROOT, TAGS, record_lines
from pagekit import Port
from smartboard import buttons, link, proto, view
from smartboard.logstore import records, writer
from smartboard.sim import replay

ROW_I = ROW_START[8]


class Says:
    """A board listener keeping what the board says."""

    def __init__(self):
        self.texts = []

    def on_event(self, board, what):
        self.texts.append(what)

    def said(self, start):
        for t in self.texts:
            if t.startswith(start):
                return True
        return False


class Board:
    """A simulated board wired as the start-up code does (serial_main)."""

    def __init__(self, name, flash, fresh=True, root=ROOT):
        # flash None: the real filesystem (smartboard.logstore.flash.Flash), the logs
        # in the folder root
        gc.collect()  # a board built in a compacted heap, as at boot
        self.r = rig(name, "A", fresh=fresh)
        self.flash = flash
        self.log = writer.MatchLog(root, TAGS, flash)
        self.port = Port()
        self.link = link.Link(self.port, self.r.board, self.log)
        self.says = Says()
        b = self.r.board
        b.listener = link.Fanout((self.log, self.link, self.says))
        b.log = self.log
        found = self.log.unfinished()
        if found is not None:
            b.resume(found[1].lines(), self.log)
        self.r.settle(200)

    def ask(self, text):
        """One request through the link: (ok, reply text)."""
        del self.port.out[:]
        self.link.handle("@1 " + text)
        # the reply's last line (a GET reply is written in pieces)
        line = b"".join(self.port.out)[:-1].split(b"\n")[-1]
        kind, seq, ok, rest = proto.parse_reply(proto.body(line))
        return ok, rest

    def status(self):
        ok, text = self.ask("STATUS")
        assert ok, text
        out = {}
        for w in text.split():
            if "=" in w:
                k, v = w.split("=", 1)
                out[k] = v
        return out

    def play(self, moves):
        replay.play(self.r, record_lines(moves))
        self.r.settle(300)

    def cards_back(self):
        """The players put the logged position's cards back, as the LEDs
        ask (after a resume)."""
        b = self.r.board
        for x in range(NCELLS):
            if b.want[x]:
                self.r.put(cell_name(x), b.want[x] - 1)
        self.r.settle()

    def clear(self):
        """The players take every card off the board (for a new match)."""
        r = self.r
        for x in range(NCELLS):
            if r.cells.cells[r.layout.sensor[x]]:
                r.lift(cell_name(x))
        r.settle()

    def abandon(self):
        self.r.press(buttons.CONFIRM, True)
        self.clear()

    def sign(self):
        """The cells of row I that show the storage sign."""
        n = 0
        for x in range(ROW_I, NCELLS):
            if self.r.board.view.layer[x] == view.STORAGE | view.SLOW:
                n += 1
        return n

    def sign_room(self):
        """Row I's cells the sign may take in play: free, not a corner."""
        n = 0
        b = self.r.board.ref.game.board
        for x in range(ROW_I + 1, NCELLS - 1):
            if not b[x]:
                n += 1
        return n


def verified(flash, name):
    """(moves, result) of a log that must verify whole."""
    data = flash.contents(ROOT + "/" + name)
    lines = records.Lines()
    v, good, count, _ = records.read_log(data, lines)
    assert v == records.OK_LOG and good == len(data), records.verdict_name(v)
    return lines.moves, lines.result


def record_moves(n):
    out = []
    for line in record_lines(n):
        if len(line) > 1 and line[1] in " 123" and line[0] in "AB":
            out.append(line)
    return out

"""Two simulated boards, each with its own host session, playing a scripted
record over a real broker: the hands at each board (PLAY of the record up
to a move: the simulator plays only the moves its board lacks) go through
the session's own serial link (session.call), as a person's would beside a
running `apixagon online`."""

import binascii
import os
import threading
import time

import devboard
from apixagon import record
from apixagon.codes import BEEKEEPER, PLACE, RAIN_MOVE, RESERVE, SMOKER
from apixagon_host import link as L
from apixagon_host.online import protocol as P
from apixagon_host.online.session import Session
from smartboard import tag

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
RECORD = os.path.join(DATA, "queens_gambit_full.apx")


def record_lines(path=RECORD):
    with open(path) as f:
        return [x for x in f.read().splitlines() if x and not x.startswith("[")]


def move_lines(lines):
    return [x for x in lines if x[:1] in "BG" and x[1:2] == " "]


LINES = record_lines()
MOVES = move_lines(LINES)


def play_move(homes, k, before_far=None):
    """Move k of the record: the mover's hands at its board, then, once
    the other board waits for it, the hands there (a pass or a
    deck-empty its board carries out itself)."""
    line = MOVES[k - 1]
    x = homes[line[0]]
    y = homes["G" if line[0] == "B" else "B"]
    x.hands(LINES, k)
    wait_for(lambda: x.moves >= k, what="move %d on its own board" % k)
    if before_far is not None:
        before_far()
    wait_for(
        lambda: y.moves >= k or y.session.side.expecting == k,
        what="the other board to wait for move %d %s" % (k, line),
    )
    if y.moves < k and line.split()[1] not in ("pass", "deck-empty"):
        st = y.status()
        assert st.get("expect") == line.replace(" ", "_"), (k, y.name, st, y.said[-5:])
        y.hands(LINES, k)
    wait_for(
        lambda: y.moves >= k and x.session.side.acked >= k,
        what="move %d acknowledged" % k,
    )


def wait_for(pred, timeout=20, what="the condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting for %s" % what)


class Home:
    """A board, its serial link and its session (in a thread)."""

    def __init__(self, tmp, fw, name, mode=0, players=0):
        self.flash = os.path.join(str(tmp), name)
        self.state = os.path.join(str(tmp), name + "-seat")  # its seat's keys (seal.Keep)
        os.makedirs(self.flash)
        devboard.install(self.flash, fw)
        self.board = devboard.DevBoard(self.flash, "A").start()
        self.name = name
        self.said = []
        self.session = None
        self.thread = None
        self.error = None
        link = L.connect(self.board.port, timeout=5)
        if mode:
            link.request("SET", "mode", str(mode))  # apixagon.codes.MODES, team A starts
        if players:
            link.request("SET", "players", str(players))  # Teen's 2, 4 or 6
        link.request("HAND", "press", "confirm")  # queens-gambit, black starts
        link.close()

    def connect(self, url, code, role, **kw):
        link = L.connect(self.board.port, timeout=10)
        kw.setdefault("state_dir", self.state)
        s = Session(link, url, code, role, say=self.said.append, wait=10, **kw)
        s.start()
        self.session = s
        self.error = None

        def loop():
            try:
                s.run()
            except Exception as e:  # noqa: BLE001 - the test reads it
                self.error = e

        self.thread = threading.Thread(target=loop, daemon=True)
        self.thread.start()
        return s

    def kill(self):
        """As a killed `apixagon online`: no goodbye to the broker."""
        s = self.session
        s.close(clean=False)
        self.thread.join(10)
        s.link.close()

    def stop(self):
        if self.session is not None:
            self.session.close()
            if self.thread is not None:
                self.thread.join(10)
            self.session.link.close()
        self.board.stop()

    @property
    def moves(self):
        return len(self.session.side.moves) if self.session and self.session.side else 0

    def hands(self, lines, upto):
        """The record's first `upto` moves played from hands (those the
        board lacks)."""
        keep, n = [], 0
        for line in lines:
            if P.is_move(line):
                n += 1
                if n > upto:
                    break
            keep.append(line)
        text = binascii.b2a_base64("\n".join(keep).encode(), newline=False).decode()

        def play(link):
            for i in range(0, len(text), 180):
                link.request("PLAY", text[i : i + 180])
            try:
                return link.request("PLAY", "END", timeout=60)
            except L.BoardError as e:
                raise AssertionError("%s: move %d: %s" % (self.name, upto, e)) from None

        try:
            return self.session.call(play, timeout=90)
        except TimeoutError:
            raise AssertionError(
                "%s: session ended: %r; said %r" % (self.name, self.error, self.said[-6:])
            )

    def request(self, *args):
        try:
            return self.session.call(lambda link: link.request(*args))
        except TimeoutError:
            raise AssertionError(
                "%s: session ended: %r; said %r" % (self.name, self.error, self.said[-6:])
            )

    def status(self):
        return L.fields(self.request("STATUS"))


def table_after(moves):
    """{cell name: tag code} of the cards on the table after the moves."""
    from apixagon.geometry import cell_name

    class V(record.Visitor):
        def __init__(self):
            self.got = []

        def move(self, lineno, letter, seat, kind, card, cells):
            self.got.append((letter, kind, card, list(cells)))

    v = V()
    record.read(["mode queens-gambit", "start black"] + list(moves), v)
    table, rains = {}, [0, 0]
    for letter, kind, card, cells in v.got:
        side = "BG".index(letter)
        if kind == PLACE:
            table[cells[0]] = tag.code(side, tag.NORMAL, card)
        elif kind == RAIN_MOVE:
            table[cells[0]] = tag.code(side, tag.RAIN, rains[side] & 1)
            rains[side] += 1
        elif kind == BEEKEEPER:
            table[cells[1]] = table.pop(cells[0])
        elif kind in (SMOKER, RESERVE):
            for x in cells:
                table.pop(x)
    return {cell_name(x): c for x, c in table.items()}

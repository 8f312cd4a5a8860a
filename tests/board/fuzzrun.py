# Feeds a stream of fuzzed frames (tests/fuzzkit.py: encode) to the
# simulated board's own loop pass (smartboard.loop.step: the board's tick,
# then the serial link) and writes out what the board writes, with its own
# findings as lines that start with "#". The same script runs under
# CPython and under the MicroPython unix port:
#
#   micropython -X heapsize=96wK tests/board/fuzzrun.py LIB HELPERS STREAM board|sim
#
# (LIB the firmware, HELPERS this folder's kits, compiled or not; board:
# the board's link, sim: the simulator's, with HAND and PLAY, as
# serial_main wires it: too big for 96 wK with the rest). The link's clock
# is the rig's plus a skew the stream moves on: a poll made late, or a
# second of silence, costs nothing. The replies are checked on the PC
# (tests/fuzzkit.RunCheck): here, nothing but the board and its heap.
import sys

# The bytes waiting for the board, made first: the heap is small and a
# board splits it (no large block is to be had once it is built).
BUF = bytearray(2560)

sys.path.insert(0, sys.argv[2])
sys.path.insert(0, sys.argv[1])

from boardkit import card, rig  # noqa: E402
from logkit import ROOT, TAGS, collect, digest  # noqa: E402
from smartboard import buttons, link, loop  # noqa: E402
from smartboard.logstore import writer  # noqa: E402
from smartboard.sim.flash import SimFlash  # noqa: E402

out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else sys.stdout


class Port:
    def __init__(self):
        self.buf = BUF
        self.mv = memoryview(BUF)
        self.start = 0
        self.end = 0
        self.budget = -1  # bytes this poll may read (-1: all there are)

    def read_byte(self):
        if self.start >= self.end or self.budget == 0:
            return -1
        self.budget -= 1
        b = self.buf[self.start]
        self.start += 1
        return b

    def write(self, data):
        out.write(data)

    def left(self):
        return self.end - self.start

    def room(self, n):
        # n bytes free at the end: what waits moves to the front
        if self.end + n <= len(self.buf):
            return
        k = self.end - self.start
        b = self.buf
        for i in range(k):
            b[i] = b[self.start + i]
        self.start = 0
        self.end = k
        if k + n > len(b):
            raise ValueError("a record of %d bytes" % n)

    def read_from(self, f, n):
        self.room(n)
        got = f.readinto(self.mv[self.end : self.end + n])
        self.end += got
        return got == n


class Run:
    def __init__(self, sim):
        collect()
        # The simulated flash's block pool sized for this run's two short
        # logs (the default 40 blocks, 5.8 KB made up front, were most of
        # the harness's own share of the 96 wK heap, not the board's).
        self.flash = SimFlash(blocks=8)
        self.r = r = rig("fuzzrun")
        self.log = log = writer.MatchLog(ROOT, TAGS, self.flash)
        self.port = Port()
        if sim:
            from smartboard.sim.serial_main import SimLink

            self.link = SimLink(self.port, r, log, "A")
        else:
            self.link = link.Link(self.port, r.board, log)
        r.board.listener = link.Fanout((log, self.link))
        r.board.log = log
        # two logs: a match abandoned, and one in play
        r.press(buttons.CONFIRM)
        r.put("E3", card(0, 0))
        r.settle()
        r.put("E7", card(1, 1))
        r.settle()
        r.press(buttons.CONFIRM, True)
        for x in ("E3", "E7"):
            r.lift(x)
        r.settle()
        r.press(buttons.CONFIRM)
        r.put("E3", card(0, 0))
        r.settle()
        log.flush_all()
        self.skew = 0
        self.x = 12345  # the runner's own random numbers (poll sizes)
        self.polls = 0
        self.kept = []  # [name, size, sha256 of those bytes]
        self.look()

    def rand(self, n):
        self.x = self.x * 48271 % 2147483647
        return self.x % n

    def step(self, budget=-1):
        self.port.budget = budget
        self.polls += 1
        r = self.r
        loop.step(r.board, self.link, r.now() + self.skew, r.tick)

    def drain(self):
        # what is waiting, in polls of random size, some of them empty (a
        # tick that found nothing must not drop a partial line)
        while self.port.left():
            k = self.rand(10)
            self.step(0 if k == 0 else (self.rand(8) + 1 if k < 3 else -1))

    def record(self, kind, f, n):
        p = self.port
        if kind != "b" or p.left() > 1024 or p.left() + n > len(p.buf):
            # a burst piles up (up to a KB waiting, more than a poll takes);
            # anything else starts on what waits being read
            self.drain()
        if not p.read_from(f, n):
            return False
        if kind == "d":
            self.drain()
        elif kind == "s":
            # a byte or a few a poll, each poll late (1.5 s after the last):
            # a busy board still reads the frame whole
            while p.left():
                self.skew += 1500 if self.rand(2) else 900
                self.step(self.rand(3) + 1)
                if not self.rand(3):
                    self.skew += 900
                    self.step(0)  # a silence shorter than a second
        elif kind == "p":
            self.drain()
            self.step(0)  # the first poll to find nothing
            self.skew += 1001  # then a second of them: ERR 4
            self.step(0)
        elif kind == "e":
            self.step()
            self.look()
            out.write(b"#E crashes=%d\n" % self.r.board.crashes)
        return True

    def look(self):
        """The flash against the last look: a log gone, shorter or changed
        is said ("#GONE name"); then the names on flash."""
        fl = self.flash
        for k in self.kept:
            path = ROOT + "/" + k[0]
            if path not in fl.files:
                out.write(b"#GONE %s\n" % k[0].encode())
            elif fl.size(path) < k[1]:
                out.write(b"#SHORT %s\n" % k[0].encode())
            elif digest(fl, path, k[1]) != k[2]:
                out.write(b"#CHANGED %s\n" % k[0].encode())
        self.kept = []
        names = self.log.names()
        for name in names:
            path = ROOT + "/" + name
            n = fl.size(path)
            self.kept.append([name, n, digest(fl, path, n)])
        out.write(b"#NAMES %s\n" % " ".join(names).encode())


def main(path, sim):
    run = Run(sim)
    n = 0
    head = bytearray(3)
    with open(path, "rb") as f:
        while f.readinto(head) == 3:
            if not run.record(chr(head[0]), f, (head[1] << 8) | head[2]):
                break
            n += 1
    out.write(b"#DONE records=%d polls=%d\n" % (n, run.polls))


main(sys.argv[3], sys.argv[4] == "sim")

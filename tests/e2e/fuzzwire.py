"""The link fuzz over a real serial line: batches of tests/fuzzkit.py's
items written to a board (the simulated board of tools/devboard.py on a
pseudo-terminal) through pyserial, in bursts, in pieces split across
writes with pauses between, now and then a partial frame left to go
stale; every reply read back and checked in order. After each batch: the
board still answers HELLO and STATUS (the batch's last two frames), STATUS
faults=0, nothing on the line that is not a frame (no traceback, no REPL
prompt), the board process never restarted but by a REBOOT it was sent,
and on its flash every byte of every log kept unless a DEL was answered
OK (a log in play may grow), a deleted log never back. Used by
tests/e2e/test_fuzz.py and tools/soak.py."""

import os
import sys
import time

from apixagon_host import link as L

_TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, _TESTS)
sys.path.insert(0, os.path.join(os.path.dirname(_TESTS), "tools", "rp2040"))
import flashfs  # noqa: E402  (the board's archives walked by its own code)
import fuzzkit  # noqa: E402

WAIT = 20  # s: the most a batch's replies may take (a PLAY END plays in sim time)
# s: PULLED's markers reach the flash once the host has been quiet 0.3 s
# (smartboard.link), one a loop tick
MARKS_WAIT = 5


class FuzzWire:
    def __init__(self, board, seed, hands=True, stale_every=0, link=None):
        """board: a tools/devboard.DevBoard, started (link: a host link to
        it, else one is made). hands: the fuzz puts and lifts cards and
        presses buttons too (False: a match is being played by someone
        else). stale_every: a partial frame left to go stale (a second and
        more of silence) once every that many batches (0: never)."""
        self.board = board
        self.link = link or L.connect(board.port, timeout=10)
        self.fz = fuzzkit.Fuzzer(seed, (), sim=True, reboot=fuzzkit.LAST, hands=hands)
        self.r = fuzzkit.Rand(seed + 1)
        self.stale_every = stale_every
        self.batches = 0
        self.frames = 0  # items sent
        self.replies = 0
        self.reboots = 0
        self.boots = board.boots
        self.kept = {}  # log name: its bytes as last read
        self.deleted = set()
        # PULLED answered OK: marked at once (LOGS says so), its marker on
        # flash once the host has been quiet a while (_MARKS_AFTER_MS), or
        # at REBOOT; a power cut before then forgets the mark (reattach)
        self.pulled = set()
        self.look()
        self.fz.names = sorted(self.kept)

    # ---- the flash --------------------------------------------------------------
    def logs(self):
        """{name: bytes} of every match log on the flash, its own NNNN.alog
        or packed: between matches the board packs the finished ones into
        archives (docs/protocol.md), and a packed log is not gone."""
        d = os.path.join(self.board.flash, "logs")
        while True:
            if not os.path.isdir(d):
                return {}
            files = []
            try:
                for name in sorted(os.listdir(d)):
                    if name.endswith((".alog", ".pack")):
                        with open(os.path.join(d, name), "rb") as f:
                            files.append((name, f.read()))
            except FileNotFoundError:
                # packed as it was read (its file removed once its entry
                # was in the archive, which may have been read before)
                continue
            return flashfs.folder_logs(files)

    def look(self, acked=()):
        now = self.logs()
        for verb, name in acked:
            if verb == "DEL":
                self.deleted.add(name)
                self.kept.pop(name, None)
                self.pulled.discard(name)
            else:
                self.pulled.add(name)
        back = self.deleted & set(now)
        assert not back, "deleted logs back on flash: %r" % sorted(back)
        # the host is quiet now: every marker is on flash within a moment
        end = time.monotonic() + MARKS_WAIT
        for name in self.pulled:
            while not os.path.exists(self.marker(name)):
                assert time.monotonic() < end, "%s was PULLED, its marker is not on flash" % name
                time.sleep(0.02)
        for name, old in self.kept.items():
            assert name in now, "%s is gone from flash, no DEL was answered OK" % name
            assert now[name][: len(old)] == old, "%s changed on flash" % name
        self.kept = now
        return now

    # ---- a batch --------------------------------------------------------------------
    def batch(self, n):
        items = self.fz.batch(n)
        self.last = items  # (for a failure's message)
        if self.stale_every and self.batches % self.stale_every == self.stale_every - 1:
            items.insert(self.r.below(len(items) - 2), self.fz.stale_item())
        rp = fuzzkit.Replies()
        for it in items:
            rp.expect(it)
        self.send(items, rp)
        self.collect(rp, items)
        self.batches += 1
        self.frames += len(items)
        self.replies += rp.replies
        st = rp.status
        assert st is not None and st.get("faults") == "0", st
        link = self.link
        assert not link.noise, "not frames on the line: %r" % link.noise[-3:]
        if items[-1].verb == "REBOOT":
            self.reboots += 1
            self.boots += 1
            assert self.board.wait_boot(self.boots), "no boot after REBOOT"
            self.link.hello()  # the new process reads its port
            self.fz.play_total = 0  # (a PLAY record went with the process)
        assert self.board.boots == self.boots, (
            "the board restarted: %s" % "".join(self.board.stderr)[-2000:]
        )
        self.look(rp.acked)
        self.fz.names = sorted(self.kept)
        return rp

    def send(self, items, rp):
        ser = self.link.ser
        r = self.r
        pending = []
        for it in items:
            if it.stale:
                # the reply to what went before, then the partial frame and
                # more than a second of silence: ERR 4, once
                ser.write(b"".join(pending))
                pending = []
                self.wait(rp, rp.want.index((0, fuzzkit.E4, it)))
                ser.write(it.data)
                time.sleep(1.2)
            elif it.slow:
                # split across writes, with pauses the board polls in
                ser.write(b"".join(pending))
                pending = []
                data = it.data
                while data:
                    k = r.below(len(data)) + 1
                    ser.write(data[:k])
                    ser.flush()
                    data = data[k:]
                    time.sleep(r.below(5) / 1000)
            else:
                pending.append(it.data)
                if it.drain or sum(len(x) for x in pending) > 4096:
                    ser.write(b"".join(pending))  # a write of its own
                    pending = []
        ser.write(b"".join(pending))

    def wait(self, rp, upto):
        """Replies read until `upto` of them were checked."""
        deadline = time.monotonic() + WAIT
        while rp.i < upto:
            f = self.link.read_frame(deadline)
            if f is None:
                seq, mask, item = rp.want[rp.i]
                raise AssertionError(
                    "no reply to %r (=%d) in %d s; noise %r"
                    % (item.what[:80], seq, WAIT, self.link.noise[-3:])
                )
            _, seq, ok, rest = f
            rp.reply(seq, ok, rest)

    def collect(self, rp, items):
        self.wait(rp, len(rp.want))

    def burst(self, n):
        """A batch sent and not read: the power is about to go. Its items:
        a DEL or a DECLARE among them may have been carried out, unanswered."""
        items = self.fz.batch(n)
        self.send(items, fuzzkit.Replies())
        self.frames += len(items)
        return items

    def gone(self, name):
        """A log deleted by a DEL whose answer was never read."""
        self.deleted.add(name)
        self.pulled.discard(name)

    def marker(self, name):
        return os.path.join(self.board.flash, "logs", name[:-5] + ".pulled")

    def reattach(self, link):
        """After a power cut: the new process, its link, its flash as it
        booted (the caller checks what the cut kept). A PULLED whose marker
        the cut caught unwritten is forgotten: the host pulls it again
        and its database takes it as the copy it has."""
        self.pulled = set(n for n in self.pulled if os.path.exists(self.marker(n)))
        self.link = link
        self.boots = self.board.boots
        self.fz.play_total = 0
        self.kept = {}
        self.look()
        self.fz.names = sorted(self.kept)

    def close(self):
        self.link.close()

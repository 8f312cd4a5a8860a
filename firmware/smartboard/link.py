# The board's end of the serial link (docs/protocol.md): frames in from a
# port, commands run against the board and its match logs, replies and
# events out. The port is passed in: USB CDC through sys.stdin/stdout on
# the board and on the unix port (StdioPort), anything with read_byte() and
# write() in tests. A bad frame gets one error reply and changes nothing.
import binascii
import time

from apixagon.compat import const

from . import matchlog, proto
from . import settings as S
from .board import DISPLAY_NAMES, PHASES

FW_VERSION = "0.4.0"
_BYTES_PER_POLL = const(512)  # bytes taken from the port per loop tick
_CTRL_C = const(3)
_LOGS_PER_REPLY = const(24)
_SETTINGS = ("display", "bright", "mode", "start", "option", "players")


class Fanout:
    """One Board listener that tells several (the log, the link)."""

    def __init__(self, listeners):
        self.listeners = listeners

    def on_event(self, board, what):
        for x in self.listeners:
            x.on_event(board, what)


class StdioPort:
    """USB CDC (the board) or the unix port's stdin/stdout: a non-blocking
    byte source through select.poll, and a writer."""

    def __init__(self):
        import select
        import sys

        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read_byte(self):
        if self.poller.poll(0):
            b = self.inp.read(1)
            if b:
                return b[0]
        return -1

    def write(self, data):
        self.out.write(data)


class Link:
    def __init__(self, port, board, log, name="APIXAGON", profile="A", board_id="sim"):
        self.port = port
        self.board = board
        self.log = log
        self.name = name
        self.profile = profile
        self.board_id = board_id
        self.de = proto.Deframer()
        self.watching = False
        self.clock_offset = 0  # host epoch seconds minus ticks at CLOCK
        self.reboot = None  # callable: the start-up code's reset
        self.frames = 0
        self.errors = 0
        self._leds_sent = False
        self._last = bytearray(len(board.view.layer))

    # ---- the loop -----------------------------------------------------------
    def poll(self, now):
        """Take what the port has (bounded), answer complete frames."""
        de = self.de
        for _ in range(_BYTES_PER_POLL):
            b = self.port.read_byte()
            if b < 0:
                break
            if b == _CTRL_C:
                # On the board the REPL's own Ctrl-C handler gets there
                # first; on the unix port the byte reaches us: the same
                # way out, so mpremote can take over (issue 4).
                raise KeyboardInterrupt
            r = de.feed(b, now)
            if r == proto.READY:
                text = proto.body(de.line, de.n)
                de.taken()
                self.handle(text)
            elif r:
                self._err(0, r)
        r = de.stale(now)
        if r:
            self._err(0, r)

    def _send(self, data):
        self.port.write(data)

    def _err(self, seq, code, detail=""):
        self.errors += 1
        self._send(proto.reply_err(seq, code, detail))

    # ---- events (a Board listener) -------------------------------------------
    def on_event(self, board, what):
        if not self.watching:
            return
        if what == "move":
            g = board.ref.game
            last = None
            for kind, payload, ply in g.history():
                last = (kind, payload, ply)
            if last is not None:
                from apixagon import record

                self._send(proto.event("move", "%d %s" % (g.nlog, record.move_text(g, *last))))
            else:
                self._send(proto.event("move", "0"))
        else:
            self._send(
                proto.event("phase" if what in ("start", "over", "resumed") else "say", what)
            )

    def send_leds(self):
        """When watching: each cell's LED layer value (palette index and
        blink flags, smartboard.view) whenever it changes — the host's live
        view paints it with the same palette."""
        if not self.watching:
            return
        layer = self.board.view.layer
        if self._leds_sent and layer == self._last:
            return
        self._leds_sent = True
        self._last[:] = layer
        self._send(proto.event("leds", binascii.hexlify(layer).decode()))

    # ---- commands -------------------------------------------------------------
    def handle(self, text):
        seq, verb, args = proto.parse_request(text)
        if seq < 0:
            self._err(0, proto.E_FRAME, "not a request")
            return
        self.frames += 1
        fn = getattr(self, "cmd_" + verb.lower(), None) if verb.isalpha() else None
        if fn is None:
            self._err(seq, proto.E_VERB, verb[:16])
            return
        try:
            r = fn(args)
        except (ValueError, IndexError):
            self._err(seq, proto.E_ARGS, verb)
            return
        except OSError as e:
            self._err(seq, proto.E_INTERNAL, "%s %s" % (verb, e))
            return
        except MemoryError:
            # a reply too big for the heap left: an error, never a crash
            self._err(seq, proto.E_INTERNAL, "%s: out of memory" % verb)
            return
        if isinstance(r, int):
            self._err(seq, r, verb)
        else:
            self._send(proto.reply_ok(seq, r))

    def cmd_hello(self, args):
        if args and int(args[0]) > proto.VERSION:
            return proto.E_VERSION
        return "apixagon proto=%d fw=%s board=%s profile=%s id=%s" % (
            proto.VERSION,
            FW_VERSION,
            self.name.replace(" ", "_"),
            self.profile,
            self.board_id,
        )

    def cmd_status(self, args):
        b = self.board
        parts = ["phase=" + PHASES[b.phase] if b.phase < len(PHASES) else "phase=resume"]
        if b.ref is not None:
            g = b.ref.game
            parts.append("ply=%d" % g.ply())
            parts.append("turn=%d" % g.side_to_play())
            parts.append("moves=%d" % g.nlog)
        parts.append("display=" + DISPLAY_NAMES[b.settings.get(S.DISPLAY)])
        log = self.log
        names = log.names()
        unpulled = 0
        for n in names:
            if not log.is_pulled(n):
                unpulled += 1
        parts.append("logs=%d" % len(names))
        parts.append("unpulled=%d" % unpulled)
        parts.append("free=%d" % log.free_bytes())
        parts.append("low=%d" % (1 if log.low() else 0))
        parts.append("log=%s" % (log.current() or "-"))
        parts.append("clock=%d" % self.clock())
        return " ".join(parts)

    def cmd_watch(self, args):
        self.watching = args[0] == "1"
        self._leds_sent = False
        return "watch=%d" % self.watching

    def cmd_logs(self, args):
        # "LOGS [start]": at most _LOGS_PER_REPLY entries a reply, then
        # "+next" if there are more: a long archive never needs a long
        # string in a small heap.
        log = self.log
        log.flush_all()  # the host asks now: what is queued goes to flash first
        start = int(args[0]) if args else 0
        cur = log.current()
        names = log.names()
        out = []
        for k in range(start, min(len(names), start + _LOGS_PER_REPLY)):
            n = names[k]
            size = _size(log.file(n))
            state = "play" if n == cur and not log.over else "done"
            if log.is_pulled(n):
                state = "pulled"
            out.append("%s:%d:%s" % (n, size, state))
        if start + _LOGS_PER_REPLY < len(names):
            out.append("+%d" % (start + _LOGS_PER_REPLY))
        return " ".join(out)

    def cmd_get(self, args):
        name, off, n = args[0], int(args[1]), int(args[2])
        if not _safe(name):
            return proto.E_ARGS
        if off < 0 or n <= 0 or n > proto.MAX_CHUNK:
            return proto.E_ARGS
        try:
            f = open(self.log.file(name), "rb")
        except OSError:
            return proto.E_NOT_FOUND
        try:
            f.seek(off)
            data = f.read(n)
        finally:
            f.close()
        b64 = binascii.b2a_base64(data).decode().strip() if data else "-"
        return "%d %d %04X %s" % (off, len(data), proto.crc16(data), b64)

    def cmd_pulled(self, args):
        name = args[0]
        if not _safe(name) or name not in self.log.names():
            return proto.E_NOT_FOUND
        if name == self.log.current() and not self.log.over:
            return proto.E_STATE  # a match in play is pulled again later
        self.log.mark_pulled(name)
        return name

    def cmd_del(self, args):
        name = args[0]
        log = self.log
        if not _safe(name) or name not in log.names():
            return proto.E_NOT_FOUND
        if name == log.current() and not log.over:
            return proto.E_STATE
        if not log.is_pulled(name):
            return proto.E_STATE  # never delete a match not downloaded
        log.delete(name)
        return name

    def cmd_conf(self, args):
        s = self.board.settings
        return " ".join("%s=%d" % (_SETTINGS[i], s.get(i)) for i in range(len(_SETTINGS)))

    def cmd_set(self, args):
        key, value = args[0], int(args[1])
        if key not in _SETTINGS:
            return proto.E_ARGS
        i = _SETTINGS.index(key)
        s = self.board.settings
        if not 0 <= value < S.LIMITS[i]:
            return proto.E_ARGS
        s.set(i, value, self.board.now)
        return "%s=%d" % (key, value)

    def cmd_clock(self, args):
        if args:
            self.clock_offset = int(args[0]) - time.time()
        return "%d" % self.clock()

    def clock(self):
        return int(time.time() + self.clock_offset)

    def cmd_reboot(self, args):
        self._send(proto.reply_ok(0, "rebooting"))
        if self.reboot is not None:
            self.log.flush_all()
            self.reboot()
        return "rebooting"


def _size(path):
    import os

    try:
        return os.stat(path)[6]
    except OSError:
        return -1


def _safe(name):
    # A log name as the board makes them ("0001.alog"): no path tricks.
    return (
        name.endswith(matchlog.SUFFIX) and len(name) < 32 and "/" not in name and ".." not in name
    )

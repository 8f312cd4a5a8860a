"""A board that misbehaves on purpose, on a real pseudo-terminal: the host
opens its port with pyserial as it would a board's USB serial, and this
end answers from a thread. It answers as a good board of protocol 1 does
(HELLO, refused for a newer version; STATUS, LOGS in pages of 24, GET,
PULLED of one name) until a test gives a verb another answer
(`board.answer["GET"] = fn`), floods the link, or pulls the plug.

    with FakeBoard({"0001.alog": data}) as board:
        board.answer["LOGS"] = lambda b, seq, args: proto.reply_ok(seq, "0001.alog:-5:done")
        ... run `apixagon logs pull -p board.port` ...
        board.asked   # [(verb, args), ...] in the order the host sent them

An answer function returns the bytes to send (frames, junk, nothing: b""),
or UNPLUG: the pseudo-terminal's master is closed, as when the board's USB
cable is pulled (the host's next read or write fails with EIO)."""

import binascii
import os
import pty
import select
import threading
import tty

from smartboard import proto
from smartboard.logstore import records

UNPLUG = object()
PER_PAGE = 24  # logs per LOGS reply, as the firmware
HELLO = "apixagon proto=1 fw=0.4.0 board=fake profile=A id=fake-1"
STATUS = (
    "phase=setup mode=queens-gambit sides=BG watch=0 display=adult logs=0 unpulled=0 "
    "free=1000000 low=0 log=- clock=0 hw=ok heap=200000"
)


def log_bytes(lines, end=None):
    """A log as a board writes it (records, CRCs, hash chain): header lines
    first (any line starting "mode", "start", "[" or "pad"), moves after."""
    out = bytearray()
    prev = records.SEED
    for text in lines:
        data = text if isinstance(text, bytes) else text.encode()
        kind = records.HEADER if data[:1] in (b"m", b"s", b"[", b"p") else records.MOVE
        rec, prev = records.encode(prev, kind, data)
        out += rec
    if end:
        rec, prev = records.encode(prev, records.END, end.encode())
        out += rec
    return bytes(out)


def big_log(kb, tag="x"):
    """A finished log of about kb KB (header lines of 250 bytes: padding)."""
    pad = ["pad %s %s" % (tag, ("%03d" % i) * 82) for i in range(kb * 4)]
    return log_bytes(["mode queens-gambit", "start black"] + pad + ["B 12 E4"], "abandoned")


class FakeBoard:
    def __init__(self, logs=None, status=STATUS):
        self.logs = dict(logs or {})  # name -> bytes
        self.states = {name: "done" for name in self.logs}
        self.status = status
        self.answer = {}  # verb -> fn(board, seq, args): overrides the good answer
        self.asked = []  # (verb, args) as the host sent them
        self.flood = None  # bytes sent again and again while set (a board gone mad)
        self.unplugged = threading.Event()
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)  # no echo, no line discipline: bytes as USB CDC
        os.set_blocking(self.master, False)  # never stuck writing to a host that stopped reading
        self.port = os.ttyname(self.slave)
        self._out = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._stop.set()
        self._thread.join(5)
        for fd in (self.slave,) + (() if self.unplugged.is_set() else (self.master,)):
            try:
                os.close(fd)
            except OSError:
                pass

    def verbs(self):
        return [v for v, _ in self.asked]

    # ---- the good board -------------------------------------------------------------------
    def good(self, seq, verb, args):
        if verb == "HELLO":
            if args and args[0].isdigit() and int(args[0]) > 1:
                return proto.reply_err(seq, proto.E_VERSION, "HELLO")  # a board of protocol 1
            return proto.reply_ok(seq, HELLO)
        if verb == "STATUS":
            return proto.reply_ok(seq, self.status)
        if verb == "LOGS":
            start = int(args[0]) if args else 0
            names = sorted(self.logs)
            page = [
                "%s:%d:%s" % (n, len(self.logs[n]), self.states[n])
                for n in names[start : start + PER_PAGE]
            ]
            if start + PER_PAGE < len(names):
                page.append("+%d" % (start + PER_PAGE))
            return proto.reply_ok(seq, " ".join(page))
        if verb == "GET":
            name, off, n = args[0], int(args[1]), int(args[2])
            if name not in self.logs:
                return proto.reply_err(seq, proto.E_NOT_FOUND, "GET")
            return proto.reply_ok(seq, get_reply(self.logs[name], off, n))
        if verb == "PULLED":
            if len(args) != 1:
                return proto.reply_err(seq, proto.E_ARGS, "PULLED")  # one name (protocol 1)
            self.states[args[0]] = "pulled"
            return proto.reply_ok(seq)
        return proto.reply_err(seq, proto.E_VERB, verb)

    # ---- the thread -----------------------------------------------------------------------
    def _run(self):
        buf = b""
        while not self._stop.is_set():
            writing = bool(self._out) or self.flood is not None
            r, w, _ = select.select([self.master], [self.master] if writing else [], [], 0.02)
            if r:
                try:
                    buf += os.read(self.master, 65536)
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:  # EIO: no one has the port open just now
                    self._stop.wait(0.01)
                *lines, buf = buf.split(b"\n")
                for line in lines:
                    if self._take(line.rstrip(b"\r")) is UNPLUG:
                        return
                    self._write()  # each answer as it is made, as a board does
            if w:
                if not self._out and self.flood is not None:
                    self._out += self.flood
                self._write()

    def _write(self):
        try:
            del self._out[: os.write(self.master, self._out)]
        except (BlockingIOError, InterruptedError):
            pass  # the host is not reading: the rest waits for select
        except OSError:
            self._stop.wait(0.01)

    def _take(self, line):
        if proto.check(line) != 0:
            return None  # a board says ERR here; these tests do not need it
        seq, verb, args = proto.parse_request(proto.body(line))
        self.asked.append((verb, tuple(args)))
        fn = self.answer.get(verb)
        out = fn(self, seq, args) if fn else self.good(seq, verb, args)
        if out is UNPLUG:
            self.unplugged.set()
            os.close(self.master)  # the cable pulled: the host's port goes dead
            return UNPLUG
        self._out += out or b""
        return None


def get_reply(data, off, n):
    """The text of a good GET reply for data[off:off + n]."""
    chunk = data[off : off + n]
    b64 = binascii.b2a_base64(chunk, newline=False).decode() if chunk else "-"
    return "%d %d %04X %s" % (off, len(chunk), proto.crc16(chunk), b64)

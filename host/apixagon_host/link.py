"""The PC's end of the serial link: pyserial under the protocol's pure
framing (smartboard.proto, the very file the board runs). Board discovery
through pyserial's port list, a HELLO handshake, requests with sequence
numbers, pipelined GETs for log downloads, and the event stream."""

import binascii
import os
import time

import serial
from serial.tools import list_ports
from smartboard import proto

from .errors import CommandError

EXIT_NO_BOARD = 3  # no board answered (mpremote uses 1; we keep 1 for "failed")
# USB IDs a MicroPython RP2040 board enumerates with (Raspberry Pi's VID).
RP2040_IDS = ((0x2E8A, 0x0005), (0x2E8A, 0x000A))


class BoardError(CommandError):
    """The board answered with an error frame, or did not answer."""

    def __init__(self, message, code=1, board_code=0):
        super().__init__(message, code)
        self.board_code = board_code


PORT_ENV = "APIXAGON_PORT"  # the default port (as AMPY_PORT for ampy): a board
# pyserial cannot list, such as the simulator's pseudo-terminal


def candidate_ports():
    """Serial ports to try: $APIXAGON_PORT, then those that look like our
    board (RP2040 USB IDs), then the other USB ones."""
    env = os.environ.get(PORT_ENV)
    ours, other = ([env] if env else []), []
    for p in list_ports.comports():
        if p.device in ours:
            continue
        if (p.vid, p.pid) in RP2040_IDS:
            ours.append(p.device)
        elif p.vid is not None:
            other.append(p.device)
    return ours + other


class Link:
    def __init__(self, port, timeout=3.0, baud=115200):
        try:
            self.ser = serial.Serial(port, baud, timeout=timeout, write_timeout=timeout)
        except (serial.SerialException, OSError) as e:
            raise BoardError("cannot open %s: %s" % (port, e), EXIT_NO_BOARD)
        self.port = port
        self.timeout = timeout
        self.seq = 0
        self.info = {}
        self.events = []  # (kind, text) received while waiting for replies
        self.noise = []  # lines that were not frames (REPL text, tracebacks)
        self._buf = bytearray()

    def close(self):
        self.ser.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- frames ---------------------------------------------------------------
    def send(self, verb, *args):
        self.seq = self.seq % 999999 + 1
        self.ser.write(proto.request(self.seq, verb, *args))
        return self.seq

    def read_frame(self, deadline):
        """(kind, seq, ok, rest) of the next board frame, or None at the
        deadline. Lines that are not good frames are kept in .noise."""
        while True:
            line = self._line(deadline)
            if line is None:
                return None
            line = line.rstrip(b"\r\n")
            if proto.check(line) != 0:
                self.noise.append(line)
                continue
            kind, seq, ok, rest = proto.parse_reply(proto.body(line))
            if kind == "!":
                self.events.append(rest)
                if self.on_event is not None:
                    self.on_event(rest)
                continue
            if kind == "=":
                return kind, seq, ok, rest
            self.noise.append(line)

    on_event = None

    def _line(self, deadline):
        # pyserial's readline() reads a byte per call: a 2.7 KB chunk
        # reply would cost thousands of system calls. Read what is there
        # in bulk and split lines here.
        buf = self._buf
        while True:
            i = buf.find(b"\n")
            if i >= 0:
                line = bytes(buf[: i + 1])
                del buf[: i + 1]
                return line
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.ser.timeout = min(left, 0.5)
            chunk = self.ser.read(max(1, self.ser.in_waiting))
            if chunk:
                buf += chunk
            if len(buf) > 1 << 20:
                self.noise.append(bytes(buf[:200]))
                del buf[:]  # a runaway line that is no frame of ours

    def wait(self, seq, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            f = self.read_frame(deadline)
            if f is None:
                raise BoardError("no answer from the board on %s" % self.port, EXIT_NO_BOARD)
            _, s, ok, rest = f
            if s == seq or s == 0 and not ok:
                if not ok:
                    code, _, msg = rest.partition(" ")
                    raise BoardError("board: %s" % msg, 1, int(code) if code.isdigit() else 0)
                return rest

    def request(self, verb, *args, timeout=None):
        return self.wait(self.send(verb, *args), timeout)

    # ---- messages -----------------------------------------------------------------
    def hello(self):
        """The version handshake; the board's identity as a dict."""
        self.ser.reset_input_buffer()
        del self._buf[:]
        text = self.request("HELLO", proto.VERSION)
        words = text.split()
        if not words or words[0] != "apixagon":
            raise BoardError("%s is not an APIXAGON board" % self.port, EXIT_NO_BOARD)
        self.info = fields(" ".join(words[1:]))
        return self.info

    def status(self):
        return fields(self.request("STATUS"))

    def logs(self):
        """[(name, size, state)] of the logs on the board."""
        out = []
        start = 0
        while start is not None:
            start, page = None, self.request("LOGS", start)
            for item in page.split():
                if item[0] == "+":
                    start = int(item[1:])  # more in the next reply
                    continue
                name, size, state = item.split(":")
                out.append((name, int(size), state))
        return out

    def fetch(self, name, offset, size, chunk=proto.MAX_CHUNK, window=8, progress=None):
        """The bytes [offset, size) of a log (see fetch_many)."""
        reqs = [(name, o, min(chunk, size - o)) for o in range(offset, size, chunk)]
        got = self.fetch_many(reqs, window, progress)
        return b"".join(got[(name, o)] for _, o, _ in reqs)

    def fetch_many(self, reqs, window=8, progress=None):
        """{(name, offset): bytes} for GET requests (name, offset, n), with
        `window` of them in flight at once across files; each chunk is
        checked against its CRC, and a damaged one is asked for again.
        progress(n) is told each chunk's length."""
        got = {}
        pending = {}  # seq -> request
        todo = list(reqs)
        todo.reverse()
        retries = 0
        while todo or pending:
            while todo and len(pending) < window:
                r = todo.pop()
                pending[self.send("GET", *r)] = r
            f = self.read_frame(time.monotonic() + self.timeout)
            if f is None:
                raise BoardError("the board stopped answering during the download", EXIT_NO_BOARD)
            _, seq, ok, rest = f
            r = pending.pop(seq, None)
            if r is None:
                continue
            data = _chunk(rest, r[1]) if ok else None
            if data is None or len(data) != r[2]:
                if ok and data is not None:
                    raise BoardError("%s: the board sent less than it listed" % r[0])
                retries += 1
                if retries > 8:
                    raise BoardError("too many damaged chunks of %s" % r[0])
                pending[self.send("GET", *r)] = r
                continue
            got[(r[0], r[1])] = data
            if progress is not None:
                progress(len(data))
        return got

    def request_many(self, verb, items):
        """The same request for each item, pipelined; the replies in order."""
        seqs = [self.send(verb, item) for item in items]
        return [self.wait(s) for s in seqs]


def fields(text):
    """{key: value} of a reply's key=value words (HELLO, STATUS)."""
    return dict(w.split("=", 1) for w in text.split() if "=" in w)


def _chunk(rest, off):
    """The bytes of a GET reply "off n CRC b64", or None if damaged."""
    parts = rest.split()
    if len(parts) != 4 or int(parts[0]) != off:
        return None
    n = int(parts[1])
    data = b"" if parts[3] == "-" else binascii.a2b_base64(parts[3])
    if len(data) != n or "%04X" % proto.crc16(data) != parts[2]:
        return None
    return data


def connect(port=None, timeout=3.0):
    """A Link to the board on port (else $APIXAGON_PORT), or to the first
    port whose device answers HELLO as an APIXAGON board."""
    port = port or os.environ.get(PORT_ENV)
    if port:
        link = Link(port, timeout)
        link.hello()
        return link
    for dev in candidate_ports():
        try:
            link = Link(dev, 1.0)
            link.hello()
            link.timeout = timeout
            return link
        except BoardError:
            continue
    raise BoardError(
        "no APIXAGON board found on USB (give --port or set %s)" % PORT_ENV, EXIT_NO_BOARD
    )

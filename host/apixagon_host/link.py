"""The PC's end of the serial link: pyserial under the protocol's pure
framing (smartboard.proto, the very file the board runs). Board discovery
through pyserial's port list, a HELLO handshake, requests with sequence
numbers, pipelined GETs for log downloads, and the event stream."""

import binascii
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


def candidate_ports():
    """Serial ports that look like our board first, then the other USB ones."""
    ours, other = [], []
    for p in list_ports.comports():
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
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.ser.timeout = left
            line = self.ser.readline()
            if not line.endswith(b"\n"):
                if line:
                    self.noise.append(line)
                continue
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
        text = self.request("HELLO", proto.VERSION)
        words = text.split()
        if not words or words[0] != "apixagon":
            raise BoardError("%s is not an APIXAGON board" % self.port, EXIT_NO_BOARD)
        self.info = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        return self.info

    def status(self):
        return dict(w.split("=", 1) for w in self.request("STATUS").split() if "=" in w)

    def logs(self):
        """[(name, size, state)] of the logs on the board."""
        out = []
        for item in self.request("LOGS").split():
            name, size, state = item.split(":")
            out.append((name, int(size), state))
        return out

    def fetch(self, name, offset, size, chunk=proto.MAX_CHUNK, window=4, progress=None):
        """The bytes [offset, size) of a log: `window` GETs in flight at
        once, each chunk checked against its CRC (a bad one is asked for
        again). progress(n) is told each chunk's length."""
        out = bytearray()
        pending = {}  # seq -> offset
        nxt = offset
        got = {}
        retries = 0
        while nxt < size or pending:
            while nxt < size and len(pending) < window:
                n = min(chunk, size - nxt)
                pending[self.send("GET", name, nxt, n)] = nxt
                nxt += n
            f = self.read_frame(time.monotonic() + self.timeout)
            if f is None:
                raise BoardError("the board stopped answering during the download", EXIT_NO_BOARD)
            _, seq, ok, rest = f
            if seq not in pending:
                continue
            off = pending.pop(seq)
            data = None
            if ok:
                data = _chunk(rest, off)
            if data is None:
                retries += 1
                if retries > 8:
                    raise BoardError("too many damaged chunks of %s" % name)
                pending[self.send("GET", name, off, min(chunk, size - off))] = off
                continue
            got[off] = data
            if progress is not None:
                progress(len(data))
        pos = offset
        while pos < size:
            data = got.get(pos)
            if not data:
                raise BoardError("%s: the board sent less than it listed" % name)
            out += data
            pos += len(data)
        return bytes(out)


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
    """A Link to the board on port, or to the first port whose device
    answers HELLO as an APIXAGON board."""
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
    raise BoardError("no APIXAGON board found on USB (give --port)", EXIT_NO_BOARD)

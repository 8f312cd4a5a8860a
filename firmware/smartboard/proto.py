# The board's serial protocol, framing and messages: pure code that runs on
# the board (MicroPython) and on the PC (CPython); the byte I/O lives
# elsewhere (smartboard.link on the board, apixagon_host.link on the PC).
# Specification: docs/protocol.md.
#
# A frame is one line of printable ASCII ending in "\n", its last five
# characters "*" and a CRC-16/CCITT-FALSE of everything before, in hex:
#
#   @7 GET 0003.alog 4096 2048*1C2F        host -> board, sequence 7
#   =7 OK 4096 2048 9f1c33a0 AAECAwQ...*5B01   the reply to 7
#   =7 ERR 6 bad arguments*8A7E               or its error
#   ! EV move A 12 C4*07D2                    an event (when watching)
#
# Printable ASCII only: the bytes the MicroPython REPL reacts to (Ctrl-A
# raw REPL, Ctrl-B, Ctrl-C interrupt, Ctrl-D soft reset) never occur in a
# frame, so `mpremote` can always take the board over with Ctrl-C. (From
# version 3 a FETCH chunk's bytes follow its head raw, board to host only:
# the REPL reads none of them, and the host knows their count.)
import binascii
from array import array

from apixagon.compat import const, micropython, ptr8, ptr16

# 2: PULLED takes several names (a request per log cost the board ~4 ms
# of the RP2040's time each, most of it the USB CDC's per-byte reads);
# FETCH. 3: FETCH's chunks go raw after a text head with their CRC-32
# (binascii.crc32: C on both sides), not as base64 with two CRC-16s - on
# the RP2040 the CRC-16 and base64 loops were a third of a pull's time and
# base64 a third more bytes on the USB. A host asks HELLO 3 and, refused
# (E_VERSION: an older board), HELLO 2, then HELLO 1; the board speaks to
# each link the version its HELLO asked for (1 without a HELLO). 4: FETCH
# and PULLED take ranges of log numbers ("N+K": logs N .. N+K-1, whole):
# at ~70 us a request byte, a pull of many short logs spent more of the
# RP2040's time reading the names it was asked for than sending them.
# 5: a FETCH range's logs that the board keeps packed back to back in an
# archive go out as one span frame, the archive's own entries (each log's
# head with its CRC-32, its bytes) raw after it: a frame a log, and the
# board's work a frame, had been most of a pull of short logs.
VERSION = const(5)
MAX_IN = const(256)  # longest frame the board accepts
MAX_CHUNK = const(2048)  # bytes of a log per GET reply (base64: 2732 chars)
# A GET's buffer: the chunk is read in at B64_AT and encoded in place from
# byte 0 (b64_in_place), so one buffer of the text's size holds both
B64_AT = const(684)  # ceil(MAX_CHUNK / 3) + 1: the writes never pass the reads
GET_BUFFER = const(2732)  # B64_AT + MAX_CHUNK = 4 * ceil(MAX_CHUNK / 3)
# A span frame's bytes at most (version 5): a FETCH's log starts only
# while its reply is under smartboard.link.MAX_FETCH (32768) and is no
# longer than that (its entry head: 14 bytes more); a packed log, its
# archive entry, is no longer than a chunk
MAX_SPAN = const(34816)

# Error codes of "=seq ERR code text" (docs/protocol.md)
E_FRAME = const(1)  # not a frame: no "@", no "*crc", or a bad character
E_CRC = const(2)  # the checksum does not match
E_LONG = const(3)  # longer than MAX_IN: dropped up to its newline
E_TRUNCATED = const(4)  # no newline came: the partial frame is dropped
E_VERB = const(5)  # no such command
E_ARGS = const(6)  # wrong number or form of arguments
E_NOT_FOUND = const(7)  # no such log
E_STATE = const(8)  # not now (e.g. deleting the match in play)
E_VERSION = const(9)  # the host speaks a newer protocol
E_INTERNAL = const(10)  # the board failed doing it (flash full, ...)
READY = const(100)  # Deframer.feed(): a good frame is waiting
ERRORS = (
    "",
    "malformed frame",
    "checksum mismatch",
    "frame too long",
    "truncated frame",
    "unknown command",
    "bad arguments",
    "not found",
    "not allowed now",
    "protocol version not supported",
    "board error",
)


def _table():
    t = array("H", range(256))  # each byte's CRC (no list of 256 made)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else c << 1
        t[i] = c & 0xFFFF
    return t


TABLE = _table()  # built once at import (python-chess style tables)


def crc16_table(data, crc=0xFFFF, n=-1):
    """CRC-16/CCITT-FALSE of data[:n] (bytes, bytearray or memoryview),
    a table byte by byte, in plain Python: the reference the fast ones
    are tested against."""
    t = TABLE
    if n < 0:
        n = len(data)
    for i in range(n):
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


@micropython.viper
def _crc16_viper(data: ptr8, n: int, crc: int) -> int:
    # The table loop in machine code: every byte of a download is checked
    # twice on the board (the chunk's CRC, then the frame's), and as
    # bytecode that was 14 us a byte on the RP2040, 65 ms of a 2 KB GET:
    # a pull near 25 KB/s of the chip's time (the budget is 200). Viper,
    # a 16-bit table: 0.47 us a byte. (Machine words: crc stays within
    # 16 bits.)
    t = ptr16(TABLE)
    i = 0
    while i < n:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ data[i]) & 0xFF]
        i += 1
    return crc


# CPython's binascii has this very CRC in C (crc_hqx: poly 0x1021, no
# reflection, the start value given); MicroPython's has not: the board
# runs the viper loop. Same function either way (tests/board/
# test_link_proto.py checks they agree with the table, under both).
_hqx = getattr(binascii, "crc_hqx", None)


def crc16(data, crc=0xFFFF, n=-1):
    """CRC-16/CCITT-FALSE of data[:n] (bytes, bytearray or memoryview)."""
    if n < 0 or n > len(data):
        n = len(data)
    if _hqx is None:
        return _crc16_viper(data, n, crc)
    if n < len(data):
        data = memoryview(data)[:n]
    return _hqx(data, crc)


_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@micropython.viper
def b64_in_place(buf: ptr8, at: int, n: int) -> int:
    """Base64 (standard alphabet, "=" padding, no newline) of buf[at:at+n]
    written into buf from 0; its length. Each group of 3 is read before
    its 4 characters are written, and they never reach a byte still to be
    read as long as at >= ceil(n / 3) (B64_AT for a GET). On the board a
    GET's text was binascii.b2a_base64 in pieces, each a new object, its
    CRC another pass: this and the CRC after it, in machine code, need no
    allocation and half the chip's time."""
    a = ptr8(_ALPHABET)
    i = 0
    j = 0
    while i + 3 <= n:
        v = (buf[at + i] << 16) | (buf[at + i + 1] << 8) | buf[at + i + 2]
        buf[j] = a[(v >> 18) & 63]
        buf[j + 1] = a[(v >> 12) & 63]
        buf[j + 2] = a[(v >> 6) & 63]
        buf[j + 3] = a[v & 63]
        i += 3
        j += 4
    if i < n:
        v = buf[at + i] << 16
        two = i + 2 == n
        if two:
            v = v | (buf[at + i + 1] << 8)
        buf[j] = a[(v >> 18) & 63]
        buf[j + 1] = a[(v >> 12) & 63]
        buf[j + 2] = 61  # "="
        if two:
            buf[j + 2] = a[(v >> 6) & 63]
        buf[j + 3] = 61
        j += 4
    return j


_HEX = b"0123456789ABCDEF"


def frame(body):
    """The wire bytes of a frame whose text is body (str, printable)."""
    b = body.encode()
    c = crc16(b)
    return (
        b
        + b"*"
        + bytes((_HEX[c >> 12], _HEX[(c >> 8) & 15], _HEX[(c >> 4) & 15], _HEX[c & 15]))
        + b"\n"
    )


def chunk_head_into(buf, end, seq, off, n, data, crc=-1):
    """The head frame of a raw chunk (version 3): "=seq OK off n CRC32 +",
    data[:n] (its CRC-32, binascii's: unsigned on CPython and MicroPython)
    to follow it on the wire; written into buf just before end (where the
    chunk's bytes are): where it starts. The frame and its chunk then go
    out as one write, with no head, tail or joined bytes made a chunk
    (what the collector spent a download's time on). Bytes formatting:
    no str made, so no lookup among the interned strings (a str costs the
    RP2040 one). crc: data's CRC-32 where the caller has it (-1: summed
    here)."""
    if crc < 0:
        crc = binascii.crc32(data)
    return head_into(buf, end, b"=%d OK %d %d %08X +" % (seq, off, n, crc))


def head_into(buf, end, b):
    # the frame of text b written into buf just before end, its CRC and
    # newline after it: where it starts
    c = crc16(b)
    at = end - len(b) - 6
    buf[at : end - 6] = b
    t = end - 6
    buf[t] = 42  # "*"
    buf[t + 1] = _HEX[c >> 12]
    buf[t + 2] = _HEX[(c >> 8) & 15]
    buf[t + 3] = _HEX[(c >> 4) & 15]
    buf[t + 4] = _HEX[c & 15]
    buf[t + 5] = 10
    return at


def crc_tail(c):
    """The "*XXXX\n" that closes a frame whose text has CRC c (for a
    frame written in parts, each part's CRC chained into the next)."""
    return bytes((42, _HEX[c >> 12], _HEX[(c >> 8) & 15], _HEX[(c >> 4) & 15], _HEX[c & 15], 10))


def check(line, n=-1):
    """Validate line[:n] (without its newline): 0 if it is a good frame,
    else E_FRAME or E_CRC. Printable ASCII only (32..126)."""
    if n < 0 or n > len(line):
        n = len(line)
    if n < 6 or line[n - 5] != 42:  # "*"
        return E_FRAME
    if not _printable(line, n):
        return E_FRAME
    want = 0
    for i in range(n - 4, n):
        ch = line[i]
        if 48 <= ch <= 57:
            v = ch - 48
        elif 65 <= ch <= 70:
            v = ch - 55
        elif 97 <= ch <= 102:
            v = ch - 87
        else:
            return E_FRAME
        want = (want << 4) | v
    if crc16(line, 0xFFFF, n - 5) != want:
        return E_CRC
    return 0


@micropython.viper
def _printable(line: ptr8, n: int) -> int:
    # every byte of line[:n] in 32..126 (a loop in machine code: the board
    # checks each request's bytes, in bytecode 12 us a byte on the RP2040)
    i = 0
    while i < n:
        ch = line[i]
        if ch < 32 or ch > 126:
            return 0
        i += 1
    return 1


def body(line, n=-1):
    """The text of a checked frame (str), without "*crc"."""
    if n < 0:
        n = len(line)
    return bytes(line[: n - 5]).decode()


def hex_text(data):
    """Bytes as hex digits (str): the 61-cell payloads of CELLS and of the
    cells and leds events."""
    return binascii.hexlify(data).decode()


def unhex(text, n):
    """The n bytes written as 2n hex digits in text, or None if text is not
    exactly that (the host's check of a cells or leds payload)."""
    if len(text) != 2 * n:
        return None
    try:
        return binascii.unhexlify(text)
    except ValueError:
        return None


def request(seq, verb, *args):
    """Host -> board: "@seq VERB args..."."""
    parts = ["@%d" % seq, verb]
    for a in args:
        parts.append(str(a))
    return frame(" ".join(parts))


def reply_ok(seq, text=""):
    return frame("=%d OK %s" % (seq, text) if text else "=%d OK" % seq)


def reply_err(seq, code, detail=""):
    msg = ERRORS[code] if code < len(ERRORS) else "error"
    if detail:
        msg = "%s: %s" % (msg, detail)
    return frame("=%d ERR %d %s" % (seq, code, msg))


def event(kind, text=""):
    return frame("! EV %s %s" % (kind, text) if text else "! EV %s" % kind)


def parse_request(text):
    """(seq, verb, args) of a request body "@seq VERB a b ..."; seq -1 if
    the body is not a request. seq is 1..999999 written without leading
    zeros (docs/protocol.md): 0 is the errors' and REBOOT's, and "@00002"
    must not be carried out as request 2."""
    if not text or text[0] != "@":
        return -1, "", ()
    parts = text.split()
    s = parts[0][1:]
    if not s or len(s) > 6 or s[0] == "0" or not s.isdigit() or len(parts) < 2:
        return -1, "", ()
    return int(s), parts[1], parts[2:]


def parse_reply(text):
    """(kind, seq, ok, rest) of a board frame body: kind "=" for a reply
    (ok True/False, rest the data or "code message"), "!" for an event
    (rest "kind text"); kind "" if the text is neither."""
    if text[:5] == "! EV ":
        return "!", 0, True, text[5:]
    if not text or text[0] != "=":
        return "", 0, False, ""
    sp = text.find(" ")
    if sp < 2 or not text[1:sp].isdigit():
        return "", 0, False, ""
    seq = int(text[1:sp])
    rest = text[sp + 1 :]
    if rest[:2] == "OK":
        return "=", seq, True, rest[3:]
    if rest[:4] == "ERR ":
        return "=", seq, False, rest[4:]
    return "", 0, False, ""


class Deframer:
    """Bytes in, frames out, with bounded memory: a line longer than MAX_IN
    is dropped to its newline and reported once (E_LONG); a partial line
    left alone for `idle_ms` is dropped and reported (E_TRUNCATED): timed
    by stale(now), which the link calls when a poll found the port empty,
    from the first such call after the last byte.

        d.feed(byte, now) -> 0 nothing yet, READY: a frame is in
                             d.line[:d.n], or an E_* code for the line
                             that just ended"""

    def __init__(self, size=MAX_IN, idle_ms=1000):
        self.line = bytearray(size)
        self.n = 0
        self.size = size
        self.idle_ms = idle_ms
        self._over = False
        self._at = None  # when a poll first found nothing after the last byte

    def feed(self, b, now):
        self._at = None
        if b == 10 or b == 13:
            n = self.n
            over = self._over
            self._over = False
            if over:
                self.n = 0
                return E_LONG
            if n == 0:
                return 0  # blank line (a terminal's CR LF): ignored
            r = check(self.line, n)
            if r:
                self.n = 0
                return r
            return READY
        if self._over:
            return 0
        if self.n >= self.size:
            self._over = True
            return 0
        self.line[self.n] = b
        self.n += 1
        return 0

    def taken(self):
        """The frame in line[:n] was handled."""
        self.n = 0

    def stale(self, now):
        """E_TRUNCATED when a partial line waited too long (then dropped).
        The wait counts from the first empty poll, never from the last
        byte: the poll that read it may have gone on to answer a slow
        request (a LOGS that writes the flash, a simulator's PLAY), and the
        rest of the line, sent a moment later, would find its head dropped
        (an ERR 4, then an ERR 1 for the tail: the request lost)."""
        if self._at is None:
            self._at = now
        if (self.n or self._over) and now - self._at > self.idle_ms:
            self.n = 0
            self._over = False
            return E_TRUNCATED
        return 0


# Numbers in requests: on the RP2040 a small int ends near 2^30 and a
# bigger one is a heap object; a frame of digits must never become a
# 240-digit clock or an OverflowError in a slice. A number is at most this
# many characters, then checked against the request's own range.
_DIGITS = const(10)
SENT = "sent"  # a board handler that wrote its reply itself (GET)


def number(text, lo, hi):
    """The int `text` spells, if it is one in lo..hi; else ValueError
    (answered bad arguments). Never builds a long from a long string."""
    n = len(text)
    if n == 0 or n > _DIGITS:
        raise ValueError(text[:_DIGITS])
    i = 1 if text[0] == "-" else 0
    if i == n:
        raise ValueError(text)
    for k in range(i, n):
        if not "0" <= text[k] <= "9":
            raise ValueError(text[:_DIGITS])
    v = int(text)
    if not lo <= v <= hi:
        raise ValueError(text)
    return v

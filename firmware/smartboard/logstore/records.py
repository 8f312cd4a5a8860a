# The match-log record format (issue 4), read and written by the board and
# read by the host (apixagon_host.store): one format, one parser. A log is
# one append-only file per match, a record per header line and per move,
# each with a CRC and hash-chained to the one before, so that
#   - a power cut at any byte loses at most the record being written: the
#     reader stops at the first incomplete record (TORN), and the writer
#     cuts such a torn tail off before it appends again (writer.py);
#   - an edited log is detected: a record whose link does not follow from
#     the previous one breaks the chain (BROKEN).
# Record layout (docs/protocol.md):
#
#   0xA5 | type | len | payload (len bytes, ASCII) | link (4) | crc16 (2)
#
#   type H  a header line of the .apx record ("mode beehive", "[Date ..]")
#        M  a move line ("A 12 C4")         U  the last move taken back
#        E  the match is over (payload: the result line)
#   link = sha256(previous link + type + payload)[:4], the first previous
#          link being b"APX1"; crc16 (smartboard.proto) covers all before it.
#
# A log on flash is read through a fixed window (walk: the link's 2 KB GET
# buffer, lent; else WINDOW bytes made for the read), refilled at the
# record that does not fit (a record is at most 264 bytes): verifying,
# resuming and repairing a log of any length take the same memory.
import hashlib

from apixagon.compat import const

from ..proto import crc16

MAGIC = const(0xA5)
SEED = b"APX1"
HEADER = const(72)  # "H"
MOVE = const(77)  # "M"
UNDO = const(85)  # "U"
END = const(69)  # "E"
WINDOW = const(320)  # a log is read through this much memory (a record: <= 264)

# read_log() verdicts
OK_LOG = const(0)
TORN = const(1)  # an incomplete last record (a power cut): the rest is good
CORRUPT = const(2)  # a bad record with data after it
BROKEN = const(3)  # a record whose link does not follow: the log was edited
MORE = const(4)  # walk(most=k) stopped after k records, with more to read
_VERDICTS = ("ok", "torn tail", "corrupt record", "hash chain broken")


def verdict_name(v):
    return _VERDICTS[v]


def link_of(prev, kind, payload):
    h = hashlib.sha256(prev)
    h.update(bytes((kind,)))
    h.update(payload)
    return h.digest()[:4]


def encode(prev, kind, payload):
    """(record bytes, its link) for payload (bytes, at most 255)."""
    n = len(payload)
    link = link_of(prev, kind, payload)
    rec = bytearray(n + 9)
    rec[0] = MAGIC
    rec[1] = kind
    rec[2] = n
    rec[3 : 3 + n] = payload
    rec[3 + n : 7 + n] = link
    c = crc16(rec, 0xFFFF, n + 7)
    rec[7 + n] = c >> 8
    rec[8 + n] = c & 255
    return rec, link


def read_log(data, visit=None):
    """Walk the records of a log's bytes: visit(kind, payload) for each good
    one. Returns (verdict, good_length, records, link): good_length is where
    the good records end (a writer appends there), link the last link."""
    return walk(None, None, data, visit)


def walk(fs, path, buf, visit, off=0, prev=SEED, most=-1):
    # read_log over a log on flash (path on fs: anything whose
    # read_into(path, offset, buf) reads it) read through the buffer buf
    # (fs.read_into, refilled at the record that does not fit: one record
    # in view at a time, a log of any length in the same memory), or over
    # the log's bytes (fs None, buf the bytes, all in view). From off,
    # whose record follows the link prev; at most `most` records (then
    # MORE: the packer's walk goes on a few records a loop tick, pack.py).
    count = 0
    base = 0  # the file offset of buf[0]
    n = 0 if fs else len(buf)  # bytes of the file in buf
    end = not fs  # buf holds the file up to its end
    while True:
        i = off - base
        if not end and (i + 9 > n or i + buf[i + 2] + 9 > n):
            n = fs.read_into(path, off, buf)
            base = off
            end = n < len(buf)
            i = 0
        if i >= n:
            return OK_LOG, off, count, prev
        if count == most:
            return MORE, off, count, prev
        if n - i < 9:
            return TORN, off, count, prev
        if buf[i] != MAGIC:
            return CORRUPT, off, count, prev
        ln = buf[i + 2]
        e = i + ln + 9
        if e > n:
            return TORN, off, count, prev
        c = crc16(memoryview(buf)[i:e], 0xFFFF, ln + 7)
        if buf[e - 2] != c >> 8 or buf[e - 1] != c & 255:
            # the last record torn mid-write, or damage with data after it
            return (TORN if e == n and end else CORRUPT), off, count, prev
        kind = buf[i + 1]
        payload = bytes(buf[i + 3 : i + 3 + ln])
        link = bytes(buf[i + 3 + ln : i + 7 + ln])
        if link != link_of(prev, kind, payload):
            return BROKEN, off, count, prev
        prev = link
        count += 1
        if visit is not None:
            visit(kind, payload)
        off += ln + 9


class Lines:
    """read_log visitor: the .apx lines of a log (takes back U records)."""

    def __init__(self):
        self.header = []
        self.moves = []
        self.result = None

    def __call__(self, kind, payload):
        text = payload.decode()
        if kind == HEADER:
            self.header.append(text)
        elif kind == MOVE:
            self.moves.append(text)
        elif kind == UNDO:
            if self.moves:
                self.moves.pop()
            # after an E: the winning card was taken back, the match goes on
            self.result = None
        elif kind == END:
            self.result = text

    def lines(self):
        """The record's lines, header first (a generator: no new list)."""
        for x in self.header:
            yield x
        for x in self.moves:
            yield x


class Positions:
    """read_log visitor for the board's resume: where each header line and
    each move still standing lies in the log, 3 bytes a line (its record's
    offset), and the lines themselves read from flash one at a time when
    lines() is walked (a boot replays a whole match: neither a list of
    strings nor the log's bytes are held). fs, path: the log; buf: the
    window it is read through."""

    def __init__(self, fs, path, buf):
        self.fs = fs
        self.path = path
        self.buf = buf
        self.at = bytearray(3 * 32)
        self.n = 0  # lines standing
        self.header = 0  # of which header lines
        self.result = None
        self._pos = 0  # where the next record starts

    def __call__(self, kind, payload):
        i = self._pos
        self._pos = i + len(payload) + 9
        if kind == HEADER or kind == MOVE:
            j = 3 * self.n
            if j >= len(self.at):
                self.at.extend(bytes(j))
            a = self.at
            a[j] = i >> 16
            a[j + 1] = (i >> 8) & 255
            a[j + 2] = i & 255
            self.n += 1
            if kind == HEADER:
                self.header += 1
        elif kind == UNDO:
            if self.n > self.header:
                self.n -= 1
            self.result = None  # after an E: the winning card taken back
        elif kind == END:
            self.result = payload  # bytes: only whether there is one matters

    def moves(self):
        return self.n - self.header

    def lines(self):
        """The record's lines, header first (a generator: one line made at
        a time, its record read into the window)."""
        a = self.at
        b = self.buf
        for j in range(0, 3 * self.n, 3):
            self.fs.read_into(self.path, a[j] << 16 | a[j + 1] << 8 | a[j + 2], b)
            yield bytes(memoryview(b)[3 : 3 + b[2]]).decode()

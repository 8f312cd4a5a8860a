# Match logs on flash (issue 4): one append-only file per match, a record
# per header line and per move, each with a CRC and hash-chained to the one
# before, so that
#   - a power cut at any byte loses at most the record being written: the
#     reader stops at the first incomplete record, and the writer cuts such
#     a torn tail off (rewritten, then renamed over: littlefs commits a
#     rename whole) before it appends again;
#   - an edited log is detected: a record whose link does not follow from
#     the previous one breaks the chain.
# The same reader runs on the host (apixagon_host.logs) — one format, one
# parser. Record layout (docs/protocol.md):
#
#   0xA5 | type | len | payload (len bytes, ASCII) | link (4) | crc16 (2)
#
#   type H  a header line of the .apx record ("mode beehive", "[Date ..]")
#        M  a move line ("A 12 C4")         U  the last move taken back
#        E  the match is over (payload: the result line)
#   link = sha256(previous link + type + payload)[:4], the first previous
#          link being b"APX1"; crc16 (smartboard.proto) covers all before it.
#
# The writer follows the game instead of queueing records: each quiet loop
# tick it writes the one record that brings the flash closer to the game
# (a U per move taken back since, then the moves, then the E). So nothing
# waits in a queue of its own: while the flash is full the moves wait in
# the game itself, in no extra memory, and are written when space comes
# back (a take-back made and undone meanwhile is then logged as its net
# effect). A log file appears whole with its header (written to a .tmp
# file, then renamed), so a log never lacks its mode line.
#
# Scale (a board that is never pulled holds a thousand matches and more):
# nothing here holds the whole folder or a whole log in memory.
#   - The folder is listed one entry at a time (os.ilistdir where the
#     filesystem has it, names as bytes; a wrapper without it, such as the
#     flash's twin, falls back on listdir) into an index: a bit per log
#     number for NNNN.alog on flash and one for NNNN.pulled (1000 logs:
#     256 bytes, not 1000 strings). LOGS pages, STATUS counts, the newest
#     log and the next number come from it, and PULLED and DEL look up no
#     file. The board is the flash's only writer while it runs, so the
#     index follows its own writes; the folder is listed afresh at boot and
#     at each LOGS from the start (one pass: 0.4 s for 1500 entries on the
#     RP2040, where a lookup by name in such a folder costs up to 0.2 s).
#   - A log is read through a fixed window (the link's 2 KB GET buffer,
#     lent; else 320 bytes made for the read), refilled at the record that
#     does not fit (a record is at most 264 bytes): verifying, resuming and
#     repairing a log of any length take the same memory.
#   - What the board did not make is moved aside, never deleted: an entry
#     of logs/ that is no log, marker or LAST (a folder, a stray file) goes
#     to logs.junk/, and so does a file named logs (the folder is then
#     made); the board says so (smartboard.logfs). Only its own .tmp files
#     go.
#   - Log numbers run to MAX_NUMBER, four digits as the names have always
#     been ("%04d": 10000.alog would sort before 9999.alog): the index is
#     at most 2.5 KB. Past it no new log is made and the board says the
#     flash is full (9999 matches: 13 years of 2 a day).
import hashlib
import os

from apixagon import record
from apixagon.compat import const

from .proto import crc16

MAGIC = const(0xA5)
SEED = b"APX1"
HEADER = const(72)  # "H"
MOVE = const(77)  # "M"
UNDO = const(85)  # "U"
END = const(69)  # "E"
SUFFIX = ".alog"
PULLED = ".pulled"  # marker: the host stored this match (PULLED command)
LOW_BYTES = const(65536)  # below this much free flash the board warns
TMP = ".tmp"  # a file being written whole, renamed over its name when done
# The highest log number deleted: a number is never given twice, or the
# host, which knows a match by board and name, would take a new match for
# the one it stored under that name (and append to it or replace it).
HIGH = "LAST"
MAX_NUMBER = const(9999)  # the highest log number (see above)
JUNK = ".junk"  # what logs/ should not hold goes to <root>.junk/
_NCRC = const(256)  # moves whose identity the writer keeps (a match has ~100)
_WINDOW = const(320)  # a log is read through this much memory (a record: <= 264)
_GROW = const(32)  # the index grows by this many bytes (128 numbers)
_S_IFDIR = const(0x4000)
_FIX = const(8)  # entries dropped or moved aside after one pass of a listing
# kinds of names in logs/ (_kind)
_K_JUNK = const(0)
_K_LOG = const(1)
_K_MARK = const(2)
_K_TMP = const(3)
_K_HIGH = const(4)
_MARKS = const(64)  # PULLED marks kept in memory at most (MatchLog.marks)
HEAD = const(64)  # logs whose sizes a listing keeps (LOGS' first page: sizes(fresh))
_RETRY_MS = const(2000)  # a failing flash is tried again this often

# read_log() verdicts
OK_LOG = const(0)
TORN = const(1)  # an incomplete last record (a power cut): the rest is good
CORRUPT = const(2)  # a bad record with data after it
BROKEN = const(3)  # a record whose link does not follow: the log was edited
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
    return _walk(None, None, data, visit)


def _walk(fs, path, buf, visit):
    # read_log over a log on flash (path on fs) read through the buffer buf
    # (fs.read_into, refilled at the record that does not fit: one record
    # in view at a time, a log of any length in the same memory), or over
    # the log's bytes (fs None, buf the bytes, all in view)
    off = 0
    prev = SEED
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


def _move_crc(kind, payload, ply):
    """A move's identity on flash: a CRC of its history entry (kind, ply,
    payload), so the moves already written are known without formatting
    their text."""
    return crc16(payload, 0xFFFF ^ (kind << 8 | (ply & 255)))


def _is_header(line):
    return line[0] == "[" or line[:4] in ("mode", "play", "opti", "star")


def _number(name):
    """The number of a log's name as the board makes them ("0007.alog" ->
    7), 0 for any other name."""
    k, n = _kind(name.encode() if isinstance(name, str) else name)
    return n if k == _K_LOG else 0


number_of = _number  # the link's name for it


def _kind(name):
    """(kind, number) of a name in logs/ (bytes): a log NNNN.alog or its
    marker NNNN.pulled as the board writes them (four digits, 1..MAX_NUMBER:
    "7.alog" or "00007.alog" is not one), LAST, a .tmp, or junk. The usual
    names first, in few steps: a listing runs this for each of thousands."""
    n = len(name)
    if n == 9 and name[4:] == b".alog":
        k = _K_LOG
    elif n == 11 and name[4:] == b".pulled":
        k = _K_MARK
    elif name == b"LAST":
        return _K_HIGH, 0
    elif name.endswith(b".tmp"):
        return _K_TMP, 0
    else:
        return _K_JUNK, 0
    d = name[:4]
    if d.isdigit() and d != b"0000":
        return k, int(d)
    return _K_JUNK, 0


def _join(d, name):
    # the path in folder d (str) of a name a listing gave as bytes or str
    return d + "/" + name if isinstance(name, str) else d.encode() + b"/" + name


def _keep_head(head, k, n, size):
    # n's size among the HEAD lowest numbers seen, kept in order in
    # head[:k], 6 bytes each (n: 2, size: 4, big-endian); the new k.
    # littlefs lists names in order, so this is an append but for the odd
    # one.
    if k >= 6 * HEAD:
        if n > _head_n(head, k - 6):
            return k
        k -= 6
    j = k
    while j and _head_n(head, j - 6) > n:
        j -= 6
    if j < k:
        head[j + 6 : k + 6] = bytes(head[j:k])  # a copy: the two overlap
    head[j] = n >> 8
    head[j + 1] = n & 255
    for i in range(4):
        head[j + 2 + i] = (size >> (24 - 8 * i)) & 255
    return k + 6


def _head_n(head, j):
    return (head[j] << 8) | head[j + 1]


def date_tags(t):
    """The [Date] (NOTATION.md's YYYY.MM.DD) and [Time] (HH:MM) tag pairs
    of t, seconds since 1970 on the host's wall clock. The civil date by
    integer arithmetic (H. Hinnant's civil_from_days): the same on every
    port, whatever epoch and time functions its `time` has."""
    d = t // 86400
    s = t - d * 86400
    z = d + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    day = doy - (153 * mp + 2) // 5 + 1
    return (
        ("Date", "%04d.%02d.%02d" % (y, m, day)),
        ("Time", "%02d:%02d" % (s // 3600, s // 60 % 60)),
    )


def log_name(n):
    """The name of log number n (7 -> "0007.alog")."""
    return "%04d%s" % (n, SUFFIX)


def _bit(bits, n, m):
    # bit n of the index (MatchLog._bits): m 0 the logs', 1 the markers'
    j = 2 * (n >> 3) + m
    return j < len(bits) and (bits[j] >> (n & 7)) & 1


def _write(path, mode, data):
    with open(path, mode) as f:
        n = f.write(data)
    if n is not None and n != len(data):
        raise OSError(28)  # ENOSPC: a short write, the flash is full


class Flash:
    """The board's filesystem as the match logs use it: MicroPython's os
    over littlefs on the board, the PC's files under the unix port and
    CPython. Its simulated twin (smartboard.sim.flash.SimFlash) cuts the
    power inside a write and reports a chosen free space; it has no
    ilistdir, and the log lists it with listdir."""

    def __init__(self):
        # The file read last, kept open (read_into): a log read in parts
        # (a resume, a pull's GETs) is looked up once, not per part (on a
        # littlefs folder of a thousand entries a lookup costs 0.1-0.2 s on
        # the RP2040). Closed by every write, rename and removal.
        self._f = None
        self._fp = None

    def _shut(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def listdir(self, d):
        return os.listdir(d)

    def ilistdir(self, d):
        """(name as bytes, a folder?, size or -1) of each entry of d, one at
        a time (MicroPython's os.ilistdir; littlefs gives the size with it,
        a POSIX folder does not). Bytes: a name that is not UTF-8 lists
        too (as str it would raise UnicodeError in the middle of a listing)."""
        if hasattr(os, "ilistdir"):
            for e in os.ilistdir(d.encode()):
                yield e[0], e[1] == _S_IFDIR, e[3] if len(e) > 3 else -1
        else:  # CPython
            with os.scandir(d.encode()) as it:
                for e in it:
                    yield e.name, e.is_dir(), -1

    def mkdir(self, d):
        os.mkdir(d)

    def size(self, path):
        return os.stat(path)[6]

    def read_into(self, path, offset, buf):
        """Bytes from offset into buf (a GET chunk: the link's own buffer,
        no allocation); how many (0 past the end)."""
        if self._f is None or self._fp != path:
            self._shut()
            self._f = open(path, "rb")
            self._fp = path
        self._f.seek(offset)
        return self._f.readinto(buf) or 0

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def append(self, path, data):
        self._shut()
        _write(path, "ab", data)

    def write(self, path, data):
        self._shut()
        _write(path, "wb", data)

    def rename(self, src, dst):
        self._shut()
        os.rename(src, dst)

    def remove(self, path):
        self._shut()
        os.remove(path)

    def free(self, d):
        st = os.statvfs(d)  # AttributeError where a port has none
        return st[0] * st[4]  # f_bsize * f_bavail


class MatchLog:
    """The board's writer: a listener of smartboard.board.Board events.

    A move only marks the log due; the records are written one per quiet
    loop tick (flush()): a flash write stalls the CPU, so it never lands in
    the tick that just saw a card (issue 3/4: scanning and LEDs never stall).
    fs: the filesystem (Flash(), or a simulated twin)."""

    def __init__(self, root="logs", tags=(), fs=None):
        self.root = root
        self.tags = tags  # extra [Tag "value"] lines for every match
        # the match's own (the board's computer seats and level: set before
        # its start event)
        self.match_tags = ()
        # The host's clock, once one set it (smartboard.link's CLOCK lends
        # its local_time): a match is then dated when it starts, its
        # [Date] and [Time] in its header. None: no date (the host dates it).
        self.clock = None
        self.when = 0  # seconds of the match being logged's start, 0 unknown
        self.next_when = 0
        self.fs = fs if fs is not None else Flash()
        try:
            self.fs.mkdir(root)
        except OSError:
            pass  # already there
        self.game = None  # the match being logged (the one written to)
        self.path = None  # its file, once made
        self.made = False  # the file exists, header and all
        self.link = SEED  # the last link on flash
        self.size = 0  # bytes of good records on flash: the next one goes there
        self.crcs = bytearray(2 * _NCRC)  # identity of each move on flash
        self.wn = 0  # moves on flash (net of take-backs)
        self.over = False  # the log on flash ends with its E record
        self.end_text = None  # "abandoned": the E to write when caught up
        self.due = False  # the game may be ahead of the flash
        self.suspect = False  # a write failed: a torn tail may follow size
        self.failing = False  # the last write failed (the flash is full)
        self.hold = None  # ms: no new attempt before (a failing flash)
        self.next = None  # a newer match waiting for this one to be written
        self.next_end = None
        self.dropped = 0  # matches that never got a log (flash full, see begin)
        self.errors = 0  # failed writes
        self.damaged = None  # name of a newest log that does not verify
        self.space = 0  # bumped when the free space may have changed
        self.note = None  # what a listing put right, for the players (said once)
        # The buffer logs are read through (_walk, at least _WINDOW): the
        # link lends its GET chunk, never in use at the same time (one
        # loop); without a link, one is made for each read (_window).
        self.window = None
        # The index (see the top of this file), made by the first listing:
        # two bitmaps interleaved a byte each, numbers 8j..8j+7 in bytes 2j
        # (NNNN.alog on flash) and 2j+1 (pulled: its marker on flash, or
        # in marks). Made here, with the board's other lasting buffers.
        self._bits = bytearray(_GROW)
        self._listed = False  # the index was made (rescan)
        self._hi = 0  # LAST: the highest number deleted
        # numbers PULLED whose marker is not on flash: n, its write waiting
        # for a quiet link (at the end: write_mark), or -n, kept in memory
        # as the flash is full (at the front); at most _MARKS
        self.marks = []
        self._sized = False  # the last listing gave each entry's size (littlefs)
        self._dir = None  # LOGS pages' pass over the folder, going on (logfs.sizes)
        # The sizes a listing asked for them (rescan(head=buffer)) saw of
        # its HEAD lowest log numbers, by n, in a buffer the caller lends
        # (the link's own): LOGS from the start lists the folder and then
        # needs the sizes of its first page, a second pass (~0.7 ms an
        # entry on the RP2040) saved. For that request alone, let go by
        # sizes(fresh=True): a log in play grows; and no heap for it (at
        # 96 wK a 512-byte array made per LOGS split the heap enough to
        # fail the next match's 1 KB).
        self._head = None
        self._nhead = 0  # head[:_nhead] holds the pairs

    # ---- files --------------------------------------------------------------
    def names(self):
        """The log files, oldest first: a list, for tests and tools (the
        firmware walks the index instead: page(), counts())."""
        return [log_name(n) for n in self.page(0, MAX_NUMBER)[0]]

    def file(self, name):
        return "%s/%s" % (self.root, name)

    def size_of(self, name):
        """A log's size in bytes, -1 if it is gone."""
        try:
            return self.fs.size(self.file(name))
        except OSError:
            return -1

    def has(self, name):
        """Whether the log exists (the index: no lookup on flash; the host
        marks a whole archive pulled, a request per log)."""
        self._index()
        return _bit(self._bits, _number(name), 0) == 1

    def has_all(self, lo, k):
        """Whether the logs numbered lo .. lo+k-1 all exist (the index; one
        loop, not a call a log: a range of PULLED or FETCH)."""
        self._index()
        for n in range(lo, lo + k):
            if not _bit(self._bits, n, 0):
                return False
        return True

    def _marker(self, n):
        return "%s/%04d%s" % (self.root, n, PULLED)

    def is_pulled(self, name):
        return self.pulled(_number(name))

    def pulled(self, n):
        """is_pulled() of log number n."""
        self._index()
        return _bit(self._bits, n, 1) == 1

    def mark_number(self, n, later=False):
        """The host stored log number n: marked pulled in the index at once
        (LOGS, STATUS and DEL see it), its marker file on flash now or,
        later, once the link is quiet (write_mark). A marker costs littlefs
        a file made in the folder (~30 ms on the RP2040): a pull of many
        short logs spent more on them than on fetching the logs. A power
        cut before it is written only forgets the mark: the host, which
        has the log whole, marks it again at its next pull. At most _MARKS
        wait; a log marked already is not written again."""
        self._index()
        if _bit(self._bits, n, 1):
            return  # its marker is on flash or in marks
        self._set(1, n, 1)
        if later and len(self.marks) < _MARKS:
            self.marks.append(n)
        elif not self._mark(n):
            raise OSError(28)

    def write_mark(self):
        """A marker PULLED left for later (marks[-1] > 0) written on flash."""
        self._mark(self.marks.pop())

    def _mark(self, n):
        # n's marker on flash; on a full flash kept in memory, so that DEL
        # can free space (after a reboot the host pulls it again). False,
        # and not marked, if not even there.
        try:
            self.fs.write(self._marker(n), b"1")
        except OSError:
            if len(self.marks) >= _MARKS:
                self._set(1, n, 0)
                return False
            self.marks.insert(0, -n)
        return True

    def current(self):
        return self.path[len(self.root) + 1 :] if self.path else None

    def playing(self):
        """The number of the log whose match is in play, 0 when none (no
        log yet, or its match is over): LOGS calls it "play", PULLED
        refuses it."""
        cur = self.current()
        return _number(cur) if cur and not self.over else 0

    def delete(self, name):
        """Delete a log the host has stored (link.py checks that it has).
        Deleting the newest log keeps its number first (HIGH, written
        whole): a cut between the two leaves the log and a number never
        used again, never a number free for another match. Older logs need
        no write (on a full flash they are what frees space)."""
        n = _number(name)
        if n >= self._newest() and n > self._hi:
            tmp = self.file(HIGH + TMP)
            self.fs.write(tmp, ("%d" % n).encode())
            self.fs.rename(tmp, self.file(HIGH))
            self._hi = n
        self.fs.remove(self.file(name))
        self._set(0, n, 0)
        self._set(1, n, 0)
        self._dir = None
        try:
            self.fs.remove(self._marker(n))
        except OSError:
            pass  # pulled in memory only
        for m in (n, -n):
            if m in self.marks:
                self.marks.remove(m)
        self.hold = None  # space came back: try the waiting records at once
        self.space += 1

    def free_bytes(self):
        try:
            return self.fs.free(self.root)
        except (OSError, AttributeError):
            return -1

    def low(self, free=None):
        """Warn the players: little space left, or writes failing. free:
        free_bytes() if the caller has it (littlefs counts every block in
        use to tell: 0.2 s with a thousand logs on the RP2040)."""
        if self.failing:
            return True
        f = self.free_bytes() if free is None else free
        return 0 <= f < LOW_BYTES

    def counts(self):
        """(logs, of which not pulled): the index's bits counted, no listing."""
        self._index()
        bits = self._bits
        n = k = 0
        for j in range(0, len(bits), 2):
            b = bits[j]
            p = b & ~bits[j + 1]
            while b:
                b &= b - 1
                n += 1
            while p:
                p &= p - 1
                k += 1
        return n, k

    def page(self, start, k):
        """The numbers of up to k logs from number `start` up, oldest first,
        and the number to go on from (0: no more). A page is asked for by
        number, not position: a log deleted between two pages moves no
        other log to another page."""
        self._index()
        bits = self._bits
        out = []
        n = start if start > 0 else 1
        while n < 4 * len(bits):
            b = bits[2 * (n >> 3)]
            if not b:
                n = (n | 7) + 1  # eight numbers at once where none is a log
                continue
            if (b >> (n & 7)) & 1:
                if len(out) == k:
                    return out, n
                out.append(n)
            n += 1
        return out, 0

    def sizes(self, nums, fresh=False):
        """The sizes of the logs numbered nums (ascending), -1 for one that
        is gone: a lookup each, or one pass over a folder that lists sizes
        (logfs.sizes: littlefs). fresh: right after rescan(), whose pass
        kept the sizes of the first HEAD logs (no second pass for them)."""
        h = self._head
        k = self._nhead
        self._head = None
        if fresh and h is not None and self._sized and nums and k >= 6 * len(nums):
            out = []
            j = 0
            for n in nums:
                while j < k and _head_n(h, j) < n:
                    j += 6
                if j >= k or _head_n(h, j) != n:
                    out = None
                    break
                out.append((h[j + 2] << 24) | (h[j + 3] << 16) | (h[j + 4] << 8) | h[j + 5])
            if out is not None:
                return out
        if self._sized and nums:
            from .logfs import sizes  # littlefs, the board: frozen there

            return sizes(self, nums)
        return [self.size_of(log_name(n)) for n in nums]

    # ---- the index ------------------------------------------------------------
    def _index(self):
        if not self._listed:
            self.rescan()

    def _newest(self):
        # the highest log number (0: none), from the end of the bitmap
        self._index()
        bits = self._bits
        j = len(bits) - 2
        while j > 0 and not bits[j]:
            j -= 2
        b = bits[j]
        n = 0
        while b > 1:
            b >>= 1
            n += 1
        return 4 * j + n if bits[j] else 0

    def _set(self, m, n, on):
        # bit n of the index on or off (m: 0 the logs', 1 the markers'),
        # grown _GROW bytes at a time (rare: 128 numbers a step)
        bits = self._bits
        j = 2 * (n >> 3) + m
        if j >= len(bits):
            if not on:
                return
            bits.extend(bytes((j // _GROW + 1) * _GROW - len(bits)))
        if on:
            bits[j] |= 1 << (n & 7)
        else:
            bits[j] &= ~(1 << (n & 7)) & 255

    def rescan(self, head=None):
        """List the folder afresh into the index (at boot, and at each LOGS
        from the start: the host then sees what is on flash, whoever put
        it there). The board's own .tmp files are dropped and what is not
        the board's is moved to <root>.junk/, after the pass (a folder is
        never changed while it is listed); the board says what it moved
        (note). A root that is a file, not a folder, is moved there too and
        the folder made (smartboard.logfs). OSError if the folder cannot be
        listed. head: a buffer of 6 * HEAD bytes, lent, to keep the first
        HEAD logs' sizes in for sizes(fresh=True)."""
        self._dir = None
        self._head = head
        try:
            extra = self._pass()
        except OSError:
            from . import logfs

            if not logfs.fix_root(self):
                raise
            extra = self._pass()
        seen = moved = 0  # entries not the board's, of which moved aside
        while extra:
            gone = 0
            for e in extra:
                if e[1] == _K_TMP:
                    self._drop(_join(self.root, e[0]))  # a cut mid-rewrite: not a log
                    gone += 1
                else:
                    from . import logfs  # only then: nothing is wrong as a rule

                    seen += 1
                    if logfs.aside(self, e[0]):
                        moved += 1
                        gone += 1
            # more than _FIX: listed again while that moves some out of the
            # way (what cannot be moved stays, ignored: never a loop)
            extra = self._pass() if len(extra) >= _FIX and gone else None
        if seen:
            from . import logfs

            logfs.tell(self, seen, moved)
        for n in self.marks:  # pulled, the marker not on flash (yet)
            self._set(1, abs(n), 1)
        # LAST, its first bytes read into the window (whatever its size):
        # the highest number deleted, 0 if none or unreadable (the names
        # still count)
        w = memoryview(self._window())[:12]
        try:
            v = int(bytes(w[: self.fs.read_into(self.file(HIGH), 0, w)]))
        except (OSError, ValueError):
            v = 0
        self._hi = v if 0 < v <= MAX_NUMBER else 0
        self._listed = True

    def _pass(self):
        # one pass over the folder: the index made anew; the first _FIX
        # entries to drop or move aside returned as (name, kind)
        self._bits[:] = bytes(len(self._bits))  # anew, in place
        fs = self.fs
        self._sized = hasattr(fs, "ilistdir")
        extra = []
        head = self._head
        self._nhead = 0
        # one entry at a time where the filesystem can (see the top)
        for e in fs.ilistdir(self.root) if hasattr(fs, "ilistdir") else fs.listdir(self.root):
            if isinstance(e, str):  # listdir: a name (no folders: SimFlash)
                e = (e, False, -1)
            if e[2] < 0:
                self._sized = False
            k, n = _kind(e[0].encode() if isinstance(e[0], str) else e[0])
            if e[1]:
                k = _K_JUNK  # a folder, whatever its name
            if k == _K_LOG or k == _K_MARK:
                self._set(k - _K_LOG, n, 1)
                if head is not None and k == _K_LOG and e[2] >= 0:
                    self._nhead = _keep_head(head, self._nhead, n, e[2])
            elif k != _K_HIGH and len(extra) < _FIX:
                extra.append((e[0], k))
        return extra

    def _window(self):
        # the buffer a log is read through: the link's GET chunk when it is
        # lent (window), else one made for this read and gone after it
        return self.window if self.window is not None else bytearray(_WINDOW)

    def _next_number(self):
        n = max(self._hi, self._newest()) + 1
        if n > MAX_NUMBER:
            raise OSError(28)  # numbers used up: as a full flash (see top)
        return n

    def _drop(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass

    # ---- following the game ---------------------------------------------------
    def make_room(self):
        """A match is about to start: the one waiting for the full flash, if
        any, is never logged (begin() would drop it next), so it goes now,
        before the new game is made: two games in the heap at most, not
        three. And the last match, if it is all on flash, is let go too
        (begin() would replace it): then the new game is the only one."""
        if self.next is not None:
            self.dropped += 1
            self.next = None
            self.next_end = None
        if not self.due and not self.failing:
            self.game = None

    def begin(self, game):
        """A match starts. Its file is made on the next quiet tick. If the
        match before is not all on flash yet (the flash is full), the new
        one waits for it: at most one waits, a newer one takes its place
        (that one is never logged: bounded memory, and the board warns)."""
        when = self.clock() if self.clock is not None else 0
        if self.game is not None and self.game is not game and (self.due or self.failing):
            if self.next is not None:
                self.dropped += 1
            self.next = game
            self.next_end = None
            self.next_when = when
            return
        self._start(game, when)

    def _start(self, game, when=0):
        self.game = game
        self.when = when
        self.path = None
        self.made = False
        self.link = SEED
        self.size = 0
        self.wn = 0
        self.over = False
        self.end_text = None
        self.suspect = False
        self.due = True

    def sync(self, game):
        """The game changed (a move, a take-back, the end)."""
        if game is self.game:
            self.due = True

    def pending(self, now=None):
        """Is a record due (and, after a failed write, is it time to try)?"""
        if not self.due:
            return False
        return self.hold is None or now is None or now - self.hold >= 0

    def flush(self, now=None):
        """Write one record (called on a quiet tick). True when one was
        written; False when nothing was due or the flash refused it (the
        records then wait in the game: see failing)."""
        if not self.due:
            return False
        if self.game is None:
            self.due = False
            return False
        try:
            wrote = self._write_next()
        except OSError:
            self.errors += 1
            self.suspect = True  # a torn tail may be there: cut it first
            if not self.failing:
                self.failing = True
                self.space += 1
            self.hold = None if now is None else now + _RETRY_MS
            return False
        self.hold = None
        if self.failing:
            self.failing = False
            self.space += 1
        if wrote:
            return True
        if self.next is not None:  # this match is all on flash: the next one
            g, e = self.next, self.next_end
            self.next = None
            self.next_end = None
            self._start(g, self.next_when)
            self.end_text = e
            return True
        self.due = False
        return False

    def flush_all(self):
        while self.flush():
            pass

    def _write_next(self):
        g = self.game
        if not self.made:
            self._create(g)
            return True
        if self.suspect:
            self._repair()
        d, n, text, c = self._diff(g)
        if d >= 0:  # a move on flash is no longer the game's: take it back
            self._append(UNDO, b"")
            self.wn -= 1
            self.over = False  # an E before it: the match goes on (issue 3)
            return True
        if text is not None:
            self._append(MOVE, text)
            self._keep(self.wn, c)
            self.wn += 1
            if self.wn == n and self.next is None and self.end_text is None and not g.over():
                self.due = False  # caught up: no need to look again
            return True
        if self.over:
            return False
        if self.end_text is not None:
            text = self.end_text
        elif g.over():
            text = record.result(g)[3]
        else:
            return False
        self._append(END, text.encode())
        self.over = True
        return True

    def _diff(self, g):
        """(d, n, text, crc): d the first move on flash that the game no
        longer has (-1: none), n the game's moves, text the next move to
        write (None: none). A move is known by a CRC of its history entry
        (kind, ply, payload), so no text is formatted for the moves already
        on flash."""
        wn = self.wn
        crcs = self.crcs
        i = 0
        text = None
        c = 0
        for kind, payload, ply in g.history():
            if i < wn:
                if i < _NCRC:
                    k = _move_crc(kind, payload, ply)
                    if crcs[2 * i] != k >> 8 or crcs[2 * i + 1] != k & 255:
                        return i, 0, None, 0
            elif i == wn:
                text = record.move_text(g, kind, payload, ply).encode()
                c = _move_crc(kind, payload, ply)
            i += 1
        if i < wn:
            return i, i, None, 0
        return -1, i, text, c

    def _keep(self, i, c):
        # the identity of the i-th move on flash (the first _NCRC are kept)
        if i < _NCRC:
            self.crcs[2 * i] = c >> 8
            self.crcs[2 * i + 1] = c & 255

    def _create(self, g):
        # The header records in one file, renamed into place when whole: a
        # cut leaves a stray .tmp (removed at boot), never a log without
        # its mode line.
        buf = bytearray()
        link = SEED
        tags = self.tags
        if self.match_tags:
            tags = tuple(tags) + tuple(self.match_tags)
        if self.when:
            tags = tuple(tags) + date_tags(self.when)
        for line in record.lines(g, tags):
            if not _is_header(line):
                break
            rec, link = encode(link, HEADER, line.encode())
            buf.extend(rec)
        n = self._next_number()
        if self.fs.exists(self.file(log_name(n))):
            # The folder changed behind the board's back (a PC wrote to the
            # flash): listed afresh, never a log written over (one lookup
            # a match)
            self.rescan()
            n = self._next_number()
        path = self.file(log_name(n))
        tmp = path + TMP
        if _bit(self._bits, n, 1):
            # a marker left by another match of this number (a flash wiped
            # but for it): the new match is not pulled
            self._drop(self._marker(n))
            self._set(1, n, 0)
        try:
            self.fs.write(tmp, buf)
            self.fs.rename(tmp, path)
        except OSError:
            self._drop(tmp)
            raise
        self._set(0, n, 1)
        self.path = path
        self.made = True
        self.link = link
        self.size = len(buf)
        self.suspect = False

    def _append(self, kind, payload):
        rec, link = encode(self.link, kind, payload)
        self.fs.append(self.path, rec)
        self.link = link
        self.size += len(rec)

    def _repair(self, torn=False):
        # A failed write may have left part of a record after the good
        # ones: copy the good part and rename it over (littlefs commits a
        # rename whole; a cut before it leaves the old file as it was).
        # Through the window, never the whole log in memory. torn: known
        # to be torn (no need to ask its size).
        fs = self.fs
        if torn or fs.size(self.path) != self.size:
            tmp = self.path + TMP
            try:
                from .logfs import copy  # rare: after a cut or a full flash

                copy(fs, self.path, tmp, self.size, self._window())
                fs.rename(tmp, self.path)
            except OSError:
                self._drop(tmp)
                raise
        self.suspect = False

    # ---- board events ------------------------------------------------------
    def on_event(self, board, what):
        g = board.ref.game if board.ref is not None else None
        if g is None:
            return
        if what == "start":
            self.begin(g)
        elif what == "abandoned":
            if g is self.game:
                self.end_text = "abandoned"
                self.due = True
            elif g is self.next:
                self.next_end = "abandoned"
        elif what == "move" or what == "over" or what == "resumed":
            # "resumed" in play: the winning card taken back (issue 3), or
            # play going on after a power cut
            self.sync(g)

    # ---- after a power cut --------------------------------------------------
    def unfinished(self):
        """(name, Positions) of the newest log without an END record, or None.
        A torn tail is cut off first; a log that does not verify (CORRUPT,
        BROKEN) or cannot be read is left exactly as it is and named in
        .damaged (the start-up code calls this before the loop: an error
        here must not stop the board). The folder is listed first (the
        index), the log read through the window: a log of any length and a
        folder of any size take the same memory (3 bytes a line standing)."""
        fs = self.fs
        name = None
        try:
            n = self._newest()
            if not n:
                return None
            name = log_name(n)
            path = self.file(name)
            w = self._window()
            lines = Positions(fs, path, w)
            verdict, good, count, link = _walk(fs, path, w, lines)
        except OSError:
            self.errors += 1
            self.damaged = name or self.root
            return None
        if verdict == CORRUPT or verdict == BROKEN:
            self.damaged = name
            return None
        if lines.result is not None or count == 0:
            return None
        self.game = None
        self.path = path
        self.made = True
        self.link = link
        self.size = good
        self.over = False
        self.suspect = verdict == TORN
        if self.suspect:
            try:
                self._repair(True)
            except OSError:
                # a full flash: cut before the next record is written
                self.errors += 1
                self.failing = True
        return name, lines

    def adopt(self, game):
        """After resume: the moves replayed into game are the ones logged."""
        self.game = game
        self.end_text = None
        self.next = None
        i = 0
        for kind, payload, ply in game.history():
            self._keep(i, _move_crc(kind, payload, ply))
            i += 1
        self.wn = i
        self.due = True  # an E may be missing (the cut came before it)

    def release(self):
        """The unfinished log could not be replayed: log nothing into it."""
        self.game = None
        self.path = None
        self.made = False
        self.due = False

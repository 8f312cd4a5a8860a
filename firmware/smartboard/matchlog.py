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
_NCRC = const(256)  # moves whose identity the writer keeps (a match has ~100)
_RETRY_MS = const(2000)  # a failing flash is tried again this often
_PULLED_RAM = const(16)  # PULLED names kept in memory while the flash is full

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
    i = 0
    n = len(data)
    prev = SEED
    count = 0
    while i < n:
        if n - i < 9:
            return TORN, i, count, prev
        if data[i] != MAGIC:
            return CORRUPT, i, count, prev
        ln = data[i + 2]
        end = i + ln + 9
        if end > n:
            return TORN, i, count, prev
        c = crc16(data[i:end], 0xFFFF, ln + 7)
        if data[end - 2] != c >> 8 or data[end - 1] != c & 255:
            # the last record torn mid-write, or damage with data after it
            return (TORN if end == n else CORRUPT), i, count, prev
        kind = data[i + 1]
        payload = bytes(data[i + 3 : i + 3 + ln])
        link = bytes(data[i + 3 + ln : i + 7 + ln])
        if link != link_of(prev, kind, payload):
            return BROKEN, i, count, prev
        prev = link
        count += 1
        if visit is not None:
            visit(kind, payload)
        i = end
    return OK_LOG, i, count, prev


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
    each move still standing lies in the log's bytes, 4 bytes a line, and
    the lines themselves made one at a time when lines() is read (a boot
    replays a whole match: a list of strings would crowd a small heap).
    data: the bytes read_log walks."""

    def __init__(self, data):
        self.data = data
        self.at = bytearray(4 * 96)  # (offset, length) as 2 + 2 bytes per line
        self.n = 0  # lines standing
        self.header = 0  # of which header lines
        self.result = None
        self._pos = 0  # where the next record starts

    def __call__(self, kind, payload):
        i = self._pos
        self._pos = i + len(payload) + 9
        if kind == HEADER or kind == MOVE:
            if 4 * self.n >= len(self.at):
                self.at.extend(bytearray(len(self.at)))
            a = self.at
            j = 4 * self.n
            i += 3  # the payload
            a[j] = i >> 8
            a[j + 1] = i & 255
            a[j + 2] = len(payload) >> 8
            a[j + 3] = len(payload) & 255
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
        """The record's lines, header first (a generator)."""
        a = self.at
        for j in range(0, 4 * self.n, 4):
            i = a[j] << 8 | a[j + 1]
            yield bytes(memoryview(self.data)[i : i + (a[j + 2] << 8 | a[j + 3])]).decode()


def _move_crc(kind, payload, ply):
    """A move's identity on flash: a CRC of its history entry (kind, ply,
    payload), so the moves already written are known without formatting
    their text."""
    return crc16(payload, 0xFFFF ^ (kind << 8 | (ply & 255)))


def _is_header(line):
    return line[0] == "[" or line[:4] in ("mode", "play", "opti", "star")


def _write(path, mode, data):
    with open(path, mode) as f:
        n = f.write(data)
    if n is not None and n != len(data):
        raise OSError(28)  # ENOSPC: a short write, the flash is full


def _number(name):
    """The number of a log's name ("0007.alog" -> 7), 0 if it has none."""
    try:
        return int(name[: -len(SUFFIX)])
    except ValueError:
        return 0


class Flash:
    """The board's filesystem as the match logs use it: MicroPython's os
    over littlefs on the board, the PC's files under the unix port. Its
    simulated twin (smartboard.sim.flash.SimFlash) cuts the power inside a
    write and reports a chosen free space."""

    def listdir(self, d):
        return os.listdir(d)

    def mkdir(self, d):
        os.mkdir(d)

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def size(self, path):
        return os.stat(path)[6]

    def read_into(self, path, offset, buf):
        """Bytes from offset into buf (a GET chunk: the link's own buffer,
        no allocation); how many (0 past the end)."""
        with open(path, "rb") as f:
            f.seek(offset)
            n = f.readinto(buf)
        return n or 0

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def append(self, path, data):
        _write(path, "ab", data)

    def write(self, path, data):
        _write(path, "wb", data)

    def rename(self, src, dst):
        os.rename(src, dst)

    def remove(self, path):
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
        self._pulled = []  # PULLED while the marker could not be written

    # ---- files --------------------------------------------------------------
    def names(self):
        """The log files, oldest first."""
        out = [f for f in self.fs.listdir(self.root) if f.endswith(SUFFIX)]
        out.sort()
        return out

    def file(self, name):
        return "%s/%s" % (self.root, name)

    def size_of(self, name):
        """A log's size in bytes, -1 if it is gone."""
        try:
            return self.fs.size(self.file(name))
        except OSError:
            return -1

    def has(self, name):
        """Whether the log exists: one stat, not a listing (the host marks
        a whole archive pulled, a request per log)."""
        return self.fs.exists(self.file(name))

    def _marker(self, name):
        return self.file(name[: -len(SUFFIX)] + PULLED)

    def is_pulled(self, name):
        return name in self._pulled or self.fs.exists(self._marker(name))

    def mark_pulled(self, name):
        try:
            self.fs.write(self._marker(name), b"1")
        except OSError:
            # A full flash: kept in memory, so that DEL can free space (the
            # host has the match); after a reboot the host pulls it again.
            if name not in self._pulled:
                if len(self._pulled) >= _PULLED_RAM:
                    raise
                self._pulled.append(name)

    def current(self):
        return self.path[len(self.root) + 1 :] if self.path else None

    def delete(self, name):
        """Delete a log the host has stored (link.py checks that it has).
        Deleting the newest log keeps its number first (HIGH, written
        whole): a cut between the two leaves the log and a number never
        used again, never a number free for another match. Older logs need
        no write (on a full flash they are what frees space)."""
        n = _number(name)
        if n >= self._newest() and n > self._high():
            tmp = self.file(HIGH + TMP)
            self.fs.write(tmp, ("%d" % n).encode())
            self.fs.rename(tmp, self.file(HIGH))
        self.fs.remove(self.file(name))
        try:
            self.fs.remove(self._marker(name))
        except OSError:
            pass  # pulled in memory only
        if name in self._pulled:
            self._pulled.remove(name)
        self.hold = None  # space came back: try the waiting records at once
        self.space += 1

    def free_bytes(self):
        try:
            return self.fs.free(self.root)
        except (OSError, AttributeError):
            return -1

    def low(self):
        """Warn the players: little space left, or writes failing."""
        if self.failing:
            return True
        f = self.free_bytes()
        return 0 <= f < LOW_BYTES

    def _high(self):
        try:
            return int(bytes(self.fs.read(self.file(HIGH))))
        except (OSError, ValueError):
            return 0  # none deleted yet (or unreadable: the names still count)

    def _newest(self):
        """The highest number among the logs on flash (0: none)."""
        n = 0
        for f in self.names():
            n = max(n, _number(f))
        return n

    def _next_name(self):
        return "%04d%s" % (max(self._high(), self._newest()) + 1, SUFFIX)

    def _drop(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass

    # ---- following the game ---------------------------------------------------
    def make_room(self):
        """A match is about to start: the one waiting for the full flash, if
        any, is never logged (begin() would drop it next), so it goes now,
        before the new game is made: two games in the heap at most, not three."""
        if self.next is not None:
            self.dropped += 1
            self.next = None
            self.next_end = None

    def begin(self, game):
        """A match starts. Its file is made on the next quiet tick. If the
        match before is not all on flash yet (the flash is full), the new
        one waits for it: at most one waits, a newer one takes its place
        (that one is never logged: bounded memory, and the board warns)."""
        if self.game is not None and self.game is not game and (self.due or self.failing):
            if self.next is not None:
                self.dropped += 1
            self.next = game
            self.next_end = None
            return
        self._start(game)

    def _start(self, game):
        self.game = game
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
            self._start(g)
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
        for line in record.lines(g, self.tags):
            if not _is_header(line):
                break
            rec, link = encode(link, HEADER, line.encode())
            buf.extend(rec)
        path = self.file(self._next_name())
        tmp = path + TMP
        try:
            self.fs.write(tmp, buf)
            self.fs.rename(tmp, path)
        except OSError:
            self._drop(tmp)
            raise
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

    def _repair(self, data=None):
        # A failed write may have left part of a record after the good
        # ones: rewrite the good part and rename it over (littlefs commits
        # a rename whole; a cut before it leaves the old file as it was).
        # data: the file's bytes if already read (one copy in the heap).
        fs = self.fs
        if data is not None or fs.size(self.path) != self.size:
            if data is None:
                data = fs.read(self.path)
            tmp = self.path + TMP
            try:
                fs.write(tmp, memoryview(data)[: self.size])
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
        here must not stop the board)."""
        fs = self.fs
        name = None
        try:
            for f in fs.listdir(self.root):
                if f.endswith(TMP):
                    self._drop(self.file(f))  # a cut mid-rewrite: not a log
            names = self.names()
            if not names:
                return None
            name = names[-1]
            path = self.file(name)
            data = fs.read(path)
        except OSError:
            self.errors += 1
            self.damaged = name or self.root
            return None
        lines = Positions(data)
        verdict, good, count, link = read_log(data, lines)
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
        self.suspect = good < len(data)
        if self.suspect:
            try:
                self._repair(data)
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

# Match logs on flash (issue 4): one append-only file per match, a record
# per header line and per move, each with a CRC and hash-chained to the one
# before, so that
#   - a power cut at any byte loses at most the record being written: the
#     reader stops at the first incomplete record, and the writer cuts such
#     a torn tail off before it appends again;
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
_QUEUE = const(8)  # records waiting for a quiet tick

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
        elif kind == END:
            self.result = text

    def lines(self):
        return self.header + self.moves


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _read(path):
    with open(path, "rb") as f:
        return f.read()


class MatchLog:
    """The board's writer: a listener of smartboard.board.Board events.

    Records are queued when a move happens and written one per quiet loop
    tick (flush()): a flash write stalls the CPU, so it never lands in the
    tick that just saw a card (issue 3/4: scanning and LEDs never stall)."""

    def __init__(self, root="logs", tags=()):
        self.root = root
        self.tags = tags  # extra [Tag "value"] lines for every match
        try:
            os.mkdir(root)
        except OSError:
            pass  # already there
        self.path = None  # the match being logged
        self.link = SEED
        self.crcs = bytearray(2 * 256)  # crc16 of each logged move text
        self.n = 0  # moves logged (net of take-backs)
        self.queue = []
        self.over = False
        self.errors = 0

    # ---- files --------------------------------------------------------------
    def names(self):
        """The log files, oldest first."""
        out = [f for f in os.listdir(self.root) if f.endswith(SUFFIX)]
        out.sort()
        return out

    def file(self, name):
        return "%s/%s" % (self.root, name)

    def is_pulled(self, name):
        return _exists(self.file(name[: -len(SUFFIX)] + PULLED))

    def mark_pulled(self, name):
        with open(self.file(name[: -len(SUFFIX)] + PULLED), "w") as f:
            f.write("1")

    def current(self):
        return self.path[len(self.root) + 1 :] if self.path else None

    def delete(self, name):
        os.remove(self.file(name))
        try:
            os.remove(self.file(name[: -len(SUFFIX)] + PULLED))
        except OSError:
            pass

    def free_bytes(self):
        try:
            st = os.statvfs(self.root)
            return st[0] * st[4]
        except (OSError, AttributeError):
            return -1

    def low(self):
        f = self.free_bytes()
        return 0 <= f < LOW_BYTES

    def _next_name(self):
        last = 0
        for f in self.names():
            try:
                last = max(last, int(f[: -len(SUFFIX)]))
            except ValueError:
                pass
        return "%04d%s" % (last + 1, SUFFIX)

    # ---- writing ------------------------------------------------------------
    def begin(self, game):
        self.path = self.file(self._next_name())
        self.link = SEED
        self.n = 0
        self.over = False
        self.queue = []
        for line in record.lines(game, self.tags):
            if line[0] == "[" or line[:4] in ("mode", "play", "opti", "star"):
                self._put(HEADER, line)
            else:
                break
        self.sync(game)

    def sync(self, game):
        """Queue the records that bring the log to game's history: a move
        per new history entry, a take-back (U) per entry that is gone."""
        i = 0
        for kind, payload, ply in game.history():
            text = record.move_text(game, kind, payload, ply)
            c = crc16(text.encode())
            if i < self.n and self.crcs[2 * i] == c >> 8 and self.crcs[2 * i + 1] == c & 255:
                i += 1
                continue
            while self.n > i:
                self._put(UNDO, "")
                self.n -= 1
            self._put(MOVE, text)
            if 2 * i + 1 < len(self.crcs):
                self.crcs[2 * i] = c >> 8
                self.crcs[2 * i + 1] = c & 255
            i += 1
            self.n = i
        while self.n > i:
            self._put(UNDO, "")
            self.n -= 1

    def end(self, game):
        self.sync(game)
        self._put(END, record.result(game)[3])
        self.over = True

    def _put(self, kind, text):
        self.queue.append((kind, text.encode()))

    def pending(self):
        return len(self.queue)

    def flush(self):
        """Write one queued record (called on a quiet tick)."""
        if not self.queue or self.path is None:
            return False
        kind, payload = self.queue.pop(0)
        rec, link = encode(self.link, kind, payload)
        try:
            with open(self.path, "ab") as f:
                f.write(rec)
        except OSError:
            self.errors += 1  # flash full: the warning is in STATUS
            self.queue.insert(0, (kind, payload))
            return False
        self.link = link
        return True

    def flush_all(self):
        while self.flush():
            pass

    # ---- board events ------------------------------------------------------
    def on_event(self, board, what):
        g = board.ref.game if board.ref is not None else None
        if what == "start":
            self.begin(g)
        elif self.path is None or g is None:
            return
        elif what == "move":
            self.sync(g)
        elif what == "over":
            self.end(g)
        elif what == "abandoned":
            self._put(END, "abandoned")
            self.over = True
        elif what == "resumed" and self.over:
            # the winning card taken back: the match goes on (issue 3)
            self._put(UNDO, "")
            self.n -= 1
            self.over = False

    # ---- after a power cut --------------------------------------------------
    def unfinished(self):
        """(name, Lines) of the newest log without an END record, or None.
        A torn tail is cut off first (rewritten, then renamed over)."""
        names = self.names()
        if not names:
            return None
        name = names[-1]
        path = self.file(name)
        data = _read(path)
        lines = Lines()
        verdict, good, count, link = read_log(data, lines)
        if lines.result is not None or count == 0:
            return None
        if good < len(data):
            tmp = path + ".tmp"
            with open(tmp, "wb") as f:
                f.write(data[:good])
            os.rename(tmp, path)
        self.path = path
        self.link = link
        self.over = False
        self.queue = []
        return name, lines

    def adopt(self, game):
        """After resume: the moves replayed into game are the ones logged."""
        self.n = 0
        i = 0
        for kind, payload, ply in game.history():
            c = crc16(record.move_text(game, kind, payload, ply).encode())
            if 2 * i + 1 < len(self.crcs):
                self.crcs[2 * i] = c >> 8
                self.crcs[2 * i + 1] = c & 255
            i += 1
        self.n = i


def game_of(lines, game_factory):
    """Replay .apx lines into a new game; (game, verdicts)."""
    return record.check(lines, game_factory)

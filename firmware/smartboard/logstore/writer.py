# The log of the match in play (issue 4): the board's writer, a listener
# of smartboard.board.Board events, over the logs folder (folder.Folder)
# in the record format of records.py.
#
# The writer follows the game instead of queueing records: each quiet loop
# tick it writes the one record that brings the flash closer to the game
# (a U per move taken back since, then the moves, then the E). So nothing
# waits in a queue of its own: while the flash is full the moves wait in
# the game itself, in no extra memory, and are written when space comes
# back (a take-back made and undone meanwhile is then logged as its net
# effect). A log file appears whole with its header (written to a .tmp
# file, then renamed), so a log never lacks its mode line. A power cut
# loses at most the record being written: the writer cuts a torn tail off
# (rewritten, then renamed over: littlefs commits a rename whole) before
# it appends again, and at boot the newest unfinished log is resumed
# (unfinished).
#
# The match in play always has its room: a match starts logged only when
# the longest match fits in what is free (room(): ROOM_BYTES), counting
# what packing the finished ones (pack.py) would free only when packing
# has the blocks it needs to go on; if it does not, the board asks the
# players first and plays it unsaved only when they say so (Board.start).
# A match that counts on packing gets it in play too, on quiet ticks with
# no record due, until the estimate of what it still owes is paid (owed;
# smartboard.board). Packing also starts once the storage runs below
# PACK_BELOW, a step a quiet tick between matches (pack_step).
# A power cut never loses a match silently: while moves wait only in
# memory (a write failed: the flash is full) or a match is played
# unsaved, UNSAVED says what (the log and its moves on flash, "unlogged",
# or "match": a log that could not be made); the boot after a cut finds it
# (lost: the board says it, STATUS lost=), until the next match starts.
# UNSAVED is a few bytes in the folder's metadata, but a full metadata
# pair splits into two new blocks, so its room is a file of its own:
# SPARE, two blocks made before a logged match's header and kept apart
# from the room (never counted twice). A flash that refuses UNSAVED gets
# SPARE removed and UNSAVED written into its blocks; no move is written
# again until SPARE is made anew. Should UNSAVED still fail, the players
# are told at once (unsafe: the board says it).
import sys

from apixagon import record
from apixagon.compat import const

from ..proto import crc16
from . import lfs
from .archive import ENTRY, MAX_LOG
from .folder import Folder
from .names import TMP, log_name, number_of
from .records import (
    BROKEN,
    CORRUPT,
    END,
    HEADER,
    MOVE,
    SEED,
    TORN,
    UNDO,
    Positions,
    encode,
    walk,
)

_NCRC = const(256)  # moves whose identity the writer keeps (a match has ~100)
_RETRY_MS = const(2000)  # a failing flash is tried again this often
# Packing starts once PACK_AFTER finished logs are their own files, or
# below PACK_BELOW free: a board whose host pulls its matches now and then
# never packs (no flash worn for nothing), and the folder never holds many
# logs of their own (a lookup by name walks its metadata: tens of ms a
# name on the RP2040 with hundreds, more than a packing step may take)
PACK_AFTER = const(8)
PACK_BELOW = const(262144)
# The room a match starts logged in (room()): the longest match's log, 8 KB
# (~440 move records: every card of the longest mode's match played and
# taken back five times over; the scripted matches' are 0.6-1.5 KB), 3
# blocks on littlefs, and 2 blocks more for what the flash needs while it
# is written: a packing step's copy of an archive's last block, DEL's D
# entry, the metadata of markers and UNSAVED
LONGEST = const(8192)
ROOM_BYTES = const(20480)  # (lfs.data_blocks(LONGEST) + 2) * lfs.BLOCK
SPARE_ROOM = const(8192)  # SPARE's two blocks (unsaved.SPARE_BYTES)
# Packing counts towards the room only with this much free beside it: an
# archive grows a block at a time, and the log's first block comes early
PACK_ROOM = const(8192)


def _move_crc(kind, payload, ply):
    """A move's identity on flash: a CRC of its history entry (kind, ply,
    payload), so the moves already written are known without formatting
    their text."""
    return crc16(payload, 0xFFFF ^ (kind << 8 | (ply & 255)))


def _is_header(line):
    return line[0] == "[" or line[:4] in ("mode", "play", "opti", "star")


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


def _gain(fs, path):
    # what packing the log at path frees (0 where it cannot be read)
    try:
        return _freed(fs.size(path))
    except OSError:
        return 0


def _freed(size):
    # what packing a log of size bytes frees: its blocks less its bytes in
    # an archive (0 for one littlefs keeps inline, or that is too long to pack)
    if size <= lfs.INLINE or size > MAX_LOG:
        return 0
    return lfs.data_blocks(size) * lfs.BLOCK - size - ENTRY


class MatchLog(Folder):
    """The board's writer: a listener of smartboard.board.Board events.

    A move only marks the log due; the records are written one per quiet
    loop tick (flush()): a flash write stalls the CPU, so it never lands in
    the tick that just saw a card (issue 3/4: scanning and LEDs never stall).
    fs: the filesystem (Flash(), or a simulated twin)."""

    def __init__(self, root="logs", tags=(), fs=None):
        Folder.__init__(self, root, fs)
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
        # The players' choice to play the next match unsaved (Board.start),
        # and that match while it is played (never written)
        self.unlog = False
        self.unlogged = None
        # What a power cut lost, as UNSAVED said at boot (None: nothing),
        # until the next match starts; what UNSAVED holds now (b"": none)
        self.lost = None
        self._flag = b""
        self._flag_due = False
        self._unlog_ended = False
        self.packer = None  # pack.Packer, made once packing is wanted
        self.pack_wanted = False
        # Packing failed for want of space: not wanted again until space
        # comes back (a DEL), or each retry would fail and judge again
        self.stuck = False
        # Bytes the match in play counted on packing to free (room(start)):
        # packed in play until paid, by each log's estimate (_freed)
        self.owed = 0
        # UNSAVED was needed and the flash refused it even with SPARE's
        # blocks: a cut now loses moves silently, so the board says it
        self.unsafe = False

    # ---- room and packing ---------------------------------------------------
    def judge(self, free=None):
        """The free bytes (statvfs: free_bytes(), or given), and packing
        wanted if there is a log to pack and they are below PACK_BELOW, or
        PACK_AFTER logs to pack."""
        f = self.free_bytes() if free is None else free
        self._want_pack(0 <= f < PACK_BELOW)
        return f

    def _want_pack(self, low):
        if not self.pack_wanted and not self.stuck:
            self.pack_wanted = self.loose(PACK_AFTER) >= (1 if low else PACK_AFTER)

    def room(self, free=None, start=False):
        """Whether the longest match fits: ROOM_BYTES free beside SPARE
        (its blocks too while it is not made), counting what packing the
        finished logs would free when PACK_ROOM is free for the packing
        itself. Unknown free space (a flash that cannot tell): room.
        start: the match starts on it, owed what it counts on packing."""
        f = self.judge(free)
        if start:
            self.owed = 0
        if f < 0:
            return True
        self._index()  # SPARE is known from the listing
        need = ROOM_BYTES if self.spare else ROOM_BYTES + SPARE_ROOM
        if f >= need:
            return True
        if f < need - ROOM_BYTES + PACK_ROOM:
            return False
        if self.gain(need - f) < need - f:
            return False
        if start:
            self.owed = need - f
        return True

    def gain(self, most=1 << 30):
        """The bytes packing the logs still on their own would free (what
        their blocks hold beyond their bytes), counted up to most: a lookup
        a log (0.1-0.2 s on the RP2040 in a folder of hundreds), so only
        as many as the room needs are looked up."""
        g = 0
        n = self.next_loose(self.top + 1)
        newest = self._newest()
        while n and g < most:
            g += _gain(self.fs, self.file(log_name(n)))
            n = self.next_loose(n + 1)
        if g < most and newest and self.over and not self.packed(newest):  # the last match
            g += _gain(self.fs, self.file(log_name(newest)))
        return g

    def pack_in_play(self):
        """Is a packing step wanted in play: the match counted on it (owed)?"""
        return self.owed > 0 and self.pack_due()

    def pack_due(self):
        """Is a packing step wanted now (no record waiting)?"""
        return self.pack_wanted and not self.due

    def pack_step(self):
        """One packing step (a quiet loop tick). Done, or the flash failing:
        packing stops until the storage is judged again (space moved)."""
        if self.packer is None:
            from .pack import Packer

            self.packer = Packer(self)
        p = self.packer
        k = p.packed
        try:
            if p.step():
                if p.packed != k and self.owed > 0:
                    self.owed -= _freed(p.size)
                    if self.owed <= 0:
                        self.space += 1  # paid: the free space judged again
                return True
        except OSError:
            self.errors += 1
            self.stuck = True
        self.pack_wanted = False
        self.owed = 0
        self.space += 1
        return False

    # ---- what a power cut would lose -------------------------------------------
    def _flag_text(self):
        # what UNSAVED must say now: b"" nothing would be lost
        out = b""
        if self.failing and self.game is not None:
            cur = self.current()
            out = ("%s:%d" % (cur, self.wn)).encode() if cur and self.made else b"match"
        u = self.unlogged
        if u is not None and not u.over() and not self._unlog_ended:
            out = out + b"," + b"unlogged" if out else b"unlogged"
        return out

    def _write_flag(self):
        # UNSAVED made to say _flag_text() (unsaved.write); a flash that
        # refuses it leaves it as it was. Whether the flash was written.
        want = self._flag_text()
        self._flag_due = False
        if want == self._flag:
            self.unsafe = False  # UNSAVED says what a cut would lose
            return False
        try:
            self._rare("write", want)
            self._flag = want
            self.unsafe = False
        except OSError:
            self.errors += 1
            if want and not self.unsafe:
                self.unsafe = True  # the board says it: no flag to tell after a cut
                self.space += 1
        return True

    def _rare(self, step, *args):
        # a step of unsaved.py, the module let go after it (its top)
        from . import unsaved

        try:
            return getattr(unsaved, step)(self, *args)
        finally:
            name = unsaved.__name__
            sys.modules.pop(name, None)
            pkg = sys.modules.get(name[: name.rfind(".")])
            if pkg is not None and hasattr(pkg, "unsaved"):
                delattr(pkg, "unsaved")

    def _read_flag(self):
        # at boot: UNSAVED, if the listing saw it, is what the cut lost
        if not self.unsaved or self._flag:
            return
        flag = self._rare("read")
        if flag is None:
            return
        self._flag = flag
        text = ""
        for c in flag:
            text += chr(c) if 33 <= c < 127 else "_"
        self.lost = text or "match"

    def delete(self, name):
        Folder.delete(self, name)
        self.hold = None  # space came back: try the waiting records at once
        self.stuck = False
        if self.packer is not None and self.packer.n == number_of(name):
            self.packer.state = 0  # (pack._PICK) that log is gone

    def low(self, free=None):
        """Warn the players: little space left, or writes failing (free:
        as Folder.low)."""
        return self.failing or Folder.low(self, free)

    def current(self):
        return self.path[len(self.root) + 1 :] if self.path else None

    def playing(self):
        """The number of the log whose match is in play, 0 when none (no
        log yet, or its match is over): LOGS calls it "play", PULLED
        refuses it."""
        cur = self.current()
        return number_of(cur) if cur and not self.over else 0

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
        self.lost = None  # what the last power cut lost: said, and over now
        self._unlog_ended = False
        self._flag_due = True
        if self.unlog:
            # the players chose to play it unsaved (Board.start): never
            # written; UNSAVED says so while it is played
            self.unlog = False
            self.unlogged = game
            return
        self.unlogged = None
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
        if self._flag_due:
            return True
        if not self.due:
            return False
        return self.hold is None or now is None or now - self.hold >= 0

    def flush(self, now=None):
        """Write one record (called on a quiet tick). True when one was
        written; False when nothing was due or the flash refused it (the
        records then wait in the game: see failing)."""
        if self._flag_due and self._write_flag():
            return True
        if not self.due:
            return False
        if self.game is None:
            self.due = False
            return False
        try:
            if self.made and not self.spare:
                # UNSAVED took its blocks: made anew before any move takes
                # them (no record: a failing flash is still failing)
                self._rare("make_spare")
                self.hold = None
                return True
            wrote = self._write_next()
        except OSError:
            self.errors += 1
            self.suspect = True  # a torn tail may be there: cut it first
            if not self.failing:
                self.failing = True
                self.space += 1
                self._write_flag()  # now: a cut from here on loses moves
            self.hold = None if now is None else now + _RETRY_MS
            return False
        self.hold = None
        if self.failing:
            self.failing = False
            self.space += 1
            self._flag_due = True
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
        self._index()
        if not self.spare:
            self._rare("make_spare")  # UNSAVED's room, before the log takes any
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
        if self.pulled(n):
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
        self.new_log(n)
        self._want_pack(False)  # the match before is one more to pack
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
                from .repair import copy  # rare: after a cut or a full flash

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
        elif g is self.unlogged:
            # the match played unsaved: once over (or abandoned), a cut
            # loses nothing more than the players chose
            ended = what == "abandoned" or g.over()
            if ended != self._unlog_ended:
                self._unlog_ended = ended
                self._flag_due = True
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
            self._read_flag()
            if not n or self.packed(n):  # a packed log is a finished one
                return None
            name = log_name(n)
            path = self.file(name)
            w = self._window()
            lines = Positions(fs, path, w)
            verdict, good, count, link = walk(fs, path, w, lines)
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

# Packing finished matches into archives (archive.py), one bounded step a
# quiet loop tick between matches (writer.py: once PACK_AFTER logs wait,
# or the storage runs below PACK_BELOW; smartboard.board: never in play).
# A step costs the RP2040 ~2-5 ms, the copy 4.6-12.8 ms (littlefs copies
# the archive's partly filled last block a byte at a time before it
# appends), plus littlefs's own rare spikes that any write meets (its first
# allocation after a boot, a folder's metadata compacted): docs/firmware/storage.md,
# "How many matches fit".
#
# A log is packed in four kinds of steps:
#   walk    its records checked, RECORDS a step: CRCs and hash chain whole,
#           no torn tail (a log that does not verify stays its own file,
#           exactly as it is)
#   copy    its bytes appended to the newest archive (a new one past
#           archive.MAX_BYTES) as one entry: its head, with the bytes'
#           crc32, and the bytes, in one write
#   verify  the entry read back from flash: its head and the crc32 of its
#           bytes as written
#   remove  the log's own file removed: from then on it is found packed
# A power cut at any point loses nothing and leaves no match twice:
#   - before the copy, nothing was written;
#   - inside the copy, littlefs has not committed the write (an entry is
#     all there or not at all); a flash twin that tears writes leaves a
#     torn tail, cut off at the next listing (folder.py);
#   - after the copy and before the removal, the log is both on its own and
#     packed: the listing takes its own file (folder.dup) and the packer's
#     first step verifies the copy, then removes the file;
#   - the removal is one metadata commit.
# Only logs that fit its 2 KB buffer whole are packed (a match of 120
# moves and more, or with many take-backs, stays its own file: at least
# half its block is used) and only logs
# longer than littlefs keeps inline (a shorter one takes no block of its
# own). The newest log is never packed (the match in play, or the last
# one, whose winning card may yet be taken back), and numbers are packed in
# order: a log passed over (too long, damaged) stays its own file.
from apixagon.compat import const

from . import archive, lfs
from .names import log_name
from .records import MORE, OK_LOG, SEED, walk

RECORDS = const(8)  # records a walk step checks (~3 ms on the RP2040)
# The packer's own buffer while it packs (made at its first step, let go
# when nothing is left): the log read once, walked, headed and appended
# from it. The link's GET buffer, which it lends the folder, may be used
# by a request between two steps; it serves the read-back alone.
BUF = const(2048)
# states
_PICK = const(0)
_WALK = const(1)
_COPY = const(2)
_VERIFY = const(3)
_REMOVE = const(4)


class Packer:
    """The packing of a folder (folder.Folder) a step at a time."""

    def __init__(self, folder):
        self.f = folder
        self.state = _PICK
        self.n = 0  # the log being packed
        self.size = 0
        self.off = 0  # its records checked up to here
        self.prev = SEED
        self.at = None  # (archive path, offset of its entry)
        self.crc = 0
        self.packed = 0  # logs packed (for tests and figures)
        self.buf = None  # its entry: head, then the log's bytes

    def step(self):
        """One step. False when there was nothing to do (no log to pack);
        OSError (the flash) goes to the caller, the packing where it was:
        a step is tried again, and a cut half-way is put right at boot."""
        f = self.f
        s = self.state
        if s == _PICK:
            if self.buf is None:
                self.buf = bytearray(BUF)
            if self._pick():
                return True
            self.buf = None  # nothing left: the heap given back
            return False
        n = self.n
        if not f.has_number(n):  # deleted by the host meanwhile (DEL)
            self.state = _PICK
            return True
        e = archive.ENTRY
        size = self.size
        b = self.buf
        if s == _WALK:
            v, self.off, _, self.prev = walk(
                None, None, memoryview(b)[e : e + size], None, self.off, self.prev, RECORDS
            )
            if v == MORE:
                return True
            if v != OK_LOG or self.off != size:
                return self._pass_over()  # it does not verify: left as it is
            self.state = _COPY
        elif s == _COPY:
            self._copy()
        elif s == _VERIFY:
            path, at = self.at
            w = f.window if f.window is not None else bytearray(BUF)
            v = memoryview(w)[: e + size]
            ok = f.fs.read_into(path, at, v) == e + size
            for i in range(e):
                ok = ok and v[i] == b[i]
            if ok and archive.crc32(v[e:]) == self.crc:
                self.state = _REMOVE
            else:
                # not what was written: marked gone there, the log stays
                f.append_gone(path, n)
                return self._pass_over()
        else:  # _REMOVE
            try:
                f.fs.remove(f.file(log_name(n)))
            except OSError:
                if f.fs.exists(f.file(log_name(n))):
                    raise
            f.set_packed(n)
            self.packed += 1
            self.state = _PICK
        return True

    def _read(self, n, size):
        # log n's bytes into the buffer, after the head's place: whether whole
        e = archive.ENTRY
        return (
            self.f.fs.read_into(self.f.file(log_name(n)), 0, memoryview(self.buf)[e : e + size])
            == size
        )

    def _pick(self):
        f = self.f
        n = f.dup
        if n:
            # a log packed before a cut that came before its file went:
            # its copy verified, then the file removed
            f.dup = 0
            try:
                path, at, ln = f._locate(n)
                size = f.fs.size(f.file(log_name(n)))
                if ln != size or size > archive.MAX_LOG or not self._read(n, size):
                    raise OSError(5)
            except OSError:
                return True  # left both: the next listing finds it again
            self.n = n
            self.size = size
            self.at = (path, at - archive.ENTRY)
            self.crc = archive.crc32(memoryview(self.buf)[archive.ENTRY : archive.ENTRY + size])
            archive.head(self.buf, archive.LOG, n, size, self.crc)
            self.state = _VERIFY
            return True
        n = f.next_loose(f.top + 1)
        if not n:
            return False
        self.n = n
        try:
            size = self.size = f.fs.size(f.file(log_name(n)))
        except OSError:
            return self._pass_over()
        if size <= lfs.INLINE or size > archive.MAX_LOG or not self._read(n, size):
            return self._pass_over()
        self.off = 0
        self.prev = SEED
        self.state = _WALK
        return True

    def _pass_over(self):
        # the log stays its own file, for good (numbers are packed in order)
        self.f.unfit(self.n)
        self.state = _PICK
        return True

    def _copy(self):
        f = self.f
        n = self.n
        size = self.size
        e = archive.ENTRY
        b = self.buf
        self.crc = archive.crc32(memoryview(b)[e : e + size])
        archive.head(b, archive.LOG, n, size, self.crc)
        t = f.tail
        if t is not None and t[1] + e + size <= archive.MAX_BYTES:
            first, at = t
        else:
            first, at = n, 0
        path = f.arc_path(first)
        try:
            f.fs.append(path, memoryview(b)[: e + size])
        except OSError:
            # nothing written on littlefs; a twin may have torn a part on:
            # cut back before anything else goes there
            if at:
                f.tail = None
                f._cut(path, at)
                f.tail = [first, at]
            else:
                f._drop(path)
            raise
        if not at:
            f.add_arc(first)
            t = f.tail = [first, 0]
        t[1] = at + e + size
        f.walked_append(first, t[1], n, size)
        f._cur = None
        self.at = (path, at)
        self.state = _VERIFY

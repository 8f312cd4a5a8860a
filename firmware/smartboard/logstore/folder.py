# The logs folder's index (issue 4, at scale): which logs there are and
# which the host has stored, for LOGS pages, STATUS counts, PULLED and DEL,
# the newest log and the next number. A board that is never pulled holds a
# thousand matches and more, and nothing here holds the whole folder or a
# whole log in memory:
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
#   - A finished match may live in an archive (archive.py, pack.py)
#     rather than its own file: the index has a third bit per number, set
#     when it is packed, and the first number of each archive (2 bytes an
#     archive); LOGS, GET, FETCH, PULLED and DEL find a packed match by its
#     name as they find a file (read_into, size_of, delete). The archives'
#     entry heads are walked at each listing (a head a match: ~0.3 ms on
#     the RP2040), and a packed match is found by walking its archive's
#     heads (a cursor goes on from the last one found: a pull's and a LOGS
#     page's numbers come in order).
#   - What the board did not make is moved aside, never deleted: an entry
#     of logs/ that is no log, marker, archive, LAST, UNSAVED or SPARE (a folder, a
#     stray file) goes to logs.junk/, and so does a file named logs (the
#     folder is then made); the board says so (repair.py). Only its own
#     .tmp files go.
from apixagon.compat import const

from . import archive, lfs
from .flash import Flash
from .names import (
    HIGH,
    K_HIGH,
    K_JUNK,
    K_LOG,
    K_MARK,
    K_PACK,
    K_SPARE,
    K_TMP,
    K_UNSAVED,
    MAX_NUMBER,
    PULLED,
    TMP,
    join,
    kind,
    log_name,
    number_of,
    pack_name,
)
from .records import WINDOW

LOW_BYTES = const(65536)  # below this much free flash the board warns
HEAD = const(64)  # logs whose sizes a listing keeps (LOGS' first page: sizes(fresh))
_GROW = const(64)  # the index grows by this many bytes (128 numbers)
# the index's bitmaps (_bit, _set): a byte of each for numbers 8j..8j+7,
# interleaved at 4j .. 4j+3
_LOG = const(0)  # the log is on flash: its own file or packed
_MARK = const(1)  # pulled: its marker on flash, or in marks
_PACKED = const(2)  # it lives in an archive
# its own file, of a size packing takes (pack.py: over littlefs's inline
# size, at most archive.MAX_LOG), or of a size not known (a listing that
# gives none, a log being written): the packer looks no other file up,
# each lookup in a folder of hundreds costing the RP2040 tens of ms
_FIT = const(3)
_FIX = const(8)  # entries dropped or moved aside after one pass of a listing
_MARKS = const(64)  # PULLED marks kept in memory at most (Folder.marks)


def _keep_head(head, k, n, size):
    # n's size among the HEAD lowest numbers seen, kept in order in
    # head[:k], 6 bytes each (n: 2, size: 4, big-endian); the new k.
    # littlefs lists names in order, so this is an append but for the odd
    # one.
    # (inline, no call or loop a byte: a LOGS keeps every packed log's
    # size here, ~0.2 ms each on the RP2040 as calls)
    if k >= 6 * HEAD:
        if n > ((head[k - 6] << 8) | head[k - 5]):
            return k
        k -= 6
    j = k
    while j and ((head[j - 6] << 8) | head[j - 5]) > n:
        j -= 6
    if j < k:
        head[j + 6 : k + 6] = bytes(head[j:k])  # a copy: the two overlap
    head[j] = n >> 8
    head[j + 1] = n & 255
    head[j + 2] = (size >> 24) & 255
    head[j + 3] = (size >> 16) & 255
    head[j + 4] = (size >> 8) & 255
    head[j + 5] = size & 255
    return k + 6


def _drop_head(head, k, n):
    # n's pair taken out of head[:k] (a packed log deleted: its D entry),
    # if there; the new k
    j = 0
    while j < k and _head_n(head, j) < n:
        j += 6
    if j >= k or _head_n(head, j) != n:
        return k
    head[j : k - 6] = bytes(head[j + 6 : k])
    return k - 6


def _head_n(head, j):
    return (head[j] << 8) | head[j + 1]


def _put_pair(b, j, n, size):
    # a pair (n: 2 bytes, size: 4, big-endian) written at b[j:j + 6], as
    # _keep_head keeps them inline (a walk's archives, _walked)
    b[j] = n >> 8
    b[j + 1] = n & 255
    b[j + 2] = (size >> 24) & 255
    b[j + 3] = (size >> 16) & 255
    b[j + 4] = (size >> 8) & 255
    b[j + 5] = size & 255


def _bit(bits, n, m):
    # bit n of the index (Folder._bits): m _LOG, _MARK, _PACKED or _FIT
    j = 4 * (n >> 3) + m
    return j < len(bits) and (bits[j] >> (n & 7)) & 1


class Folder:
    """The logs folder of the board (root, on fs: Flash() or a twin) and
    its index. The writer of the match in play (writer.MatchLog) is one."""

    def __init__(self, root="logs", fs=None):
        self.root = root
        self.fs = fs if fs is not None else Flash()
        try:
            self.fs.mkdir(root)
        except OSError:
            pass  # already there
        self.space = 0  # bumped when the free space may have changed
        self.note = None  # what a listing put right, for the players (said once)
        # The buffer logs are read through (records.walk, at least WINDOW):
        # the link lends its GET chunk, never in use at the same time (one
        # loop); without a link, one is made for each read (_window).
        self.window = None
        # The index (see the top of this file), made by the first listing:
        # three bitmaps interleaved a byte each, numbers 8j..8j+7 in bytes
        # 3j (the log on flash), 3j+1 (pulled: its marker on flash, or in
        # marks) and 3j+2 (packed). Made here, with the board's other
        # lasting buffers.
        self._bits = bytearray(_GROW)
        # the archives' first numbers, 2 bytes each, ascending
        self._arcs = bytearray()
        # the newest archive while it takes entries: [first, size], else
        # None (pack.py appends there)
        self.tail = None
        self.top = 0  # the highest number packed: none below it is packed later
        self.dup = 0  # a log found both on its own and packed (a cut mid-pack)
        self._eh = bytearray(archive.ENTRY)  # an entry's head, read
        # where the last packed log was found: [first, the next entry's
        # offset, the archive's size, its number, the archive's path, the
        # log's offset, length and crc32] (_locate goes on from there, and
        # the next chunk of the same log is found without a walk)
        self._cur = None
        # the path of the last log read from its own file, and its number:
        # a download's chunks of a log format it once, not twice a chunk
        self._rn = 0
        self._rp = None
        self._listed = False  # the index was made (rescan)
        self._hi = 0  # LAST: the highest number deleted
        self._high = False  # the last listing saw LAST
        # numbers PULLED whose marker is not on flash: n, its write waiting
        # for a quiet link (at the end: write_mark), or -n, kept in memory
        # as the flash is full (at the front); at most _MARKS
        self.marks = []
        self._sized = False  # the last listing gave each entry's size (littlefs)
        self._dir = None  # LOGS pages' pass over the folder, going on (_sizes_pass)
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
        # The archives' walk (_scan_arcs), kept for the next listing: the
        # HEAD lowest packed logs' sizes (pairs as head's: sizes() reads
        # them on any page), and, while the archives listed are the ones
        # walked (their first numbers and sizes: the board only ever
        # appends to one, a cut or a drop changes the listing), which logs
        # they hold: a LOGS from the start then walks no archive again
        # (~0.3 ms a packed log on the RP2040, most of a listing's time).
        self._pk = None  # made at the first walk of an archive
        self._npk = 0
        self._walked = None  # the archives the walk saw (_same_arcs); None: walk again
        self._held = None  # a bit a log the walked archives hold (byte j: numbers 8j..8j+7)
        self._wtop = 0  # top and tail as the walk left them
        self._wtail = None
        self._seen_arcs = None  # the archives a listing saw (_pass)
        self._sealed = []
        self.unsaved = False
        self.spare = False  # SPARE listed (writer.py keeps it up to date)

    def names(self):
        """The log files, oldest first: a list, for tests and tools (the
        firmware walks the index instead: page(), counts())."""
        return [log_name(n) for n in self.page(0, MAX_NUMBER)[0]]

    def file(self, name):
        return "%s/%s" % (self.root, name)

    def size_of(self, name):
        """A log's size in bytes, -1 if it is gone."""
        n = number_of(name)
        try:
            if n and self.packed(n):
                return self._locate(n)[2]
            return self.fs.size(self.file(name))
        except (OSError, TypeError):
            return -1

    def packed(self, n):
        """Whether log number n lives in an archive."""
        self._index()
        return _bit(self._bits, n, _PACKED) == 1

    def read_into(self, n, off, buf):
        """Bytes of log number n from off into buf, where it lives (its own
        file or its archive): how many (0 past its end). OSError if it is
        gone."""
        p = self.own_file(n)
        if p is not None:
            return self.fs.read_into(p, off, buf)
        c = self._cur
        if c is None or c[3] != n:
            self._locate(n)
            c = self._cur
        at, ln = c[5], c[6]
        if off >= ln:
            return 0
        if off + len(buf) > ln:
            # a slice of the caller's memoryview (the link's): one object
            buf = (buf if isinstance(buf, memoryview) else memoryview(buf))[: ln - off]
        return self.fs.read_into(c[4], at + off, buf)

    def own_file(self, n):
        """The path of log number n where it is its own file (read it with
        fs.read_into), None where it is packed; the last one kept (a log
        read piece by piece is looked up once)."""
        if self.packed(n):
            return None
        if n != self._rn:
            self._rp = self.file(log_name(n))
            self._rn = n
        return self._rp

    def span(self, n, most, room):
        """(k, offset, bytes) of the archive entries of logs n .. n+k-1
        (k <= most), back to back in one archive (heads and bodies as
        stored: archive.py), each of them starting while the logs' bytes
        before it are under room; read them with read_arc. None if log n is not packed.
        A FETCH range sends them as one span frame (link.py, version 5)
        where a frame a log cost the RP2040 ~1.5 ms each. The walk goes on
        from where the last one stopped (_cur): the next span or log read
        finds its place without walking again."""
        if not self.packed(n):
            return None
        path, at, ln = self._locate(n)
        c = self._cur
        start = at - archive.ENTRY
        end = at + ln
        bits = self._bits
        h = self._eh
        size = c[2]
        fs = self.fs
        E = archive.ENTRY  # (looked up once: another module's const)
        magic, log = archive.MAGIC, archive.LOG
        k = 1
        while k < most and end - start - k * E < room:  # logs' bytes
            m = n + k
            j = 4 * (m >> 3) + _PACKED
            if j >= len(bits) or not (bits[j] >> (m & 7)) & 1:
                break  # not packed (its own file): a frame of its own
            # the next head read and taken apart here, not by
            # archive.entry: its CRC-16 is the host's to check (it checks
            # each head and body of a span), and the call and its checks
            # were most of a span's time on the RP2040. What is not log m
            # whole inside the archive (a D entry, its end) ends the span.
            if end + E > size or fs.read_into(path, end, h) < E:
                break
            ln = (h[4] << 24) | (h[5] << 16) | (h[6] << 8) | h[7]
            if h[0] != magic or h[1] != log or (h[2] << 8) | h[3] != m or end + E + ln > size:
                break
            c[3] = m
            c[5] = end + E
            c[6] = ln
            c[7] = -1  # its crc32 not taken (stored_crc: summed if asked)
            end = c[1] = c[5] + ln
            k += 1
        return k, start, end - start

    def read_arc(self, off, buf):
        """Bytes of the archive span() found, from off, into buf: how
        many."""
        return self.fs.read_into(self._cur[4], off, buf)

    def stored_crc(self, n, off, k):
        """The crc32 of log n's bytes [off, off + k) where the archive has it
        (the packer wrote it, checked, in the log's entry: the bytes are
        the whole packed log, found last), else -1: a download's chunk of a
        whole short log is not summed again."""
        c = self._cur
        if off or c is None or c[3] != n or c[6] != k or not self.packed(n):
            return -1
        return c[7]

    def arc_path(self, first):
        return self.file(pack_name(first))

    def arc_of(self, n):
        """The first number of the archive log n would be in (0: none)."""
        a = self._arcs
        j = len(a) - 2
        while j >= 0:
            f = (a[j] << 8) | a[j + 1]
            if f <= n:
                return f
            j -= 2
        return 0

    def _locate(self, n):
        # (archive path, offset of log n's bytes there, its length): its
        # archive's entry heads walked, from where the last search stopped
        # if that was before n in the same archive; OSError if not there
        first = self.arc_of(n)
        c = self._cur
        if c is not None and c[0] == first and c[3] == n:
            return c[4], c[5], c[6]  # found last time: no walk, no stat
        if c is None or c[0] != first or c[3] > n:
            path = self.arc_path(first)
            c = self._cur = [first, 0, self.fs.size(path), 0, path, 0, 0, 0]
        path = c[4]
        h = self._eh
        while True:
            k, m, ln = archive.entry(self.fs, path, c[1], c[2], h)
            if k <= 0:
                self._cur = None
                raise OSError(2)  # ENOENT: not packed after all
            at = c[1] + archive.ENTRY
            c[1] = at + ln
            if k == archive.LOG:
                c[3] = m
                c[5] = at
                c[6] = ln
                c[7] = archive.body_crc(h)
                if m == n:
                    return path, at, ln

    def has(self, name):
        """Whether the log exists (the index: no lookup on flash; the host
        marks a whole archive pulled, a request per log)."""
        self._index()
        return _bit(self._bits, number_of(name), 0) == 1

    def has_all(self, lo, k):
        """Whether the logs numbered lo .. lo+k-1 all exist (the index; one
        loop, not a call a log: a range of PULLED or FETCH)."""
        self._index()
        bits = self._bits
        top = len(bits)
        # the bits tested inline (_bit, _LOG's byte): a call a log cost the
        # RP2040 ~40 us, most of a PULLED of a long range
        for n in range(lo, lo + k):
            j = 4 * (n >> 3)
            if j >= top or not (bits[j] >> (n & 7)) & 1:
                return False
        return True

    def _marker(self, n):
        return "%s/%04d%s" % (self.root, n, PULLED)

    def is_pulled(self, name):
        return self.pulled(number_of(name))

    def pulled(self, n):
        """is_pulled() of log number n."""
        self._index()
        return _bit(self._bits, n, _MARK) == 1

    def pulled_of(self, nums):
        """[pulled(n) for n in nums] as a bytearray (1: pulled), the bits
        read inline: a LOGS page's states without a call a log."""
        self._index()
        bits = self._bits
        top = len(bits)
        out = bytearray(len(nums))
        for i in range(len(nums)):
            n = nums[i]
            j = 4 * (n >> 3) + _MARK
            if j < top and (bits[j] >> (n & 7)) & 1:
                out[i] = 1
        return out

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
        if _bit(self._bits, n, _MARK):
            return  # its marker is on flash or in marks
        self._set(_MARK, n, 1)
        if later and len(self.marks) < _MARKS:
            self.marks.append(n)
        elif not self._mark(n):
            raise OSError(28)

    def mark_range(self, lo, k):
        """mark_number(n, later=True) of the logs numbered lo .. lo+k-1,
        which the index has (has_all): the bits set inline, the markers
        left for later (a PULLED of a range marked 36 logs in 23 ms of the
        RP2040's time, a call or four a log)."""
        self._index()
        bits = self._bits
        marks = self.marks
        for n in range(lo, lo + k):
            j = 4 * (n >> 3) + _MARK
            b = 1 << (n & 7)
            if bits[j] & b:
                continue  # its marker is on flash or in marks
            bits[j] |= b
            if len(marks) < _MARKS:
                marks.append(n)
            elif not self._mark(n):
                raise OSError(28)  # (_mark took its bit back)

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
                self._set(_MARK, n, 0)
                return False
            self.marks.insert(0, -n)
        return True

    def delete(self, name):
        """Delete a log the host has stored (link.py checks that it has).
        Deleting the newest log keeps its number first (HIGH, written
        whole): a cut between the two leaves the log and a number never
        used again, never a number free for another match. Older logs need
        no write (on a full flash they are what frees space). A packed log
        gets its D entry in its archive (archive.py), and an archive whose
        every log is deleted is removed (a cut between the two: the next
        listing removes it)."""
        n = number_of(name)
        if n >= self._newest() and n > self._hi:
            tmp = self.file(HIGH + TMP)
            self.fs.write(tmp, ("%d" % n).encode())
            self.fs.rename(tmp, self.file(HIGH))
            self._hi = n
        if self.packed(n):
            first = self.arc_of(n)
            if first in self._sealed:
                raise OSError(28)  # its torn tail still there: the flash is full
            self.append_gone(self.arc_path(first), n)
            self._set(_PACKED, n, 0)
            if not self._live(first):
                self._drop_arc(first)
        else:
            # The packer appends a log's copy before it removes the log's own
            # file: a DEL between the two must mark the copy gone too, or the
            # next listing finds the log back (its L entry with no D entry).
            path = None
            if self.arc_of(n):
                try:
                    path = self._locate(n)[0]
                except OSError:
                    pass  # not copied: its own file is all there is
            if path is not None:
                self.append_gone(path, n)
            self.fs.remove(self.file(name))
        self._set(_LOG, n, 0)
        self._set(_MARK, n, 0)
        self._dir = None
        try:
            self.fs.remove(self._marker(n))
        except OSError:
            pass  # pulled in memory only
        for m in (n, -n):
            if m in self.marks:
                self.marks.remove(m)
        self.space += 1

    def free_bytes(self):
        try:
            return self.fs.free(self.root)
        except (OSError, AttributeError):
            return -1

    def low(self, free=None):
        """Warn the players: little space left. free: free_bytes() if the
        caller has it (littlefs counts every block in use to tell: 0.2 s
        with a thousand logs on the RP2040)."""
        f = self.free_bytes() if free is None else free
        return 0 <= f < LOW_BYTES

    def counts(self):
        """(logs, of which not pulled): the index's bits counted, no listing."""
        self._index()
        bits = self._bits
        n = k = 0
        for j in range(0, len(bits), 4):
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
        while n < 2 * len(bits):
            b = bits[4 * (n >> 3)]
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
        (_sizes_pass: littlefs). fresh: right after rescan(), whose pass
        kept the sizes of the first HEAD logs, its own files' and its
        packed ones' (no second pass for them, and no second walk of the
        archives' heads: ~1 ms a packed log on the RP2040). A packed log
        not kept there is looked up in its archive (its heads walked: the
        numbers come in order)."""
        h = self._head
        k = self._nhead if fresh and h is not None else 0
        self._head = None
        pk = self._pk
        kp = self._npk if pk is not None else 0
        bits = self._bits
        out = [-1] * len(nums)
        miss = 0  # nums neither has: -2 in out (no list of them: a page's
        # garbage splits a small heap)
        j = jp = 0
        for i in range(len(nums)):
            n = nums[i]
            # the pairs in order, inline (_head_n): a call a log was most
            # of a listing's time. Its own file's size first (a log both
            # packed and its own file is read from its file)
            while j < k and ((h[j] << 8) | h[j + 1]) < n:
                j += 6
            if j < k and ((h[j] << 8) | h[j + 1]) == n:
                out[i] = (h[j + 2] << 24) | (h[j + 3] << 16) | (h[j + 4] << 8) | h[j + 5]
                continue
            while jp < kp and ((pk[jp] << 8) | pk[jp + 1]) < n:
                jp += 6
            g = 4 * (n >> 3) + _PACKED
            if (
                jp < kp
                and ((pk[jp] << 8) | pk[jp + 1]) == n
                and g < len(bits)
                and (bits[g] >> (n & 7)) & 1
            ):
                out[i] = (pk[jp + 2] << 24) | (pk[jp + 3] << 16) | (pk[jp + 4] << 8) | pk[jp + 5]
            else:
                out[i] = -2
                miss += 1
        if not miss:
            return out
        loose = [nums[i] for i in range(len(nums)) if out[i] == -2 and not self.packed(nums[i])]
        got = self._sizes_pass(loose) if self._sized and loose else None
        m = 0
        for i in range(len(nums)):
            if out[i] != -2:
                continue
            n = nums[i]
            if got is not None and m < len(loose) and loose[m] == n:
                out[i] = got[m]
                m += 1
            else:
                out[i] = self.size_of(log_name(n))
        return out

    # ---- the index ------------------------------------------------------------
    def _index(self):
        if not self._listed:
            self.rescan()

    def _newest(self):
        # the highest log number (0: none), from the end of the bitmap
        self._index()
        bits = self._bits
        j = len(bits) - 4
        while j > 0 and not bits[j]:
            j -= 4
        b = bits[j]
        n = 0
        while b > 1:
            b >>= 1
            n += 1
        return 2 * j + n if bits[j] else 0

    def _set(self, m, n, on):
        # bit n of the index on or off (m: _LOG, _MARK, _PACKED or _FIT),
        # grown _GROW bytes at a time (rare: 128 numbers a step)
        bits = self._bits
        j = 4 * (n >> 3) + m
        if j >= len(bits):
            if not on:
                return
            self._grow(j)
        if on:
            bits[j] |= 1 << (n & 7)
        else:
            bits[j] &= ~(1 << (n & 7)) & 255

    def _grow(self, j):
        # the index grown to hold byte j, in place: the bits
        bits = self._bits
        bits.extend(bytes((j // _GROW + 1) * _GROW - len(bits)))
        return bits

    def rescan(self, head=None):
        """List the folder afresh into the index (at boot, and at each LOGS
        from the start: the host then sees what is on flash, whoever put
        it there). The board's own .tmp files are dropped and what is not
        the board's is moved to <root>.junk/, after the pass (a folder is
        never changed while it is listed); the board says what it moved
        (note). A root that is a file, not a folder, is moved there too and
        the folder made (repair.py). OSError if the folder cannot be
        listed. head: a buffer of 6 * HEAD bytes, lent, to keep the first
        HEAD logs' sizes in for sizes(fresh=True)."""
        self._dir = None
        self._head = head
        try:
            extra = self._pass()
        except OSError:
            from . import repair

            if not repair.fix_root(self):
                raise
            extra = self._pass()
        seen = moved = 0  # entries not the board's, of which moved aside
        while extra:
            gone = 0
            for e in extra:
                if e[1] == K_TMP:
                    self._drop(join(self.root, e[0]))  # a cut mid-rewrite: not a log
                    gone += 1
                else:
                    from . import repair  # only then: nothing is wrong as a rule

                    seen += 1
                    if repair.aside(self, e[0]):
                        moved += 1
                        gone += 1
            # more than _FIX: listed again while that moves some out of the
            # way (what cannot be moved stays, ignored: never a loop)
            extra = self._pass() if len(extra) >= _FIX and gone else None
        if seen:
            from . import repair

            repair.tell(self, seen, moved)
        for n in self.marks:  # pulled, the marker not on flash (yet)
            self._set(_MARK, abs(n), 1)
        # LAST, its first bytes read into the window (whatever its size):
        # the highest number deleted, 0 if none or unreadable (the names
        # still count)
        # (not listed: not looked up, a failed open costs the RP2040 ~1.3 ms)
        v = 0
        if self._high:
            w = memoryview(self._window())[:12]
            try:
                v = int(bytes(w[: self.fs.read_into(self.file(HIGH), 0, w)]))
            except (OSError, ValueError):
                v = 0
        self._hi = v if 0 < v <= MAX_NUMBER else 0
        self._scan_arcs(self._seen_arcs)
        self._seen_arcs = None
        self._listed = True

    def _scan_arcs(self, arcs):
        # The archives listed, their entry heads walked into the index: a
        # log packed (unless its own file is there too: a cut before the
        # pack removed it, dup), a D entry's log gone. A tail cut short
        # (a flash twin that tears writes; littlefs never leaves one) is
        # cut off as a log's is; an archive whose logs are all deleted is
        # removed.
        arcs.sort()
        a = self._arcs = bytearray(2 * len(arcs))
        for i in range(len(arcs)):
            a[2 * i] = arcs[i][0] >> 8
            a[2 * i + 1] = arcs[i][0] & 255
        self.tail = None
        self.top = self.dup = 0
        self._cur = None
        self._sealed = []  # archives with a torn tail that could not be cut
        if self._same_arcs(arcs):
            self._rewalk()
            return
        self._walked = None
        fs = self.fs
        h = self._eh
        bits = self._bits
        if arcs and self._pk is None:
            self._pk = bytearray(6 * HEAD)
        pk = self._pk  # the packed logs' sizes, for sizes()
        self._npk = 0
        held = bytearray(len(bits) // 4 + 16)  # what the archives hold, dup or not
        whole = True  # every size listed, nothing cut, sealed or dropped: kept
        empty = []
        for first, size in arcs:
            path = self.arc_path(first)
            if size < 0:
                whole = False
                size = fs.size(path)
            off = live = 0
            while True:
                k, n, ln = archive.entry(fs, path, off, size, h)
                if k == archive.LOG:
                    # the bits inline (_bit, _set: a call each cost the
                    # RP2040 ~50 us, a LOGS walks every packed log)
                    j = 4 * (n >> 3)
                    if j + 3 >= len(bits):
                        bits = self._grow(j + 3)
                    b = 1 << (n & 7)
                    if (n >> 3) >= len(held):
                        held.extend(bytes((n >> 3) + 16 - len(held)))
                    held[n >> 3] |= b
                    if bits[j] & b and not bits[j + _PACKED] & b:
                        self.dup = n
                    else:
                        bits[j] |= b
                        bits[j + _PACKED] |= b
                        self._npk = _keep_head(pk, self._npk, n, ln)  # for sizes()
                    live += 1
                    if n > self.top:
                        self.top = n
                elif k == archive.GONE:
                    if (n >> 3) < len(held):
                        held[n >> 3] &= ~(1 << (n & 7)) & 255
                    if _bit(bits, n, _PACKED):
                        self._set(_LOG, n, 0)
                        self._set(_PACKED, n, 0)
                        live -= 1
                        self._npk = _drop_head(pk, self._npk, n)  # room for one still there
                else:
                    break
                off += archive.ENTRY + ln
            if k == archive.TORN:
                whole = False
                try:
                    self._cut(path, off)
                except OSError:
                    # a full flash: left as it is, read up to its tail,
                    # and nothing appended to it any more (DEL refused)
                    self._sealed.append(first)
                    continue
            if live <= 0:
                empty.append(first)
            else:
                self.tail = [first, off]
        for first in empty:
            self._drop_arc(first)
        if whole and not empty:
            # first (2 bytes) and size (4) of each, as listed: a few bytes
            # an archive kept, not a list of tuples
            w = self._walked = bytearray(6 * len(arcs))
            for i in range(len(arcs)):
                _put_pair(w, 6 * i, arcs[i][0], arcs[i][1])
            self._held = held
            self._wtop = self.top
            self._wtail = None if self.tail is None else list(self.tail)

    def _same_arcs(self, arcs):
        # whether arcs (sorted (first, size) as listed) are the archives
        # walked last, each the same size
        w = self._walked
        if w is None or len(w) != 6 * len(arcs):
            return False
        for i in range(len(arcs)):
            f, z = arcs[i]
            j = 6 * i
            if (w[j] << 8) | w[j + 1] != f:
                return False
            if (w[j + 2] << 24) | (w[j + 3] << 16) | (w[j + 4] << 8) | w[j + 5] != z:
                return False
        return True

    def _rewalk(self):
        # _scan_arcs of the archives walked last, unchanged since: the
        # index as that walk made it, each log they hold packed but where
        # its own file is listed now too (dup: a cut before the pack
        # removed it, or a file put back), the walk's top and tail
        bits = self._bits
        held = self._held
        for g in range(len(held)):
            p = held[g]
            if not p:
                continue
            j = 4 * g
            if j + 3 >= len(bits):
                bits = self._grow(j + 3)
            d = p & bits[j]  # listed as its own file too
            if d:
                p &= ~d & 255
                n = 8 * g
                while not d & 1:
                    d >>= 1
                    n += 1
                self.dup = n
            bits[j] |= p
            bits[j + _PACKED] |= p
        self.top = self._wtop
        self.tail = None if self._wtail is None else list(self._wtail)

    def _cut(self, path, good):
        # an archive's torn tail cut off, as a log's (writer._repair): the
        # good part copied and renamed over (a cut before the rename leaves
        # it as it was; the next listing tries again)
        from .repair import copy

        self._walked = None  # (walked_append)
        tmp = path + TMP
        try:
            copy(self.fs, path, tmp, good, self._window())
            self.fs.rename(tmp, path)
        except OSError:
            self._drop(tmp)
            raise

    def _live(self, first):
        # whether the archive numbered first still holds a log not deleted
        a = self._arcs
        end = MAX_NUMBER + 1
        for j in range(0, len(a), 2):
            f = (a[j] << 8) | a[j + 1]
            if f > first:
                end = f
                break
        bits = self._bits
        for n in range(first, end):
            j = 4 * (n >> 3) + _PACKED
            if j >= len(bits):
                break
            if not bits[j]:
                continue
            if (bits[j] >> (n & 7)) & 1:
                return True
        return False

    def _drop_arc(self, first):
        # an archive none of whose logs is left: removed, and from the index
        self._walked = None  # (walked_append)
        self._drop(self.arc_path(first))
        a = self._arcs
        for j in range(0, len(a), 2):
            if (a[j] << 8) | a[j + 1] == first:
                self._arcs = a[:j] + a[j + 2 :]
                break
        if self.tail is not None and self.tail[0] == first:
            self.tail = None
        self._cur = None
        self.space += 1

    # ---- for the packer (pack.py) ---------------------------------------------
    def has_number(self, n):
        return _bit(self._bits, n, _LOG) == 1

    def loose(self, most):
        """How many logs the packer may take (next_loose), counting to most
        at most."""
        k = 0
        n = self.next_loose(self.top + 1)
        while n and k < most:
            k += 1
            n = self.next_loose(n + 1)
        return k

    def unfit(self, n):
        """Log n found of a size packing does not take."""
        self._set(_FIT, n, 0)

    def new_log(self, n):
        """A log the writer made (its size to come)."""
        self._set(_LOG, n, 1)
        self._set(_FIT, n, 1)

    def eh(self):
        """The buffer an entry's head is read into (lent)."""
        return self._eh

    def set_packed(self, n):
        """Log n's own file removed: from now on it is found packed."""
        self._set(_PACKED, n, 1)
        if n > self.top:
            self.top = n
        self._dir = None

    def next_loose(self, n):
        """The lowest log number from n up that is its own file of a size
        packing may take (_FIT) and not the newest (0: none)."""
        bits = self._bits
        end = self._newest()
        while n < end:
            j = 4 * (n >> 3)
            b = bits[j] & ~bits[j + 2] & bits[j + 3]
            if not b:
                n = (n | 7) + 1
                continue
            if (b >> (n & 7)) & 1:
                return n
            n += 1
        return 0

    def append_gone(self, path, n):
        """The D entry of log n appended to the archive path."""
        self._walked = None  # (walked_append)
        self.fs.append(path, archive.gone(n))
        self._cur = None
        t = self.tail
        if t is not None and self.arc_path(t[0]) == path:
            t[1] += archive.ENTRY

    def walked_append(self, first, size, n, ln):
        """The packer appended log n's entry (ln bytes) to the archive
        numbered first, now size bytes: the last walk kept as a fresh one
        would find it, so the next listing rewalks (_same_arcs) where it
        read every archive's heads again (~25 ms of a pull's first LOGS on
        the RP2040, real-chip model). Whatever else changes an archive
        (a D entry, a cut, a drop) forgets the walk instead."""
        w = self._walked
        if w is None:
            return
        i = 0
        while i < len(w) and _head_n(w, i) < first:
            i += 6
        if i == len(w) or _head_n(w, i) != first:
            w = self._walked = w[:i] + bytearray(6) + w[i:]
        _put_pair(w, i, first, size)
        held = self._held
        if (n >> 3) >= len(held):
            held.extend(bytes((n >> 3) + 16 - len(held)))
        held[n >> 3] |= 1 << (n & 7)
        if n > self._wtop:
            self._wtop = n
        self._wtail = [first, size]
        if self._pk is None:
            self._pk = bytearray(6 * HEAD)
        self._npk = _keep_head(self._pk, self._npk, n, ln)

    def add_arc(self, first):
        """A new archive, numbered first (after every other: pack.py)."""
        self._arcs.append(first >> 8)
        self._arcs.append(first & 255)

    def _pass(self):
        # one pass over the folder: the index made anew; the first _FIX
        # entries to drop or move aside returned as (name, kind)
        self._bits[:] = bytes(len(self._bits))  # anew, in place
        fs = self.fs
        self._sized = hasattr(fs, "ilistdir")
        extra = []
        arcs = self._seen_arcs = []  # (first, size) of each archive
        self.unsaved = False  # UNSAVED listed (writer.py)
        self.spare = False
        self._high = False  # LAST listed (rescan reads it)
        head = self._head
        self._nhead = 0
        # one entry at a time where the filesystem can (see the top)
        for e in fs.ilistdir(self.root) if hasattr(fs, "ilistdir") else fs.listdir(self.root):
            if isinstance(e, str):  # listdir: a name (no folders: SimFlash)
                e = (e, False, -1)
            if e[2] < 0:
                self._sized = False
            k, n = kind(e[0].encode() if isinstance(e[0], str) else e[0])
            if e[1]:
                k = K_JUNK  # a folder, whatever its name
            if k == K_LOG or k == K_MARK:
                self._set(_LOG if k == K_LOG else _MARK, n, 1)
                if k == K_LOG and (e[2] < 0 or lfs.INLINE < e[2] <= archive.MAX_LOG):
                    self._set(_FIT, n, 1)
                if head is not None and k == K_LOG and e[2] >= 0:
                    self._nhead = _keep_head(head, self._nhead, n, e[2])
            elif k == K_PACK:
                arcs.append((n, e[2]))
            elif k == K_UNSAVED:
                self.unsaved = True
            elif k == K_SPARE:
                self.spare = True
            elif k == K_HIGH:
                self._high = True
            elif len(extra) < _FIX:
                extra.append((e[0], k))
        return extra

    def _window(self):
        # the buffer a log is read through: the link's GET chunk when it is
        # lent (window), else one made for this read and gone after it
        return self.window if self.window is not None else bytearray(WINDOW)

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

    def _sizes_pass(self, nums):
        # sizes() on a filesystem whose listing gives sizes (littlefs),
        # where a lookup by name walks the folder's metadata blocks from the
        # first (0.1-0.2 s a name with a thousand logs on the RP2040). The
        # pages of a listing come in order and littlefs lists names in
        # order, so one pass over the folder goes on from page to page
        # (self._dir: the pass, the last log number it read, the log it read
        # past the page's end): a listing of a thousand logs reads each
        # entry once, not once a page. A page the pass has gone past, or
        # names out of order, start a pass from the first entry for what is
        # missing.
        out = [-1] * len(nums)
        left = len(nums)
        hi = nums[-1]
        st = self._dir
        if st is None or st[1] >= nums[0]:
            st = self._dir = [self.fs.ilistdir(self.root), 0, None]
        if st[2] is not None:  # the log read past the last page's end
            n, size = st[2]
            st[2] = None
            if n in nums:
                out[nums.index(n)] = size
                left -= 1
        while left:
            e = next(st[0], None)
            if e is None:
                self._dir = None  # all read
                break
            k, n = kind(e[0])
            if k != K_LOG or e[1]:
                continue
            st[1] = n
            if n > hi:
                st[2] = (n, e[2])  # the next page's
                break
            if n in nums:
                out[nums.index(n)] = e[2]
                left -= 1
        if left:
            for name, isdir, size in self.fs.ilistdir(self.root):
                k, n = kind(name)
                if k == K_LOG and n in nums and not isdir and out[nums.index(n)] < 0:
                    out[nums.index(n)] = size
                    left -= 1
                    if not left:
                        break
        return out

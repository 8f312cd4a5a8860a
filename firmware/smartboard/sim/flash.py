# The simulated twin of the board's flash filesystem, as the match logs
# use it (smartboard.logstore.flash.Flash: the same methods). Files live in
# memory, so a test can look at every byte, and two faults can be injected:
#
#   cut_at   the power goes after this many units of the write stream: a
#            unit is a byte written (append or write) or one metadata
#            operation (rename, remove, mkdir). The bytes before the cut
#            land, the rest of that write does not, and PowerCut is raised
#            out of the firmware's loop; from then on every access raises
#            PowerCut until power_on() (the board is dead). A real SIGKILL
#            on Linux never tears a small write() to a file: only this
#            shows a torn record written by the firmware itself.
#   capacity the flash size: free() reports what is left, and a write that
#            does not fit writes what fits and raises OSError(ENOSPC), as a
#            full filesystem may (set_free() picks the free space).
#
# Space is counted in bytes, as the logic tests want it (a chosen free
# space stays exactly that until a write), or with lfs=True as the board's
# littlefs counts it: whole blocks for any file over its inline size, the
# folders' metadata pairs (smartboard.logstore.lfs; capacity the Pico's
# 1408 KB unless given), so that packing matches frees what it frees on
# the board.
#
# A rename is atomic (littlefs commits it in one metadata write): it is
# either done or not at the cut. Like a flash, the storage is blocks of a
# fixed size taken from a pool made up front: tests boot the firmware many
# times in one small MicroPython heap, and file data that grew in the holes
# the last boot left would soon split it into pieces too small to use. 16
# blocks (2 KB) made up front serve the tests' short logs; more are made as
# needed and come back to the pool (40 up front left the 96 wK board suites
# a few hundred bytes for the firmware itself).
BLOCK = 128
ENOSPC = 28
ENOENT = 2
EEXIST = 17


class PowerCut(Exception):
    """The power went: raised out of whatever the firmware was doing."""


class SimFlash:
    def __init__(self, capacity=None, blocks=16, lfs=False):
        self.files = {}  # path -> [block, ...] (bytearray(BLOCK) each)
        self.lens = {}  # path -> bytes in it
        self.dirs = []
        # lfs: the littlefs blocks taken (lfs.Usage), followed file by file
        # (the module loaded only then: the logic tests run at small heaps)
        self.use = self._lfs = None
        if lfs:
            from ..logstore import lfs as L

            self._lfs = L
            self.use = L.Usage()
        if capacity is None:
            capacity = L.BLOCKS * L.BLOCK if lfs else 1 << 20
        self.capacity = capacity
        self.units = 0  # the write stream so far (bytes + metadata operations)
        self.cut_at = -1  # units before the power goes; -1: never
        self.off = False
        self._pool = [bytearray(BLOCK) for _ in range(blocks)]
        for d in (self.files, self.lens):  # their tables made now, not mid-test
            for i in range(8):
                d[i] = 0
            for i in range(8):
                del d[i]

    # ---- faults ---------------------------------------------------------
    def cut_after(self, n):
        """Cut the power n units of the write stream from now."""
        self.cut_at = self.units + n

    def power_on(self):
        self.off = False
        self.cut_at = -1

    def used(self):
        if self.use is not None:
            return self.use.blocks() * self._lfs.BLOCK
        n = 0
        for path in self.lens:
            n += self.lens[path]
        return n

    def set_free(self, n):
        self.capacity = self.used() + n

    def _alive(self):
        if self.off:
            raise PowerCut()

    def _unit(self):
        # a metadata operation: one unit, done whole or not at all
        self._alive()
        if 0 <= self.cut_at <= self.units:
            self.off = True
            raise PowerCut()
        self.units += 1

    def _free_blocks(self, path):
        for b in self.files.pop(path, ()):
            self._pool.append(b)
        n = self.lens.pop(path, None)
        if n is not None and self.use is not None:
            self.use.file(path, n, -1)

    def _store(self, path, data, append, n=0):
        # data None: n bytes that no one reads (reserve), counted, not kept
        self._alive()
        d = path[: path.rfind("/")] if "/" in path else ""
        if d and d not in self.dirs:
            raise OSError(ENOENT)
        if not append:
            self._free_blocks(path)
        at = self.lens.get(path, 0)
        room = self.capacity - self.used()
        if data is not None:
            n = len(data)
        if self.use is not None:
            room = self._lfs_room(path, at, n, append)
        full = n > room
        if full:
            n = room if room > 0 else 0
        cut = False
        if data is None:
            # reserved bytes are one unit: a cut inside leaves a stray .tmp
            # (writer.py makes SPARE so), the same as a cut before it
            self._unit()
        elif self.cut_at >= 0 and self.units + n > self.cut_at:
            n = self.cut_at - self.units if self.cut_at > self.units else 0
            cut = True
        blocks = self.files.get(path)
        if blocks is None:
            blocks = []
            self.files[path] = blocks
        i = n if data is None else 0
        while i < n:
            j = at + i
            if j // BLOCK >= len(blocks):
                blocks.append(self._pool.pop() if self._pool else bytearray(BLOCK))
            o = j % BLOCK
            k = BLOCK - o if n - i > BLOCK - o else n - i
            blocks[j // BLOCK][o : o + k] = memoryview(data)[i : i + k]
            i += k
        if self.use is not None:
            self.use.file(path, at if path in self.lens else -1, at + n)
        self.lens[path] = at + n
        if data is not None:
            self.units += n
        if cut:
            self.off = True
            raise PowerCut()
        if full:
            raise OSError(ENOSPC)

    def _lfs_room(self, path, at, n, append):
        # The bytes of n the file can take in the blocks free: its own and
        # its folder's metadata (a pair that fills splits into two new
        # blocks, lfs.Usage.growth), and the block an append copies its
        # last one into (lfs.copied), as littlefs refuses what does not fit
        L = self._lfs
        use = self.use
        free = self.capacity // L.BLOCK - use.blocks() - (L.copied(at) if append else 0)
        old = at if path in self.lens else -1

        def fits(m):
            return use.growth(path, old, at + m) <= free

        if fits(n):
            return n
        lo, hi = -1, n  # fits(lo) (-1: nothing does), not fits(hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if mid >= 0 and fits(mid):
                lo = mid
            else:
                hi = mid
        return lo if lo > 0 else 0

    # ---- the interface (smartboard.logstore.flash.Flash) ----------------------------
    def listdir(self, d):
        self._alive()
        if d not in self.dirs:
            raise OSError(ENOENT)
        pre = d + "/"
        return [p[len(pre) :] for p in self.files if p.startswith(pre)]

    def mkdir(self, d):
        if d in self.dirs or d in self.files:
            self._alive()
            raise OSError(EEXIST)
        self._unit()
        self.dirs.append(d)
        if self.use is not None:
            self.use.folder(d)

    def read(self, path):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT)
        return self.contents(path)

    def contents(self, path):
        """A file's bytes in one piece (for tests: no power needed)."""
        return self._copy(path, 0, self.lens[path])

    def _copy(self, path, offset, n, out=None):
        # bytes [offset, offset + n) of a file, gathered from its blocks
        # (into out if given)
        blocks = self.files[path]
        if out is None:
            out = bytearray(n)
        i = 0
        while i < n:
            j = offset + i
            o = j % BLOCK
            k = BLOCK - o if n - i > BLOCK - o else n - i
            if j // BLOCK < len(blocks):
                out[i : i + k] = memoryview(blocks[j // BLOCK])[o : o + k]
            else:  # reserved: zeros, as logstore.unsaved writes them
                out[i : i + k] = bytes(k)
            i += k
        return out

    def chunks(self, path):
        """A file's bytes block by block, as memoryviews (no copy)."""
        n = self.lens[path]
        i = 0
        for b in self.files[path]:
            k = BLOCK if n - i > BLOCK else n - i
            yield memoryview(b)[:k]
            i += k

    def size(self, path):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT)
        return self.lens[path]

    def read_into(self, path, offset, buf):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT)
        end = self.lens[path]
        n = len(buf)
        if offset >= end:
            return 0
        if offset + n > end:
            n = end - offset
        self._copy(path, offset, n, buf)
        return n

    def exists(self, path):
        self._alive()
        return path in self.files or path in self.dirs

    def copy(self, src, dst, n, buf):
        # the first n bytes of src written whole as dst (as many units as
        # bytes: a cut lands inside)
        self.write(dst, self._copy(src, 0, min(n, self.size(src))))

    def append(self, path, data):
        self._store(path, data, True)

    def write(self, path, data):
        self._store(path, data, False)

    def reserve(self, path, n):
        """n bytes whose content does not matter (logstore.unsaved's
        SPARE): their space is counted, no block of the tests' heap is made
        for them."""
        self._store(path, None, False, n)

    def rename(self, src, dst):
        self._alive()
        if src not in self.files:
            raise OSError(ENOENT)
        self._unit()
        if dst != src:
            self._free_blocks(dst)
            self.files[dst] = self.files.pop(src)
            n = self.lens[dst] = self.lens.pop(src)
            if self.use is not None:
                self.use.file(src, n, -1)
                self.use.file(dst, -1, n)

    def remove(self, path):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT)
        self._unit()
        self._free_blocks(path)

    def free(self, d):
        self._alive()
        f = self.capacity - self.used()
        return f if f > 0 else 0

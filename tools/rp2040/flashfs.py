"""The littlefs filesystem inside an emulated board's flash image.

MicroPython's rp2 port (RPI_PICO) keeps its filesystem in the last 1408 KB
of the 2 MB flash: littlefs v2, 4 KB blocks, programmed 256 bytes at a
time (ports/rp2/modules/_boot.py, mpconfigboard.h). This reads and writes
that region of a flash image file with littlefs-python, so that a test
can look at the logs a power cut left without booting the board, or give
a board a flash that already holds matches.

    fs = FlashFs("build/emu/flash-rev_a.bin")
    fs.listdir("logs"); fs.read("logs/0001.alog")
    fs.write("logs/0002.alog", data); fs.save()

    fs = FlashFs.new("flash.bin", "build/firmware/apixagon-rev_a.uf2")
    # a board's whole flash: the image, and littlefs formatted as the board
    # formats it at its first boot, to be filled from the PC (a thousand
    # logs in a few seconds, where the emulated board would play for hours)
"""

import os
import struct
import sys

from littlefs import LittleFS
from littlefs.context import UserContext

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import build_firmware as _build_firmware  # noqa: E402 - the partition's one source

FLASH_BYTES = 2 * 1024 * 1024
STORAGE_BYTES = 1408 * 1024
STORAGE_OFFSET = FLASH_BYTES - STORAGE_BYTES
BLOCK = 4096
# MicroPython's VfsLfs2 configuration exactly (extmod/vfs_lfsx.c): with a
# smaller cache, littlefs reads a file whose last commit a power cut tore
# inside an erase as LFS_ERR_CORRUPT, while the board reads it whole.
_GEOMETRY = dict(
    block_size=BLOCK,
    block_count=STORAGE_BYTES // BLOCK,
    read_size=32,
    prog_size=256,
    lookahead_size=32,
    cache_size=min(BLOCK, 4 * 256),
    block_cycles=100,
)
_MTIME = 1  # MicroPython's LFS_ATTR_MTIME
MTIME_NS = 1790000000 * 10**9  # what the board's clock read when it wrote (any)


def flash_of(image):
    """The 2 MB flash of a board with this UF2 written on it."""
    with open(image, "rb") as f:
        data = f.read()
    flash = bytearray(b"\xff" * FLASH_BYTES)
    for off in range(0, len(data) - 511, 512):
        m0, m1, _flags, addr, n = struct.unpack_from("<IIIII", data, off)
        if m0 != 0x0A324655 or m1 != 0x9E5D5157:
            raise ValueError("%s: not a UF2 block at %d" % (image, off))
        at = addr - 0x10000000
        flash[at : at + n] = data[off + 32 : off + 32 + n]
    return flash


class FlashFs:
    @classmethod
    def new(cls, path, image):
        """A flash image file at path holding the UF2 image and an empty
        littlefs, formatted here as MicroPython formats it; its FlashFs
        (write files, then save())."""
        flash = flash_of(image)
        ctx = UserContext(STORAGE_BYTES)
        LittleFS(context=ctx, mount=False, **_GEOMETRY).format()
        flash[STORAGE_OFFSET:] = bytes(ctx.buffer)
        with open(path, "wb") as f:
            f.write(flash)
        return cls(path, bytes(flash))

    def __init__(self, path, data=None):
        self.path = path
        if data is None:
            with open(path, "rb") as f:
                data = f.read()
        self.image = bytearray(data.ljust(FLASH_BYTES, b"\xff"))
        self._ctx = UserContext(STORAGE_BYTES)
        self._ctx.buffer[:] = self.image[STORAGE_OFFSET:FLASH_BYTES]
        self.fs = LittleFS(context=self._ctx, mount=True, **_GEOMETRY)

    def listdir(self, path="/"):
        try:
            return sorted(self.fs.listdir(path))
        except Exception:
            return []

    def read(self, path):
        with self.fs.open(path, "rb") as f:
            return f.read()

    def exists(self, path):
        try:
            self.fs.stat(path)
            return True
        except Exception:
            return False

    def write(self, path, data):
        """A file written as the board writes one: with MicroPython's mtime
        attribute (vfs_lfsx_file.c: type 1, 8 bytes, ns since 1970), which
        the board's own files carry and which takes its bytes in the
        folder's metadata (smartboard.logstore.lfs)."""
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if not self.exists(d):
                self.fs.mkdir(d)
        with self.fs.open(path, "wb") as f:
            f.write(data)
        self.fs.setattr(path, _MTIME, MTIME_NS.to_bytes(8, "little"))

    def remove(self, path):
        self.fs.remove(path)

    def size(self, path):
        return self.fs.stat(path).size

    def match_logs(self, root="logs"):
        """{name: bytes} of every match log on the flash, as the board lists
        them: its own file NNNN.alog, or packed in an archive NNNN.pack,
        walked with the board's own code (smartboard.logstore.archive); a
        D entry removes its log, and a log both on its own and packed (a
        cut before the packing removed it) is its own file's."""
        names = sorted(self.listdir(root))
        return folder_logs((name, self.read(root + "/" + name)) for name in names)

    def free(self):
        """Bytes free, as the board's statvfs counts them (whole blocks)."""
        return (self.fs.block_count - self.fs.used_block_count) * BLOCK

    def save(self, path=None):
        self.image[STORAGE_OFFSET:FLASH_BYTES] = bytes(self._ctx.buffer)
        with open(path or self.path, "wb") as f:
            f.write(self.image)


# ---- a journal of flash operations (board.js, the 'journal' request) ---------------
ROMFS_BYTES = _build_firmware.ROMFS_BYTES  # our images' partition, just below the littlefs
ROMFS_OFFSET = STORAGE_OFFSET - ROMFS_BYTES


def journal(path):
    """The operations board.js journalled in path: [(kind "E"/"P", offset,
    length, a program's bytes)]."""
    with open(path, "rb") as f:
        data = f.read()
    ops = []
    i = 0
    while i + 9 <= len(data):
        kind = chr(data[i])
        off, n = struct.unpack_from("<II", data, i + 1)
        i += 9
        body = b""
        if kind == "P":
            body = data[i : i + n]
            i += n
        ops.append((kind, off, n, body))
    return ops


def replayed(path, ops, k, frac):
    """The flash a power cut inside operation k (0-based) of the journal
    leaves, after `frac` of its bytes, as board.js cuts one: the flash at
    the journal's start (path.base), operations 0..k-1 whole, then k's
    first bytes (an erase sets them to 0xFF, a program ANDs them in)."""
    with open(path + ".base", "rb") as f:
        flash = bytearray(f.read())
    for i, (kind, off, n, body) in enumerate(ops[: k + 1]):
        keep = n if i < k else int(n * frac)
        if not keep:
            continue
        if kind == "E":
            flash[off : off + keep] = b"\xff" * keep
        else:
            old = int.from_bytes(flash[off : off + keep], "little")
            new = old & int.from_bytes(body[:keep], "little")
            flash[off : off + keep] = new.to_bytes(keep, "little")
    return bytes(flash)


def folder_logs(files):
    """{name: bytes} of the match logs in a logs folder's files, given as
    (name, bytes) pairs in name order: each NNNN.alog, and each log packed
    in an archive NNNN.pack, walked with the board's own code
    (smartboard.logstore.archive); a D entry removes its log, and a log
    both on its own and packed (a cut before the packing removed it) is
    its own file's."""
    from smartboard.logstore import archive

    out = {}
    packed = {}
    h = bytearray(archive.ENTRY)
    for name, data in files:
        if name.endswith(".alog"):
            out[name] = data
        elif name.endswith(".pack"):
            off = 0
            while True:
                k, n, ln = archive.entry(_Bytes(data), None, off, len(data), h)
                if k == archive.LOG:
                    packed["%04d.alog" % n] = data[off + archive.ENTRY : off + archive.ENTRY + ln]
                elif k == archive.GONE:
                    packed.pop("%04d.alog" % n, None)
                else:
                    break
                off += archive.ENTRY + ln
    for name, data in packed.items():
        out.setdefault(name, data)
    return out


class _Bytes:
    # a file's bytes as the board's read_into reads them (archive.entry)
    def __init__(self, data):
        self.data = data

    def read_into(self, path, off, buf):
        n = min(len(buf), max(0, len(self.data) - off))
        buf[:n] = self.data[off : off + n]
        return n


class BoardFlash:
    """The firmware's flash interface (smartboard.logstore.flash.Flash: the
    methods the match logs use) over a FlashFs: the board's own code, run
    by CPython, on the board's littlefs itself, as MicroPython's VfsLfs2
    answers it (errors as OSError with littlefs's errno, the mtime
    attribute on every file written). A flash filled from the PC the way
    the board fills it, in seconds where the emulated chip takes minutes
    (tests/rp2040/test_rp2040_pack.py), and the twin that counts what
    littlefs counts because it is littlefs (tests/host/test_flash_blocks.py
    compares the block model with it)."""

    def __init__(self, ffs):
        self.ffs = ffs
        self.fs = ffs.fs

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except Exception as e:  # littlefs-python's LittleFSError
            code = getattr(e, "code", None)
            if code is None:
                raise
            raise OSError(-code, str(e))

    def listdir(self, d):
        return self._call(self.fs.listdir, d)

    def ilistdir(self, d):
        for name in self.listdir(d):
            st = self._call(self.fs.stat, d + "/" + name)
            yield name.encode(), st.type == 2, -1 if st.type == 2 else st.size

    def mkdir(self, d):
        self._call(self.fs.mkdir, d)

    def isdir(self, path):
        return self._call(self.fs.stat, path).type == 2

    def size(self, path):
        return self._call(self.fs.stat, path).size

    def exists(self, path):
        return self.ffs.exists(path)

    def read_into(self, path, offset, buf):
        def read():
            with self.fs.open(path, "rb") as f:
                f.seek(offset)
                return f.read(len(buf))

        data = self._call(read)
        buf[: len(data)] = data
        return len(data)

    def _put(self, path, mode, data):
        def put():
            with self.fs.open(path, mode) as f:
                f.write(bytes(data))
            self.fs.setattr(path, _MTIME, MTIME_NS.to_bytes(8, "little"))

        self._call(put)

    def append(self, path, data):
        # (littlefs-python's "ab" does not make a missing file, os's does)
        self._put(path, "ab" if self.exists(path) else "wb", data)

    def write(self, path, data):
        self._put(path, "wb", data)

    def reserve(self, path, n):
        self._put(path, "wb", bytes(n))

    def rename(self, src, dst):
        self._call(self.fs.rename, src, dst)

    def remove(self, path):
        self._call(self.fs.remove, path)

    def free(self, d):
        return self.ffs.free()

# The board's filesystem as the match logs use it (Flash): MicroPython's os
# over littlefs on the board, the PC's files under the unix port and
# CPython. Every flash access of the logs goes through one of these, or a
# twin with the same methods (smartboard.sim.flash.SimFlash: the power cut
# inside a write; smartboard.sim.folderflash: a PC folder sized as the
# board's flash).
import os

from apixagon.compat import const

_S_IFDIR = const(0x4000)


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

    def isdir(self, path):
        return os.stat(path)[0] & _S_IFDIR != 0

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

    def reserve(self, path, n):
        """n zero bytes written in pieces (logstore.unsaved's SPARE): no
        n-byte buffer, which a fragmented heap may not have in one piece;
        the file opened once (each open of a partly filled file copies its
        last block)."""
        self._shut()
        z = bytes(256)
        with open(path, "wb") as f:
            while n > 0:
                piece = z if n >= 256 else z[:n]
                k = f.write(piece)
                if k is not None and k != len(piece):
                    raise OSError(28)  # ENOSPC: a short write
                n -= len(piece)

    def rename(self, src, dst):
        self._shut()
        os.rename(src, dst)

    def remove(self, path):
        self._shut()
        os.remove(path)

    def free(self, d):
        st = os.statvfs(d)  # AttributeError where a port has none
        return st[0] * st[4]  # f_bsize * f_bavail

# The flash of the simulated board on a serial line (serial_main): a
# folder of the PC's (tools/devboard.py's: settings.bin, deck.bin and
# logs/, beside the simulator's own lib/ and layout.json, which the
# board's image holds frozen and which are not counted) that fills up as a
# Raspberry Pi Pico's filesystem does: in littlefs's blocks
# (smartboard.logstore.lfs), not the PC's disk and not in bytes. Its free
# space (STATUS free=, the storage warnings, the room for a match) is what
# the board's statvfs would say of the same files, and a write the board's
# littlefs would refuse fails here too (ENOSPC, the file left as it was).
# Before, it counted bytes: the folder held 1 041 real-length logs before
# it read full, where the board holds ~330, and a full folder said 1.3 MB
# free. Its own module, imported by serial_main's start-up only: the
# in-process fuzz loads serial_main's SimLink and has no room for what it
# does not use.
from ..logstore import lfs
from ..logstore.flash import Flash

_ENOSPC = 28
# the simulator's, not the board's: devboard's lock on the folder, and the
# firmware and layout the unix port loads from there (frozen into the
# board's image, no file on its flash)
_SKIP = (".lock", "lib", "layout.json")


class FolderFlash(Flash):
    def __init__(self, blocks=lfs.BLOCKS):
        Flash.__init__(self)
        self.blocks = blocks
        self._use = None  # lfs.Usage of the folder's tree (usage())

    def usage(self):
        """The blocks the folder's files take, as littlefs would: walked at
        the first need and at each free() (a PC may have put files there),
        followed write by write in between."""
        if self._use is None:
            u = lfs.Usage()
            self._walk(u, "")
            self._use = u
        return self._use

    def _walk(self, u, d):
        for name, folder, size in self.ilistdir(d or "."):
            try:
                name = name.decode()
            except UnicodeError:  # junk (logs.junk/): its length is what counts
                name = "?" * len(name)
                if folder:
                    u.folder(d + "/" + name if d else name)
                    continue
                size = 0 if size < 0 else size
            if not d and name in _SKIP:
                continue
            path = d + "/" + name if d else name
            if folder:
                u.folder(path)
                self._walk(u, path)
            else:
                u.file(path, -1, size if size >= 0 else self.size(path))

    def free(self, d):
        self._use = None
        return self.usage().free(self.blocks)

    def _size(self, path):
        try:
            return self.size(path)
        except OSError:
            return -1

    def _room(self, path, old, new, copy=0):
        # littlefs refuses a write whose blocks are not free, counting the
        # one an append copies its last block into (lfs.copied): nothing
        # written
        u = self.usage()
        if u.blocks() + u.growth(path, old, new) + copy > self.blocks:
            raise OSError(_ENOSPC)

    def write(self, path, data):
        old = self._size(path)
        self._room(path, old, len(data))
        Flash.write(self, path, data)
        self._use.file(path, old, len(data))

    def append(self, path, data):
        old = self._size(path)
        new = (old if old > 0 else 0) + len(data)
        self._room(path, old, new, lfs.copied(old))
        Flash.append(self, path, data)
        self._use.file(path, old, new)

    def reserve(self, path, n):
        # n bytes whose content does not matter (logstore.unsaved's SPARE)
        old = self._size(path)
        self._room(path, old, n)
        Flash.reserve(self, path, n)
        self._use.file(path, old, n)

    def rename(self, src, dst):
        size = self._size(src)
        gone = self._size(dst)
        Flash.rename(self, src, dst)
        u = self.usage()
        if gone >= 0:
            u.file(dst, gone, -1)
        u.file(src, size, -1)
        u.file(dst, -1, size)

    def remove(self, path):
        size = self._size(path)
        Flash.remove(self, path)
        self.usage().file(path, size, -1)

    def mkdir(self, d):
        Flash.mkdir(self, d)
        self.usage().folder(d)

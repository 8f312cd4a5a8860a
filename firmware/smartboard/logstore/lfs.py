# littlefs's arithmetic: the blocks a file and a folder take on the board's
# flash, for the board's room rule (writer.py, pack.py) and for the
# simulated flashes that must fill up as the board's does
# (smartboard.sim.folderflash, smartboard.sim.flash with lfs=True).
#
# The board's filesystem is MicroPython 1.28's (rp2 port, RPI_PICO):
# littlefs v2.11 over the last 1408 KB of the 2 MB flash, 4 KB blocks,
# read 32 / prog 256 bytes, a 1 KB cache, every file with an 8-byte mtime
# attribute (ports/rp2/modules/_boot.py, extmod/vfs_lfsx.c). What it does
# with them (lib/littlefs/lfs2.c):
#   - a file of up to INLINE bytes (its inline_max: the least of the cache,
#     attr_max and an eighth of a block) lives in its folder's metadata and
#     takes no block of its own; a longer one is a CTZ skip-list of whole
#     blocks, block i after the first starting with ctz(i) + 1 pointers of
#     4 bytes (lfs2_ctz_index). So a 600-byte match log takes 4 KB: the
#     board held ~330 matches, not 1000 (docs/firmware/storage.md, "How many matches fit").
#   - a folder is a chain of metadata pairs (2 blocks each) holding its
#     entries: a name tag and the name, a struct tag and the inline data or
#     the skip-list's head (8 bytes), the mtime attribute (tag and 8).
#     A pair is compacted when its log is full and split when the compacted
#     entries pass half a block (lfs2_dir_splittingcompact), so a folder
#     filled name after name holds ~1 KB of entries a pair: fitted here to
#     littlefs-python (the same littlefs, tools/rp2040/flashfs.py's
#     configuration, the mtime attribute set) over 177 random folders of
#     markers, logs and archives: at most 4 blocks off, 0.4 on average
#     (tests/host/test_lfs_model.py holds the model to it).
# statvfs on the board answers block_count minus lfs2_fs_size (the blocks
# in use): free space comes in whole blocks.
from apixagon.compat import const

BLOCK = const(4096)
BLOCKS = const(352)  # 1408 KB: MICROPY_HW_FLASH_STORAGE_BYTES of RPI_PICO
INLINE = const(512)
_PAIR_BYTES = const(1040)  # entry bytes a metadata pair holds, filled in order
_FIRST = const(1100)  # ... and the first pair that much more (no split yet)


def data_blocks(size):
    """The blocks of its own a file of size bytes takes (0: inline)."""
    if size <= INLINE:
        return 0
    n = 1
    off = BLOCK
    while off < size:
        # block n holds BLOCK less its ctz(n) + 1 pointers
        c = 0
        while not (n >> c) & 1:
            c += 1
        off += BLOCK - 4 * (c + 1)
        n += 1
    return n


def copied(size):
    """The block an append to a file of size bytes takes beside its own
    while it is written: littlefs copies a partly filled last block into a
    new one before it appends (lfs2_ctz_extend) and frees the old one at the
    commit, so on a full flash no append goes through, even within the
    block (littlefs-python: tests/host/test_flash_blocks.py)."""
    if size <= INLINE:
        return 0
    return 1 if size < bytes_in(data_blocks(size)) else 0


def bytes_in(blocks):
    """The most bytes a file of that many blocks holds (data_blocks' inverse)."""
    if blocks <= 0:
        return INLINE
    off = BLOCK
    for n in range(1, blocks):
        c = 0
        while not (n >> c) & 1:
            c += 1
        off += BLOCK - 4 * (c + 1)
    return off


def entry_bytes(name_len, size, folder=False):
    """A folder entry's bytes in its folder's metadata: a file of size
    bytes (inline data or the skip-list's head, and the mtime attribute),
    or a folder (its pair's address)."""
    if folder:
        return 16 + name_len
    return 20 + name_len + (size if size <= INLINE else 8)


def folder_blocks(meta):
    """The blocks of a folder's metadata pairs, its entries taking meta bytes."""
    if meta <= _FIRST + _PAIR_BYTES:
        return 2
    return 2 * ((meta - _FIRST + _PAIR_BYTES - 1) // _PAIR_BYTES)


class Usage:
    """The blocks a tree of folders and files takes, followed file by file
    (a simulated flash tells it each change: no walk per write). Folders by
    path, "" the root (the superblock's pair)."""

    def __init__(self):
        self.meta = {"": 0}  # folder -> bytes of its entries
        self.data = 0  # blocks of the files' own

    def blocks(self):
        n = self.data
        for m in self.meta.values():
            n += folder_blocks(m)
        return n

    def free(self, blocks=BLOCKS):
        """Bytes free, as statvfs counts them: whole blocks."""
        n = blocks - self.blocks()
        return n * BLOCK if n > 0 else 0

    def file(self, path, old, new):
        """A file's size went from old to new bytes (-1: there was none,
        there is none)."""
        d, name = _split(path)
        m = self.meta.get(d, 0)
        if old >= 0:
            m -= entry_bytes(len(name), old)
            self.data -= data_blocks(old)
        if new >= 0:
            m += entry_bytes(len(name), new)
            self.data += data_blocks(new)
        self.meta[d] = m

    def folder(self, path, made=True):
        """A folder made (or removed: made False)."""
        d, name = _split(path)
        k = entry_bytes(len(name), 0, True)
        self.meta[d] = self.meta.get(d, 0) + (k if made else -k)
        if made:
            self.meta[path] = 0
        else:
            self.meta.pop(path, None)

    def growth(self, path, old, new):
        """The blocks the file would take more (or fewer) at new bytes."""
        d, name = _split(path)
        m = self.meta.get(d, 0)
        m2 = m + entry_bytes(len(name), new) - (entry_bytes(len(name), old) if old >= 0 else 0)
        return (
            data_blocks(new)
            - (data_blocks(old) if old >= 0 else 0)
            + folder_blocks(m2)
            - folder_blocks(m)
        )


def _split(path):
    i = path.rfind("/")
    return (path[:i], path[i + 1 :]) if i >= 0 else ("", path)

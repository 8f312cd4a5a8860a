# Finished matches packed into archives (issue 25: a thousand matches on a
# Pico). littlefs gives any file over INLINE bytes (lfs.py) a whole 4 KB
# block, so a real match log (0.6-1.5 KB) wasted most of one and the 1.4 MB
# held ~330 matches. An archive logs/NNNN.pack holds many finished matches
# back to back, each one's log bytes exactly as they were (their records
# still CRC'd and hash-chained: the host verifies them as it always did),
# after an entry head:
#
#   0xA6 | kind | number (2) | length (4) | crc32 of the body (4) | crc16 (2)
#
#   kind L  the log numbered `number` follows, `length` bytes
#        D  the log numbered `number` was deleted (DEL): no body
#   big-endian; crc32 is binascii's (C on the board), crc16 smartboard.proto's
#   over the 12 bytes before it. NNNN is the first log the archive holds.
#
# An archive is append-only: an entry is one append (littlefs commits a
# file's write at its close, whole or not at all, so a power cut never
# leaves half an entry on the board; a flash twin that tears a write in
# the middle does, and the folder cuts such a tail off at boot as it cuts a
# log's: folder.py). A match is packed in numbered order, so the archives
# hold ascending ranges of numbers: the log numbered n, if packed, is in
# the archive with the highest first number not above n (folder.py keeps
# the first numbers, 2 bytes an archive). Deleting a packed match appends
# its D entry; an archive whose every match is deleted is removed.
# How a match gets there, and how a cut in the middle loses nothing:
# pack.py.
import binascii

from apixagon.compat import const

from ..proto import crc16

MAGIC = const(0xA6)
LOG = const(76)  # "L"
GONE = const(68)  # "D"
ENTRY = const(14)  # bytes of an entry's head
# An archive takes entries while it is under this (16 blocks: its last,
# partly filled block is the most it wastes, ~3 %; an entry is found by
# walking the heads before it, ~50 of them at most)
MAX_BYTES = const(65536)
# The longest log packed: an entry in the link's 2 KB GET chunk, which the
# packer reads it through, and writes in one append (pack.py)
MAX_LOG = const(2034)  # proto.MAX_CHUNK - ENTRY
# what entry() says of the bytes at an offset
END = const(0)  # the archive ends there, cleanly
TORN = const(-1)  # an entry cut short, or not an entry: the archive ends before


def crc32(data, crc=0):
    return binascii.crc32(data, crc) & 0xFFFFFFFF


def head(buf, kind, n, length, crc):
    """An entry's head written into buf[:ENTRY]."""
    buf[0] = MAGIC
    buf[1] = kind
    buf[2] = n >> 8
    buf[3] = n & 255
    for i in range(4):
        buf[4 + i] = (length >> (24 - 8 * i)) & 255
        buf[8 + i] = (crc >> (24 - 8 * i)) & 255
    c = crc16(buf, 0xFFFF, 12)
    buf[12] = c >> 8
    buf[13] = c & 255
    return buf


def gone(n):
    """The D entry of the log numbered n, whole."""
    return head(bytearray(ENTRY), GONE, n, 0, 0)


def entry(fs, path, off, size, h):
    """(kind, number, length) of the entry at off of the archive path (size
    bytes), its head read into h (ENTRY bytes, lent; h[8:12] then hold the
    body's crc32): (END, 0, 0) at its end, (TORN, 0, 0) where what is
    there is no whole entry."""
    if off >= size:
        return END, 0, 0
    if off + ENTRY > size or fs.read_into(path, off, h) < ENTRY:
        return TORN, 0, 0
    k, n, ln = head_of(h)
    if k == LOG and off + ENTRY + ln > size:
        return TORN, 0, 0
    return k, n, ln


def head_of(h):
    """(kind, number, length) of an entry's head (ENTRY bytes: its magic,
    kind and CRC-16 checked; the body's crc32 left in h[8:12]), (TORN, 0,
    0) if it is none. The board's walk (entry) and the host's reading of
    a download's span frames (apixagon_host.link) both take heads apart
    here."""
    c = crc16(h, 0xFFFF, 12)
    if h[0] != MAGIC or h[12] != c >> 8 or h[13] != c & 255:
        return TORN, 0, 0
    n = (h[2] << 8) | h[3]
    ln = (h[4] << 24) | (h[5] << 16) | (h[6] << 8) | h[7]
    if h[1] == GONE and not ln:
        return GONE, n, 0
    if h[1] != LOG:
        return TORN, 0, 0
    return LOG, n, ln


def body_crc(h):
    """The crc32 an entry's head (h, as entry() left it) gives its body."""
    return (h[8] << 24) | (h[9] << 16) | (h[10] << 8) | h[11]

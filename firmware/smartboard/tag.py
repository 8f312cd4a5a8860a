# Card identity on the NFC tag of every card (RULES.md §1: side, kind, index).
#
# Payload: 4 bytes written to the tag's first user page (NTAG21x page 4):
#   byte 0  magic 0xA7 (an APIXAGON card, not some other tag)
#   byte 1  version (1) << 4 | side (0 black, 1 gold)
#   byte 2  kind << 5 | index: kind 0 normal (index 0..30), 1 Rain (index
#           0..1), 2 Beekeeper, 3 Smoker
#   byte 3  CRC-8 (polynomial 0x07) of bytes 0..2: a torn or misread page
#           is rejected, never taken for another card
# decode() returns a small int code, or a negative error: the scanner and
# the LED layer use it without allocating.
from apixagon.compat import const

MAGIC = const(0xA7)
VERSION = const(1)
NORMAL = const(0)
RAIN = const(1)
BEEKEEPER = const(2)
SMOKER = const(3)

# decode() errors
NOT_OURS = const(-1)  # another tag, or an empty card
TORN = const(-2)  # checksum mismatch: a torn or partial read
BAD_FIELD = const(-3)  # checksum fine, but no such side/kind/index
LENGTH = const(-4)  # fewer than 4 bytes read


def crc8(data, n):
    c = 0
    for i in range(n):
        c ^= data[i]
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    return c


def code(side, kind, index):
    """The card as one small int: side << 7 | kind << 5 | index."""
    return side << 7 | kind << 5 | index


def side_of(c):
    return c >> 7


def kind_of(c):
    return (c >> 5) & 3


def index_of(c):
    return c & 31


def encode(side, kind, index, out=None):
    """The 4 payload bytes of a card (into out if given)."""
    b = out if out is not None else bytearray(4)
    b[0] = MAGIC
    b[1] = VERSION << 4 | side
    b[2] = kind << 5 | index
    b[3] = crc8(b, 3)
    return b


def decode(data):
    """A card code (>= 0) from the payload bytes, or a negative error."""
    if len(data) < 4:
        return LENGTH
    if data[0] != MAGIC:
        return NOT_OURS
    if crc8(data, 3) != data[3]:
        return TORN
    if data[1] >> 4 != VERSION:
        return NOT_OURS
    side = data[1] & 15
    kind = data[2] >> 5
    index = data[2] & 31
    if side > 1 or kind > 3:
        return BAD_FIELD
    if (kind == NORMAL and index > 30) or (kind == RAIN and index > 1) or (kind > 1 and index):
        return BAD_FIELD
    return code(side, kind, index)

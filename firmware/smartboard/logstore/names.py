# The names in the logs folder (docs/protocol.md, "Names" and "What else is
# in logs/"): a log NNNN.alog per match, its marker NNNN.pulled once the
# host stored it, the archives NNNN.pack of finished matches (archive.py:
# NNNN the first match it holds), LAST (the highest number deleted: a
# number is never given twice, or the host, which knows a match by board
# and name, would take a new match for the one it stored under that name),
# UNSAVED (what a power cut would lose: writer.py), SPARE (the blocks
# kept for UNSAVED on a full flash: writer.py), and the board's own
# .tmp files (a file being written whole, renamed over its name when
# done). Anything else is junk, moved to <root>.junk/ (repair.py).
#
# Log numbers run to MAX_NUMBER, four digits as the names have always been
# ("%04d": 10000.alog would sort before 9999.alog): the index is at most a
# few KB. Past it no new log is made and the board says the flash is full
# (9999 matches: 13 years of 2 a day).
from apixagon.compat import const

SUFFIX = ".alog"
PULLED = ".pulled"  # marker: the host stored this match (PULLED command)
PACK = ".pack"
TMP = ".tmp"
HIGH = "LAST"
UNSAVED = "UNSAVED"
SPARE = "SPARE"
MAX_NUMBER = const(9999)
JUNK = ".junk"  # what logs/ should not hold goes to <root>.junk/
# kinds of names (kind()); public: a module's private const() names are
# folded away on MicroPython, and the folder index uses these
K_JUNK = const(0)
K_LOG = const(1)
K_MARK = const(2)
K_TMP = const(3)
K_HIGH = const(4)
K_PACK = const(5)
K_UNSAVED = const(6)
K_SPARE = const(7)


def kind(name):
    """(kind, number) of a name in logs/ (bytes): a log NNNN.alog, its
    marker NNNN.pulled or an archive NNNN.pack as the board writes them
    (four digits, 1..MAX_NUMBER: "7.alog" or "00007.alog" is not one),
    LAST, UNSAVED, SPARE, a .tmp, or junk. The usual names first, in few steps: a
    listing runs this for each of thousands."""
    n = len(name)
    if n == 9 and name[4:] == b".alog":
        k = K_LOG
    elif n == 11 and name[4:] == b".pulled":
        k = K_MARK
    elif n == 9 and name[4:] == b".pack":
        k = K_PACK
    elif name == b"LAST":
        return K_HIGH, 0
    elif name == b"UNSAVED":
        return K_UNSAVED, 0
    elif name == b"SPARE":
        return K_SPARE, 0
    elif name.endswith(b".tmp"):
        return K_TMP, 0
    else:
        return K_JUNK, 0
    d = name[:4]
    if d.isdigit() and d != b"0000":
        return k, int(d)
    return K_JUNK, 0


def number_of(name):
    """The number of a log's name as the board makes them ("0007.alog" ->
    7), 0 for any other name."""
    k, n = kind(name.encode() if isinstance(name, str) else name)
    return n if k == K_LOG else 0


def log_name(n):
    """The name of log number n (7 -> "0007.alog")."""
    return "%04d%s" % (n, SUFFIX)


def pack_name(n):
    """The name of the archive whose first match is number n."""
    return "%04d%s" % (n, PACK)


def join(d, name):
    """The path in folder d (str) of a name a listing gave as bytes or str."""
    return d + "/" + name if isinstance(name, str) else d.encode() + b"/" + name

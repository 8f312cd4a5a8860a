# Helpers of the packing tests (test_matchlog_pack*.py, test_matchlog_room.py):
# real-length match logs written by the firmware's own writer (each mode's
# scripted match played to its end, tests/data/*_full.apx: 0.6-1.5 KB, as
# tools/realmatches.py gives them to the emulated board), on the flash twin
# counting littlefs's blocks, and the packing run as the board's quiet
# ticks run it. Plain functions: also run under the MicroPython unix port.
import hashlib

from apixagon import record
from apixagon.game import Game
from logkit import ROOT, TAGS
from smartboard.logstore import writer

RECORDS = (
    "tests/data/queens_gambit_full.apx",
    "tests/data/beehive_full.apx",
    "tests/data/3v2_full.apx",
    "tests/data/junior_full.apx",
)
WHEN = 1790000000  # the host set the clock: every header dated

_games = []


def games():
    """The four scripted matches, over, made once."""
    if not _games:
        for path in RECORDS:
            with open(path) as f:
                g, verdicts = record.check(f, Game)
            assert g.over(), path
            _games.append(g)
    return _games


def fill(flash, n, root=ROOT):
    """n finished matches on flash, the four in turn, logged as the board
    logs them; the writer, made anew (as at a boot), is returned."""
    log = writer.MatchLog(root, TAGS, flash)
    log.clock = clock
    four = games()
    for i in range(n):
        log.make_room()
        log.begin(four[i % 4])
        log.flush_all()
    log.make_room()
    return writer.MatchLog(root, TAGS, flash)


def clock():
    return WHEN


def pack_all(log, most=100000):
    """Packing steps until there is nothing left to pack (as the board's
    quiet ticks run them): how many."""
    log.pack_wanted = True
    k = 0
    while log.pack_due() and log.pack_step():
        k += 1
        assert k < most, "no end to the packing"
    return k


def logs_of(flash, log):
    """{number: (length, SHA-256)} of every log the folder lists, read
    where it lives, in pieces (no copy of the logs in the heap)."""
    out = {}
    buf = bytearray(256)
    for name in log.names():
        n = int(name[:4])
        h = hashlib.sha256()
        off = 0
        while True:
            k = log.read_into(n, off, buf)
            if not k:
                break
            h.update(memoryview(buf)[:k])
            off += k
        out[n] = (off, h.digest())
    return out

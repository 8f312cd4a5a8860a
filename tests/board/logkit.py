# Small helpers of the match-log tests (tests/board/test_matchlog_*.py and
# cutkit.py), kept apart so that a module needing only these does not load
# the power-cut harness into MicroPython's 96 wK heap.
import gc
import hashlib
import sys

RECORD = "tests/data/beehive_full.apx"
ROOT = "logs"
TAGS = (("Board", "sim"),)
MICROPYTHON = sys.implementation.name == "micropython"


def record_lines(moves=None):
    """The record's header lines and its first `moves` move lines, read as
    they are wanted (no list of them held: the heap under MicroPython is
    small and a long-lived list splits it)."""
    n = 0
    with open(RECORD) as f:
        for line in f:
            line = line.strip()
            if is_move(line):
                if moves is not None and n >= moves:
                    return
                n += 1
            yield line


def is_move(line):
    return len(line) > 1 and line[0] in "ABGJ" and line[1] in " 123"


def digest(flash, path, n):
    # The first n bytes of a file, compared byte for byte through their
    # SHA-256 (no copy of them in the heap).
    h = hashlib.sha256()
    for c in flash.chunks(path):
        k = len(c) if len(c) < n else n
        if k <= 0:
            break
        h.update(c[:k])
        n -= k
    assert n == 0, "the file is shorter than its kept records"
    return h.digest()


def collect():
    # MicroPython's 96 wK heap wants the old boards gone before a new one
    # is built; CPython frees them itself (and its gc.collect is slow).
    if MICROPYTHON:
        gc.collect()

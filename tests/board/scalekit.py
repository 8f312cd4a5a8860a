# Helpers of the match-log scale tests (test_matchlog_scale.py,
# test_matchlog_thousand.py, test_matchlog_long.py, test_matchlog_junk.py):
# a real folder of logs on the PC's disk (the firmware's own
# smartboard.logstore.flash.Flash reads it, as it reads littlefs on the board),
# filled with a thousand logs in a moment; a log's bytes as the board
# writes them.
# Plain functions: the same files run under CPython and under the
# MicroPython unix port at 96 wK.
import os
import sys

from boardkit import TMP, settings_path
from logkit import is_move, record_lines
from smartboard.logstore import records

_DIR = 0x4000
N = 1000  # logs
PULLED = 400  # of which pulled


def folder(name):
    """An empty folder of this test's own (build/tmp/<interpreter>-<name>),
    made anew: its path."""
    settings_path(name)  # makes build/tmp
    d = "%s/%s-%s" % (TMP, sys.implementation.name, name)
    remove(d)
    os.mkdir(d)
    return d


def remove(path):
    """A file or a folder and all in it, if it is there (no shutil under
    MicroPython; a thousand names listed at once would crowd its heap:
    taken 64 at a time). Paths as bytes inside: a name may not be UTF-8."""
    if isinstance(path, str):
        path = path.encode()
    try:
        mode = os.stat(path)[0]
    except OSError:
        return
    if not mode & _DIR:
        os.remove(path)
        return
    while True:
        some = []
        for name in _names(path):
            some.append(name)
            if len(some) == 64:
                break
        if not some:
            break
        for name in some:
            remove(path + b"/" + name)
    os.rmdir(path)


def _names(path):
    if hasattr(os, "ilistdir"):
        for e in os.ilistdir(path):
            yield e[0]
    else:  # CPython
        with os.scandir(path) as it:
            for e in it:
                yield e.name


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def log_bytes(moves, end="abandoned"):
    """A log of the scripted game's header and first `moves` moves, then its
    end (None: unfinished), as the board writes it."""
    out = bytearray()
    link = records.SEED
    for line in record_lines(moves):
        rec, link = records.encode(
            link, records.MOVE if is_move(line) else records.HEADER, line.encode()
        )
        out.extend(rec)
    if end is not None:
        rec, link = records.encode(link, records.END, end.encode())
        out.extend(rec)
    return bytes(out)


def fill(root, n, data, pulled=0, start=1):
    """n logs numbered from start in the folder root, each holding data;
    the first `pulled` of them marked pulled."""
    try:
        os.mkdir(root)
    except OSError:
        pass
    for i in range(start, start + n):
        write("%s/%04d.alog" % (root, i), data)
        if i < start + pulled:
            write("%s/%04d.pulled" % (root, i), b"1")


def log_size(path):
    return os.stat(path)[6]


def thousand(name):
    """A folder of N logs for the test `name`: N - 1 finished (a short
    abandoned match each), the newest unfinished (5 moves), the first
    PULLED marked pulled. Its logs/ folder."""
    root = folder(name) + "/logs"
    fill(root, N - 1, log_bytes(3), PULLED)
    write(root + "/%04d.alog" % N, log_bytes(5, None))
    return root

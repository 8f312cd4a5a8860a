# What the board did not write, where its logs live, never stops it: a file
# named logs where the folder should be, and entries in logs/ that are no
# log (a folder named like one, names the board never makes, a name that
# is not UTF-8, a LAST of 40 KB of digits) are moved aside into logs.junk/,
# never deleted, and the board says so; what cannot be moved (logs.junk is
# itself a file) is left where it is and ignored. On the real filesystem
# (smartboard.logstore.flash.Flash: os.ilistdir, names as bytes). Plain functions: also
# run under the MicroPython unix port at 96 wK.
import os

from logkit import collect
from scalekit import folder, log_bytes, read, write
from smartboard import board as B
from storekit import Board

JUNK = (
    "notes.txt",
    "7.alog",  # the board writes 0007.alog
    "00008.alog",
    "0000.alog",
    "10000.alog",  # past the highest number
    "12ab.alog",
    "0004.alog.bak",
    "abc.pulled",
    ".alog",
)


def _listed(bd):
    ok, text = bd.ask("LOGS")
    assert ok, text
    return text.split()


def _lots_of_digits(path, n):
    # a file of n digits, written a KB at a time (no n-byte string in the heap)
    with open(path, "wb") as f:
        for _ in range(n // 1024):
            f.write(b"9" * 1024)


def test_a_file_named_logs_is_moved_aside_and_the_folder_made():
    d = folder("junk-file")
    root = d + "/logs"
    write(root, b"not a folder")
    collect()
    bd = Board("junk-file", None, root=root)
    b = bd.r.board
    assert b.phase == B.SETUP
    assert bd.says.said(root + " was a file, not a folder: moved to " + root + ".junk/logs")
    assert os.stat(root)[0] & 0x4000  # a folder now
    assert read(root + ".junk/logs") == b"not a folder"  # kept, byte for byte
    st = bd.status()
    assert st["logs"] == "0" and st["unpulled"] == "0", st
    bd.play(2)  # a match, logged
    bd.log.flush_all()
    assert _listed(bd)[0].startswith("0001.alog:")


def test_junk_in_logs_is_moved_aside_and_never_stops_the_board():
    d = folder("junk-entries")
    root = d + "/logs"
    os.mkdir(root)
    for name in JUNK:
        write(root + "/" + name, name.encode())
    write(root.encode() + b"/\xff\xfe.alog", b"not UTF-8")  # listed as bytes
    os.mkdir(root + "/0005.alog")  # a folder named like a log
    _lots_of_digits(root + "/LAST", 40 * 1024)  # read 12 bytes of it at most
    write(root + "/0003.alog", log_bytes(3))
    write(root + "/0003.pulled", b"1")
    write(root + "/0009.alog", log_bytes(2))
    collect()
    bd = Board("junk-entries", None, root=root)
    assert bd.r.board.phase == B.SETUP
    n = len(JUNK) + 2
    assert bd.says.said("%s: %d unknown entries, %d moved to %s.junk" % (root, n, n, root)), (
        bd.says.texts
    )
    items = _listed(bd)
    assert [x.split(":")[0] for x in items] == ["0003.alog", "0009.alog"], items
    assert items[0].endswith(":pulled") and items[1].endswith(":done")
    st = bd.status()
    assert st["logs"] == "2" and st["unpulled"] == "1", st
    for name in JUNK:  # moved, not deleted
        assert read(root + ".junk/" + name) == name.encode(), name
    assert read(root.encode() + b".junk/\xff\xfe.alog") == b"not UTF-8"
    assert os.stat(root + ".junk/0005.alog")[0] & 0x4000
    # LAST of 40 KB is no number: the names count, the next match is 0010
    bd.play(1)
    bd.log.flush_all()
    assert [x.split(":")[0] for x in _listed(bd)][-1] == "0010.alog"


def test_junk_that_cannot_be_moved_is_left_and_ignored():
    d = folder("junk-stays")
    root = d + "/logs"
    os.mkdir(root)
    write(root + ".junk", b"a file where the junk folder goes")
    write(root + "/notes.txt", b"mine")
    write(root + "/0001.alog", log_bytes(2))
    collect()
    bd = Board("junk-stays", None, root=root)
    assert bd.r.board.phase == B.SETUP
    assert bd.says.said(root + ": 1 unknown entry, 1 left where they are (ignored)")
    assert read(root + "/notes.txt") == b"mine"
    assert [x.split(":")[0] for x in _listed(bd)] == ["0001.alog"]
    assert bd.status()["logs"] == "1"

"""A full board end to end (issue 25, item 1): the simulated board (the
firmware in the MicroPython unix port on a pseudo-terminal, its flash a
folder that fills as littlefs does) with no room left for the longest
match says so before the first card, and `apixagon status` says it too;
CONFIRM is answered with the question (STATUS unlogged=ask) and the host's
NOLOG plays the match unsaved; the power goes in the middle of it
(SIGKILL), and after the boot the board and `apixagon status` say what was
lost, until the next match starts."""

import os
import subprocess
import sys

from e2ekit import connect
from smartboard.logstore import lfs, writer

APIXAGON = os.path.join(os.path.dirname(sys.executable), "apixagon")


def cli(*args):
    r = subprocess.run([APIXAGON, *args], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def test_a_full_board_asks_plays_unsaved_and_says_what_a_power_cut_lost(board):
    # the power off, the flash fills up but for less than a match's room
    board.power_cut(hold=True)
    # (the root folder and logs/ take a metadata pair each: 4 blocks)
    blocks = lfs.BLOCKS - 4 - (writer.ROOM_BYTES // lfs.BLOCK - 1)
    with open(os.path.join(board.flash, "filler.bin"), "wb") as f:
        f.write(b"\0" * lfs.bytes_in(blocks))
    board.power_on()
    assert board.wait_boot(2)
    with connect(board) as link:
        st = link.status()
        assert st["room"] == "0" and 0 < int(st["free"]) < writer.ROOM_BYTES, st
    rc, out = cli("status", "--port", board.port)
    assert rc == 0 and "warning: the board's storage is full: the next match would not" in out
    with connect(board) as link:
        link.request("HAND", "press", "confirm")
        st = link.status()
        assert st["phase"] == "setup" and st["unlogged"] == "ask", st
        assert link.request("NOLOG") == "unsaved"
        st = link.status()
        assert st["phase"] == "play" and st["unlogged"] == "1", st
        link.request("HAND", "put", "E4", 12)
        assert link.status()["moves"] == "1"
    board.power_cut()  # the power goes, and comes back
    assert board.wait_boot(3)
    with connect(board) as link:
        st = link.status()
        assert st["phase"] == "setup" and st["lost"] == "unlogged", st
    rc, out = cli("status", "--port", board.port)
    assert "warning: a power cut on the board: the match played unsaved was lost" in out, out
    # room again (the PC removed the filler): the next match is logged and
    # the loss is no longer news
    board.power_cut(hold=True)
    os.remove(os.path.join(board.flash, "filler.bin"))
    board.power_on()
    assert board.wait_boot(4)
    with connect(board) as link:
        assert link.status()["lost"] == "unlogged"
        link.request("HAND", "lift", "E4")
        link.request("HAND", "press", "confirm")
        st = link.status()
        assert st["phase"] == "play" and "lost" not in st and "unlogged" not in st, st

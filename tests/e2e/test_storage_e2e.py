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
import time

from e2ekit import RECORD, connect, play_record
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


# ---- a flash filled with real matches (the board's own folder, as a PC
# sees it: littlefs's blocks, smartboard.sim.folderflash) -----------------
def _fill_with_logs(board, leave):
    """Real logs into the powered-off board's logs/ until no more than
    `leave` bytes are free (or a write is refused): how many."""
    import realmatches
    from smartboard.sim.folderflash import FolderFlash

    here = os.getcwd()
    os.chdir(board.flash)
    try:
        ff = FolderFlash()
        if not os.path.isdir("logs"):
            ff.mkdir("logs")
        n = 0
        for data in realmatches.mix("rev_a", 400):
            if leave and ff.free("logs") <= leave:
                break
            try:
                ff.write("logs/%04d.alog" % (n + 1), data)
            except OSError:
                break
            n += 1
        return n, ff.free("logs")
    finally:
        os.chdir(here)


def _filler(board, leave):
    # some other program's file, written while the board runs, that leaves
    # `leave` bytes free (whole blocks)
    from smartboard.sim.folderflash import FolderFlash

    here = os.getcwd()
    os.chdir(board.flash)
    try:
        ff = FolderFlash()
        k = (ff.free("logs") - leave) // lfs.BLOCK
        with open("photos.bin", "wb") as f:
            f.write(b"\0" * lfs.bytes_in(k))
        return FolderFlash().free("logs")
    finally:
        os.chdir(here)


def _log_moves(board, name):
    from smartboard.logstore import records

    with open(os.path.join(board.flash, "logs", name), "rb") as f:
        lines = records.Lines()
        v = records.read_log(f.read(), lines)[0]
    assert v in (records.OK_LOG, records.TORN), records.verdict_name(v)
    return len(lines.moves)


def test_a_flash_filled_with_real_logs_to_the_last_block_says_no_room(board):
    # The reported case: filled until a write fails, the board said room=1
    # (packing would free space, but packing itself had no block) and lost
    # seven acknowledged moves at a cut with nothing said. It says no room.
    board.power_cut(hold=True)
    n, free = _fill_with_logs(board, 0)
    assert n > 300 and free < lfs.BLOCK, (n, free)
    board.power_on()
    assert board.wait_boot(2)
    with connect(board) as link:
        st = link.status()
        assert st["room"] == "0" and st["phase"] == "setup", st
        link.request("HAND", "press", "confirm")
        assert link.status()["unlogged"] == "ask"


def test_real_logs_leave_the_room_packing_gives_and_25_moves_survive_a_cut(board):
    board.power_cut(hold=True)
    n, free = _fill_with_logs(board, writer.SPARE_ROOM + writer.PACK_ROOM + lfs.BLOCK)
    board.power_on()
    assert board.wait_boot(2)
    with connect(board) as link:
        st = link.status()
        # less than the match and SPARE: the room counts on packing
        assert st["room"] == "1" and int(st["free"]) < writer.ROOM_BYTES + writer.SPARE_ROOM, st
        assert play_record(link, RECORD, upto=25).startswith("played")
        assert link.status()["moves"] == "25"
    time.sleep(0.5)
    board.power_cut()
    assert board.wait_boot(3)
    with connect(board) as link:
        st = link.status()
        assert st["phase"] == "resume" and st["moves"] == "25" and "lost" not in st, st
    assert _log_moves(board, "%04d.alog" % (n + 1)) == 25


def test_a_flash_filled_mid_match_by_another_program_is_said_before_and_after_a_cut(board):
    board.power_cut(hold=True)
    n, _ = _fill_with_logs(board, writer.ROOM_BYTES + writer.SPARE_ROOM + 8 * lfs.BLOCK)
    board.power_on()
    assert board.wait_boot(2)
    name = "%04d.alog" % (n + 1)
    with connect(board) as link:
        # past 512 bytes (~30 moves) the log has a block of its own, and
        # each append then wants a free block (littlefs copies the last)
        assert play_record(link, RECORD, upto=35).startswith("played")
        time.sleep(0.3)
        assert _filler(board, 0) == 0
        link.status()  # the host looks: the board counts its free space again
        assert play_record(link, RECORD, upto=55).startswith("played")
        st = link.status()
        assert st["moves"] == "55" and st["low"] == "1", st
    time.sleep(0.5)
    held = _log_moves(board, name)
    assert 35 <= held < 55, held
    rc, out = cli("status", "--port", board.port)
    assert "storage" in out, out
    board.power_cut()
    assert board.wait_boot(3)
    with connect(board) as link:
        st = link.status()
        assert st["lost"] == "%s:%d" % (name, held), st
        assert st["phase"] == "resume" and st["moves"] == str(held), st
    rc, out = cli("status", "--port", board.port)
    assert (
        "warning: a power cut on the board: match %s lost its moves after move %d"
        % (
            name,
            held,
        )
        in out
    ), out

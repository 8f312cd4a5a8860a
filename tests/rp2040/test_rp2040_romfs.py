"""The update path on the emulated RP2040 (rev A image, real mpremote):

- a firmware deployed into the image's ROMFS partition runs in place from
  the flash: every module of ours from /rom, the heap close to the image's
  own firmware's, and the littlefs keeps no copy of it (fw/ holds the boot
  record alone); `update` of the same firmware writes nothing;
- a board left at its REPL by a killed `apixagon deploy` goes back to its
  firmware by itself: the watchdog, fed by a timer while the host speaks,
  resets it 30 s + 8 s of the chip's time after the host last spoke;
- a slow host that keeps speaking (a keep-alive every 4 s for 48 s) is
  never cut;
- a new firmware that hangs at import (a loop at module level) is reset by
  the watchdog armed for its trial, and the board's previous firmware runs.

How far these go: rp2040js programs and erases its flash in no time and
has no XIP cache misses (the in-place code's speed is not a Pico's), and a
sleeping core's clock jumps ahead; while a host speaks board.js paces that
idle time to the wall clock, so a host's seconds are the board's.
The same on the simulated board: tests/e2e/test_host_gone.py."""

import os
import sys
import time

import emukit
import pytest
from apixagon_host import fwcheck as C
from apixagon_host import fwtransport as T
from apixagon_host import link as L
from flashfs import FlashFs

sys.path.insert(0, os.path.join(emukit.ROOT, "tests", "e2e"))
from deploykit import Run, copy_with_version, one_origin, running_modules  # noqa: E402

HZ = 125_000_000
NEW = "9.7.1-romfs"


def heap(board):
    with L.connect(board.port, timeout=30) as link:
        return int(L.fields(link.request("STATUS"))["heap"])


def test_a_firmware_in_the_romfs_partition_runs_in_place(tmp_path):
    new = copy_with_version(os.path.join(emukit.ROOT, "firmware"), str(tmp_path / "new"), NEW)
    board = emukit.boot("rev_a", tmp_path)
    try:
        own = heap(board)
        free0 = FlashFs(None, _flash(board)).free()
        r = Run("deploy", board.port, new, timeout=60)
        rc, out = r.finish(600)
        assert rc == 0 and "ROMFS" in out, out
        assert C.await_firmware(board.port, 60)["fw"] == NEW
        after = heap(board)
        booted, mods = running_modules(board.port)
        assert one_origin(booted, mods, factory="") == "/rom/"
        T.restart(board.port)
        C.await_firmware(board.port, 60)
        fs = FlashFs(None, _flash(board))
        assert fs.listdir("fw") == ["BOOT"], fs.listdir("fw")
        used = (free0 - fs.free()) // 4096
        assert used <= 4, used  # the fw folder and its record: no copy of the firmware
        assert after >= 150_000, after  # the .mpy in the littlefs left ~127 KB
        r = Run("update", board.port, new, timeout=60)
        rc, out = r.finish(300)
        assert rc == 0 and "up to date" in out, out
        print(
            "ROMFS deploy: heap free after boot %d (the image's own firmware %d), "
            "%d littlefs blocks for the update path" % (after, own, used)
        )
    finally:
        board.close()


def _flash(board):
    board.request("save")
    with open(board.flash, "rb") as f:
        return f.read()


def test_a_board_left_at_its_repl_by_a_killed_deploy_goes_back_by_itself(tmp_path):
    new = copy_with_version(os.path.join(emukit.ROOT, "firmware"), str(tmp_path / "new"), NEW)
    board = emukit.boot("rev_a", tmp_path)
    try:
        old = C.await_firmware(board.port, 60)["fw"]
        r = Run("deploy", board.port, new, timeout=60, progress=True)
        assert r.wait_files(8, timeout=300), r.output()  # ROMFS blocks written
        r.kill()
        killed = board.cycle()
        resets = len([e for e in board.events if e.get("ev") == "reset"])
        board.wait_for(
            lambda: len([e for e in board.events if e.get("ev") == "reset"]) > resets,
            300,
            "the board's reset",
        )
        reset = [e for e in board.events if e.get("ev") == "reset"][-1]
        assert reset["why"] == "watchdog", reset
        took = (reset["cycle"] - killed) / HZ
        assert 30 <= took <= 40, took
        board.wait_usb()
        assert C.await_firmware(board.port, 60)["fw"] == old  # nothing was switched
        print("a killed deploy: the watchdog reset the board %.1f s (chip time) later" % took)
    finally:
        board.close()


@pytest.mark.long
def test_a_slow_but_live_host_is_never_cut(tmp_path):
    board = emukit.boot("rev_a", tmp_path)
    try:
        start = board.cycle()
        step = "import time\ntime.sleep(4)\n" + T.ALIVE + "print('still')\n"
        lines = T.mpremote(board.port, ["exec", T.FREE], *[["exec", step]] * 12, timeout=300)
        took = (board.cycle() - start) / HZ
        assert lines.count("still") == 12, lines[-5:]
        assert took > 40, took  # longer than the watch lets a silent host have
        assert not [e for e in board.events if e.get("ev") == "reset"]
        T.restart(board.port)
        C.await_firmware(board.port, 60)
    finally:
        board.close()


@pytest.mark.long
def test_a_trial_that_hangs_at_import_rolls_back_by_itself(tmp_path):
    hang = copy_with_version(os.path.join(emukit.ROOT, "firmware"), str(tmp_path / "hang"), NEW)
    path = os.path.join(hang, "smartboard", "link.py")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write("while True:  # the deploy test's hang at import\n    pass\n" + text)
    board = emukit.boot("rev_a", tmp_path)
    try:
        old = C.await_firmware(board.port, 60)["fw"]
        t0 = time.monotonic()
        r = Run("deploy", board.port, hang, timeout=120)
        rc, out = r.finish(600)
        assert rc == 1, out
        assert "went back to fw %s by itself" % old in out and "cut short" in out, out
        assert [e for e in board.events if e.get("why") == "watchdog"]
        assert C.await_firmware(board.port, 60)["fw"] == old
        print("a trial hanging at import: rolled back, the deploy ended in %.0f s" % (
            time.monotonic() - t0))  # fmt: skip
    finally:
        board.close()

"""`apixagon deploy` cut by the power on the emulated RP2040: the rev A
image's board, the real mpremote writing a new firmware into a slot of
its littlefs, and the power cut inside a flash program or erase (only
part of its bytes written, as tools/rp2040/board.js does it) at two
moments: in the middle of the copy (after a seeded random file is whole,
inside one of the next flash operations) and at the switch (once all but
the manifest are whole, inside the 2nd to 5th flash operation from then:
the manifest's, the boot record's write and rename, the trial boot's).
The PC's deploy is killed as the board goes dark. After power-on the
board answers HELLO with the firmware the boot record left on the flash
(read as the PC reads it) says: the old one, or the new one once the
record names it — never a mix (every module of ours from one place: the
image's frozen modules or one slot) and never the bare REPL; in the
middle of the copy, always the old one. Measured while writing this test,
ops 2 and 3 came before the record's rename (old), 4 and 5 in the trial
boot's record write (new, its trial started again), 7 after the trial had
begun (set aside: old). The same on the simulated board, many times
over: tests/e2e/test_deploy_kills.py."""

import json
import os
import random
import sys

import emukit
from apixagon_host import fwbuild
from apixagon_host import fwcheck as C
from apixagon_host import fwtransport as T
from flashfs import FlashFs

sys.path.insert(0, os.path.join(emukit.ROOT, "tests", "e2e"))
from deploykit import Run, copy_with_version, one_origin, running_modules  # noqa: E402

SEED = 20261130  # mid-copy after file 9; at the switch, op 4
NEW = "9.8.1-rp2040-cut"


def cut_during(board, cmd, firmware, after_files, ops, frac):
    """`apixagon CMD` of firmware; once its copy has written after_files
    files (a negative number: all but so many), a power cut inside the
    ops-th flash operation from then (frac of its bytes written); the
    deploy killed as the power goes, the power back on. What the cut hit
    (with the boot record it left), and the deploy's output."""
    r = Run(cmd, board.port, firmware, timeout=60, progress=True)
    try:
        if after_files < 0:
            done = r.wait_files(left=-after_files, timeout=300)
        else:
            done = r.wait_files(after_files, timeout=300)
        assert done, r.output()
        board.cut(flash_op=ops, frac=frac)
        board.wait_for(lambda: not board.on, 120, "the power cut")
    finally:
        r.kill()
    cut = [e for e in board.events if e.get("ev") == "off"][-1]
    fs = FlashFs(board.flash)  # read as the PC reads it, the power off
    cut["record"] = json.loads(fs.read("fw/BOOT")) if fs.exists("fw/BOOT") else None
    board.power_on()
    board.wait_usb()
    return cut, r.output()


def firmware_after(board):
    """The version the board answers with, checked to come whole from one
    place; the board left answering."""
    fw = C.await_firmware(board.port, 60)["fw"]  # the bare REPL raises here
    booted, mods = running_modules(board.port)
    where = one_origin(booted, mods, factory="")  # frozen: apixagon/game.py
    T.restart(board.port)
    assert C.await_firmware(board.port, 60)["fw"] == fw
    return fw, where


def expected(record, old):
    """What the board must boot after a cut, from the boot record the cut
    left on the flash: the new slot once the record names it (a "new"
    record boots it as a trial; a "trial" cut short is set aside)."""
    if record and record.get("cur") == "a" and record.get("state") in ("new", "ok"):
        return NEW, "fw/a/"
    return old, "image"


def test_a_deploy_cut_inside_its_flash_writes_boots_old_or_new(tmp_path):
    rnd = random.Random(SEED)
    new = copy_with_version(os.path.join(emukit.ROOT, "firmware"), str(tmp_path / "new"), NEW)
    board = emukit.boot("rev_a", tmp_path)
    try:
        old = C.await_firmware(board.port, 60)["fw"]
        n = len(fwbuild.build(new, str(tmp_path / "stage")).files)  # the bar's n/n
        # In the middle of the copy: before the switch, the old one, always.
        m = rnd.randint(1, n - 1)
        cut, out = cut_during(board, "deploy", new, m, rnd.randint(1, 6), rnd.random())
        assert cut.get("why") == "cut" and cut.get("flash_op"), cut
        assert cut["record"] is None, cut  # nothing switched
        got = firmware_after(board)
        assert got == (old, "image"), "cut after file %d: %s %s\n%s" % (m, got, cut, out)
        # At the switch: once all but the last file (the manifest, sent
        # last) are whole, inside one of the next flash operations: the
        # manifest's, the boot record's write and rename, or the trial
        # boot's (the bar's last step shows only as the switch ends). An
        # update: what the first copy left whole in fw/a stays.
        ops = rnd.randint(2, 5)  # a new seed can move them: the record decides
        cut, out = cut_during(board, "update", new, -1, ops, rnd.random())
        got = firmware_after(board)
        want = expected(cut["record"], old)
        assert got == want, "cut at the switch (op %d): %s, not %s: %s\n%s" % (
            ops,
            got,
            want,
            cut,
            out,
        )
        print(
            "rp2040 cuts: mid-copy after file %d of %d -> old; at the switch, op %d -> %s (%s)"
            % (m, n, ops, "new" if got[0] == NEW else "old", cut)
        )
    finally:
        board.close()

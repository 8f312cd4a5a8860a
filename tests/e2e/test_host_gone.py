"""A host that goes away, and a new firmware that never returns from its
import, on the simulated board (tools/devboard.py: the unix port on a
pseudo-terminal; its supervisor plays the chip's watchdog from the file the
firmware's twin of it keeps, firmware/bootsel.py FileDog):

- a board left at its REPL by a killed `apixagon deploy` goes back to its
  firmware by itself, HOST_IDLE_MS (30 s) + the watchdog's 8 s after the
  host last spoke, without a power cycle; so does the board `make run` and
  the other tests start (devboard.install: the firmware and the selector
  in lib/) left by a host that died in the middle of a raw paste;
- a host that is slow but alive (a keep-alive every few seconds, as every
  script of the deploy sends) keeps the board for as long as it likes;
- a trial boot that hangs at import (a loop at module level, a .mpy cut
  short whose manifest was written from it) is reset by the watchdog and
  the previous firmware runs, by itself;
- `deploy` against a board that vanishes under it (its power cut, its
  port closed) and `status` / `logs pull` against one that is gone end in
  seconds with an error and an exit code; a pull stores only whole logs.

The same on the emulated RP2040 (its own watchdog and timer):
tests/rp2040/test_rp2040_romfs.py."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest
import serial
from apixagon_host import fwbuild
from apixagon_host import fwcheck as C
from apixagon_host import fwtransport as T
from deploykit import (
    Run,
    copy_with_version,
    record,
    stock_board,  # noqa: F401  # the `board` fixture
    stock_flash,
)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402
import devboard  # noqa: E402

APIXAGON = os.path.join(os.path.dirname(sys.executable), "apixagon")
BACK = (30.0, 45.0)  # the host's 30 s, then the watchdog's 8 s (and a boot)


@pytest.fixture(autouse=True)
def default_patience(monkeypatch):
    # the host's own patience with a silent board (fwtransport.SILENCE),
    # whatever the environment of the run says: these tests time it
    monkeypatch.delenv("APIXAGON_BOARD_SILENCE", raising=False)


@pytest.fixture(scope="module")
def fws(tmp_path_factory):
    t = tmp_path_factory.mktemp("fw")
    f = type("Firmwares", (), {})()
    f.old = "gone-0"
    f.base = copy_with_version(os.path.join(ROOT, "firmware"), str(t / "base"), f.old)
    f.new = copy_with_version(f.base, str(t / "new"), "gone-1")
    f.hang = copy_with_version(f.base, str(t / "hang"), "gone-hang")
    path = os.path.join(f.hang, "smartboard", "link.py")
    with open(path) as fh:
        text = fh.read()
    with open(path, "w") as fh:
        fh.write("while True:  # the deploy test's hang at import\n    pass\n" + text)
    f.stage = str(t / "stage")
    fwbuild.build(f.base, f.stage, arch=build_mpy.unix_arch())
    return f


def back_by_itself(board, boots, t0):
    """Seconds until the watchdog reset the board (without a HELLO sent
    to its REPL meanwhile: that is not a host's keep-alive either)."""
    assert board.wait_boot(boots + 1, 60), "the board never went back to its firmware"
    took = time.monotonic() - t0
    assert board.watchdog_resets == 1, board.watchdog_resets
    return took


def test_a_killed_deploy_leaves_the_board_at_its_repl_only_for_a_while(board, fws):
    r = Run("deploy", board.port, fws.new, progress=True)
    assert r.wait_files(5, timeout=60), r.output()
    boots = board.boots
    r.kill()  # the PC dies in the middle of the copy
    t0 = time.monotonic()
    took = back_by_itself(board, boots, t0)
    assert BACK[0] - 2 <= took <= BACK[1], took
    assert C.await_firmware(board.port, 15)["fw"] == fws.old  # nothing was switched
    print("a killed deploy: the board answered HELLO again by itself %.1f s later" % took)


def die_mid_paste(port):
    """What mpremote does to run a script, cut short: its Ctrl-C stops the
    firmware, Ctrl-A enters the raw REPL, Ctrl-E A Ctrl-A a raw paste, half
    a script is sent, and the host is gone (its port closed, nothing more)."""
    ser = serial.Serial(port, 115200, timeout=0.1)
    try:
        for send, want in (
            (b"\r\x03\x03", b">>> "),
            (b"\r\x01", b"raw REPL; CTRL-B to exit\r\n>"),
            (b"\x05A\x01", b"R\x01"),  # then the window's size: 2 bytes
        ):
            ser.write(send)
            got = bytearray()
            end = time.monotonic() + 10
            # (R\x01 may come in one read with the window's size and the
            # first flow-control byte after it)
            while want not in got and time.monotonic() < end:
                got += ser.read(max(1, ser.in_waiting))
            assert want in got, (send, bytes(got[-80:]))
        ser.read(2)
        ser.write(b"import time\nprint(")
    finally:
        ser.close()


def test_the_default_simulated_board_left_mid_paste_goes_back_by_itself(tmp_path, firmware_mpy):
    flash = str(tmp_path / "flash")
    os.makedirs(flash)
    devboard.install(flash, firmware_mpy)  # as `make run` and the e2e tests' board
    b = devboard.DevBoard(flash, "A").start()
    try:
        fw = C.await_firmware(b.port, 15)["fw"]
        boots = b.boots
        die_mid_paste(b.port)
        t0 = time.monotonic()
        took = back_by_itself(b, boots, t0)
        assert BACK[0] - 2 <= took <= BACK[1], took
        assert C.await_firmware(b.port, 15)["fw"] == fw
        print("a host gone mid-paste: the board answered HELLO again by itself %.1f s later" % took)
    finally:
        b.stop()


def test_a_slow_but_live_host_is_never_cut(board, fws):
    boots = board.boots
    step = "import time\ntime.sleep(4)\n" + T.ALIVE + "print('still')\n"
    t0 = time.monotonic()
    lines = T.mpremote(board.port, ["exec", T.FREE], *[["exec", step]] * 12, timeout=120)
    took = time.monotonic() - t0
    assert lines.count("still") == 12 and took > BACK[1], (took, lines[-5:])
    assert board.boots == boots and board.watchdog_resets == 0
    T.restart(board.port)  # the host lets go: the board boots its firmware
    assert C.await_firmware(board.port, 15)["fw"] == fws.old


def test_a_trial_that_hangs_at_import_rolls_back_by_itself(board, fws):
    t0 = time.monotonic()
    r = Run("deploy", board.port, fws.hang, timeout=40)
    rc, out = r.finish(120)
    took = time.monotonic() - t0
    assert rc == 1, out
    assert "went back to fw %s by itself" % fws.old in out, out
    assert "cut short" in out, out  # the selector's why: its trial never reached the loop
    rec = record(board.flash)
    assert rec["cur"] == "a" and rec["bad"] == "b", rec
    assert board.watchdog_resets == 1
    assert C.await_firmware(board.port, 15)["fw"] == fws.old
    print("a trial hanging at import: rolled back by itself, the deploy ended in %.1f s" % took)


def test_a_mpy_cut_short_before_its_manifest_rolls_back_by_itself(tmp_path, fws):
    # fw/b holds the new firmware with smartboard/link.mpy cut in half and a
    # manifest written from what was there: its sizes and hashes agree, and
    # the unix port's import of it loops for ever.
    flash = str(tmp_path / "flash")
    stock_flash(flash, fws.stage)
    b = fwbuild.build(fws.new, str(tmp_path / "stage-new"), arch=build_mpy.unix_arch())
    link = b.local("smartboard/link.mpy")
    with open(link, "rb") as f:
        data = f.read()
    with open(link, "wb") as f:
        f.write(data[: len(data) // 2])
    b.finish()
    shutil.copytree(os.path.join(b.root, "slot"), os.path.join(flash, "fw", "b"))
    with open(os.path.join(flash, "fw", "BOOT"), "w") as f:
        json.dump({"cur": "b", "state": "new", "prev": "a", "image": None}, f)
    board = devboard.DevBoard(flash)
    t0 = time.monotonic()
    board.start()
    try:
        assert C.await_firmware(board.port, 30)["fw"] == fws.old
        took = time.monotonic() - t0
        rec = record(flash)
        assert rec["cur"] == "a" and rec["bad"] == "b" and "cut short" in rec["why"], rec
        assert board.watchdog_resets == 1 and board.boots == 2
        assert took < 15, took
        print("a .mpy cut short: the previous firmware answered %.1f s after power-on" % took)
    finally:
        board.stop()


@pytest.mark.parametrize("how", ["power", "unplugged"])
def test_deploy_gives_up_on_a_board_gone_in_seconds(board, fws, how):
    r = Run("deploy", board.port, fws.new, progress=True)
    assert r.wait_files(5, timeout=60), r.output()
    t0 = time.monotonic()
    if how == "power":
        board.power_cut(hold=True)  # its port stays, silent
    else:
        board.stop()  # the port closes
    rc, out = r.finish(60)
    took = time.monotonic() - t0
    assert rc == 1, out
    assert "stopped answering" in out or "gone" in out or "cannot" in out, out
    assert took < 15, (took, out)
    print("deploy, the board %s: gave up after %.1f s: %s" % (how, took, out.splitlines()[-1]))
    if how == "power":
        board.power_on()
        assert C.await_firmware(board.port, 15)["fw"] == fws.old  # nothing switched


def cli(*args, timeout=120):
    t = time.monotonic()
    r = subprocess.run([APIXAGON, *args], capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr, time.monotonic() - t


def test_status_gives_up_on_a_board_gone_in_seconds(board):
    board.power_cut(hold=True)
    rc, out, took = cli("status", "--port", board.port)
    assert rc == 3, out
    assert took < 10, (took, out)


def test_a_pull_cut_short_gives_up_in_seconds_and_keeps_what_it_verified(board, tmp_path):
    from test_pull_scale_e2e import short_log

    boots = board.boots
    board.power_cut(hold=True)
    d = os.path.join(board.flash, "logs")
    os.makedirs(d, exist_ok=True)
    # short logs, as a Pico's littlefs holds a thousand of them (longer ones
    # take a 4 KB block each: the flash would be over-full before the pull)
    logs = {"%04d.alog" % i: short_log(i) for i in range(1, 1000)}
    for name, data in logs.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    board.power_on()
    assert board.wait_boot(boots + 1)
    C.await_firmware(board.port, 30)
    db = str(tmp_path / "m.sqlite")
    p = subprocess.Popen(
        [APIXAGON, "logs", "pull", "--port", board.port, "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )

    def stored():
        try:
            with sqlite3.connect(db) as c:
                return dict(c.execute("SELECT name, data FROM logs").fetchall())
        except sqlite3.Error:
            return {}

    end = time.monotonic() + 30
    while not stored() and time.monotonic() < end and p.poll() is None:
        time.sleep(0.02)
    board.power_cut(hold=True)  # in the middle of it: its first batch is in
    t0 = time.monotonic()
    out = p.communicate(timeout=120)[0]
    took = time.monotonic() - t0
    assert p.returncode == 3, out
    assert "pull again" in out, out
    assert took < 10, (took, out)
    rows = stored()
    assert 0 < len(rows) < len(logs), "the pull ended before the cut: %s" % out
    for name, data in rows.items():
        assert logs[name].startswith(data), name  # what the board has, or a part to go on from
    board.power_on()
    # the board back (its boot reads a thousand logs' folder: seconds on a
    # loaded PC) before the pull that goes on from what was kept
    assert board.wait_boot(boots + 2, 60)
    C.await_firmware(board.port, 60)
    rc, out, _ = cli("logs", "pull", "--port", board.port, "--db", db)
    assert rc == 0, out
    assert stored() == logs
    print("logs pull, the board cut: gave up after %.1f s, %d logs kept" % (took, len(rows)))

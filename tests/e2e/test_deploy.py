"""`apixagon deploy` / `update` end to end, all real parts: mpy-cross
compiles, the real mpremote takes over the simulated board (the firmware
in the MicroPython unix port on a pseudo-terminal, tools/devboard.py),
writes the slot the board does not run, checks it, switches the boot
record and restarts; the board boots through its selector
(firmware/bootsel.py). Its flash is a temporary folder the tests look
into. Two kinds of board: a stock MicroPython (main.py and
lib/bootsel.mpy on its flash, the firmware in a slot) and one flashed
with an image (the selector and a factory firmware in a folder that plays
the frozen modules)."""

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from apixagon_host import cli, deploy, fwbuild, fwcheck
from apixagon_host import fwtransport as T
from apixagon_host import link as L
from apixagon_host.errors import CommandError
from deploykit import (
    copy_with_version,
    stock_board,  # noqa: F401  # the `board` fixture
)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402
import devboard  # noqa: E402

BIN = os.path.join(os.path.dirname(sys.executable), "apixagon")
NEW = "9.9.9-e2e"


class Firmwares:
    pass


@pytest.fixture(scope="module")
def fws(tmp_path_factory):
    """A snapshot of firmware/ (others edit it meanwhile), the same with a
    new version, and that one failing at import; the snapshot compiled."""
    t = tmp_path_factory.mktemp("fw")
    f = Firmwares()
    f.base = str(t / "base")
    shutil.copytree(
        os.path.join(ROOT, "firmware"), f.base, ignore=shutil.ignore_patterns("__pycache__")
    )
    f.old = fwbuild.firmware_version(f.base)
    f.new = str(t / "new")
    copy_with_version(f.base, f.new, NEW)
    f.broken = str(t / "broken")
    copy_with_version(f.base, f.broken, NEW + "-broken", broken=True)
    f.stage = str(t / "stage")
    f.build = fwbuild.build(f.base, f.stage, arch=build_mpy.unix_arch())
    f.new_build = fwbuild.build(f.new, str(t / "stage-new"), arch=build_mpy.unix_arch())
    return f


@pytest.fixture
def image_board(tmp_path, fws):
    """A board flashed with an image of the snapshot firmware: nothing
    of the firmware on its flash."""
    flash = str(tmp_path / "flash")
    os.makedirs(flash)
    devboard.place_layout(flash)
    factory = str(tmp_path / "image")
    devboard.install_image(factory, fws.base)
    b = devboard.DevBoard(flash, factory=factory)
    b.start()
    try:
        assert fwcheck.await_firmware(b.port, 10)["fw"] == fws.old
        yield b
    finally:
        b.stop()


def hello(b):
    with L.connect(b.port) as lk:
        return lk.info


def flash_files(b, top=("fw", "main.py", "lib")):
    """{path: sha256} of the firmware files in the board's flash."""
    out = {}
    for name in top:
        p = os.path.join(b.flash, name)
        if os.path.isfile(p):
            out[name] = _sha256(p)
        for dirpath, _, names in os.walk(p):
            for n in names:
                full = os.path.join(dirpath, n)
                out[os.path.relpath(full, b.flash).replace(os.sep, "/")] = _sha256(full)
    return out


def slot_files(b, slot):
    top = "fw/%s/" % slot
    return {k[len(top) :]: v for k, v in flash_files(b, ("fw",)).items() if k.startswith(top)}


def record(b):
    with open(os.path.join(b.flash, "fw", "BOOT")) as f:
        return json.load(f)


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_deploy_installs_new_version_and_checks_it(board, fws):
    boots = board.boots
    p = subprocess.run(
        [BIN, "deploy", "--port", board.port, "--firmware", fws.new, "--progress"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stdout + p.stderr
    n = len(fws.build.files)
    assert "verified: %d files match their sha256" % n in p.stdout
    sent = n + 2  # and the boot files: main.py, lib/bootsel.mpy
    # The bar on stderr, file by file, ending full on its own line.
    assert "copying [" in p.stderr and "] %3d/%d " % (sent, sent) in p.stderr
    assert "#" * 30 in p.stderr and p.stderr.endswith("\n")
    assert "copying %d files into fw/b" % sent in p.stdout
    assert "deployed fw %s -> %s: %d copied, 0 removed" % (fws.old, NEW, sent) in p.stdout
    assert hello(board)["fw"] == NEW
    assert board.boots == boots + 1  # restarted once, after the copy
    # What landed in the slot the board did not run is what was built, by
    # hash; the previous firmware waits whole in its slot, as the fallback.
    assert slot_files(board, "b") == fws.new_build.files
    assert slot_files(board, "a") == fws.build.files
    # The new firmware's first boot was a trial; its loop ran: confirmed.
    # It names each slot's manifest by its sha256, which every boot checks.
    sums = {"b": fws.new_build.files["FIRMWARE.json"], "a": fws.build.files["FIRMWARE.json"]}
    assert record(board) == {"cur": "b", "state": "ok", "prev": "a", "image": None, "sums": sums}


def test_update_copies_only_what_changed(board, fws):
    stale = os.path.join(board.flash, "fw", "a", "smartboard", "gone.mpy")
    shutil.copy(os.path.join(board.flash, "fw", "a", "smartboard", "tag.mpy"), stale)
    # A rev_b board: its main.py starts rev_b's pin table, and keeps doing so.
    main = os.path.join(board.flash, "main.py")
    with open(main) as f:
        text = f.read().replace('BOARD = "rev_a"', 'BOARD = "rev_b"')
    with open(main, "w") as f:
        f.write(text)
    out = io.StringIO()
    r = deploy.deploy(board.port, fws.new, full=False, out=out)
    # The version lives in link.py; the manifest names it: two files sent,
    # the others copied from fw/a on the board.
    assert r["copied"] == ["FIRMWARE.json", "smartboard/link.mpy"]
    assert r["removed"] == ["smartboard/gone.mpy"]
    assert r["unchanged"] == len(fws.build.files) - 2
    assert r["slot"] == "b"
    assert "main.py for board revision rev_b" in out.getvalue()
    with open(main) as f:
        assert f.read() == text
    assert slot_files(board, "b") == fws.new_build.files  # gone.mpy not carried over
    assert hello(board)["fw"] == NEW
    boots = board.boots
    r = deploy.deploy(board.port, fws.new, full=False, out=out)
    assert (r["copied"], r["removed"]) == ([], [])
    assert "up to date: fw %s" % NEW in out.getvalue()
    assert board.boots == boots + 1  # taken over to read the hashes, restarted
    assert hello(board)["fw"] == NEW
    # Back to the snapshot: into fw/a again, where all of it still is (but
    # gone.mpy, which goes): only the manifest is written anew.
    r = deploy.deploy(board.port, fws.base, full=False, out=out)
    assert r["slot"] == "a" and r["copied"] == ["FIRMWARE.json"]
    assert slot_files(board, "a") == fws.build.files
    assert hello(board)["fw"] == fws.old


def test_broken_firmware_is_rolled_back(board, fws):
    before = slot_files(board, "a")
    out = io.StringIO()
    with pytest.raises(CommandError) as e:
        deploy.deploy(board.port, fws.broken, full=True, timeout=10, out=out)
    msg = str(e.value)
    assert e.value.code == 1
    assert "firmware does not start (ImportError: broken build for the deploy test)" in msg
    assert "rolled back: the board runs fw %s again" % fws.old in msg
    assert "verified:" in out.getvalue()  # it was copied whole, then failed to boot
    assert "the board went back to fw %s by itself" % fws.old in out.getvalue()
    assert any("broken build for the deploy test" in s for s in board.stderr)
    assert hello(board)["fw"] == fws.old
    assert slot_files(board, "a") == before
    rec = record(board)
    assert (rec["cur"], rec["prev"], rec["bad"]) == ("a", None, "b")


def test_a_file_damaged_on_its_way_is_caught_before_the_switch(board, fws, tmp_path, monkeypatch):
    # One byte of smartboard/link.mpy changed between the PC and the flash
    # (same size): the board's sha256 check refuses the slot, the record
    # is left as it was, and the old firmware is restarted.
    before = record(board)
    real = T.write_commands

    def damaged(items, **kw):
        out = []
        for local, dest, label in items:
            if label == "smartboard/link.mpy":
                with open(local, "rb") as f:
                    data = bytearray(f.read())
                data[len(data) // 2] ^= 0x40
                local = str(tmp_path / "link.mpy")
                with open(local, "wb") as f:
                    f.write(data)
            out.append((local, dest, label))
        return real(out, **kw)

    monkeypatch.setattr(T, "write_commands", damaged)
    out = io.StringIO()
    with pytest.raises(CommandError) as e:
        deploy.deploy(board.port, fws.new, full=True, timeout=10, out=out)
    assert e.value.code == 1
    msg = str(e.value)
    assert "sha256 check failed on the board: smartboard/link.mpy" in msg
    assert "nothing switched: the board runs fw %s, as before" % fws.old in msg
    assert "verified:" not in out.getvalue()
    assert record(board) == before
    assert hello(board)["fw"] == fws.old
    assert slot_files(board, "a") == fws.build.files  # the running slot untouched


def test_a_firmware_that_never_answers_is_rolled_back_by_the_host(board, fws, tmp_path):
    # Its loop runs but its link never answers (it hears nothing but the
    # Ctrl-C a takeover sends, which on the board the USB driver would see
    # anyway): the selector sees a start, the host no HELLO, and the host
    # writes the record back itself.
    mute = str(tmp_path / "mute")
    copy_with_version(fws.base, mute, NEW + "-mute")
    path = os.path.join(mute, "smartboard", "link.py")
    with open(path, "a") as f:
        f.write(
            "\n\nclass _Deaf:\n"
            "    def __init__(self, port):\n        self.p = port\n\n"
            "    def read_byte(self):\n        b = self.p.read_byte()\n"
            "        return b if b == 3 else -1\n\n"
            "    def write(self, data):\n        pass\n\n\n"
            "_poll = Link.poll\n\n\ndef _deaf(self, now):\n"
            "    if not isinstance(self.port, _Deaf):\n        self.port = _Deaf(self.port)\n"
            "    _poll(self, now)\n\n\nLink.poll = _deaf\n"
        )
    out = io.StringIO()
    with pytest.raises(CommandError) as e:
        deploy.deploy(board.port, mute, full=False, timeout=3, out=out)
    msg = str(e.value)
    assert "no HELLO answer within 3 s" in msg
    assert "rolled back: the board runs fw %s again" % fws.old in msg
    rec = record(board)
    assert (rec["cur"], rec["state"], rec["bad"]) == ("a", "ok", "b")
    assert hello(board)["fw"] == fws.old


def test_bad_arguments_touch_nothing(board, fws, tmp_path, capsys):
    before = flash_files(board)
    boots = board.boots
    state = cli.State(out=io.StringIO())
    missing = str(tmp_path / "no-such-firmware")
    assert cli.main(["deploy", "--port", board.port, "--firmware", missing], state) == 2
    assert "no such firmware folder" in capsys.readouterr().err
    os.mkdir(tmp_path / "empty")
    args = ["update", "-p", board.port, "--firmware", str(tmp_path / "empty")]
    assert cli.main(args, state) == 2
    assert "not a firmware folder" in capsys.readouterr().err
    args = ["deploy", "-p", board.port, "--firmware", fws.new, "--board", "rev_z"]
    assert cli.main(args, state) == 2
    assert "no board revision rev_z" in capsys.readouterr().err
    assert board.boots == boots  # never taken over
    assert flash_files(board) == before
    assert hello(board)["fw"] == fws.old


def test_dry_run_lists_changes_and_writes_nothing(board, fws):
    before = flash_files(board)
    state = cli.State(out=io.StringIO())
    args = ["update", "--port", board.port, "--firmware", fws.new, "--dry-run"]
    assert cli.main(args, state) == 0
    text = state.out.getvalue()
    assert "~ smartboard/link.mpy" in text
    assert "dry run: 2 to copy, 0 to remove" in text
    assert flash_files(board) == before
    assert hello(board)["fw"] == fws.old


OLD_MAIN = """\
# main.py of a stock board before the slots: the firmware in /lib
from boards import start

BOARD = "rev_b"  # the revision this board is

start.run(BOARD)
"""


def test_deploy_onto_a_stock_board_of_before_the_slots(tmp_path, fws):
    # The firmware in /lib, as `mpremote mip install` or the deploy before
    # the slots left it, no selector: the first deploy puts the selector
    # and main.py in place and the firmware in fw/a; /lib stays as it
    # was: the board's own firmware, which the selector falls back on.
    flash = str(tmp_path / "flash")
    shutil.copytree(os.path.join(fws.stage, "slot"), os.path.join(flash, "lib"))
    devboard.place_layout(flash)
    with open(os.path.join(flash, "main.py"), "w") as f:
        f.write(OLD_MAIN)
    b = devboard.DevBoard(flash)
    b.start()
    try:
        assert fwcheck.await_firmware(b.port, 10)["fw"] == fws.old
        lib = flash_files(b, ("lib",))
        out = io.StringIO()
        r = deploy.deploy(b.port, fws.new, full=False, out=out)
        assert "main.py for board revision rev_b" in out.getvalue()  # kept
        boot = ["lib/bootsel.mpy", "main.py"]
        assert r["slot"] == "a" and r["copied"] == sorted(list(fws.new_build.files) + boot)
        assert hello(b)["fw"] == NEW
        with open(os.path.join(flash, "main.py")) as f:
            text = f.read()
        assert "bootsel.boot(BOARD)" in text and 'BOARD = "rev_b"' in text
        assert flash_files(b, ("lib",)) == dict(
            lib, **{"lib/bootsel.mpy": _sha256(fws.new_build.local_boot("lib/bootsel.mpy"))}
        )
        rec = record(b)
        assert (rec["cur"], rec["state"], rec["prev"]) == ("a", "ok", None)
        # A deploy that fails to start goes back to fw/a; with fw/a set
        # aside too, the board's own firmware in /lib runs.
        with pytest.raises(CommandError):
            deploy.deploy(b.port, fws.broken, full=True, timeout=10, out=out)
        assert hello(b)["fw"] == NEW
        b.power_cut(hold=True)
        os.remove(os.path.join(flash, "fw", "a", "smartboard", "link.mpy"))
        b.power_on()
        assert fwcheck.await_firmware(b.port, 10)["fw"] == fws.old
        rec = record(b)
        assert rec["cur"] is None and rec["bad"] == "a" and "link.mpy missing" in rec["why"]
        # and the next deploy says so
        deploy.deploy(b.port, fws.new, full=False, out=out)
        assert (
            "the board at its last boot: firmware in fw/a set aside: smartboard/link.mpy missing"
            in out.getvalue()
        )
        assert hello(b)["fw"] == NEW
    finally:
        b.stop()


def test_deploy_onto_an_image_board_and_a_newer_image_flashed(image_board, fws, tmp_path):
    b = image_board
    out = io.StringIO()
    r = deploy.deploy(b.port, fws.new, full=True, out=out)
    text = out.getvalue()
    assert "board revision rev_a (its image's" in text
    assert "main.py for board revision" not in text  # the image's main.py is frozen
    assert r["slot"] == "a" and r["copied"] == sorted(fws.new_build.files)
    assert hello(b)["fw"] == NEW
    assert not os.path.exists(os.path.join(b.flash, "main.py"))
    assert not os.path.exists(os.path.join(b.flash, "lib"))
    with open(os.path.join(b.factory, "fwimage.py")) as f:
        ident = re.search(r"ID = '(\w+)'", f.read()).group(1)
    sums = {"a": fws.new_build.files["FIRMWARE.json"]}
    assert record(b) == {"cur": "a", "state": "ok", "prev": None, "image": ident, "sums": sums}
    # --board is the image's business there.
    state = cli.State(out=io.StringIO())
    args = ["update", "-p", b.port, "--firmware", fws.new, "--board", "rev_b"]
    assert cli.main(args, state) == 2
    assert hello(b)["fw"] == NEW
    # A newer image flashed: its own firmware runs, the slot waits unused.
    newer = str(tmp_path / "newer")
    copy_with_version(fws.base, newer, "9.9.10-image")
    b.power_cut(hold=True)
    devboard.install_image(b.factory, newer)
    b.power_on()
    assert fwcheck.await_firmware(b.port, 10)["fw"] == "9.9.10-image"
    # and a deploy over it goes first again.
    deploy.deploy(b.port, fws.new, full=False, out=out)
    assert hello(b)["fw"] == NEW
    assert record(b)["cur"] == "b" and record(b)["prev"] is None

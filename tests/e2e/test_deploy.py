"""`apixagon deploy` / `update` end to end, all real parts: mpy-cross
compiles, the real mpremote takes over the simulated board (the firmware
in the MicroPython unix port on a pseudo-terminal, tools/devboard.py),
copies, hashes and restarts it; the board's flash is a temporary folder
the tests look into."""

import hashlib
import io
import os
import re
import shutil
import subprocess
import sys

import pytest
from apixagon_host import cli, deploy
from apixagon_host import link as L
from apixagon_host.errors import CommandError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import devboard  # noqa: E402

BIN = os.path.join(os.path.dirname(sys.executable), "apixagon")
NEW = "9.9.9-e2e"


class Firmwares:
    pass


def _copy_with_version(src, dest, version, broken=False):
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
    path = os.path.join(dest, "smartboard", "link.py")
    with open(path) as f:
        text = f.read()
    text, n = re.subn(r'^FW_VERSION = "[^"]*"', 'FW_VERSION = "%s"' % version, text, flags=re.M)
    assert n == 1
    if broken:
        text = 'raise ImportError("broken build for the deploy test")\n' + text
    with open(path, "w") as f:
        f.write(text)


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
    f.old = deploy.firmware_version(f.base)
    f.new = str(t / "new")
    _copy_with_version(f.base, f.new, NEW)
    f.broken = str(t / "broken")
    _copy_with_version(f.base, f.broken, NEW + "-broken", broken=True)
    f.stage = str(t / "stage")
    os.mkdir(f.stage)
    f.build = deploy.build(f.base, f.stage)
    return f


@pytest.fixture
def board(tmp_path, fws):
    """A board that runs the snapshot firmware (its flash: tmp_path/flash)."""
    flash = str(tmp_path / "flash")
    shutil.copytree(fws.stage, flash)
    shutil.copy(os.path.join(ROOT, "hardware", "layout.json"), flash)
    b = devboard.DevBoard(flash)
    b.start()
    try:
        assert deploy.await_firmware(b.port, 10)["fw"] == fws.old
        yield b
    finally:
        b.stop()


def hello(b):
    with L.connect(b.port) as lk:
        return lk.info


def flash_files(b):
    """{path: sha256} of the firmware files in the board's flash."""
    out = {}
    for top in ("lib", "main.py", deploy.BACKUP):
        p = os.path.join(b.flash, top)
        if os.path.isfile(p):
            out[top] = _sha256(p)
        for dirpath, _, names in os.walk(p):
            for name in names:
                full = os.path.join(dirpath, name)
                out[os.path.relpath(full, b.flash).replace(os.sep, "/")] = _sha256(full)
    return out


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_deploy_installs_new_version_and_checks_it(board, fws, tmp_path):
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
    # The bar on stderr, file by file, ending full on its own line.
    assert "copying [" in p.stderr and "] %3d/%d " % (n, n) in p.stderr
    assert "#" * 30 in p.stderr and p.stderr.endswith("\n")
    assert "deployed fw %s -> %s: %d copied, 0 removed" % (fws.old, NEW, n) in p.stdout
    assert hello(board)["fw"] == NEW
    assert board.boots == boots + 1  # restarted once, after the copy
    # What landed is what was built: every file, by hash.
    want = deploy.build(fws.new, str(tmp_path / "stage")).files
    have = flash_files(board)
    assert {k: v for k, v in have.items() if not k.startswith(deploy.BACKUP)} == want
    # The replaced files wait in the backup folder until the next update.
    assert (
        have[deploy.BACKUP + "/lib/smartboard/link.mpy"]
        == fws.build.files["lib/smartboard/link.mpy"]
    )


def test_update_copies_only_what_changed(board, fws):
    stale = os.path.join(board.flash, "lib", "smartboard", "gone.mpy")
    shutil.copy(os.path.join(board.flash, "lib", "smartboard", "tag.mpy"), stale)
    # A rev_b board: its main.py starts rev_b's pin table, and keeps doing so.
    main = os.path.join(board.flash, "main.py")
    with open(main) as f:
        text = f.read().replace('BOARD = "rev_a"', 'BOARD = "rev_b"')
    with open(main, "w") as f:
        f.write(text)
    out = io.StringIO()
    r = deploy.deploy(board.port, fws.new, full=False, out=out)
    # The version lives in link.py; the manifest names it: two files.
    assert r["copied"] == ["lib/FIRMWARE.json", "lib/smartboard/link.mpy"]
    assert r["removed"] == ["lib/smartboard/gone.mpy"]
    assert r["unchanged"] == len(fws.build.files) - 2
    assert not os.path.exists(stale)
    assert "main.py for board revision rev_b" in out.getvalue()
    with open(main) as f:
        assert f.read() == text
    assert hello(board)["fw"] == NEW
    boots = board.boots
    r = deploy.deploy(board.port, fws.new, full=False, out=out)
    assert (r["copied"], r["removed"]) == ([], [])
    assert "up to date: fw %s" % NEW in out.getvalue()
    assert board.boots == boots + 1  # taken over to read the hashes, restarted
    assert hello(board)["fw"] == NEW


def test_broken_firmware_is_rolled_back(board, fws):
    before = flash_files(board)
    out = io.StringIO()
    with pytest.raises(CommandError) as e:
        deploy.deploy(board.port, fws.broken, full=True, timeout=10, out=out)
    msg = str(e.value)
    assert e.value.code == 1
    assert "firmware does not start" in msg
    assert "rolled back: the board runs fw %s again" % fws.old in msg
    assert "verified:" in out.getvalue()  # it was copied whole, then failed to boot
    assert any("broken build for the deploy test" in s for s in board.stderr)
    assert hello(board)["fw"] == fws.old
    assert flash_files(board) == before  # every file back, no backup left


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
    assert "~ lib/smartboard/link.mpy" in text
    assert "dry run: 2 to copy, 0 to remove" in text
    assert flash_files(board) == before
    assert hello(board)["fw"] == fws.old

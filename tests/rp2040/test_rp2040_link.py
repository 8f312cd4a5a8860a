"""The host's commands against the emulated RP2040 over its USB CDC (a
pseudo-terminal), all real parts: `apixagon logs pull` of a short game into
a SQLite file, then `apixagon deploy` of a new firmware onto the image's
littlefs (real mpremote, into a slot, fw/a, that the image's frozen boot
selector then boots) and `apixagon update` with one that fails to start,
which is rolled back: the board answers with the deployed firmware again,
and the match is still there."""

import os
import re
import shutil
import subprocess
import sys

import emukit
import pytest
from apixagon_host import link as L
from emukit import card

APIXAGON = os.path.join(os.path.dirname(sys.executable), "apixagon")
NEW = "9.9.9-rp2040"


def cli(*args, timeout=600):
    r = subprocess.run([APIXAGON, *args], capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def firmware_copy(dest, version, broken=False):
    """firmware/ with another version (and, broken, a link.py that raises)."""
    shutil.copytree(
        os.path.join(emukit.ROOT, "firmware"), dest, ignore=shutil.ignore_patterns("__pycache__")
    )
    path = os.path.join(dest, "smartboard", "link.py")
    with open(path) as f:
        text = f.read()
    text = re.sub(r'^FW_VERSION = "[^"]*"', 'FW_VERSION = "%s"' % version, text, flags=re.M)
    if broken:
        text = 'raise ImportError("broken build for the rp2040 deploy test")\n' + text
    with open(path, "w") as f:
        f.write(text)
    return dest


def hello(board):
    with L.connect(board.port, timeout=30) as link:
        return L.fields(link.request("HELLO", "1"))


@pytest.mark.long
def test_pull_then_deploy_and_a_failed_update_rolled_back(tmp_path):
    db = str(tmp_path / "matches.sqlite")
    new = firmware_copy(str(tmp_path / "new"), NEW)
    broken = firmware_copy(str(tmp_path / "broken"), NEW + "-broken", broken=True)
    board = emukit.boot("rev_a", tmp_path)
    try:
        # ---- a short game, pulled into the PC's database -------------------
        board.press("confirm")
        board.put("E4", card("B12"))
        board.wait_ms(600)
        board.put("E6", card("G3"))
        board.wait_ms(1500)
        code, out = cli("logs", "pull", "--port", board.port, "--db", db)
        assert code == 0 and "1 log pulled" in out, out
        code, out = cli("logs", "list", "--db", db)
        assert code == 0 and "0001" in out, out
        code, out = cli("logs", "export", "1", "--db", db)
        assert code == 0, out
        assert "B 12 E4" in out and "G 3 E6" in out, out
        # ---- deploy a new firmware onto the image's flash ------------------
        old = hello(board)["fw"]
        code, out = cli("deploy", "--port", board.port, "--firmware", new)
        assert code == 0, out
        assert hello(board)["fw"] == NEW
        # ---- an update that does not start: rolled back ------------------------
        code, out = cli("update", "--port", board.port, "--firmware", broken, "--timeout", "60")
        assert code == 1, out
        assert "firmware does not start" in out and "rolled back" in out, out
        h = hello(board)
        assert h["fw"] == NEW and h["fw"] != old and h["profile"] == "A"
        with L.connect(board.port, timeout=30) as link:
            st = L.fields(link.request("STATUS"))
        assert st["logs"] == "1" and st["moves"] == "2", st  # the match is still there
    finally:
        board.close()

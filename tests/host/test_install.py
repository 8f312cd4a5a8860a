"""`make install`: the `apixagon` command on the user's PATH (docs/guide/
command-line.md, "Where the command lives") is a link to the venv's console script."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.dirname(os.path.dirname(sys.executable))

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None
    or not os.path.exists(os.path.join(ROOT, ".venv", ".installed-stamp"))
    or os.path.realpath(VENV) != os.path.realpath(os.path.join(ROOT, ".venv")),
    reason="needs make and the project's own .venv (make test makes both)",
)


def _make(*args):
    return subprocess.run(
        ["make", "-s", "-C", ROOT] + list(args), capture_output=True, text=True, timeout=120
    )


def test_install_links_a_working_command_and_uninstall_removes_only_it(tmp_path):
    bindir = tmp_path / "bin"
    r = _make("install", "BINDIR=%s" % bindir)
    assert r.returncode == 0, r.stderr
    assert "is not on your PATH" in r.stdout  # a tmp folder never is
    cmd = bindir / "apixagon"
    assert os.path.islink(cmd)
    out = subprocess.run([str(cmd), "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "usage: apixagon" in out.stdout
    assert _make("uninstall", "BINDIR=%s" % bindir).returncode == 0
    assert not cmd.exists()


def test_uninstall_leaves_a_file_that_is_not_its_link(tmp_path):
    other = tmp_path / "apixagon"
    other.write_text("someone else's program\n")
    r = _make("uninstall", "BINDIR=%s" % tmp_path)
    assert r.returncode == 0 and "not a link" in r.stdout
    assert other.read_text() == "someone else's program\n"

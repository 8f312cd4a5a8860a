"""The Makefile's virtual environment survives an interrupted first run:
Ctrl-C while `python -m venv` installs pip leaves a .venv with a python and
no pip, and every later make failed on it ("No module named pip"). `make
venv` (the first step of the install's stamp) makes such a .venv again, and
leaves a working one, or a folder venv never made, alone. Offline and a
few seconds: the rebuilt venv's pip is the one Python bundles (ensurepip);
no package is downloaded."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _make_venv(venv, python):
    return subprocess.run(
        ["make", "-s", "-C", ROOT, "venv", "VENV=%s" % venv, "PYTHON=%s" % python],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _pip_works(venv):
    py = os.path.join(venv, "bin", "python")
    return subprocess.run([py, "-m", "pip", "--version"], capture_output=True).returncode == 0


def test_a_venv_left_without_pip_is_made_again(tmp_path):
    venv = str(tmp_path / ".venv")
    # the state an interrupted first run leaves: the venv's python, no pip
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    assert not _pip_works(venv)
    r = _make_venv(venv, sys.executable)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "incomplete" in r.stdout and "making it again" in r.stdout
    assert _pip_works(venv)


def test_a_working_venv_is_left_alone(tmp_path):
    venv = str(tmp_path / ".venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    # a stand-in for pip: the rule asks `python -m pip --version` only
    site = subprocess.run(
        [
            os.path.join(venv, "bin", "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    os.makedirs(os.path.join(site, "pip"))
    with open(os.path.join(site, "pip", "__main__.py"), "w") as f:
        f.write("print('pip 0 (the test stand-in)')\n")
    mark = os.path.join(venv, "kept")
    open(mark, "w").close()
    r = _make_venv(venv, "false")  # (python never run: `false -m venv` would fail)
    assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr
    assert os.path.exists(mark)


def test_a_folder_venv_did_not_make_is_never_removed(tmp_path):
    venv = tmp_path / "notavenv"
    venv.mkdir()
    (venv / "mine.txt").write_text("someone's file\n")
    r = _make_venv(str(venv), "true")  # (the venv made by `true`: nothing)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (venv / "mine.txt").read_text() == "someone's file\n"

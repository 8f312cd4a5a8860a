"""End-to-end fixtures with real parts: the firmware (.mpy) in the
MicroPython unix port on a pseudo-terminal (tools/devboard.py), the host
CLI talking to it through pyserial, a real SQLite file."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_mpy  # noqa: E402
import devboard  # noqa: E402


@pytest.fixture(scope="session")
def firmware_mpy(tmp_path_factory):
    out = tmp_path_factory.mktemp("fw")
    build_mpy.build_all(str(out))
    return str(out)


@pytest.fixture
def board(tmp_path, firmware_mpy):
    flash = tmp_path / "flash"
    flash.mkdir()
    devboard.install(str(flash), firmware_mpy)
    b = devboard.DevBoard(str(flash), "A")
    b.start()
    yield b
    b.stop()

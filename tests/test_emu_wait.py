# The emulated board's waits (tools/rp2040/emuboard.py, EmuBoard.wait_for)
# count the chip's progress, not the PC's clock alone: on a loaded PC
# (more emulators than cores, a benchmark beside the tests) the emulator
# runs slower and a wait goes on, up to STRETCH times its timeout; on a PC
# running the chip at its usual pace a wait that is not met fails after
# twice its timeout. A stand-in board whose chip runs at a chosen rate of
# cycles a PC second (no emulator needed).
import os
import sys
import threading
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "tools", "rp2040"))
import emuboard  # noqa: E402


class _Chip(emuboard.EmuBoard):
    def __init__(self, hz):
        self._cv = threading.Condition()
        self.hz = hz
        self.t0 = time.monotonic()
        self.proc = self

    def poll(self):
        return None  # the emulator runs on

    def cycle(self):
        return int((time.monotonic() - self.t0) * self.hz)


def _took(hz, timeout=0.3):
    b = _Chip(hz)
    t = time.monotonic()
    with pytest.raises(emuboard.EmuError) as e:
        b.wait_for(lambda: False, timeout, "the stand-in")
    return time.monotonic() - t, str(e.value)


def test_a_wait_on_a_chip_at_its_pace_fails_after_twice_its_timeout():
    took, text = _took(emuboard.SLOW_HZ * 10)
    assert 0.55 < took < 0.3 * emuboard.STRETCH - 0.1
    assert "timed out waiting for the stand-in" in text and "MHz" in text


def test_a_wait_on_a_slow_chip_goes_on_up_to_its_stretch():
    took, _ = _took(emuboard.SLOW_HZ // 4)
    assert took >= 0.3 * emuboard.STRETCH - 0.05


def test_a_wait_met_returns_at_once_whatever_the_chip():
    b = _Chip(0)
    assert b.wait_for(lambda: 7, 0.3) == 7

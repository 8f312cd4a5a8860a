"""The play part's hands judge when the board showed an action from the
strip's frames alone (bench/emulated.py, Hands.shown): these feed it frames
as the emulator stamps them, no emulator run (figures come from `make
bench`)."""

import os
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from bench.emulated import HZ, Hands  # noqa: E402

MS = HZ // 1000
OFF, LEGAL, CARD, RED = b"\0\0\0", b"\x40\x01\x0a", b"\x40\x33\x33", b"\x00\x40\x00"


class FakeLayout:
    led = list(range(61))


class FakeBoard:
    """Frames (cycle, grb of the strip) of one cell, written every blink
    phase (128 ms) as the board does while anything blinks."""

    def __init__(self):
        self._cv = threading.Condition()
        self.frames = []
        self.layout = FakeLayout()

    def show(self, x, start_ms, end_ms, colour):
        for t in range(start_ms, end_ms, 128):
            grb = bytearray(3 * 61)
            grb[3 * x : 3 * x + 3] = colour
            self.frames.append((t * MS, bytes(grb)))

    def frames_since(self, c0):
        return [(c, g) for c, g in self.frames if c > c0]

    def flash_between(self, c0, c1):
        return (0, 0, 0.0)

    def wait_ms(self, n):
        pass


def hands(board):
    return Hands(board, None, "A", lambda s: None)


def test_a_take_back_is_seen_when_its_cell_shows_again_what_it_showed_before_the_card():
    # the cell legal (blinking others keep frames coming), a card put at
    # 1000 ms and shown at 1050, lifted at 1800: the cell is legal again
    # at 1860, a colour the blink cycle before the lift held (at 700-1000)
    b = FakeBoard()
    b.show(5, 0, 1050, LEGAL)
    b.show(5, 1050, 1860, CARD)
    b.show(5, 1860, 3000, LEGAL)
    h = hands(b)
    h.shown(5, {"cycle": 1000 * MS}, h.latency)
    h.shown(5, {"cycle": 1800 * MS}, h.kinds["takeback"])
    assert h.latency == [50.0]
    assert h.kinds["takeback"] == [60.0]
    assert h.missed == {}


def test_an_action_never_shown_counts_as_the_timeout_and_is_said():
    b = FakeBoard()
    b.show(5, 0, 3000, LEGAL)
    h = hands(b)
    h.LED_TIMEOUT_MS = 200
    h.shown(5, {"cycle": 1000 * MS}, h.kinds["refused"])
    assert h.kinds["refused"] == [200.0]
    assert h.missed == {"refused": 1} and h.undetected == 1


def test_a_blinking_cell_is_not_taken_for_a_change():
    # a refused card blinks red 4 Hz; the blink cycle before the action
    # holds both phases, so only a third colour is the change
    b = FakeBoard()
    for t in range(0, 2000, 256):
        b.show(7, t, t + 128, RED)
        b.show(7, t + 128, t + 256, OFF)
    b.frames.sort()
    b.show(7, 2000, 2600, CARD)
    h = hands(b)
    h.shown(7, {"cycle": 1700 * MS}, h.latency)
    assert h.latency == [300.0]

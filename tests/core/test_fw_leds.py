# The LED layer: strip drivers (with stand-ins for the platform objects),
# the simulated strip, gamma, brightness and the current limit.
from apixagon.geometry import NCELLS, parse_cell
from smartboard import layout
from smartboard.drivers.neopixel_cp import CircuitPythonStrip
from smartboard.drivers.neopixel_mp import NeoPixelStrip
from smartboard.paint import GAMMA, Painter
from smartboard.sim.strip import SimStrip


def painter(budget=900, brightness=255):
    lay = layout.load("hardware/layout.json")
    strip = SimStrip(61)
    return Painter(strip, lay.led, budget, brightness), strip, lay


def test_gamma_is_monotonic_from_dark_to_full():
    assert GAMMA[0] == 0 and GAMMA[255] == 255
    for i in range(255):
        assert GAMMA[i] <= GAMMA[i + 1]
    assert GAMMA[128] < 64  # mid grey is dim in duty cycle


def test_a_cell_lights_its_own_led_in_grb_order():
    p, strip, lay = painter()
    x = parse_cell("E5")
    p.cell(x, 255, 0, 0)
    p.show()
    assert strip.frames == 1
    assert strip.rgb(lay.led[x]) == (255, 0, 0)
    assert strip.frame[3 * lay.led[x]] == 0  # G first on the wire
    assert sum(strip.frame) == 255


def test_brightness_setting_scales():
    p, strip, lay = painter(brightness=128)
    p.cell(0, 255, 255, 255)
    p.show()
    assert strip.rgb(lay.led[0]) == (128, 128, 128)


def test_current_limit_dims_a_white_board_to_the_budget():
    p, strip, lay = painter(budget=900)
    for x in range(NCELLS):
        p.cell(x, 255, 255, 255)
    assert p.frame_ma() > 3000
    p.show()
    assert p.frame_ma() <= 900 and p.scaled == 1
    r, g, b = strip.rgb(0)
    assert r == g == b and r > 0  # dimmed evenly, not cut


def test_frames_within_budget_are_untouched():
    p, strip, lay = painter()
    p.cell(3, 10, 200, 30)
    before = bytes(strip.buf)
    p.show()
    assert bytes(strip.frame) == before and p.scaled == 0


class FakeNeoPixel:
    # Stands in for machine's neopixel.NeoPixel (not in the unix port).
    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.n = n
        self.writes = 0

    def __len__(self):
        return self.n

    def write(self):
        self.writes += 1


class FakePixels:
    # Stands in for CircuitPython's neopixel.NeoPixel (the real library:
    # tests/test_neopixel_circuitpython.py, CPython only); here the adapter
    # under MicroPython too.
    def __init__(self, n):
        self.n = n
        self.px = [None] * n
        self.shows = 0
        self.brightness = 0.5
        self.auto_write = True

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        self.px[i] = v

    def show(self):
        self.shows += 1


def test_micropython_strip_paints_the_driver_buffer_in_place():
    np = FakeNeoPixel(61)
    strip = NeoPixelStrip(np)
    assert strip.buf is np.buf and strip.n == 61
    lay = layout.load("hardware/layout.json")
    Painter(strip, lay.led).cell(0, 255, 0, 0)
    strip.write()
    assert np.writes == 1 and np.buf[3 * lay.led[0] + 1] > 0


def test_circuitpython_strip_sends_the_frame_as_one_slice_of_rgb_ints():
    px = FakePixels(61)
    strip = CircuitPythonStrip(px)
    assert px.brightness == 1.0 and not px.auto_write  # the painter dims, show() sends
    strip.buf[0:3] = bytes((1, 2, 3))  # G, R, B
    strip.buf[180:183] = bytes((255, 254, 253))
    strip.write()
    assert px.shows == 1 and px.px[0] == 0x020103 and px.px[60] == 0xFEFFFD
    assert px.px[1:60] == [0] * 59


def _reference_frame(layer, dark, alarm, now, brightness, budget=900):
    """The frame as painted per cell before the tables (GAMMA * brightness
    // 255 of each value, then the current limit): what the strip must get
    byte for byte."""
    from smartboard import view as V

    lay = layout.load("hardware/layout.json")
    buf = bytearray(3 * lay.nleds)
    phase = (now >> 7) & 7
    pal = V.PALETTE

    def paint(x, c):
        i = 3 * lay.led[x]
        r, g, b = pal[3 * c], pal[3 * c + 1], pal[3 * c + 2]
        buf[i] = GAMMA[g] * brightness // 255
        buf[i + 1] = GAMMA[r] * brightness // 255
        buf[i + 2] = GAMMA[b] * brightness // 255

    for x in range(NCELLS):
        v = layer[x]
        if dark[x]:
            v = V.ERR_UNKNOWN | V.SLOW
        c = v & 0x3F
        if (v & V.FAST and phase & 1) or (v & V.SLOW and phase >= 4):
            c = V.OFF
        paint(x, c)
    if alarm:
        for x in V.CORNERS:
            paint(x, V.OFF if phase & 1 else V.ERR_UNKNOWN)
    total = 0
    for v in buf:
        total += v
    ma = total * 20 // 255 + lay.nleds
    if ma > budget:
        for i in range(len(buf)):
            buf[i] = buf[i] * (budget - lay.nleds) // (ma - lay.nleds)
    return bytes(buf)


def test_frames_are_the_per_cell_paint_byte_for_byte():
    # The painter's tables (gamma x brightness, the palette rendered once),
    # the view's blink pass and the current limit's loops: random layers,
    # dark cells, the corner alarm, every phase, brightness changed between
    # frames (the tables are made again).
    from smartboard import view as V

    p, strip, lay = painter(brightness=160)
    v = V.View(p)
    seed = 12345
    limited = 0
    for k in range(24):
        for x in range(NCELLS):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            c = (seed >> 8) % V.NCOLOURS
            blink = (seed >> 16) & 3
            v.layer[x] = c | (V.SLOW if blink == 1 else V.FAST if blink == 2 else 0)
            v.dark[x] = ((seed >> 20) & 15) == 0 and k & 1
        v.ndark = sum(v.dark)
        v.alarm_until = 10**6 if k % 3 == 0 else -1
        p.brightness = (40, 160, 255)[k % 3]
        now = (k % 8) << 7
        v.dirty = True
        assert v.frame(now)
        want = _reference_frame(v.layer, v.dark, v.alarm_until >= 0, now, p.brightness)
        assert bytes(strip.frame) == want
        limited = p.scaled
    assert limited > 0  # some frames went over the budget


def test_a_new_error_is_lit_at_once_whatever_the_blink_phase():
    # A card put on the wrong cell in the blink's dark phase showed nothing
    # for up to a phase (128 ms; the reeds' refusal took 84 ms at the worst,
    # against 50): a new fast-blinking cell is lit for its first phase.
    from smartboard import view as V

    p, strip, lay = painter(brightness=255)
    v = V.View(p)
    v._changed()
    assert v.frame(0)
    i = 3 * lay.led[7]
    assert bytes(strip.frame[i : i + 3]) == b"\0\0\0"
    v.layer[7] = V.ERR_RED | V.FAST
    v._changed()
    now = 128 + 5  # an odd phase: FAST's dark one
    assert v.frame(now)
    assert bytes(strip.frame[i : i + 3]) != b"\0\0\0"  # lit, not dark
    assert not v.frame(now + 100)  # the same phase, nothing new
    assert v.frame(now + 123 + 128)  # the phase after its first: blinking as ever
    dark = (((now + 123 + 128) >> 7) & 1) == 1
    assert (bytes(strip.frame[i : i + 3]) == b"\0\0\0") == dark

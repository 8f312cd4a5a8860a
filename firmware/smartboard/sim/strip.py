# The LED strip's simulated twin: one buffer, and write() takes a copy of
# it as the frame the LEDs would show (what a terminal or web view draws).


class SimStrip:
    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)  # GRB, like a WS2812 chain
        self.frame = bytearray(3 * n)
        self.frames = 0
        self.plugged = True  # its connector's sense line (smartboard.health)
        self.powered = True  # its load switch (switch(): the painter's power)

    def connected(self):
        return self.plugged

    def switch(self, on):
        """The load switch's ON pin (Painter.power)."""
        self.powered = bool(on)

    def write(self):
        if not self.plugged or not self.powered:
            return  # the bytes go nowhere
        self.frame[:] = self.buf
        self.frames += 1

    def rgb(self, i):
        """(r, g, b) of LED i in the last frame written."""
        f = self.frame
        return f[3 * i + 1], f[3 * i], f[3 * i + 2]


def phase_frames(layer, led, nleds, brightness, budget_ma=900):
    """Every frame a view layer can put on the strip: one per blink phase
    (lit, fast off, slow off, both off), painted by the real View and
    Painter — what an LED read-back must equal (tests on the emulated
    RP2040, the benchmark's placement-to-LED). budget_ma: the board's LED
    limit (its supply's, smartboard.power)."""
    from ..paint import Painter
    from ..view import View

    strip = SimStrip(nleds)
    painter = Painter(strip, led, budget_ma)
    painter.brightness = brightness
    view = View(painter)
    view.layer[:] = layer
    out = []
    for now in (0, 128, 512, 640):
        view.dirty = True
        view.frame(now)
        out.append(bytes(strip.buf))
    return out

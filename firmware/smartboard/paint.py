# Painting cells on the LED strip: gamma correction and a current limit.
#
# Colours are given as the eye should see them (0..255 per channel); the
# painter applies gamma (WS2812 output is linear in duty cycle, the eye is
# not) and the brightness setting, writes GRB bytes at the cell's LED index
# (from the board layout), and before each write() scales the whole frame
# down if it would draw more than the power budget — a full white board is
# 61 x 60 mA = 3.7 A, more than a USB port gives.
#
# A frame has 2 ms of the board's chip (README, figures on the target): the
# gamma and brightness of every value are a table made once per brightness
# (GAMMA[v] * brightness // 255, the same bytes as computing it per cell),
# the palette is rendered through it once, and the loops over the frame are
# machine code on the board (@micropython.viper; plain Python on CPython).
from apixagon.compat import const, micropython, ptr8

_MA_PER_CHANNEL = const(20)  # a WS2812 channel at 255 draws about 20 mA
_MA_IDLE = const(1)  # per LED, all dark


def _gamma_table(g=2.6):
    t = bytearray(256)
    for i in range(256):
        t[i] = int(255 * (i / 255) ** g + 0.5)
    return bytes(t)


GAMMA = _gamma_table()


@micropython.viper
def _cells(buf: ptr8, led: ptr8, grb: ptr8, cols, n: int):
    """buf[3 * led[x] ...] = the rendered palette entry cols[x], x < n."""
    c = ptr8(cols)
    x = 0
    while x < n:
        i = 3 * int(c[x])
        j = 3 * int(led[x])
        buf[j] = grb[i]
        buf[j + 1] = grb[i + 1]
        buf[j + 2] = grb[i + 2]
        x += 1


@micropython.viper
def _sum(buf: ptr8, n: int) -> int:
    total = 0
    i = 0
    while i < n:
        total += int(buf[i])
        i += 1
    return total


@micropython.viper
def _scale(buf: ptr8, n: int, num: int, den: int):
    # num < den, both under 2^16 (a frame's lit current in mA): no overflow
    i = 0
    while i < n:
        buf[i] = int(buf[i]) * num // den
        i += 1


class Painter:
    def __init__(self, strip, led_of_cell, budget_ma=900, brightness=160):
        self.strip = strip
        self.led = led_of_cell  # bytes: cell -> LED index (Layout.led)
        self.budget_ma = budget_ma
        self.brightness = brightness  # 0..255, a user setting
        self.scaled = 0  # frames the current limit had to dim
        self._k = -1  # the brightness _lut and _grb were made for
        self._lut = bytearray(256)  # GAMMA[v] * brightness // 255
        self._pal = None  # the palette _grb renders (eye-linear RGB)
        self._grb = bytearray(0)  # that palette through _lut, GRB

    def _table(self):
        """The gamma-and-brightness table, made again when the setting
        changed (Board sets brightness)."""
        k = self.brightness
        if k != self._k:
            t = self._lut
            for i in range(256):
                t[i] = GAMMA[i] * k // 255
            self._k = k
            self._pal = None
        return self._lut

    def clear(self):
        b = self.strip.buf
        for i in range(len(b)):
            b[i] = 0

    def cell(self, x, r, g, b):
        """Paint cell x (eye-linear colour)."""
        t = self._table()
        i = 3 * self.led[x]
        buf = self.strip.buf
        buf[i] = t[g]
        buf[i + 1] = t[r]
        buf[i + 2] = t[b]

    def cells(self, pal, cols):
        """Paint cell x in palette entry cols[x] for every x of cols; pal:
        eye-linear RGB triples (bytes), rendered once per palette and
        brightness."""
        t = self._table()
        if pal is not self._pal:
            n = len(pal)
            grb = self._grb
            if len(grb) != n:
                grb = self._grb = bytearray(n)
            for i in range(0, n, 3):
                grb[i] = t[pal[i + 1]]
                grb[i + 1] = t[pal[i]]
                grb[i + 2] = t[pal[i + 2]]
            self._pal = pal
        _cells(self.strip.buf, self.led, self._grb, cols, len(cols))

    def frame_ma(self):
        """Estimated current of the frame in the buffer, in mA."""
        buf = self.strip.buf
        return _sum(buf, len(buf)) * _MA_PER_CHANNEL // 255 + self.strip.n * _MA_IDLE

    def show(self):
        """Limit the frame to the power budget, then write it."""
        ma = self.frame_ma()
        if ma > self.budget_ma:
            idle = self.strip.n * _MA_IDLE
            # Scale the lit part so that the total fits the budget.
            num = max(0, self.budget_ma - idle)
            buf = self.strip.buf
            _scale(buf, len(buf), num, ma - idle)
            self.scaled += 1
        self.strip.write()

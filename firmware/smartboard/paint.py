# Painting cells on the LED strip: gamma correction and a current limit.
#
# Colours are given as the eye should see them (0..255 per channel); the
# painter applies gamma (WS2812 output is linear in duty cycle, the eye is
# not) and the brightness setting, writes GRB bytes at the cell's LED index
# (from the board layout), and before each write() scales the whole frame
# down if it would draw more than the power budget — a full white board is
# 61 x 60 mA = 3.7 A, more than a USB port gives.
from apixagon.compat import const

_MA_PER_CHANNEL = const(20)  # a WS2812 channel at 255 draws about 20 mA
_MA_IDLE = const(1)  # per LED, all dark


def _gamma_table(g=2.6):
    t = bytearray(256)
    for i in range(256):
        t[i] = int(255 * (i / 255) ** g + 0.5)
    return bytes(t)


GAMMA = _gamma_table()


class Painter:
    def __init__(self, strip, led_of_cell, budget_ma=900, brightness=160):
        self.strip = strip
        self.led = led_of_cell  # bytes: cell -> LED index (Layout.led)
        self.budget_ma = budget_ma
        self.brightness = brightness  # 0..255, a user setting
        self.scaled = 0  # frames the current limit had to dim

    def clear(self):
        b = self.strip.buf
        for i in range(len(b)):
            b[i] = 0

    def cell(self, x, r, g, b):
        """Paint cell x (eye-linear colour)."""
        k = self.brightness
        i = 3 * self.led[x]
        buf = self.strip.buf
        buf[i] = GAMMA[g] * k // 255
        buf[i + 1] = GAMMA[r] * k // 255
        buf[i + 2] = GAMMA[b] * k // 255

    def frame_ma(self):
        """Estimated current of the frame in the buffer, in mA."""
        total = 0
        for v in self.strip.buf:
            total += v
        return total * _MA_PER_CHANNEL // 255 + self.strip.n * _MA_IDLE

    def show(self):
        """Limit the frame to the power budget, then write it."""
        ma = self.frame_ma()
        if ma > self.budget_ma:
            idle = self.strip.n * _MA_IDLE
            # Scale the lit part so that the total fits the budget.
            num = max(0, self.budget_ma - idle)
            den = ma - idle
            buf = self.strip.buf
            for i in range(len(buf)):
                buf[i] = buf[i] * num // den
            self.scaled += 1
        self.strip.write()

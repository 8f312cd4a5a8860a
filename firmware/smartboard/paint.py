# Painting cells on the LED strip: gamma correction and a current limit.
#
# Colours are given as the eye should see them (0..255 per channel); the
# painter applies gamma (WS2812 output is linear in duty cycle, the eye is
# not) and the brightness setting, writes GRB bytes at the cell's LED index
# (from the board layout), and before each write() scales the whole frame
# down if it would draw more than the power budget — a full white board is
# 61 x 60 mA = 3.7 A, more than a USB port gives. The budget is what the
# supply gives less what the rest of the board takes (smartboard.power,
# from the USB-C CC reading), or budget_ma where nothing reads a supply.
#
# A frame has 2 ms of the board's chip (docs/figures.md, on the target): the
# palette is rendered with gamma and brightness once per brightness (the
# same bytes as cell() computes; View.frame copies its entries), and the
# current limit's loop is machine code on the board (@micropython.viper;
# plain Python on CPython). No 256-byte gamma-x-brightness table: the
# rendered palette makes it unneeded, and the board suite's 96 wK heap on
# the unix port has little room.
from apixagon.compat import const, micropython, ptr8

_MA_PER_CHANNEL = const(20)  # a WS2812 channel at 255 draws about 20 mA
_MA_IDLE = const(1)  # per LED, all dark


def _gamma_table(g=2.6):
    t = bytearray(256)
    for i in range(256):
        t[i] = int(255 * (i / 255) ** g + 0.5)
    return bytes(t)


GAMMA = _gamma_table()
del _gamma_table  # run once: its code is heap on the unix port's 96 wK suite


@micropython.viper
def _lit(buf: ptr8, n: int, cap: int) -> int:
    """The lit part of the frame's current in mA (its bytes' sum at
    _MA_PER_CHANNEL per 255); over cap, every byte is scaled by cap / that
    first. One loop for both: each viper function is heap on the unix
    port's 96 wK board suite."""
    total = 0
    i = 0
    while i < n:
        total += int(buf[i])
        i += 1
    lit = total * _MA_PER_CHANNEL // 255
    if lit > cap:
        # cap < lit < 2^16 (a frame's current): no overflow
        i = 0
        while i < n:
            buf[i] = int(buf[i]) * cap // lit
            i += 1
    return lit


# A static screen writes no frame: the supply is read this often anyway,
# so that a source that lowers its advertisement is followed within the
# 60 ms USB Type-C gives a sink (smartboard/power.py, tSinkAdj).
FOLLOW_MS = const(20)
# The strip's rail rises over ~22 ms once its load switch is on (its CT,
# tools/hardware/circuit.py): the frame is written again after this.
RAMP_MS = const(30)


class Painter:
    def __init__(self, strip, led_of_cell, budget_ma=900, brightness=160):
        self.strip = strip
        self.led = led_of_cell  # bytes: cell -> LED index (Layout.led)
        self.budget_ma = budget_ma
        # smartboard.power.Supply: the budget from the USB supply's
        # advertisement, read before each frame (None: budget_ma stays)
        self.supply = None
        self.brightness = brightness  # 0..255, a user setting
        self.scaled = 0  # frames the current limit had to dim
        self._k = -1  # the brightness _grb was rendered at
        self._pal = None  # the palette _grb renders (eye-linear RGB)
        self._grb = None  # that palette with gamma and brightness, GRB
        self._followed = -FOLLOW_MS  # when follow() last read the supply
        # The strip's load switch (the board's STRIP_EN pin's value(), or a
        # twin's), None where there is none: switched on by follow() once
        # the supply can carry the strip's dark LEDs, off below that (a
        # Default USB port with rev A's five readers), when nothing is
        # written to it (no data into an unpowered strip)
        self.power = None
        self.powered = True
        self.starved = False  # switched off by follow() for want of power
        self._rewrite = -1  # when to write the frame again after switching on

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

    def palette(self, pal):
        """pal (eye-linear RGB triples, bytes) as the strip's bytes: GRB
        with gamma and brightness, as cell() paints them; rendered once per
        palette and brightness (Board sets brightness). A caller copies an
        entry to 3 * led[x] of strip.buf (View.frame)."""
        k = self.brightness
        if pal is not self._pal or k != self._k:
            n = len(pal)
            grb = self._grb
            if grb is None or len(grb) != n:
                grb = self._grb = bytearray(n)
            for i in range(0, n, 3):
                grb[i] = GAMMA[pal[i + 1]] * k // 255
                grb[i + 1] = GAMMA[pal[i]] * k // 255
                grb[i + 2] = GAMMA[pal[i + 2]] * k // 255
            self._pal = pal
            self._k = k
        return self._grb

    def frame_ma(self):
        """Estimated current of the frame in the buffer, in mA."""
        buf = self.strip.buf
        return _lit(buf, len(buf), 1 << 24) + self.strip.n * _MA_IDLE

    def follow(self, now):
        """Called every loop pass: the supply read every FOLLOW_MS and, when
        the frame out draws more than it now allows, that frame dimmed to
        it and written again (a static screen writes no frame of its own)."""
        if self.supply is None or now - self._followed < FOLLOW_MS:
            return
        self._followed = now
        before = self.budget_ma
        self.budget_ma = self.supply.led_budget_ma()
        if self.power is not None:
            on = self.budget_ma >= self.strip.n * _MA_IDLE
            self.starved = not on
            if on != self.powered:
                self.power(1 if on else 0)
                self.powered = on
                self._rewrite = now + RAMP_MS if on else -1
                return
            if self._rewrite >= 0 and now >= self._rewrite:
                self._rewrite = -1
                self.show()
                return
        if self.budget_ma < before and self.frame_ma() > self.budget_ma:
            self.show()

    def lit_ok(self):
        """The strip has the power it needs (a part's ok(): Board.check_parts):
        not switched off for want of it (off at boot is not yet decided)."""
        return not self.starved

    def show(self):
        """Limit the frame to the power budget, then write it: the lit part
        scaled so that the total fits the budget."""
        if self.supply is not None:
            self.budget_ma = self.supply.led_budget_ma()
        if not self.powered:
            return  # switched off for want of power: follow() switches it on
        buf = self.strip.buf
        idle = self.strip.n * _MA_IDLE
        if _lit(buf, len(buf), max(0, self.budget_ma - idle)) + idle > self.budget_ma:
            self.scaled += 1
        self.strip.write()

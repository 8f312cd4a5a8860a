# Bus-hang recovery: the parts behind a reset line reset by the firmware.
#
# A PN532 can hang its bus (SDA held low, or its status byte never ready
# again) and stay hung through the RP2040's own reset: its pull-up kept it
# running. Its driver then marks it down after a few failed transfers
# (smartboard/drivers/pn532.py); this scheduler pulses the line its
# RSTPD_N (and rev A's TCA9548A RESET) is on, waits for the part to wake,
# sets it up again (SAMConfiguration, RFConfiguration; the switch
# forgets its port) and the scan goes on. A part that still does not
# answer is tried again RETRY_MS later, ATTEMPTS times, then left down:
# the board says so (smartboard.health), its cells blink, and its driver
# keeps probing it (a reader plugged back still comes back by itself).
#
# Never blocking: each step is a comparison with the loop's clock, so the
# loop, the other lanes' reads (held, they answer NO_READER: no reading,
# no phantom lift), the link and the LEDs go on while a line is low.
from apixagon.compat import const

# The PN532's RSTPD_N low time and its wake-up after the rising edge, as
# the Adafruit PN532 driver has them (Adafruit_PN532::begin(): 400 ms low,
# then 10 ms, after the PN532 data sheet's reset timing diagram, section
# 12.23); the data sheet's own minimum was not among the sources at hand,
# so the pulse is that driver's, long enough for both parts. The TCA9548A
# needs far less: 6 ns low (datasheet SCPS207, 6.7 Reset Timing
# Requirements, tW(L)), SDA let go within 500 ns (6.8, trst) and a START
# at once after (tREC(STA) 0 ns). The driver's set-up then waits for the
# first answer (its status polls, ~200 ms): a slower wake-up is waited for.
LOW_MS = const(400)
WAKE_MS = const(10)
RETRY_MS = const(2000)  # between two attempts that failed
ATTEMPTS = const(3)  # resets in a row before a part is left down

# kind: the words health.stuck() has for a Recovery that gave up
CELLS = const(0)  # rev A's cell bus: the switch and the four readers
PAD = const(1)  # the action pad's reader

_IDLE = const(0)
_LOW = const(1)  # the lines held low until `at`
_WAKING = const(2)  # the lines let go; the parts set up again at `at`
_WAIT = const(3)  # an attempt failed: the next at `at`
_GAVE_UP = const(4)


class Recovery:
    """The reset policy of the parts on one or more reset lines, stepped
    by the loop (step(now), now in ms).

    lines: the reset inputs (value(0) holds them in reset, value(1) lets
    go: a machine.Pin or its twin, sim/buses.py SimResetLine), pulsed
    together. parts: the drivers behind them, each with answering()
    (False: it hangs or is gone), hold() (its line goes low: no bus
    traffic until...) and reinit() (set up again; True if it answers).
    kind: which words health.stuck() says if it gives up."""

    def __init__(self, lines, parts, kind=0):
        self.lines = lines
        self.parts = parts
        self.kind = kind
        self.phase = _IDLE
        self.at = 0
        self.tries = 0  # resets in a row that did not bring every part back
        self.resets = 0  # pulses since start-up

    def _hung(self):
        for p in self.parts:
            if not p.answering():
                return True
        return False

    def gave_up(self):
        return self.phase == _GAVE_UP

    def busy(self):
        """A line is low or the parts are waking: they do not answer."""
        return self.phase == _LOW or self.phase == _WAKING

    def step(self, now):
        """Move the policy on; True when it has just given up."""
        ph = self.phase
        if ph == _IDLE:
            if self._hung():
                self._pulse(now)
            return False
        if ph == _GAVE_UP:
            if not self._hung():  # it came back on its own (plugged again)
                self.phase = _IDLE
                self.tries = 0
            return False
        if now < self.at:
            return False
        if ph == _LOW:
            for line in self.lines:
                line.value(1)
            self.phase = _WAKING
            self.at = now + WAKE_MS + 1
            return False
        if ph == _WAKING:
            ok = True
            for p in self.parts:
                if not p.reinit():
                    ok = False
            if ok:
                self.phase = _IDLE
                self.tries = 0
                return False
            if self.tries >= ATTEMPTS:
                self.phase = _GAVE_UP
                return True
            self.phase = _WAIT
            self.at = now + RETRY_MS
            return False
        # _WAIT: the next attempt, unless it answers by now
        if self._hung():
            self._pulse(now)
        else:
            self.phase = _IDLE
            self.tries = 0
        return False

    def _pulse(self, now):
        self.tries += 1
        self.resets += 1
        for p in self.parts:
            p.hold()
        for line in self.lines:
            line.value(0)
        self.phase = _LOW
        # one ms more than asked: `now` is whole ms, and the edge may have
        # come late in the ms it was read in
        self.at = now + LOW_MS + 1

# The antenna switch of profile A: per NFC reader, a 4-to-16 decoder
# (rev A: CD74HC4514, its latch open, its inhibit tied low) on select
# lines S0..S3 of its own, whose selected output turns on the MOSFETs of
# one cell's coil (four readers behind a TCA9548A, a lane of 16 antennas
# each; boards/rev_a/pins.py, MUX_SELECT; docs/hardware/antenna-switching.md).
# The lines are written one by one: the codes between two channels are
# selected for microseconds, far less than a tag needs to power up. The
# enables stay supported for a board whose switches share their select
# lines. Pins (objects with value(v)) come from the start-up code.


class AnalogMux:
    """base: the first channel of these muxes (a reader's lane of the
    antennas starts at its own base; smartboard.scan.NfcLanes)."""

    def __init__(self, select, enables=(), base=0):
        self.base = base
        self.select_pins = select
        self.enables = enables
        self._bits = -1  # what the select lines carry now
        self._mux = -1  # which mux is enabled now
        for e in enables:
            e.value(1)

    def select(self, ch):
        # (its state within 11 words: a larger frame is put on the heap at
        # every call, smartboard/drivers/pn532.py)
        ch -= self.base
        # Only the lines that change are written: every GPIO write is time
        # taken from the sweep, and neighbouring channels differ in 1-2 bits
        # (all of them the first time: _bits -1).
        bits = ch & 15
        d = bits ^ self._bits if self._bits >= 0 else 15
        if d:
            for i in range(len(self.select_pins)):
                if (d >> i) & 1:
                    self.select_pins[i].value((bits >> i) & 1)
            self._bits = bits
        ch >>= 4
        if ch != self._mux and self.enables:
            if self._mux >= 0:
                self.enables[self._mux].value(1)  # break before make
            self.enables[ch].value(0)
            self._mux = ch

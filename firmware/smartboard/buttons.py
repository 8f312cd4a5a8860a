# The buttons: MODE, CONFIRM and DECLARE, debounced in time, reported as
# events — a short press on release, a long press once while held.
#
# read() -> bit mask of the buttons held down now (the board's start-up
# code wraps its pins: pull-ups, so pressed reads 0; the simulated twin is
# smartboard.sim.inputs.SimButtons). Times are milliseconds from the
# caller's clock, so tests and the simulator control time.
from apixagon.compat import const

MODE = const(0)
CONFIRM = const(1)
DECLARE = const(2)
LONG = const(8)  # event = button | LONG for a long press
NONE = const(-1)

DEBOUNCE_MS = const(20)  # contact bounce of a tactile switch: under 10 ms
LONG_MS = const(700)
NAMES = ("mode", "confirm", "declare")


class Buttons:
    def __init__(self, reader, n=3):
        self.reader = reader
        self.n = n
        self.held = 0  # debounced mask
        self._raw = 0
        self._since = 0  # when the raw mask last changed
        self._down = [0] * n  # when each button went down
        self._long = 0  # mask: long press already reported
        self._queue = []

    def poll(self, now):
        """Read the buttons; the next event (button, or button | LONG), or
        NONE."""
        raw = self.reader.read()
        if raw != self._raw:
            self._raw = raw
            self._since = now
        elif raw != self.held and now - self._since >= DEBOUNCE_MS:
            changed = raw ^ self.held
            for b in range(self.n):
                bit = 1 << b
                if not changed & bit:
                    continue
                if raw & bit:
                    self._down[b] = now
                else:
                    if not self._long & bit:
                        self._queue.append(b)  # released before LONG_MS
                    self._long &= ~bit
            self.held = raw
        for b in range(self.n):
            bit = 1 << b
            if self.held & bit and not self._long & bit and now - self._down[b] >= LONG_MS:
                self._long |= bit
                self._queue.append(b | LONG)
        if self._queue:
            return self._queue.pop(0)
        return NONE

# The supply and the strip's share of it.
#
# A USB-C source says how much current it gives by the pull-up (Rp) on its
# CC pin: across the board's 5.1 kOhm Rd that makes vRd, below 0.66 V for
# Default USB power, 0.66-1.23 V for 1.5 A, above 1.23 V for 3.0 A (USB
# Type-C specification, sink thresholds). The board reads vRd through a
# divider on an ADC pin (pins.CC_SENSE; pins.CC_LEVELS are the ADC's
# millivolts at the two thresholds, from the circuit's resistors). A legacy
# A-to-C cable's 56 kOhm Rp reads as Default USB: 500 mA, what a configured
# USB 2.0 device may draw. What the rest of the board draws
# (pins.POWER_REST_MA, from the circuit's parts and their datasheets) comes
# first; the strip gets the remainder (hardware/README.md, power).
#
# The painter asks led_budget_ma() before each frame it writes, so a source
# that lowers its advertisement is followed at the next frame.
from apixagon.compat import const

DEFAULT_MA = const(500)
MA_1A5 = const(1500)
MA_3A0 = const(3000)


def supply_ma(mv, levels):
    """The supply's current from the CC sense reading (mV at the ADC pin).
    A reading far above any vRd (the 3.0 A range ends at 2.04 V, 1.66 x
    its threshold) is no CC divider at all - a Pico module's GPIO29 reads
    VSYS / 3 - and counts as Default USB power."""
    if mv > 2 * levels[1]:
        return DEFAULT_MA
    if mv >= levels[1]:
        return MA_3A0
    if mv >= levels[0]:
        return MA_1A5
    return DEFAULT_MA


class Supply:
    """read_mv(): the CC sense pin's millivolts (the board's ADC, or the
    simulator's twin); levels, rest_ma: pins.CC_LEVELS, pins.POWER_REST_MA."""

    def __init__(self, read_mv, levels, rest_ma):
        self.read_mv = read_mv
        self.levels = levels
        self.rest_ma = rest_ma
        self.ma = DEFAULT_MA  # the supply at the last reading

    def led_budget_ma(self):
        """What the strip may draw, its dark LEDs included."""
        self.ma = supply_ma(self.read_mv(), self.levels)
        b = self.ma - self.rest_ma
        return b if b > 0 else 0


def adc_mv(pin):
    """A reader of an RP2040 ADC pin in millivolts (3.3 V reference)."""
    from machine import ADC, Pin

    adc = ADC(Pin(pin))
    return lambda: adc.read_u16() * 3300 // 65535


def no_reading():
    return 0

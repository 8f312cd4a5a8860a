# The supply and the strip's share of it.
#
# A USB-C source says how much current it gives by the pull-up (Rp) on its
# CC pin: across the board's 5.1 kOhm Rd that makes vRd, 0.25-0.61 V for
# Default USB power, 0.70-1.16 V for 1.5 A, 1.31-2.04 V for 3.0 A (USB
# Type-C specification, Table 4-36, the sink's ranges). The board reads
# vRd through a divider on an ADC pin (pins.CC_SENSE; pins.CC_LEVELS are
# the ADC's millivolts at the ends of those ranges, from the circuit's
# resistors). A reading in a gap between two ranges keeps the supply read
# before (a hysteresis: a reading that wanders over a threshold never
# flips the limit), or the lower of the two if that was neither. A legacy
# A-to-C cable's 56 kOhm Rp reads as Default USB: 500 mA, what a
# configured USB 2.0 device may draw. What the rest of the board draws
# (pins.POWER_REST_MA, from the circuit's parts and their datasheets)
# comes first; the strip gets the remainder of DERATE_PCT of the supply
# (hardware/README.md, power): the LED estimate is an estimate, a source
# at its limit sags, and the fuse on VBUS must never sit at its hold
# current.
#
# A sink using more than Default USB power must follow a lowered
# advertisement within tSinkAdj, 60 ms at most (USB Type-C specification,
# Table 4-29): the painter reads the supply before each frame it writes
# and, on a static screen, every paint.FOLLOW_MS (Painter.follow).
from apixagon.compat import const

DEFAULT_MA = const(500)
MA_1A5 = const(1500)
MA_3A0 = const(3000)
DERATE_PCT = const(88)  # of the advertised current, all the board plans to draw
# vRd at the top of Default USB's range: CC_LEVELS[0] is it at the ADC pin,
# so CC_LEVELS[0] / VRD_USB_MAX_MV is the divider (the twins scale by it)
VRD_USB_MAX_MV = const(610)


def supply_ma(mv, levels, prev=DEFAULT_MA):
    """The supply's current from the CC sense reading (mV at the ADC pin),
    prev the one read before. A reading far above any vRd (the 3.0 A
    range ends at 2.04 V, 1.56 x its bottom) is no CC divider at all - a
    Pico module's GPIO29 reads VSYS / 3 - and counts as Default USB."""
    if mv > 2 * levels[3]:
        return DEFAULT_MA
    if mv >= levels[3]:
        return MA_3A0
    if mv > levels[2]:  # between 1.5 A's range and 3.0 A's
        return prev if prev >= MA_1A5 else MA_1A5
    if mv >= levels[1]:
        return MA_1A5
    if mv > levels[0]:  # between Default USB's range and 1.5 A's
        return prev if prev <= MA_1A5 else DEFAULT_MA
    return DEFAULT_MA


def fields_allowed(ma, rest_ma, fields, field_ma):
    """How many of the board's `fields` RF fields (field_ma each from USB)
    may be on at once on a supply of ma: all while the rest of the board
    (rest_ma, every field on) fits DERATE_PCT of it, else as many fewer as
    it takes to fit. Rev A's five PN532s at their datasheet's 150 mA of
    field current put its rest at 755 mA, over a Default USB port's 500 mA
    (and over the 172 mA its USB descriptor asked for before the CC pins
    were read): there 2 may be on. tools/hardware/power.py computes the
    README's figures with this same function."""
    over = rest_ma - ma * DERATE_PCT // 100
    if over <= 0 or field_ma <= 0:
        return fields
    n = fields - (over + field_ma - 1) // field_ma
    return n if n > 0 else 0


class Supply:
    """read_mv(): the CC sense pin's millivolts (the board's ADC, or the
    simulator's twin); levels, rest_ma: pins.CC_LEVELS, pins.POWER_REST_MA;
    fields, field_ma: pins.RF_FIELDS, pins.RF_FIELD_MA (the readers' RF
    fields, counted in rest_ma)."""

    def __init__(self, read_mv, levels, rest_ma, fields=0, field_ma=0):
        self.read_mv = read_mv
        self.levels = levels
        self.rest_ma = rest_ma
        self.rf = fields
        self.rf_ma = field_ma
        self.ma = DEFAULT_MA  # the supply at the last reading

    def fields(self):
        """The RF fields that may be on at once on the supply last read."""
        return fields_allowed(self.ma, self.rest_ma, self.rf, self.rf_ma)

    def led_budget_ma(self):
        """What the strip may draw, its dark LEDs included."""
        self.ma = supply_ma(self.read_mv(), self.levels, self.ma)
        b = self.ma * DERATE_PCT // 100 - self.rest_ma
        return b if b > 0 else 0


def adc_mv(pin):
    """A reader of an RP2040 ADC pin in millivolts (3.3 V reference)."""
    from machine import ADC, Pin

    adc = ADC(Pin(pin))
    return lambda: adc.read_u16() * 3300 // 65535


def no_reading():
    return 0

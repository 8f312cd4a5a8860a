"""The board's power budget from its netlist: what every part but the
LEDs draws from the USB supply, and what that leaves the strip at each
supply the USB-C CC pins can advertise.

Currents come from each part's Spec (parts.py: the datasheet line, and
whether the figure is a maximum, a typical value or our allowance). The
3.3 V rail is made by the buck: its load is seen at 5 V through the
conversion, at an efficiency below the TLV62569 datasheet's curves for
these loads (a margin)."""

import math

from . import parts as P
from .netlist import SPECS, Netlist

BUCK_EFFICIENCY = 0.85
V_IN = 5.0
V_3V3 = 3.3
# USB: 500 mA for a configured USB 2.0 device (Default USB power), 1.5 A
# and 3.0 A when the source's Rp on CC says so (USB Type-C specification)
SUPPLIES = (("Default USB", 500), ("USB-C 1.5 A", 1500), ("USB-C 3.0 A", 3000))
LED_FULL_MA = 20  # one WS2812B channel at 255, as smartboard/paint.py estimates
LED_DARK_MA = 1
# The warmest ambient the board is built for (in a closed case, in a warm
# room): the input fuse must hold the full budget there (parts.py POLYFUSE).
AMBIENT_C = 50


def _rows(text):
    """(part, MPN, count, rail, mA each, kind, source, RF field) for every
    part that draws from a rail, and the reed pull-ups (rev B: a closed reed
    pulls 3.3 V / 47 kOhm)."""
    nl = Netlist(text)
    counts = {}
    for ref, c in nl.comps.items():
        counts[c["part"]] = counts.get(c["part"], 0) + 1
    out = []
    for part, n in sorted(counts.items()):
        spec = SPECS[part]
        for i, (rail, ma, kind, src) in enumerate(spec.current):
            out.append((spec.name, spec.mpn, n, rail, ma, kind, src, i in spec.rf))
    reeds = counts.get("Reed_Switch", 0)
    if reeds:
        ma = round(V_3V3 / 47.0, 3)  # mA per closed reed through 47 kOhm
        out.append(
            (
                "reed pull-ups",
                P.RNET8.mpn,
                reeds,
                "3V3",
                ma,
                "worst",
                "every cell's reed closed: 3.3 V across a 47 kOhm pull-up",
                False,
            )
        )
    return out


def rows(text):
    """(part, MPN, count, rail, mA each, kind, source) for every part that
    draws from a rail (hardware/README.md's table)."""
    return [r[:7] for r in _rows(text)]


def _draw(text, strip=True, fields=True):
    """The board's draw from USB in mA: the 3.3 V loads through the buck,
    the 5 V ones as they are, the LEDs' own excepted. strip False: the
    strip's load switch off (nothing on 5V_LED); fields False: the readers'
    RF fields off."""
    r3 = r5 = 0
    for name, _, n, rail, ma, _, _, rf in _rows(text):
        if (rf and not fields) or name == "WS2812B":
            continue
        if rail == "3V3":
            r3 += n * ma
        elif rail == "5V" or (rail == "5V_LED" and strip):
            r5 += n * ma
    return r3 * V_3V3 / (V_IN * BUCK_EFFICIENCY) + r5


def rest_ma(text):
    """The board's draw from USB, the LEDs' own excepted: the 3.3 V loads
    through the buck, the 5 V loads as they are."""
    return _draw(text)


def boot_ma(text):
    """(mA, fields): what the board draws before the firmware has read the
    CC pins. The strip's switch is off until then (STRIP_EN, pulled down);
    where the rest of the board would still be over Default USB's 500 mA,
    the readers' RF fields are off too (fields False: boards/build.py reads
    the supply before any reader is asked for a tag). It is what the USB
    configuration descriptor asks for (tools/build_firmware.py)."""
    ma = _draw(text, strip=False)
    if ma <= SUPPLIES[0][1]:
        return ma, True
    return _draw(text, strip=False, fields=False), False


def descriptor_ma(text):
    """The configuration descriptor's current: boot_ma rounded up to the
    2 mA of its bMaxPower (USB 2.0, Table 9-10)."""
    return 2 * math.ceil(boot_ma(text)[0] / 2)


def rf_fields(text):
    """(fields, mA each): the readers' RF fields on the board and what one
    of them draws from USB (its field rows through the buck), rounded up
    to a whole mA: what pins.py carries as RF_FIELDS and RF_FIELD_MA."""
    n = 0
    ma = 0.0
    for name, _, count, rail, each, _, _, rf in _rows(text):
        if rf:
            n += count
            per = each * V_3V3 / (V_IN * BUCK_EFFICIENCY) if rail == "3V3" else each
            ma = max(ma, per)
    return n, math.ceil(ma)


def fields_allowed(text, supply_ma):
    """How many RF fields the firmware lets be on at once on this supply:
    smartboard.power.fields_allowed (its integer arithmetic, as the board
    does it) on the pin table's figures."""
    from smartboard.power import fields_allowed as allowed

    n, each = rf_fields(text)
    return allowed(int(supply_ma), math.ceil(rest_ma(text)), n, each)


def rest_at_ma(text, supply_ma):
    """The rest of the board's draw with no more RF fields on than
    fields_allowed lets be (the fields off drawing nothing)."""
    n, each = rf_fields(text)
    return math.ceil(rest_ma(text)) - (n - fields_allowed(text, supply_ma)) * each


def full_budget_ma():
    """The most the firmware plans the board to draw at all: DERATE_PCT of
    the largest supply (smartboard/power.py, as the board computes it)."""
    from smartboard.power import DERATE_PCT

    return SUPPLIES[-1][1] * DERATE_PCT // 100


def led_budget(supply_ma, rest):
    """What the firmware lets the strip draw (its dark LEDs included): the
    remainder of smartboard/power.py's DERATE_PCT of the supply (its
    integer arithmetic, as the board does it)."""
    from smartboard.power import DERATE_PCT

    return max(0, int(supply_ma) * DERATE_PCT // 100 - int(rest))

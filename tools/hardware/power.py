"""The board's power budget from its netlist: what every part but the
LEDs draws from the USB supply, and what that leaves the strip at each
supply the USB-C CC pins can advertise.

Currents come from each part's Spec (parts.py: the datasheet line, and
whether the figure is a maximum, a typical value or our allowance). The
3.3 V rail is made by the buck: its load is seen at 5 V through the
conversion, at an efficiency below the TLV62569 datasheet's curves for
these loads (a margin)."""

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


def rows(text):
    """(part, MPN, count, rail, mA each, kind, source) for every part that
    draws from a rail, and the reed pull-ups (rev B: a closed reed pulls
    3.3 V / 47 kOhm)."""
    nl = Netlist(text)
    counts = {}
    for ref, c in nl.comps.items():
        counts[c["part"]] = counts.get(c["part"], 0) + 1
    out = []
    for part, n in sorted(counts.items()):
        spec = SPECS[part]
        for rail, ma, kind, src in spec.current:
            out.append((spec.name, spec.mpn, n, rail, ma, kind, src))
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
            )
        )
    return out


def rest_ma(text):
    """The board's draw from USB, the LEDs' own excepted: the 3.3 V loads
    through the buck, the 5 V loads as they are."""
    got = rows(text)
    r3 = sum(n * ma for _, _, n, rail, ma, _, _ in got if rail == "3V3")
    r5 = sum(n * ma for name, _, n, rail, ma, _, _ in got if rail == "5V" and name != "WS2812B")
    return r3 * V_3V3 / (V_IN * BUCK_EFFICIENCY) + r5


def led_budget(supply_ma, rest):
    """What the firmware lets the strip draw (its dark LEDs included): the
    remainder of smartboard/power.py's DERATE_PCT of the supply (its
    integer arithmetic, as the board does it)."""
    from smartboard.power import DERATE_PCT

    return max(0, int(supply_ma) * DERATE_PCT // 100 - int(rest))

"""`make hardware`: build each revision's circuit, run its ERC, and write
what is generated from it:

    hardware/<rev>/<rev>.net     KiCad netlist (SKiDL)
    hardware/<rev>/erc.txt       the ERC's result and every waiver, with its reason
    hardware/<rev>/bom.csv       the bill of materials, with prices and their source
    hardware/<rev>/pins.md       the RP2040's pins, readable
    hardware/<rev>/wiring.json   the emulated board's wiring (tools/rp2040)
    firmware/boards/<rev>/pins.py  the firmware's pin table

    python -m tools.hardware.gen [--check] [rev ...]

--check writes nothing and exits 1 if any file would change (what
tests/hardware asserts without SKiDL's time)."""

import argparse
import csv
import io
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if os.path.join(ROOT, "tools") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "tools"))

from hardware import circuit, netlist, power  # noqa: E402
from hardware import parts as P  # noqa: E402

PRICE_DATE = "2026-11-27"  # when the prices below were looked up (stored pages)


def build(rev, module=None):
    """The revision's Board (built) and its netlist text."""
    b = (module or circuit).REVISIONS[rev]()
    return b, b.netlist()


def erc_text(rev, b, msgs):
    lines = ["ERC of %s (SKiDL %s)" % (rev, getattr(b.sk, "__version__", ""))]
    errors = [m for lvl, m in msgs if lvl == "ERROR"]
    warnings = [m for lvl, m in msgs if lvl != "ERROR"]
    lines.append("errors: %d, warnings: %d" % (len(errors), len(warnings)))
    lines += ["ERROR " + m for m in errors] + ["WARNING " + m for m in warnings]
    lines.append("")
    lines.append("Waivers: pins left open on purpose (%d), each with its reason" % len(b.waivers))
    by = {}
    for ref, pin, why in b.waivers:
        by.setdefault(why, []).append("%s.%s" % (ref, pin))
    for why in sorted(by):
        lines.append("- %s: %s" % (why, " ".join(by[why])))
    return "\n".join(lines) + "\n"


def bom_rows(text):
    nl = netlist.Netlist(text)
    groups = {}
    for ref, c in nl.comps.items():
        spec = netlist.SPECS[c["part"]]
        if c["part"] in ("R", "C", "L"):
            spec = _passive(c)
        if not spec.bom:
            continue
        key = (spec.mpn, c["value"])
        groups.setdefault(key, (spec, c, []))[2].append(ref)
    rows = []
    order = sorted(groups.items(), key=lambda g: netlist._refkey(g[1][2][0]))
    for (mpn, value), (spec, c, refs) in order:
        refs.sort(key=netlist._refkey)
        rows.append((refs, value, c["footprint"], spec.maker, spec.mpn, len(refs), spec.price))
    for name, mpn, maker, n, price in P.BOM_EXTRAS:
        rows.append(([], name, "-", maker, mpn, n, price))
    return rows


def _passive(c):
    table = {"R": P.RESISTORS, "C": P.CAPS, "L": P.INDUCTORS}[c["part"]]
    return table[c["value"]]


def _refs(refs):
    """R1 R2 R3 R7 -> R1-R3 R7"""
    out = []
    run = []
    for r in refs + [None]:
        if run and r is not None:
            p, n = netlist._refkey(r)
            p0, n0 = netlist._refkey(run[-1])
            if p == p0 and n == n0 + 1:
                run.append(r)
                continue
        if run:
            out.append(run[0] if len(run) < 3 else "%s-%s" % (run[0], run[-1]))
            if len(run) == 2:
                out.append(run[1])
        run = [r] if r else []
    return " ".join(out)


def bom_csv(text):
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(
        (
            "reference",
            "value",
            "footprint",
            "manufacturer",
            "mpn",
            "qty_per_board",
            "unit_usd_1",
            "unit_usd_100",
            "unit_usd_1000",
            "price_source",
            "price_date",
        )
    )
    totals = [0.0, 0.0, 0.0]
    for refs, value, fp, maker, mpn, n, pr in bom_rows(text):
        w.writerow(
            (_refs(refs), value, fp, maker, mpn, n, pr.p1, pr.p100, pr.p1000, pr.src, PRICE_DATE)
        )
        for i, p in enumerate((pr.p1, pr.p100, pr.p1000)):
            totals[i] += n * p
    money = ("%.2f" % t for t in totals)
    w.writerow(("TOTAL per board", "", "", "", "", "", *money, "sum of the lines", PRICE_DATE))
    return f.getvalue(), totals


def pins_md(rev, text, d):
    nl = netlist.Netlist(text)
    (mcu,) = nl.refs("RP2040")
    lines = [
        "# %s: the RP2040's pins" % rev,
        "",
        "Generated from `%s.net` by `make hardware` (tools/hardware/gen.py): do not edit." % rev,
        "",
        "| GPIO | net | goes to | firmware (pins.py) |",
        "| --- | --- | --- | --- |",
    ]
    use = _uses(d)
    for i in range(30):
        net = nl.net(mcu, "GPIO%d" % i)
        if net is None:
            lines.append("| %d | - | free | |" % i)
            continue
        on = nl.on(net)
        passive = ("R", "C")
        to = sorted("%s.%s" % (r, p) for r, p in on if nl.comps[r]["part"] not in passive)
        to = [t for t in to if not t.startswith(mcu + ".")]
        rs = sorted(r for r, _ in on if nl.comps[r]["part"] == "R")
        pulls = ", ".join("%s %s" % (r, nl.comps[r]["value"]) for r in rs)
        where = " ".join(to[:4]) + (" …" if len(to) > 4 else "")
        if pulls:
            where += " (" + pulls + ")"
        lines.append("| %d | %s | %s | %s |" % (i, net, where, use.get(i, "")))
    return "\n".join(lines) + "\n"


def _uses(d):
    u = {}

    def put(g, what):
        u[g] = (u.get(g, "") + " " + what).strip()

    put(d["LED_PIN"], "LED_PIN")
    put(d["STRIP_SENSE"], "STRIP_SENSE")
    for g, n in zip(d["BUTTONS"], ("MODE", "CONFIRM", "DECLARE")):
        put(g, "BUTTONS (%s)" % n)
    put(d["PAD_I2C"][1], "PAD_I2C SDA (I2C%d)" % d["PAD_I2C"][0])
    put(d["PAD_I2C"][2], "PAD_I2C SCL (I2C%d)" % d["PAD_I2C"][0])
    if "CELL_I2C" in d:
        put(d["CELL_I2C"][1], "CELL_I2C SDA (I2C%d)" % d["CELL_I2C"][0])
        put(d["CELL_I2C"][2], "CELL_I2C SCL (I2C%d)" % d["CELL_I2C"][0])
        for k, sel in enumerate(d["MUX_SELECT"]):
            for s, g in enumerate(sel):
                put(g, "MUX_SELECT[%d] S%d" % (k, s))
    if "SHIFT_SPI" in d:
        b, sck, mosi, miso = d["SHIFT_SPI"]
        put(sck, "SHIFT_SPI SCK (SPI%d)" % b)
        put(mosi, "SHIFT_SPI MOSI (SPI%d, unused)" % b)
        put(miso, "SHIFT_SPI MISO (SPI%d)" % b)
        put(d["SHIFT_LATCH"], "SHIFT_LATCH")
    put(d["CC_SENSE"], "CC_SENSE (ADC%d)" % (d["CC_SENSE"] - 26))
    return u


# ---- the firmware's pin table ---------------------------------------------------
_HEAD = """# APIXAGON {title}
# Raspberry Pi RP2040 GPIO numbers (the Pico's, same chip). Generated from
# the circuit (tools/hardware/circuit.py, hardware/{rev}/{rev}.net) by
# `make hardware`: do not edit here - change the circuit and regenerate;
# tests/hardware fails while this file disagrees with the netlist.
# See hardware/README.md and hardware/{rev}/pins.md.
"""

_COMMON = """
LED_PIN = {LED_PIN}  # WS2812 data, through a 74AHCT1G125 buffer to 5 V
LED_DRIVER = "pio"  # "pio" (rp2.StateMachine) or "bitstream" (neopixel)
# The strip connector's sense pin: tied to ground on the strip's side, so
# with the pull-up on it reads 1 when the strip is unplugged (Board.check_parts).
STRIP_SENSE = {STRIP_SENSE}
BUTTONS = {BUTTONS}  # MODE, CONFIRM, DECLARE: to ground, pull-ups on
"""

_REV_A = """
# The cells' readers (scan.NfcLanes): four PN532 on I2C0 behind a TCA9548A
# switch (they share the fixed address 0x24), each switching its RF output
# over 16 antennas with a CD74HC4067 of its own (S0..S3; enable tied low).
# The readers settle their fields and talk to their tags at once, so a
# cell is come round to four times as often (<= 300 ms from a placement
# to the LEDs). Lane k serves sensor channels 16k .. 16k+15 of
# hardware/layout.json.
CELL_I2C = ({CELL_I2C[0]}, {CELL_I2C[1]}, {CELL_I2C[2]}, 400000)  # bus id, SDA, SCL, Hz
CELL_SWITCH = {CELL_SWITCH:#04x}  # TCA9548A address; reader k on its port k
LANE = 16
MUX_SELECT = {MUX_SELECT}

# The action pad: its own PN532 on I2C1 (never switched: no settle time).
PAD_I2C = ({PAD_I2C[0]}, {PAD_I2C[1]}, {PAD_I2C[2]}, 400000)
"""

_REV_B = """
# Eight 74HC165 parallel-in shift registers (64 inputs, 61 used) on SPI0;
# the latch (SH/LD) loads all reeds at once, then 8 bytes clock out.
# bus id, SCK, MOSI (unused), MISO, Hz
SHIFT_SPI = ({SHIFT_SPI[0]}, {SHIFT_SPI[1]}, {SHIFT_SPI[2]}, {SHIFT_SPI[3]}, 1000000)
SHIFT_LATCH = {SHIFT_LATCH}
SHIFT_BYTES = {SHIFT_BYTES}
MATRIX_COLS = 8  # the scanner's rows x cols view of the 64 inputs

PAD_I2C = ({PAD_I2C[0]}, {PAD_I2C[1]}, {PAD_I2C[2]}, 400000)
"""

_POWER = """
# The supply (smartboard/power.py): the USB-C CC pins' voltage through a
# divider on an ADC pin; CC_LEVELS are the ADC millivolts at the 1.5 A and
# 3.0 A thresholds (vRd 0.66 V and 1.23 V), POWER_REST_MA what the board
# draws from USB besides the LEDs (hardware/README.md, power).
CC_SENSE = {CC_SENSE}
CC_LEVELS = {CC_LEVELS}
POWER_REST_MA = {POWER_REST_MA}
"""

TITLES = {
    "rev_a": (
        "rev A - profile A: an NFC antenna under each of the 61 cells.",
        'NAME = "APIXAGON rev A (NFC per cell)"\nPROFILE = "A"\n'
        'LAYOUT = "layout_data"  # boards/layout_data.py: hardware/layout.json, frozen\n',
    ),
    "rev_b": (
        "rev B - profile B: a reed switch per cell (occupancy) plus the\n# NFC action pad.",
        'NAME = "APIXAGON rev B (reeds + action pad)"\nPROFILE = "B"\nLAYOUT = "layout_data"\n',
    ),
}


def wiring(rev, d, rest):
    """The pin table's values the board's wiring decides (what the
    emulator models, and what pins.py must agree with)."""
    w = {k: v for k, v in d.items() if not k.startswith("_")}
    w["PROFILE"] = "A" if "CELL_I2C" in d else "B"
    w["POWER_REST_MA"] = rest
    if "CELL_I2C" in w:
        w["LANE"] = 16
    return w


def pins_py(rev, w):
    title, ident = TITLES[rev]
    text = _HEAD.format(title=title, rev=rev) + ident + _COMMON.format(**w)
    text += (_REV_A if w["PROFILE"] == "A" else _REV_B).format(**w)
    text += _POWER.format(**w)
    return text


def outputs(rev, module=None):
    """{path: text} of every file generated for the revision, and the ERC."""
    b, text = build(rev, module)
    msgs = b.erc()
    d = netlist.derive(text)
    rest = math.ceil(power.rest_ma(text))
    w = wiring(rev, d, rest)
    bom, totals = bom_csv(text)
    hw = os.path.join("hardware", rev)
    files = {
        os.path.join(hw, rev + ".net"): text,
        os.path.join(hw, "erc.txt"): erc_text(rev, b, msgs),
        os.path.join(hw, "bom.csv"): bom,
        os.path.join(hw, "pins.md"): pins_md(rev, text, d),
        os.path.join(hw, "wiring.json"): json.dumps(w, indent=1, sort_keys=True) + "\n",
        os.path.join("firmware", "boards", rev, "pins.py"): pins_py(rev, w),
    }
    return files, msgs, {"bom_totals": totals, "rest_ma": rest, "wiring": w, "netlist": text}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("revs", nargs="*", default=sorted(circuit.REVISIONS))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    stale = []
    bad = False
    for rev in args.revs:
        files, msgs, info = outputs(rev)
        if msgs:
            bad = True
            for lvl, m in msgs:
                print("%s ERC %s: %s" % (rev, lvl, m))
        for path, text in files.items():
            full = os.path.join(ROOT, path)
            old = open(full).read() if os.path.exists(full) else None
            if old == text:
                continue
            stale.append(path)
            if not args.check:
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w") as f:
                    f.write(text)
        t = info["bom_totals"]
        print(
            "%s: ERC %s, BOM $%.2f / $%.2f / $%.2f per board (1 / 100 / 1000), rest of board %d mA"
            % (rev, "clean" if not msgs else "FAILED", t[0], t[1], t[2], info["rest_ma"])
        )
    if stale:
        print(("stale: " if args.check else "written: ") + " ".join(stale))
    return 1 if bad or (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())

"""`make hardware`: build each revision's circuit, run its ERC, and write
what is generated from it:

    hardware/<rev>/<rev>.net     KiCad netlist (SKiDL)
    hardware/<rev>/erc.txt       the ERC's result and every waiver, with its reason
    hardware/<rev>/bom.csv       the bill of materials, with prices and their source
    hardware/<rev>/pins.md       the RP2040's pins, readable
    hardware/<rev>/wiring.json   the emulated board's wiring (tools/rp2040)
    hardware/<rev>/schematic.svg the schematic drawing (schematic.py)
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

from hardware import circuit, netlist, power, schematic  # noqa: E402
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
    put(d["STRIP_EN"], "STRIP_EN")
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
    put(d["PAD_RSTPD"], "PAD_RSTPD")
    if "CELL_RSTPD" in d:
        put(d["CELL_SWITCH_RESET"], "CELL_SWITCH_RESET")
        put(d["CELL_RSTPD"], "CELL_RSTPD")
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
# The strip's load switch (TPS22965 ON, pulled down): off through reset,
# switched on once the supply can carry the strip's dark LEDs (paint.py).
STRIP_EN = {STRIP_EN}
BUTTONS = {BUTTONS}  # MODE, CONFIRM, DECLARE: to ground, pull-ups on
"""

_REV_A = """
# The cells' readers (scan.NfcLanes): four PN532 on I2C0 behind a TCA9548A
# switch (they share the fixed address 0x24), each switching its RF output
# over 16 antennas with MOSFETs a CD74HC4514 decoder of its own selects
# (S0..S3 on its A0..A3).
# The readers settle their fields and talk to their tags at once, so a
# cell is come round to four times as often (<= 300 ms from a placement
# to the LEDs). Lane k serves sensor channels 16k .. 16k+15 of
# hardware/layout.json.
CELL_I2C = ({CELL_I2C[0]}, {CELL_I2C[1]}, {CELL_I2C[2]}, {HZ[CELL_I2C]})  # bus id, SDA, SCL, Hz
CELL_SWITCH = {CELL_SWITCH:#04x}  # TCA9548A address; reader k on its port k
LANE = {LANE}
MUX_SELECT = {MUX_SELECT}
# Reset lines, pulled up on the board (smartboard/recover.py pulses them
# low to clear a hung bus): the switch's RESET, the four readers' RSTPD_N.
CELL_SWITCH_RESET = {CELL_SWITCH_RESET}
CELL_RSTPD = {CELL_RSTPD}

# The action pad: its own PN532 on I2C1 (never switched: no settle time).
PAD_I2C = ({PAD_I2C[0]}, {PAD_I2C[1]}, {PAD_I2C[2]}, {HZ[PAD_I2C]})
PAD_RSTPD = {PAD_RSTPD}  # its RSTPD_N, pulled up: pulsed low to reset it
"""

_REV_B = """
# Eight 74HC165 parallel-in shift registers (64 inputs, 61 used) on SPI0;
# the latch (SH/LD) loads all reeds at once, then 8 bytes clock out.
# bus id, SCK, MOSI (unused), MISO, Hz
SHIFT_SPI = ({SHIFT_SPI[0]}, {SHIFT_SPI[1]}, {SHIFT_SPI[2]}, {SHIFT_SPI[3]}, {HZ[SHIFT_SPI]})
SHIFT_LATCH = {SHIFT_LATCH}
SHIFT_BYTES = {SHIFT_BYTES}
MATRIX_COLS = {MATRIX_COLS}  # the scanner's rows x cols view of the inputs: a register a row

PAD_I2C = ({PAD_I2C[0]}, {PAD_I2C[1]}, {PAD_I2C[2]}, {HZ[PAD_I2C]})
PAD_RSTPD = {PAD_RSTPD}  # the pad reader's RSTPD_N, pulled up: pulsed low to reset it
"""

_POWER = """
# The supply (smartboard/power.py): the USB-C CC pins' voltage through a
# divider on an ADC pin; CC_LEVELS are the ADC millivolts at the ends of
# vRd's ranges (Default USB up to 0.61 V, 1.5 A 0.70-1.16 V, 3.0 A from
# 1.31 V: USB Type-C, Table 4-36), POWER_REST_MA what the board draws
# from USB besides the LEDs with every reader's RF field on (hardware/
# README.md, power); RF_FIELDS readers' fields, RF_FIELD_MA each: the
# firmware keeps no more on at once than the supply carries
# (smartboard/power.py fields_allowed).
CC_SENSE = {CC_SENSE}
CC_LEVELS = {CC_LEVELS}
POWER_REST_MA = {POWER_REST_MA}
RF_FIELDS = {RF_FIELDS}
RF_FIELD_MA = {RF_FIELD_MA}
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


def wiring(rev, d, rest, fields=(0, 0)):
    """The pin table's values the board's wiring decides (what the
    emulator models, and what pins.py must agree with); fields: the RF
    fields and mA each (power.rf_fields)."""
    w = {k: v for k, v in d.items() if not k.startswith("_")}
    w["PROFILE"] = "A" if "CELL_I2C" in d else "B"
    w["POWER_REST_MA"] = rest
    w["RF_FIELDS"], w["RF_FIELD_MA"] = fields
    return w


def pins_py(rev, w):
    title, ident = TITLES[rev]
    text = _HEAD.format(title=title, rev=rev) + ident + _COMMON.format(**w)
    text += (_REV_A if w["PROFILE"] == "A" else _REV_B).format(HZ=circuit.BUS_HZ, **w)
    text += _POWER.format(**w)
    return text


def outputs(rev, module=None):
    """{path: text} of every file generated for the revision, and the ERC."""
    b, text = build(rev, module)
    msgs = b.erc()
    d = netlist.derive(text)
    rest = math.ceil(power.rest_ma(text))
    w = wiring(rev, d, rest, power.rf_fields(text))
    bom, totals = bom_csv(text)
    hw = os.path.join("hardware", rev)
    files = {
        os.path.join(hw, rev + ".net"): text,
        os.path.join(hw, "erc.txt"): erc_text(rev, b, msgs),
        os.path.join(hw, "bom.csv"): bom,
        os.path.join(hw, "pins.md"): pins_md(rev, text, d),
        os.path.join(hw, "wiring.json"): json.dumps(w, indent=1, sort_keys=True) + "\n",
        os.path.join("firmware", "boards", rev, "pins.py"): pins_py(rev, w),
        os.path.join(hw, "schematic.svg"): schematic.drawing(text, rev),
    }
    return files, msgs, {"bom_totals": totals, "rest_ma": rest, "wiring": w, "netlist": text}


# ---- hardware/README.md's generated parts --------------------------------------
SIGNALS = (
    ("LED data (via 74AHCT1G125)", "LED_PIN"),
    ("strip sense", "STRIP_SENSE"),
    ("strip power switch (load switch ON)", "STRIP_EN"),
    ("buttons MODE, CONFIRM, DECLARE", "BUTTONS"),
    ("cell readers' I2C (bus, SDA, SCL)", "CELL_I2C"),
    ("antenna switches S0..S3, lanes 0..3", "MUX_SELECT"),
    ("reed chain SPI (bus, SCK, MOSI, MISO)", "SHIFT_SPI"),
    ("reed chain latch (SH/LD)", "SHIFT_LATCH"),
    ("pad reader's I2C (bus, SDA, SCL)", "PAD_I2C"),
    ("cell switch's RESET", "CELL_SWITCH_RESET"),
    ("cell readers' RSTPD_N", "CELL_RSTPD"),
    ("pad reader's RSTPD_N", "PAD_RSTPD"),
    ("USB-C CC sense (ADC)", "CC_SENSE"),
)


def _fmt(v):
    if isinstance(v, list):
        return "(" + ", ".join(_fmt(x) for x in v) + ")"
    return str(v)


def readme_pins(wirings):
    lines = ["| signal | rev A | rev B |", "| --- | --- | --- |"]
    for what, key in SIGNALS:
        cells = [_fmt(w[key]) if key in w else "-" for w in wirings]
        lines.append("| %s | %s |" % (what, " | ".join(cells)))
    return "\n".join(lines)


def readme_bom(infos):
    lines = [
        "| revision | parts bought | 1 board | 100 boards | 1000 boards |",
        "| --- | --- | --- | --- | --- |",
    ]
    for rev, info in infos:
        n = sum(row[5] for row in bom_rows(info["netlist"]))
        t = info["bom_totals"]
        lines.append("| %s | %d | $%.2f | $%.2f | $%.2f |" % (rev, n, t[0], t[1], t[2]))
    return "\n".join(lines)


def readme_rest(rev, text):
    lines = [
        "| %s part | MPN | count | rail | mA each | kind | source |" % rev,
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, mpn, n, rail, ma, kind, src in power.rows(text):
        lines.append("| %s | %s | %d | %s | %g | %s | %s |" % (name, mpn, n, rail, ma, kind, src))
    fields = power.boot_ma(text)[1]
    lines.append("")
    lines.append(
        "%s: %d mA with every part at its budget; %d mA before the firmware has read "
        "the CC pins (the strip switched off%s), what its USB configuration descriptor "
        "asks for (bMaxPower %d)."
        % (
            rev,
            math.ceil(power.rest_ma(text)),
            power.descriptor_ma(text),
            "" if fields else ", no reader's RF field on",
            power.descriptor_ma(text) // 2,
        )
    )
    return "\n".join(lines)


def readme_power(rev, profile, wiring):
    """Each LED mode's worst frame (before the limit, at the top and the
    default brightness) and what it draws at the firmware's limit on each
    supply, the rest of the board added."""
    from smartboard.power import fields_allowed

    from hardware import modes

    top = modes.worst(modes.frames(profile, wiring, "3A", brightness=255))
    dflt = modes.worst(modes.frames(profile, wiring, "3A", brightness=160))
    rest = wiring["POWER_REST_MA"]
    head = "| %s mode | LEDs at 255, unlimited | at 160 (default) | needs (255, + rest) |" % rev
    sep = "| --- | --- | --- | --- |"
    for name, ma in power.SUPPLIES:
        head += " %s: LEDs / total |" % name
        sep += " --- |"
    lines = [head, sep]
    for mode in modes.MODES:
        w = top[mode][0]
        row = "| %s | %d mA | %d mA | %d mA |" % (mode, w, dflt[mode][0], w + rest)
        for name, ma in power.SUPPLIES:
            lim = power.led_budget(ma, rest)
            if lim < power.LED_DARK_MA * circuit.layout()["leds"]:
                # too little for the dark LEDs: the strip stays switched
                # off, and no more RF fields on at once than the supply
                # carries (smartboard/power.py fields_allowed)
                n = wiring["RF_FIELDS"]
                on = fields_allowed(ma, rest, n, wiring["RF_FIELD_MA"])
                drawn = rest - (n - on) * wiring["RF_FIELD_MA"]
                ok = "ok" if drawn <= ma else "OVER"
                row += " off / %d mA %s (%d of %d RF fields at once) |" % (drawn, ok, on, n)
                continue
            drawn = min(w, lim)
            ok = "ok" if drawn + rest <= ma else "OVER"
            row += " %d / %d mA %s |" % (drawn, drawn + rest, ok)
        lines.append(row)
    return "\n".join(lines)


def blocks_svg():
    """The block diagram, drawn as boxes and wires (no graphviz needed)."""
    boxes = {
        "usb": (20, 40, "USB-C receptacle", "Rd 5.1 k on CC1, CC2"),
        "fuse": (20, 140, "PTC fuse 5 A hold", "MF-RG500-2"),
        "buck": (20, 240, "buck 3.3 V", "TLV62569"),
        "sw": (20, 340, "load switch", "TPS22965, slow ramp"),
        "mcu": (300, 190, "RP2040", "W25Q16 flash, 12 MHz"),
        "cc": (300, 40, "CC sense divider", "to GPIO29 / ADC3"),
        "btn": (300, 340, "buttons", "MODE CONFIRM DECLARE"),
        "buf": (580, 340, "74AHCT1G125", "3.3 -> 5 V, 330 R"),
        "strip": (580, 440, "61 x WS2812B", "strip: 470 uF, 100 nF each"),
        "pad": (580, 40, "pad PN532", "I2C1, its antenna"),
        "a": (860, 140, "rev A: TCA9548A", "I2C0 -> 4 x PN532"),
        "a2": (860, 240, "4 x CD74HC4514", "MOSFETs, 16 antennas each"),
        "b": (860, 340, "rev B: 8 x 74HC165", "SPI0, 61 reeds"),
    }
    wires = [
        ("usb", "fuse", "VBUS"),
        ("fuse", "buck", "+5V"),
        ("buck", "mcu", "+3V3"),
        ("sw", "strip", "+5V_LED"),
        ("usb", "cc", "CC1, CC2"),
        ("cc", "mcu", "ADC"),
        ("usb", "mcu", "D+ D-"),
        ("btn", "mcu", ""),
        ("mcu", "buf", "GPIO16"),
        ("buf", "strip", "DIN"),
        ("mcu", "pad", "I2C1"),
        ("mcu", "a", "I2C0"),
        ("a", "a2", "RF"),
        ("mcu", "a2", "S0..S3"),
        ("mcu", "b", "SPI0 + latch"),
    ]
    w, h = 220, 64
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="530" '
        'font-family="sans-serif" font-size="13">',
        '<rect width="1100" height="530" fill="white"/>',
        '<defs><marker id="a" markerWidth="8" markerHeight="8" refX="7" refY="4" '
        'orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#444"/></marker></defs>',
    ]
    for a, b, label in wires:
        xa, ya = boxes[a][0] + w / 2, boxes[a][1] + h / 2
        xb, yb = boxes[b][0] + w / 2, boxes[b][1] + h / 2
        # from box edge to box edge along the line between centres
        dx, dy = xb - xa, yb - ya
        ta = min(abs((w / 2) / dx) if dx else 9, abs((h / 2) / dy) if dy else 9)
        x1, y1 = xa + dx * ta, ya + dy * ta
        x2, y2 = xb - dx * ta, yb - dy * ta
        out.append(
            '<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#444" '
            'marker-end="url(#a)"/>' % (x1, y1, x2, y2)
        )
        if label:
            out.append(
                '<text x="%.0f" y="%.0f" fill="#036" text-anchor="middle">%s</text>'
                % ((x1 + x2) / 2, (y1 + y2) / 2 - 4, label)
            )
    # +5V from the fuse to the load switch, round the buck on the left
    out.append(
        '<polyline points="20,180 8,180 8,380 18,380" fill="none" stroke="#444" '
        'marker-end="url(#a)"/>'
    )
    for key, (x, y, title, sub) in boxes.items():
        fill = "#fff4d6" if key in ("a", "a2", "b") else "#e8f0ff"
        out.append(
            '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="%s" stroke="#345"/>'
            % (x, y, w, h, fill)
        )
        out.append(
            '<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text>'
            % (x + w / 2, y + 27, title)
        )
        out.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % (x + w / 2, y + 47, sub))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def readme_text(infos, text):
    """hardware/README.md's text with its generated parts (between
    <!-- gen:NAME --> and <!-- /gen:NAME -->) made afresh from the
    revisions' outputs."""
    by = dict(infos)
    parts = {
        "pins": readme_pins([by["rev_a"]["wiring"], by["rev_b"]["wiring"]]),
        "bom": readme_bom(infos),
        "rest": "\n\n".join(readme_rest(rev, i["netlist"]) for rev, i in infos),
        "power": "\n\n".join(
            readme_power(rev, i["wiring"]["PROFILE"], i["wiring"]) for rev, i in infos
        ),
    }
    for name, body in parts.items():
        a, b = "<!-- gen:%s -->" % name, "<!-- /gen:%s -->" % name
        if a not in text:
            continue
        i, j = text.index(a) + len(a), text.index(b)
        text = text[:i] + "\n" + body + "\n" + text[j:]
    return text


def write_readme(infos):
    """Fill hardware/README.md's generated parts and write hardware/blocks.svg."""
    path = os.path.join(ROOT, "hardware", "README.md")
    with open(path) as f:
        text = readme_text(infos, f.read())
    with open(path, "w") as f:
        f.write(text)
    with open(os.path.join(ROOT, "hardware", "blocks.svg"), "w") as f:
        f.write(blocks_svg())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("revs", nargs="*", default=sorted(circuit.REVISIONS))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    import contextlib

    quiet = contextlib.redirect_stderr(io.StringIO())  # SKiDL's library notes
    quiet.__enter__()
    stale = []
    bad = False
    infos = []
    for rev in args.revs:
        files, msgs, info = outputs(rev)
        infos.append((rev, info))
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
    if not args.check and len(infos) == len(circuit.REVISIONS):
        write_readme(infos)
    return 1 if bad or (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Rev A's antenna network in ngspice: one reader's matching, its feed,
the selected cell's switches, run and coil, and the switched-off cells.

Every value is read from rev A's netlist (hardware/rev_a/rev_a.net, made
from tools/hardware/circuit.py): the PN532's EMC filter and matching
(pn532()), the feed inductors, each cell's series capacitors and
switches, and each run's length (the Run field, circuit.run_mm). The
copper's own model (coil, trace pair) and the switch's are in parts.py
(COIL_MODEL, RUN_MODEL, DMG1012T.fields). docs/hardware/antenna-switching.md
explains the design and lists the figures this module prints.

    python -m tools.hardware.antenna [--tune]   (or tools/hardware/antenna.py)

prints, for the shortest and the longest run, the resonance, the Q and
what the switched-off coils do to them. ngspice runs in batch mode
(`ngspice -b`), one deck per case; AC analysis only (small signal).
--tune prints the series capacitance that tunes the shortest and the
longest run exactly (circuit.CS_IDEAL)."""

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if os.path.join(ROOT, "tools") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "tools"))

from hardware import circuit, netlist  # noqa: E402
from hardware import parts as P  # noqa: E402

F0 = 13.56e6
# Targets the test holds the figures to (docs/hardware/antenna-switching.md):
# the TX load's resonance within 2 % of 13.56 MHz (the capacitors' 2 %
# tolerance that NXP's PN544 antenna design guide AN145715, section 2, asks
# of C1 and C2), the antenna's Q in 20..35 (that guide's calculation sheet
# aims at 30; a higher Q stretches ISO/IEC 14443 A's modulation pauses,
# section 8.3 there), the switched-off coils shifting it by under 0.5 %.
F_TOL = 0.02
Q_MIN, Q_MAX = 20.0, 35.0
DETUNE_MAX = 0.005
SWEEP = (11.0e6, 16.5e6, 2201)

_SCALE = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6, "": 1.0}


def value(text):
    """'33p' -> 3.3e-11, '560n' -> 5.6e-07, '4.7k' -> 4700.0 (a tolerance
    after a space, '270p 2%', is not part of it)"""
    m = re.match(r"^([\d.]+)([pnumkM]?)$", text.split()[0])
    if not m:
        raise ValueError("not a value: %r" % text)
    return float(m.group(1)) * _SCALE[m.group(2)]


def ngspice():
    return shutil.which("ngspice")


# ---- the network, read from the netlist ------------------------------------------
class Cell:
    def __init__(self, name, channel, run_mm, cs_a, cs_b):
        self.name, self.channel, self.run_mm = name, channel, run_mm
        self.cs_a, self.cs_b = cs_a, cs_b  # the series capacitors, farads


class Reader:
    """One reader's RF path: per leg TX -> L0 -> (C0) -> C1 -> bus (C2) ->
    feed inductors -> feed node -> a switch per cell -> run -> Cs -> coil."""

    def __init__(self, k, l0, c0, c1, c2, feed, cells):
        self.k = k
        self.l0, self.c0, self.c1, self.c2 = l0, c0, c1, c2
        self.feed = feed  # the feed inductors in series on each leg, henries
        self.cells = cells  # [Cell], by channel


def _two_pin(nl, ref):
    return nl.net_of.get((ref, "1")), nl.net_of.get((ref, "2"))


def _parts_between(nl, a, b, part):
    out = []
    for ref, _ in nl.on(a, part):
        if b in _two_pin(nl, ref):
            out.append(ref)
    return out


def _one(nl, a, b, part):
    got = _parts_between(nl, a, b, part)
    if len(got) != 1:
        raise netlist.WiringError("%d %s between %s and %s" % (len(got), part, a, b))
    return value(nl.comps[got[0]]["value"])


def _chain(nl, start, part, stop):
    """Two-pin parts of one kind in series from net start until a net
    named by stop(net): their values and the last net."""
    vals, net, seen = [], start, set()
    while not stop(net):
        nxt = [r for r, _ in nl.on(net, part) if r not in seen]
        if len(nxt) != 1:
            raise netlist.WiringError("a chain of %s from %s breaks at %s" % (part, start, net))
        seen.add(nxt[0])
        vals.append(value(nl.comps[nxt[0]]["value"]))
        net = nl.other_end(nxt[0], net)
    return vals, net


def readers(text=None):
    """{k: Reader} from rev A's netlist text (default: the committed file)."""
    if text is None:
        with open(os.path.join(ROOT, "hardware", "rev_a", "rev_a.net")) as f:
            text = f.read()
    nl = netlist.Netlist(text)
    out = {}
    for k in range(4):
        name = "READER%d" % k
        tx, emc = name + "_TX1", name + "_TX1_EMC"
        ant, feed = name + "_ANT_P", name + "_FEED_P"
        l0 = _one(nl, tx, emc, "L")
        c0 = _one(nl, emc, "GND", "C")
        c1 = _one(nl, emc, ant, "C")
        c2 = _one(nl, ant, "GND", "C")
        lf, _ = _chain(nl, ant, "L", lambda n: n == feed)
        cells = []
        for ref, pin in nl.on(feed, P.DMG1012T.name):
            if pin != "D":
                continue
            run_a = nl.net(ref, "S")
            # the run's far end: its series capacitor to the coil
            (cs,) = [r for r, _ in nl.on(run_a, "C")]
            coil_a = nl.other_end(cs, run_a)
            (coil,) = [r for r, _ in nl.on(coil_a, "Antenna_Coil")]
            f = nl.comps[coil]["fields"]
            coil_b = nl.other_end(coil, coil_a)
            (cs_b,) = [r for r, _ in nl.on(coil_b, "C")]
            cells.append(
                Cell(
                    f["Cell"],
                    int(f["Channel"]),
                    float(f["Run"]),
                    value(nl.comps[cs]["value"]),
                    value(nl.comps[cs_b]["value"]),
                )
            )
        cells.sort(key=lambda c: c.channel)
        out[k] = Reader(k, l0, c0, c1, c2, sum(lf), cells)
    return out


# ---- the deck ----------------------------------------------------------------------
def _fet():
    f = P.DMG1012T.fields
    return f["rds_on_ohm"], f["coss_f"], f["crss_f"], f["ciss_f"]


def _run(lines, tag, a, b, mm, segs=4):
    """A trace pair of mm millimetres from nodes a, b to (tag_a_end,
    tag_b_end): segs sections of series R/2 L/2 on each leg, the pair's
    capacitance across and each leg's to ground."""
    m = P.RUN_MODEL
    d = mm / segs
    for s in range(segs):
        na, nb = "%s_a%d" % (tag, s + 1), "%s_b%d" % (tag, s + 1)
        for leg, x, y in (("a", a, na), ("b", b, nb)):
            mid = "%s_%s%dm" % (tag, leg, s)
            lines.append("L%s_%s%d %s %s %.6g" % (tag, leg, s, x, mid, m["l_per_mm"] * d / 2))
            lines.append("R%s_%s%d %s %s %.6g" % (tag, leg, s, mid, y, m["r_per_mm"] * d / 2))
            lines.append("C%s_g%s%d %s 0 %.6g" % (tag, leg, s, y, m["c_gnd_per_mm"] * d))
        lines.append("C%s_x%d %s %s %.6g" % (tag, s, na, nb, m["c_pair_per_mm"] * d))
        a, b = na, nb
    return a, b


def _coil(lines, tag, a, b, sense):
    c = P.COIL_MODEL
    mid = "%s_cm" % tag
    top = a
    if sense:
        lines.append("V%s %s %s_cs 0" % (tag, a, tag))
        top = "%s_cs" % tag
    lines.append("L%s %s %s %.6g" % (tag, top, mid, c["l"]))
    lines.append("R%s %s %s %.6g" % (tag, mid, b, c["r"]))
    lines.append("C%s_p %s %s %.6g" % (tag, a, b, c["c"]))
    return "L%s" % tag


def _branch(lines, tag, cell, on, sense):
    """Feed node -> switch (on: Rds(on); off: its capacitances) -> run ->
    Cs -> coil, on both legs."""
    ron, coss, crss, ciss = _fet()
    ends = []
    for leg, feed in (("a", "fa"), ("b", "fb")):
        s = "%s_s%s" % (tag, leg)
        if on:
            lines.append("R%s_q%s %s %s %.6g" % (tag, leg, feed, s, ron))
            # the channel's charge to the gate, held by the decoder's output
            lines.append("C%s_g%s %s 0 %.6g" % (tag, leg, s, ciss))
        else:
            lines.append("C%s_q%s %s %s %.6g" % (tag, leg, feed, s, coss))
            lines.append("C%s_d%s %s 0 %.6g" % (tag, leg, feed, crss))
            lines.append("C%s_g%s %s 0 %.6g" % (tag, leg, s, ciss - crss))
        ends.append(s)
    ra, rb = _run(lines, tag + "r", ends[0], ends[1], cell.run_mm)
    lines.append("C%s_sa %s %s_ca %.6g" % (tag, ra, tag, cell.cs_a))
    lines.append("C%s_sb %s %s_cb %.6g" % (tag, rb, tag, cell.cs_b))
    return _coil(lines, tag + "L", tag + "_ca", tag + "_cb", sense)


def deck(reader, selected, off=True, neighbour=None, k_couple=0.0, out="out.txt"):
    """The ngspice deck: the reader's TX driven differentially at the PN532's
    fundamental, the selected cell switched on, the others off (off=False:
    left out), neighbour coupled to the selected coil by k_couple."""
    d = P.TX_MODEL
    amp = d["tvdd"] * 2 / math.pi  # a 0..TVDD square wave's fundamental, per leg
    ln = ["* APIXAGON rev A reader %d, cell %s" % (reader.k, selected.name)]
    ln.append("V1 tx1 0 AC %.6g 0" % amp)
    ln.append("V2 tx2 0 AC %.6g 180" % amp)
    ql = d["inductor_q"]
    w = 2 * math.pi * F0
    for leg, tx in (("a", "tx1"), ("b", "tx2")):
        ln.append("Rtx%s %s t%s %.6g" % (leg, tx, leg, d["r_out"]))
        ln.append("L0%s t%s l0%s %.6g" % (leg, leg, leg, reader.l0))
        ln.append("Rl0%s l0%s e%s %.6g" % (leg, leg, leg, w * reader.l0 / ql))
        ln.append("C0%s e%s 0 %.6g" % (leg, leg, reader.c0))
        ln.append("C1%s e%s bus%s %.6g" % (leg, leg, leg, reader.c1))
        ln.append("C2%s bus%s 0 %.6g" % (leg, leg, reader.c2))
        ln.append("VF%s bus%s lf%s 0" % (leg, leg, leg))
        ln.append("LF%s lf%s rf%s %.6g" % (leg, leg, leg, reader.feed))
        ln.append("RF%s rf%s f%s %.6g" % (leg, leg, leg, w * reader.feed / ql))
        # the feed's DC reference (circuit.py: a bias resistor per leg)
        ln.append("RB%s f%s 0 100k" % (leg, leg))
    sel = _branch(ln, "X", selected, True, True)
    nb = None
    for i, c in enumerate(reader.cells):
        if c is selected:
            continue
        if not off and c is not neighbour:
            continue
        name = _branch(ln, "O%d" % i, c, False, c is neighbour)
        if c is neighbour:
            nb = name
    if nb and k_couple:
        ln.append("KN %s %s %.6g" % (sel, nb, k_couple))
    f1, f2, n = SWEEP
    vecs = "v(tx1,tx2) i(v1) i(vxl) v(busa,busb) i(vfa) v(fa) v(fb)"
    if nb:
        vecs += " i(v%s) v(%s_sa)" % (nb[1:].lower(), nb[1:-1].lower())
    ln += [
        ".control",
        "set filetype=ascii",
        "set wr_singlescale",
        "set wr_vecnames",
        "ac lin %d %.6g %.6g" % (n, f1, f2),
        "wrdata %s %s" % (out, vecs),
        "quit",
        ".endc",
        ".end",
    ]
    return "\n".join(ln) + "\n"


def simulate(text):
    """Run a deck; {vector name: [complex]} with 'frequency' real."""
    exe = ngspice()
    if exe is None:
        raise RuntimeError("ngspice is not installed (Debian: apt-get install ngspice)")
    with tempfile.TemporaryDirectory(prefix="apixagon-ngspice-") as d:
        with open(os.path.join(d, "deck.cir"), "w") as f:
            f.write(text)
        r = subprocess.run(
            [exe, "-b", "deck.cir"], cwd=d, capture_output=True, text=True, timeout=120
        )
        path = os.path.join(d, "out.txt")
        if r.returncode != 0 or not os.path.exists(path):
            raise RuntimeError("ngspice failed:\n" + r.stdout[-2000:] + r.stderr[-2000:])
        with open(path) as f:
            rows = f.read().split("\n")
    head = rows[0].split()
    names = [head[i] for i in range(1, len(head), 2)]
    out = {"frequency": []}
    for n in names:
        out[n] = []
    for row in rows[1:]:
        v = row.split()
        if not v:
            continue
        out["frequency"].append(float(v[0]))
        for i, n in enumerate(names):
            out[n].append(complex(float(v[1 + 2 * i]), float(v[2 + 2 * i])))
    return out


# ---- the figures ---------------------------------------------------------------------
def _at(freq, ys, f):
    i = min(range(len(freq)), key=lambda j: abs(freq[j] - f))
    return ys[i]


def _resonance(freq, z):
    """The zero crossing of the TX load's reactance nearest 13.56 MHz
    (linear interpolation between sweep points); None if there is none."""
    best = None
    for i in range(len(freq) - 1):
        a, b = z[i].imag, z[i + 1].imag
        if a == 0 or (a < 0) != (b < 0):
            f = freq[i] + (freq[i + 1] - freq[i]) * (a / (a - b) if a != b else 0)
            if best is None or abs(f - F0) < abs(best - F0):
                best = f
    return best


def _peak(freq, y):
    """The magnitude's peak and its -3 dB bandwidth: (f_peak, Q)."""
    mag = [abs(v) for v in y]
    i = max(range(len(mag)), key=mag.__getitem__)
    half = mag[i] / math.sqrt(2)
    lo = next((j for j in range(i, -1, -1) if mag[j] < half), None)
    hi = next((j for j in range(i, len(mag)) if mag[j] < half), None)
    if lo is None or hi is None:
        return freq[i], None
    return freq[i], freq[i] / (freq[hi] - freq[lo])


def figures(reader, cell, off=True, neighbour=None, k_couple=0.0):
    r = simulate(deck(reader, cell, off, neighbour, k_couple))
    fq = r["frequency"]
    z_tx = [v / -i for v, i in zip(r["v(tx1,tx2)"], r["i(v1)"])]
    z_ant = [v / i for v, i in zip(r["v(busa,busb)"], r["i(vfa)"])]
    f_peak, q_sys = _peak(fq, r["i(vxl)"])
    za = _at(fq, z_ant, F0)
    out = {
        "cell": cell.name,
        "run_mm": cell.run_mm,
        "cs_pf": (round(cell.cs_a * 1e12, 1), round(cell.cs_b * 1e12, 1)),
        "f_res": _resonance(fq, z_tx),
        "z_tx": _at(fq, z_tx, F0),
        "q_ant": za.imag / za.real,
        "f_peak": f_peak,
        "q_sys": q_sys,
        "i_coil_ma": abs(_at(fq, r["i(vxl)"], F0)) * 1e3,
        "v_feed": max(abs(_at(fq, r["v(fa)"], F0)), abs(_at(fq, r["v(fb)"], F0))),
    }
    if neighbour is not None:
        i = reader.cells.index(neighbour)
        out["i_neighbour_ma"] = abs(_at(fq, r["i(vo%dl)" % i], F0)) * 1e3
        # the swing across a switched-off MOSFET (feed to its source)
        out["v_off_ds"] = abs(_at(fq, r["v(fa)"], F0) - _at(fq, r["v(o%d_sa)" % i], F0))
    return out


def feed_bias():
    """The feed's DC level (circuit.FEED_BIAS divider from 3.3 V), volts."""
    top, bottom = (value(v) for v in circuit.FEED_BIAS)
    return P.TX_MODEL["tvdd"] * bottom / (top + bottom)


def tune(reader, cell, lo=150e-12, hi=600e-12, steps=16):
    """The series capacitance per leg (equal legs) that puts the cell's TX
    load resonance at 13.56 MHz, the others as built: a bisection, as
    circuit.CS_IDEAL was found. (More capacitance: more inductive, lower.)"""
    keep = cell.cs_a, cell.cs_b
    try:
        for _ in range(steps):
            mid = (lo * hi) ** 0.5
            cell.cs_a = cell.cs_b = mid
            if figures(reader, cell)["f_res"] > F0:
                lo = mid
            else:
                hi = mid
    finally:
        cell.cs_a, cell.cs_b = keep
    return (lo * hi) ** 0.5


def extremes(rd):
    """The cells of the shortest and the longest run over all readers:
    [(Reader, Cell), (Reader, Cell)]."""
    allc = [(r, c) for r in rd.values() for c in r.cells]
    return [min(allc, key=lambda x: x[1].run_mm), max(allc, key=lambda x: x[1].run_mm)]


def nearest_off(reader, cell):
    """The reader's other cell nearest the selected one (the coil a tag's
    field couples to most)."""
    x, y = circuit.cell_xy(cell.name)

    def dist(c):
        cx, cy = circuit.cell_xy(c.name)
        return math.hypot(cx - x, cy - y)

    return min((c for c in reader.cells if c is not cell), key=dist)


def report(rd=None):
    """The figures of the shortest and the longest run: each with every
    other coil of its reader switched off, alone (no other coil at all),
    and with its nearest switched-off neighbour coupled by
    P.COIL_MODEL['k_neighbour']."""
    rd = rd or readers()
    rows = []
    for reader, cell in extremes(rd):
        base = figures(reader, cell)
        alone = figures(reader, cell, off=False)
        nb = nearest_off(reader, cell)
        near = figures(reader, cell, neighbour=nb, k_couple=P.COIL_MODEL["k_neighbour"])
        base["detune_off"] = (base["f_res"] - alone["f_res"]) / alone["f_res"]
        base["q_alone"] = alone["q_ant"]
        base["neighbour"] = nb.name
        base["detune_neighbour"] = (near["f_res"] - base["f_res"]) / base["f_res"]
        base["q_neighbour"] = near["q_ant"]
        base["i_neighbour_ratio"] = near["i_neighbour_ma"] / near["i_coil_ma"]
        # the switches' margins: the selected one's least VGS (the
        # decoder's 3.3 V over the feed's bias and swing), and how far a
        # switched-off one's body diode stays reverse-biased at the peak
        base["vgs_on_min"] = P.TX_MODEL["tvdd"] - feed_bias() - base["v_feed"]
        base["v_body_reverse"] = feed_bias() - near["v_off_ds"]
        rows.append(base)
    return rows


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--tune"]:
        # what circuit.CS_IDEAL holds: the shortest and the longest run's value
        rd = readers()
        for reader, cell in extremes(rd):
            print("run %.0f mm: %.1f pF a leg" % (cell.run_mm, tune(reader, cell) * 1e12))
        return
    for r in report():
        print(
            "cell %s run %.0f mm Cs %g/%g pF: f_res %.4f MHz, Q_ant %.1f (no other coil: "
            "%.1f), coil current peak %.3f MHz Q_sys %.1f, I_coil %.0f mA, feed %.2f V; "
            "the off coils shift f_res %+.2f %%, the neighbour %s coupled %+.3f %% (Q %.1f, "
            "its current %.1f %% of the coil's)"
            % (
                r["cell"],
                r["run_mm"],
                r["cs_pf"][0],
                r["cs_pf"][1],
                r["f_res"] / 1e6,
                r["q_ant"],
                r["q_alone"],
                r["f_peak"] / 1e6,
                r["q_sys"],
                r["i_coil_ma"],
                r["v_feed"],
                100 * r["detune_off"],
                r["neighbour"],
                100 * r["detune_neighbour"],
                r["q_neighbour"],
                100 * r["i_neighbour_ratio"],
            )
        )
        print(
            "  Z_TX at 13.56 MHz: %.1f %+.1fj ohm; switches: VGS on >= %.2f V, "
            "off body diode reverse by %.2f V"
            % (r["z_tx"].real, r["z_tx"].imag, r["vgs_on_min"], r["v_body_reverse"])
        )


if __name__ == "__main__":
    main()

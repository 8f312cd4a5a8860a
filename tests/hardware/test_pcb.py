"""Rev B's PCB (hardware/rev_b/rev_b.kicad_pcb, tools/hardware/pcb.py) and
its fabrication set (hardware/rev_b/fab/, tools/hardware/fab.py): KiCad's
own DRC clean, its nets the netlist's, its power copper sized for the
LEDs' current, the files a fab and an assembler take."""

import csv
import os
import re
import subprocess
import zipfile

import pytest

from hardware import power, sexpr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REV_B = os.path.join(ROOT, "hardware", "rev_b")
PCB = os.path.join(REV_B, "rev_b.kicad_pcb")
NETLIST = os.path.join(REV_B, "rev_b.net")
FAB = os.path.join(REV_B, "fab")
KICAD_PY = "/usr/bin/python3"  # Debian's, with KiCad 6's pcbnew


def _has_pcbnew():
    try:
        r = subprocess.run([KICAD_PY, "-c", "import pcbnew"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


needs_kicad = pytest.mark.skipif(
    not _has_pcbnew(),
    reason="KiCad 6's pcbnew is missing (Debian's kicad package: "
    "make test installs it with apt-get where it can)",
)


@pytest.fixture(scope="module")
def board():
    with open(PCB) as f:
        return sexpr.parse(f.read())


def _pads(board):
    """{(ref, pad number): net name} of the board's footprints."""
    out = {}
    for fp in sexpr.find(board, "footprint"):
        ref = None
        for t in sexpr.find(fp, "fp_text"):
            if t[1] == "reference":
                ref = t[2]
        for p in sexpr.find(fp, "pad"):
            net = sexpr.first(p, "net")
            out.setdefault((ref, p[1]), set()).add(net[2] if net else None)
    return out


def test_the_pcbs_nets_are_the_netlists(board):
    comps, nets = sexpr.read_netlist(open(NETLIST).read())
    pads = _pads(board)
    placed = {ref for ref, _ in pads}
    assert placed - {r for r in placed if r.startswith("H")} == set(comps)
    want = {}
    for name, nodes in nets.items():
        for ref, pin in nodes:
            want[(ref, pin)] = name
    got = {}
    for (ref, num), names in pads.items():
        names.discard(None)
        if not names:
            continue
        assert len(names) == 1, (ref, num, names)
        got[(ref, num)] = names.pop()
    # the USB-C's stacked pads stand for one netlist pin each ('A1B12')
    for (ref, pin), name in list(want.items()):
        halves = re.findall(r"[AB]\d+", pin)
        if (ref, pin) not in got and len(halves) == 2:
            for h in halves:
                assert got.pop((ref, h), None) == name, (ref, pin, h)
            del want[(ref, pin)]
    assert got == want


def test_the_supply_tracks_carry_the_boards_current(board):
    # IPC-2221's outer-layer width for the most the board draws (the 3 A
    # supply's budget: the LEDs' share and the rest), 1 oz copper, 20 degC
    # rise; a narrower stretch only as a neck at a pad (pcb.py NECK_MM,
    # NECK_LEN_MM). The LEDs' own current runs in the In2 plane.
    most = power.SUPPLIES[-1][1] * 0.9 / 1000.0
    area = (most / (0.048 * 20**0.44)) ** (1 / 0.725)
    need = area / 1.378 * 0.0254  # mm
    codes = {n[2]: n[1] for n in sexpr.find(board, "net") if len(n) > 2}
    supply = {codes[n] for n in ("+5V", "VBUS", "+5V_LED") if n in codes}
    segs = [s for s in sexpr.find(board, "segment") if sexpr.value(s, "net") in supply]
    assert segs, "no supply tracks on the board"
    wide = 0
    for s in segs:
        w = float(sexpr.value(s, "width"))
        a = [float(v) for v in sexpr.first(s, "start")[1:3]]
        b = [float(v) for v in sexpr.first(s, "end")[1:3]]
        length = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        if w >= need:
            wide += 1
        else:
            # a neck: within 1.5 mm of a pad's edge, from inside the pad
            assert w >= 0.25 and length <= 1.5 + 1.0, (w, length, a, need)
    assert wide, need
    # the planes: ground on In1, the LEDs' 5 V on In2
    zones = {
        (sexpr.value(z, "layer"), sexpr.value(z, "net_name")) for z in sexpr.find(board, "zone")
    }
    assert ("In1.Cu", "GND") in zones and ("In2.Cu", "+5V_LED") in zones, zones


def _drc(tmp_path):
    report = tmp_path / "drc.txt"
    code = (
        "import pcbnew\n"
        "b = pcbnew.LoadBoard(%r)\n"
        "pcbnew.WriteDRCReport(b, %r, pcbnew.EDA_UNITS_MILLIMETRES, True)\n" % (PCB, str(report))
    )
    r = subprocess.run([KICAD_PY, "-c", code], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    text = report.read_text()
    v = int(re.search(r"\*\* Found (\d+) DRC violations \*\*", text).group(1))
    u = int(re.search(r"\*\* Found (\d+) unconnected pads \*\*", text).group(1))
    return v, u, text


@needs_kicad
def test_kicads_drc_is_clean(tmp_path):
    """The board a maker orders: KiCad's own DRC on the committed file, 0
    violations and 0 unconnected pads, and the committed report says so."""
    v, u, text = _drc(tmp_path)
    assert (v, u) == (0, 0), text[:3000]
    committed = open(os.path.join(REV_B, "drc.txt")).read()
    assert "** Found 0 DRC violations **" in committed
    assert "** Found 0 unconnected pads **" in committed


def test_the_fabrication_set_is_complete():
    with zipfile.ZipFile(os.path.join(FAB, "rev_b-gerbers.zip")) as z:
        names = z.namelist()
    for layer in (
        "F_Cu",
        "In1_Cu",
        "In2_Cu",
        "B_Cu",
        "F_Mask",
        "B_Mask",
        "F_Paste",
        "F_SilkS",
        "Edge_Cuts",
    ):
        assert any(layer in n and n.endswith(".gbr") for n in names), (layer, names)
    assert any(n.endswith(".drl") for n in names), names
    comps, _ = sexpr.read_netlist(open(NETLIST).read())
    with open(os.path.join(FAB, "rev_b-cpl.csv")) as f:
        cpl = list(csv.DictReader(f))
    assert list(cpl[0]) == ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
    placed = {r["Designator"] for r in cpl}
    # every part bought (bom.csv) is placed; the coil and the test pad are copper
    bought = set()
    with open(os.path.join(REV_B, "bom.csv")) as f:
        for row in csv.DictReader(f):
            for part in row["reference"].split():
                m = re.match(r"([A-Z]+)(\d+)-([A-Z]+)(\d+)$", part)
                if m:
                    bought |= {
                        "%s%d" % (m.group(1), k)
                        for k in range(int(m.group(2)), int(m.group(4)) + 1)
                    }
                elif re.match(r"[A-Z]+\d+$", part):
                    bought.add(part)
    assert bought and bought <= set(comps)
    assert placed == bought
    with open(os.path.join(FAB, "rev_b-bom-assembly.csv")) as f:
        bom = list(csv.DictReader(f))
    assert list(bom[0]) == [
        "Comment",
        "Designator",
        "Footprint",
        "Manufacturer",
        "MPN",
        "Supplier",
        "Supplier Part Number",
    ]
    in_bom = set()
    for r in bom:
        assert r["MPN"] and r["MPN"] != "-", r
        in_bom |= set(r["Designator"].split(","))
    assert in_bom == bought


def test_the_schematic_drawing_is_the_netlists():
    from hardware import schematic

    with open(NETLIST) as f:
        want = schematic.drawing(f.read(), "rev_b")
    with open(os.path.join(REV_B, "schematic.svg")) as f:
        assert f.read() == want, "hardware/rev_b/schematic.svg is stale: run make hardware"

"""Rev B's PCB from its netlist, with KiCad 6's pcbnew (Debian's python3):

    /usr/bin/python3 tools/hardware/pcb.py [--no-route] [--out DIR]

1. reads hardware/rev_b/rev_b.net (what circuit.py made), loads each
   part's footprint from KiCad's library (hardware/footprints for ours:
   the action pad's antenna, written here), gives its pads their nets and
   places it (pcb_place.py: the cells on the hex grid, each block's chips
   in its corner and their small parts beside the pins they serve);
2. joins each surface pad of the two planes' nets (ground, the LEDs' 5 V)
   to a via into its plane;
3. routes every other net with pcb_route (A* with negotiated congestion),
   the USB supply's nets at POWER_MM on one layer;
4. adds the stitching vias and the zones, saves, pours them (KiCad's
   zone filler), runs KiCad's DRC: hardware/rev_b/rev_b.kicad_pcb and
   drc.txt. tools/hardware/fab.py writes the fabrication set from it.

Routing takes a few minutes: `make hardware` runs this only when the
netlist or the generator changed; tests/hardware/test_pcb.py checks the
committed board (KiCad's DRC, nets equal to the netlist's, the copper for
the current)."""

import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pcb_place as L  # noqa: E402
import pcbnew  # noqa: E402  (Debian's KiCad 6: /usr/bin/python3)
import sexpr  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
KICAD_FP = os.environ.get("KICAD6_FOOTPRINT_DIR", "/usr/share/kicad/footprints")
OUR_FP = os.path.join(ROOT, "hardware", "footprints")
NETLIST = os.path.join(ROOT, "hardware", "rev_b", "rev_b.net")
OUT = os.path.join(ROOT, "hardware", "rev_b")
CENTRE = (250.0, 250.0)  # the board's centre on KiCad's page, mm

# Four layers: signals on the outer two, ground on In1 and the LEDs' 5 V on
# In2 as planes (and ground poured on the outer layers between tracks).
# The LEDs' current, at most the 3 A supply's budget (power.led_budget,
# ~2.6 A), then spreads over a 400 mm wide plane instead of a track; where
# it enters the plane (the load switch's output, the 470 uF) VIAS_PER_PAD
# vias share it: IPC-2221's I = k x dT^0.44 x A^0.725 (A in square mils,
# k = 0.024 inside a board) gives a 0.3 mm via's plated barrel (25 um:
# 0.0236 mm2, 36.5 mil2) 1.2 A at a 20 degC rise.
# Signals 0.2 mm at 0.15 mm clearance, any fab's standard class; the
# router keeps 0.19 mm, room for its diagonal steps on a 0.2 mm grid. The
# USB supply's own nets (VBUS, +5V: all of the board's current) are
# tracks of POWER_MM: IPC-2221's outer-layer rule (k = 0.048) gives 1 oz
# copper (1.378 mil) 0.78 mm for 2.7 A at a 20 degC rise; 1.0 mm leaves
# margin.
SIGNAL_MM = 0.2
CLEARANCE_MM = 0.15
ROUTE_CLEAR_MM = 0.19
GRID_MM = 0.2
EDGE_MM = 0.5  # copper kept this far from the board's edge
POWER_MM = 1.0
POWER_NETS = ("VBUS", "+5V")
RAILS = ("VBUS", "+5V", "+5V_LED", "+3V3", "+1V1", "GND")
PLANES = ("GND", "+5V_LED")
VIAS_PER_PAD = 3  # where the strip's current enters its plane
# The LEDs' plane is fed by a POWER_MM track from the load switch's output
# (a 2 x 2 mm package: no room for its vias) to the 470 uF, whose pad takes
# VIAS_PER_PAD vias into the plane.
FEEDS = {"+5V_LED": ("TPS22965", "470u")}
FEED = "~feed"
# Where a power track meets a small pad between others it narrows to
# NECK_MM for at most NECK_LEN_MM from the pad, the width of the load
# switch's own 0.25 mm pins (a 2 x 2 mm package rated 4 A): IPC-2221's
# width is for a run of track; a neck this short adds ~2 mOhm.
NECK_MM = 0.25
NECK_LEN_MM = 1.5
# negotiated congestion: at most ROUNDS passes; a crossing's price grows
# by PRICE_GROWTH a round, a crossed cell's history by HISTORY
# (the first price makes crossing a track dearer than the two vias that go
# under it)
ROUNDS = 60
SEARCH_LIMIT = 150_000  # cells an A* search may look at before it gives up
PRICE_START = 30.0
PRICE_GROWTH = 2.2
HISTORY = 10.0
# when this few nets still cross, each is routed again with a search this
# wide (an A* at a high price fans out far before it takes the detour)
LEGALIZE_AT = 6
LEGALIZE_LIMIT = 2_000_000
VIA_MM, VIA_DRILL_MM = 0.6, 0.3
STITCH_MM = 12.0
GND = "GND"


def mm(v):
    return pcbnew.FromMM(v)


def at(x, y):
    return pcbnew.wxPointMM(CENTRE[0] + x, CENTRE[1] + y)


# ---- footprints -----------------------------------------------------------------
def coil_footprint(path, side=30.0, turns=4, width=0.5, gap=0.5):
    """The action pad's antenna: a square spiral of `turns` on the top
    copper, outer end pad 1, inner end pad 2 (plated, reached from the
    bottom layer). NXP AN1445's rules: a few turns of ~0.5 mm track, the
    coil's inductance then set by its size. A net tie (tags "net tie"):
    the spiral joins its two pads on purpose."""
    pitch = width + gap
    pts = []
    x0, y0, x1, y1 = -side / 2, -side / 2, side / 2, side / 2
    pts.append((x0, y1))
    for _ in range(turns):
        pts += [(x0, y0), (x1, y0), (x1, y1)]
        x0 += pitch
        pts.append((x0, y1 - pitch))
        y0 += pitch
        x1 -= pitch
        y1 -= pitch
    lines = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        lines.append(
            '  (fp_line (start %.3f %.3f) (end %.3f %.3f) (layer "F.Cu") (width %.3f))'
            % (ax, ay, bx, by, width)
        )
    ex, ey = pts[-1]
    sx, sy = pts[0]
    h = side / 2 + 1
    text = """(footprint "NFC_Coil_Cell_30mm" (version 20211014) (generator apixagon_pcb)
  (layer "F.Cu")
  (descr "NFC antenna, %d-turn square spiral %.0f mm, %.2f mm track, %.2f mm gap \
(NXP AN1445); written by tools/hardware/pcb.py")
  (tags "net tie nfc antenna")
  (attr smd exclude_from_pos_files exclude_from_bom)
  (fp_text reference "REF**" (at 0 %.2f) (layer "F.SilkS") \
(effects (font (size 1 1) (thickness 0.15))))
  (fp_text value "NFC_Coil" (at 0 %.2f) (layer "F.Fab") \
(effects (font (size 1 1) (thickness 0.15))))
%s
  (fp_line (start %.2f %.2f) (end %.2f %.2f) (layer "F.CrtYd") (width 0.05))
  (fp_line (start %.2f %.2f) (end %.2f %.2f) (layer "F.CrtYd") (width 0.05))
  (fp_line (start %.2f %.2f) (end %.2f %.2f) (layer "F.CrtYd") (width 0.05))
  (fp_line (start %.2f %.2f) (end %.2f %.2f) (layer "F.CrtYd") (width 0.05))
  (pad "1" smd rect (at %.3f %.3f) (size 1 1) (layers "F.Cu" "F.Mask"))
  (pad "2" thru_hole circle (at %.3f %.3f) (size 0.9 0.9) (drill 0.4) (layers *.Cu *.Mask))
)
""" % (
        turns,
        side,
        width,
        gap,
        -h - 1,
        h + 1,
        "\n".join(lines),
        -h,
        -h,
        h,
        -h,
        h,
        -h,
        h,
        h,
        h,
        h,
        -h,
        h,
        -h,
        h,
        -h,
        -h,
        sx,
        sy + 0.5,
        ex,
        ey,
    )
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def load_fp(lib_name):
    lib, name = lib_name.split(":")
    if lib == "apixagon":
        path = os.path.join(OUR_FP, "apixagon.pretty")
    else:
        path = os.path.join(KICAD_FP, lib + ".pretty")
    fp = pcbnew.FootprintLoad(path, name)
    if fp is None:
        raise SystemExit("pcb: no footprint %s in %s" % (name, path))
    return fp


def pads_for(fp, pin):
    """The footprint's pads for a netlist pin: by number, or a USB-C pin
    that stands for two stacked pads ('A1B12')."""
    got = [p for p in fp.Pads() if p.GetNumber() == pin]
    if not got:
        names = re.findall(r"[AB]\d+", pin)
        if len(names) > 1:
            got = [p for p in fp.Pads() if p.GetNumber() in names]
    return got


# ---- building the board -----------------------------------------------------------
def build(comps, nets):
    board = pcbnew.BOARD()
    ds = board.GetDesignSettings()
    ds.SetCopperLayerCount(4)
    ds.m_CopperEdgeClearance = mm(EDGE_MM - 0.1)
    nc = ds.GetNetClasses().GetDefault()
    nc.SetTrackWidth(mm(SIGNAL_MM))
    nc.SetClearance(mm(CLEARANCE_MM))
    nc.SetViaDiameter(mm(VIA_MM))
    nc.SetViaDrill(mm(VIA_DRILL_MM))
    power = pcbnew.NETCLASSPTR("Power")
    power.SetTrackWidth(mm(POWER_MM))
    power.SetClearance(mm(CLEARANCE_MM))
    power.SetViaDiameter(mm(1.0))
    power.SetViaDrill(mm(0.5))
    ds.GetNetClasses().Add(power)

    netinfo = {}
    for i, name in enumerate(sorted(nets), 1):
        ni = pcbnew.NETINFO_ITEM(board, name, i)
        board.Add(ni)
        netinfo[name] = ni
        if name in POWER_NETS:
            power.NetNames().insert(name)
    board.SynchronizeNetsAndNetClasses()

    outline(board)
    fps = {}
    for ref, c in comps.items():
        fp = load_fp(c["footprint"])
        fp.SetReference(ref)
        fp.SetValue(c["value"])
        fps[ref] = fp
    for name, nodes in nets.items():
        for ref, pin in nodes:
            got = pads_for(fps[ref], pin)
            if not got:
                raise SystemExit("pcb: %s has no pad %s (%s)" % (ref, pin, comps[ref]["footprint"]))
            for p in got:
                p.SetNet(netinfo[name])
    place(board, comps, fps)
    for i, (x, y) in enumerate(L.HOLES, 1):
        h = load_fp("MountingHole:MountingHole_3.2mm_M3")
        h.SetReference("H%d" % i)
        h.SetPosition(at(x, y))
        board.Add(h)
    cell_silk(board)
    return board, netinfo


def segment(board, a, b, layer, width):
    """A drawn line (not copper of a net) from a to b, mm from the centre."""
    s = pcbnew.PCB_SHAPE(board)
    s.SetShape(pcbnew.SHAPE_T_SEGMENT)
    s.SetStart(at(*a))
    s.SetEnd(at(*b))
    s.SetLayer(layer)
    s.SetWidth(mm(width))
    board.Add(s)


def outline(board):
    corners = [(L.X0, L.Y0), (L.X1, L.Y0), (L.X1, L.Y1), (L.X0, L.Y1)]
    for a, b in zip(corners, corners[1:] + corners[:1]):
        segment(board, a, b, pcbnew.Edge_Cuts, 0.1)


def cell_silk(board):
    """The cells drawn on the silkscreen, where the cards go, with their
    names; a line is broken where it would run over a part (the fab
    clips silkscreen off pads, but a part's outline should stay readable).
    The parts' references go on the assembly layer (F.Fab, drawn in the
    assembled board's picture): at this density they would cover pads."""
    boxes = []
    for fp in board.GetFootprints():
        fp.Reference().SetLayer(pcbnew.F_Fab)
        b = fp.GetBoundingBox(False, False)
        x0, y0 = pcbnew.ToMM(b.GetX()), pcbnew.ToMM(b.GetY())
        boxes.append(
            (
                x0 - 0.6,
                y0 - 0.6,
                x0 + pcbnew.ToMM(b.GetWidth()) + 0.6,
                y0 + pcbnew.ToMM(b.GetHeight()) + 0.6,
            )
        )

    def clear(x, y):
        return not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)

    def line(a, b):
        n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.25))
        run = None
        for k in range(n + 1):
            x = a[0] + (b[0] - a[0]) * k / n
            y = a[1] + (b[1] - a[1]) * k / n
            ok = clear(CENTRE[0] + x, CENTRE[1] + y)
            if ok and run is None:
                run = (x, y)
            if (not ok or k == n) and run is not None:
                end = (
                    (x, y)
                    if ok
                    else (a[0] + (b[0] - a[0]) * (k - 1) / n, a[1] + (b[1] - a[1]) * (k - 1) / n)
                )
                if math.hypot(end[0] - run[0], end[1] - run[1]) > 0.5:
                    segment(board, run, end, pcbnew.F_SilkS, 0.2)
                run = None

    for name in cell_names():
        x, y = L.cell_xy(name)
        pts = [
            (
                x + L.R * math.cos(math.radians(90 + 60 * k)),
                y + L.R * math.sin(math.radians(90 + 60 * k)),
            )
            for k in range(6)
        ]
        for a, b in zip(pts, pts[1:] + pts[:1]):
            line(a, b)
        t = pcbnew.PCB_TEXT(board)
        t.SetText(name)
        # below the reed, or above the LED where a part sits there (A1's
        # neighbour, the RP2040's block)
        ly = y + L.R * 0.62
        corners = [(x + dx, ly + dy) for dx in (-3.5, 3.5) for dy in (-1.8, 1.8)]
        if not all(clear(CENTRE[0] + cx, CENTRE[1] + cy) for cx, cy in corners):
            ly = y - L.R * 0.62
        t.SetPosition(at(x, ly))
        t.SetLayer(pcbnew.F_SilkS)
        t.SetTextSize(pcbnew.wxSizeMM(2.5, 2.5))
        t.SetTextThickness(mm(0.3))
        board.Add(t)


def cell_names():
    out = []
    for i, row in enumerate(L.ROWS):
        lo = 1 if i < 4 else i - 3
        hi = 5 + i if i < 4 else 9
        out += ["%s%d" % (row, c) for c in range(lo, hi + 1)]
    return out


def put(board, fp, x, y, rot=0):
    fp.SetPosition(at(x, y))
    fp.SetOrientationDegrees(rot)
    board.Add(fp)


def place(board, comps, fps):
    groups = {}
    # the cells each register reads: its reed switches' cells
    reeds = {ref: c for ref, c in comps.items() if c["fields"].get("Channel") is not None}
    for ref, c in reeds.items():
        groups.setdefault(int(c["fields"]["Channel"]) // 8, []).append(c["fields"]["Cell"])
    spots = L.register_spots({r: cells for r, cells in groups.items() if cells})
    packed = {}
    fixed = []
    for ref in sorted(comps, key=ref_key):
        c = comps[ref]
        f = c["fields"]
        fp = fps[ref]
        cell = f.get("Cell")
        if ref.startswith("AE"):
            put(board, fp, *L.COIL_AT)
            fixed.append(_box(fp, 1.0))
        elif c["footprint"].startswith("Connector_USB:"):
            put(board, fp, *L.USB_AT)
            fixed.append(_box(fp, 1.0))
        elif cell and c["footprint"].startswith("LED_SMD:"):
            x, y = L.cell_xy(cell)
            put(board, fp, x + L.CELL_LED[0], y + L.CELL_LED[1], L.CELL_LED[2])
        elif cell and ref.startswith("C"):
            x, y = L.cell_xy(cell)
            put(board, fp, x + L.CELL_CAP[0], y + L.CELL_CAP[1], L.CELL_CAP[2])
        elif cell and ref.startswith("SW"):
            x, y = L.cell_xy(cell)
            put(board, fp, x + L.CELL_REED[0], y + L.CELL_REED[1], L.CELL_REED[2])
        elif "Register" in f:
            r = int(f["Register"])
            x, y = spots[r]
            if ref.startswith("RN"):
                put(board, fp, x, y - 4.5, 0)
            elif ref.startswith("U"):
                put(board, fp, x, y + 5.0, 90)
            else:
                put(board, fp, x + 8.0, y + 5.0, 90)
        else:
            packed.setdefault(f.get("Block", "board"), []).append(ref)
    for block, refs in packed.items():
        # the block's chips and connectors packed in its region, then each
        # two-pin part beside the pin it serves (a layout engineer's
        # first move: decoupling at its supply pin, a series resistor at
        # its signal), which keeps the router's work short and local
        big = [r for r in refs if not _two_pin(fps[r])]
        small = [r for r in refs if _two_pin(fps[r])]
        region = L.REGIONS[block]
        # the chip with most pins in the middle of its region, the others
        # as near it as they fit: its pins get room on every side
        big.sort(key=lambda r: -len(fps[r].Pads()))
        cx, cy = (region[0] + region[2]) / 2, (region[1] + region[3]) / 2
        placed = []
        for ref in big:
            fp = fps[ref]
            board.Add(fp)
            for x, y in L.spiral(cx, cy, region):
                fp.SetPosition(at(x, y))
                b = fp.GetBoundingBox(False, False)
                c = b.GetCenter()
                want = at(x, y)
                fp.Move(pcbnew.wxPoint(want.x - c.x, want.y - c.y))
                box = _box(fp, L.BIG_GAP / 2)
                inside = (
                    box[0] >= CENTRE[0] + region[0] - L.BIG_GAP / 2
                    and box[2] <= CENTRE[0] + region[2] + L.BIG_GAP / 2
                )
                inside = (
                    inside
                    and box[1] >= CENTRE[1] + region[1] - L.BIG_GAP / 2
                    and box[3] <= CENTRE[1] + region[3] + L.BIG_GAP / 2
                )
                if inside and not any(_overlaps(box, o) for o in placed + fixed):
                    placed.append(box)
                    break
            else:
                raise SystemExit("pcb: no room for %s in block %s" % (ref, block))
        satellites(board, [fps[r] for r in big], [fps[r] for r in small], region, fixed)
    # every part on the router's grid: a fine-pitch part's pins then lie
    # on its lines (the RP2040's 0.4 mm pitch has no room to spare)
    g = mm(GRID_MM)
    for fp in fps.values():
        p = fp.GetPosition()
        fp.SetPosition(pcbnew.wxPoint(int(round(p.x / g)) * g, int(round(p.y / g)) * g))


def _two_pin(fp):
    return len(fp.Pads()) == 2 and fp.GetReference()[0] in "RCL"


def _box(fp, grow=0.0):
    b = fp.GetBoundingBox(False, False)
    x0, y0 = pcbnew.ToMM(b.GetX()), pcbnew.ToMM(b.GetY())
    return (
        x0 - grow,
        y0 - grow,
        x0 + pcbnew.ToMM(b.GetWidth()) + grow,
        y0 + pcbnew.ToMM(b.GetHeight()) + grow,
    )


def _overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def satellites(board, anchors, parts, region, fixed=()):
    """Each two-pin part placed outward of the anchor pin it shares a net
    with (a signal net before a supply one; a supply pin not yet served
    before one that is), turned to point along the way out, clear of the
    parts already down (SAT_GAP); the region's free corner if none fits."""
    placed = [_box(fp, L.SAT_GAP / 2) for fp in anchors] + list(fixed)
    served = set()
    rx0, ry0, rx1, ry1 = (
        CENTRE[0] + region[0],
        CENTRE[1] + region[1],
        CENTRE[0] + region[2],
        CENTRE[1] + region[3],
    )
    for fp in parts:
        nets = [p.GetNetname() for p in fp.Pads()]
        choices = []
        for a in anchors:
            ax, ay = _xy(a.GetPosition())
            for p in a.Pads():
                if p.GetNetname() in nets and p.GetNetname() not in ("GND", ""):
                    signal = p.GetNetname() not in RAILS
                    px, py = _xy(p.GetPosition())
                    key = (not signal, (a.GetReference(), p.GetNumber()) in served)
                    choices.append((key, a, p, ax, ay, px, py))
        choices.sort(key=lambda c: c[0])
        done = False
        for _, a, p, ax, ay, px, py in choices:
            dx, dy = px - ax, py - ay
            if abs(dx) >= abs(dy):
                ux, uy, rot = (1 if dx > 0 else -1), 0, 0
            else:
                ux, uy, rot = 0, (1 if dy > 0 else -1), 90
            for step in range(0, 12):
                for side in (0, 1.6, -1.6, 3.2, -3.2):
                    d = 2.2 + step * 1.6
                    x = px + ux * d + (uy * side)
                    y = py + uy * d + (ux * side)
                    fp.SetOrientationDegrees(rot)
                    fp.SetPosition(pcbnew.wxPointMM(x, y))
                    box = _box(fp, L.SAT_GAP / 2)
                    if box[0] < rx0 - 6 or box[2] > rx1 + 6 or box[1] < ry0 - 6 or box[3] > ry1 + 6:
                        continue
                    if any(_overlaps(box, b) for b in placed):
                        continue
                    placed.append(box)
                    served.add((a.GetReference(), p.GetNumber()))
                    done = True
                    break
                if done:
                    break
            if done:
                break
        y = ry0
        while not done and y < ry1:
            x = rx0
            while not done and x < rx1:
                fp.SetOrientationDegrees(0)
                fp.SetPosition(pcbnew.wxPointMM(x, y))
                box = _box(fp, L.SAT_GAP / 2)
                if box[2] <= rx1 and box[3] <= ry1 and not any(_overlaps(box, b) for b in placed):
                    placed.append(box)
                    done = True
                x += 1.0
            y += 1.0
        if not done:
            raise SystemExit("pcb: no room for %s in its block" % fp.GetReference())
        if fp.GetParent() is None:
            board.Add(fp)


def ref_key(ref):
    m = re.match(r"([A-Z]+)(\d+)", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


# ---- routing --------------------------------------------------------------------
def _xy(p):
    return pcbnew.ToMM(p.x), pcbnew.ToMM(p.y)


def pad_shape(p, inner=False):
    """A pad's copper as the router's rectangle (a round pad as its square:
    a little more room than needed, never less); inner: the rectangle
    inside it, where a track may end (a round pad's inscribed one)."""
    x, y = _xy(p.GetPosition())
    w, h = pcbnew.ToMM(p.GetSize().x), pcbnew.ToMM(p.GetSize().y)
    if inner and p.GetShape() in (pcbnew.PAD_SHAPE_CIRCLE, pcbnew.PAD_SHAPE_OVAL):
        r = min(w, h) / 2
        w, h = w - 2 * r * (1 - 0.7), h - 2 * r * (1 - 0.7)
    return ("rect", x, y, w / 2, h / 2, -p.GetOrientationDegrees())


def pad_layers(p):
    if p.GetAttribute() in (pcbnew.PAD_ATTRIB_PTH, pcbnew.PAD_ATTRIB_NPTH):
        return (0, 1)
    return (0,) if p.IsOnLayer(pcbnew.F_Cu) else (1,)


def power_net(name):
    return name in POWER_NETS or name.endswith(FEED)


def route(board, netinfo):
    """Every net but the planes through pcb_route (see there), the supply
    nets at POWER_MM on one layer (no via in their path); the joins left
    undone, as words."""
    import time

    import pcb_route as R

    t0 = time.time()
    box = (CENTRE[0] + L.X0, CENTRE[1] + L.Y0, CENTRE[0] + L.X1, CENTRE[1] + L.Y1)
    kinds = {"sig": SIGNAL_MM / 2, "neck": NECK_MM / 2, "pwr": POWER_MM / 2, "via": VIA_MM / 2}
    rt = R.Router(box, GRID_MM, ROUTE_CLEAR_MM, kinds)
    ids = {name: i for i, name in enumerate(sorted(netinfo), 1)}
    x0, y0, x1, y1 = box
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        rt.add_fixed(R.OBSTACLE, (0, 1), ("seg", a[0], a[1], b[0], b[1], EDGE_MM))
    pads = {}
    owners = {}
    for fp in board.GetFootprints():
        for p in fp.Pads():
            name = p.GetNetname()
            nid = ids.get(name, R.OBSTACLE) if name else R.OBSTACLE
            shape = pad_shape(p)
            if p.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                hx = pcbnew.ToMM(p.GetDrillSize().x) / 2
                shape = ("circle", shape[1], shape[2], max(hx, shape[3]))
            rt.add_fixed(nid, pad_layers(p), shape)
            if name:
                key = name
                if name in FEEDS and fp.GetValue() in FEEDS[name]:
                    key = name + FEED  # the plane's feed: a track, not vias
                pads.setdefault(key, []).append((pad_shape(p, inner=True), pad_layers(p)))
                owners.setdefault(key, []).append(fp.GetReference())
        # the antenna's turns: copper of no net but its first stretch (pad 1's)
        first = True
        for g in fp.GraphicalItems():
            if g.GetLayer() != pcbnew.F_Cu:
                continue
            ax, ay = _xy(g.GetStart())
            bx, by = _xy(g.GetEnd())
            hw = pcbnew.ToMM(g.GetWidth()) / 2
            one = [p for p in fp.Pads() if p.GetNumber() == "1"]
            owner = ids.get(one[0].GetNetname(), R.OBSTACLE) if first and one else R.OBSTACLE
            rt.add_fixed(owner, (0,), ("seg", ax, ay, bx, by, hw))
            first = False

    # what is already down: the planes' vias and their stubs
    for t in board.GetTracks():
        nid = ids[t.GetNetname()]
        if t.Type() == pcbnew.PCB_VIA_T:
            x, y = _xy(t.GetPosition())
            rt.add_fixed(nid, (0, 1), ("circle", x, y, pcbnew.ToMM(t.GetWidth()) / 2))
        else:
            ax, ay = _xy(t.GetStart())
            bx, by = _xy(t.GetEnd())
            layer = 0 if t.GetLayer() == pcbnew.F_Cu else 1
            rt.add_fixed(nid, (layer,), ("seg", ax, ay, bx, by, pcbnew.ToMM(t.GetWidth()) / 2))

    def span(name):
        xs = [s[1] for s, _ in pads[name]]
        ys = [s[2] for s, _ in pads[name]]
        return (max(xs) - min(xs)) + (max(ys) - min(ys))

    todo = [n for n in pads if n not in PLANES and len(pads[n]) > 1]
    # the supply first, then the nets that tie many parts together across
    # the board (the registers' clock and latch, 3.3 V), longest first,
    # before the two-pin links that would hem their pins in; these then
    # shortest first
    todo.sort(
        key=lambda n: (
            not power_net(n),
            len(pads[n]) < 4,
            span(n) * (-1 if len(pads[n]) >= 4 else 1),
        )
    )
    necks = {}
    for name in todo:
        if power_net(name):
            necks[name] = set()
            for s_, _ in pads[name]:
                necks[name] |= rt.near(s_, NECK_LEN_MM)
    print(
        "pcb: routing %d nets (the grid set up in %.0f s)" % (len(todo), time.time() - t0),
        flush=True,
    )

    def route_one(name, price, limit=SEARCH_LIMIT):
        """Rip a net and route it again at this crossing price, each join
        searching up to limit cells before it goes through other nets
        cheaply; its joins not found."""
        tn = time.time()
        rt.rip(name)
        nid = ids[name.replace(FEED, "")]
        kind = "pwr" if power_net(name) else "sig"
        width = POWER_MM if kind == "pwr" else SIGNAL_MM
        neck = necks.get(name, set())
        items = pads[name]
        centres = [(s_[1], s_[2]) for s_, _ in items]
        half = (POWER_MM if kind == "pwr" else SIGNAL_MM) / 2
        inset = NECK_MM / 2 if kind == "pwr" else half
        cells = [
            [(L_, i, j) for L_ in lays for i, j in rt.pad_cells(s_, inset)] for s_, lays in items
        ]
        own = {i * rt.W + j for s_, _ in items for i, j in rt.cells_in(s_)}
        tree = set(cells[0])
        lost = []
        for a, b in R.prim_order(centres, owners[name]):
            args = (nid, kind, cells[a], tree, rt.cell(*centres[b]))
            opts = dict(
                via_kind="via" if kind == "sig" else None, neck=neck, neck_kind="neck", own=own
            )
            path = rt.connect(*args, price=price, limit=limit, **opts)
            if path is None:
                # hemmed in by other nets' tracks: through them cheaply,
                # and the next round moves them (their crossing costs)
                path = rt.connect(*args, price=1.0, limit=4 * SEARCH_LIMIT, **opts)
            if path is None:
                lost.append((centres[a][0] - CENTRE[0], centres[a][1] - CENTRE[1]))
                continue
            rt.commit(name, path, kind, width, VIA_MM / 2, neck, "neck", NECK_MM, own)
            tree.update(path)
            tree.update(cells[a])
        if time.time() - tn > 3:
            print("pcb:   %s took %.0f s" % (name, time.time() - tn), flush=True)
        return lost

    def crossings():
        got = []
        for name in todo:
            bad = rt.crossed(name)
            if bad:
                got.append((name, bad))
        return got

    failed = {}
    price = PRICE_START
    best = None
    best_words = []
    again = todo
    for rnd in range(1, ROUNDS + 1):
        failed = {}
        for name in again:
            lost = route_one(name, price)
            if lost:
                failed[name] = lost
        crossing = []
        for name, bad in crossings():
            crossing.append(name)
            for Lx, k in bad:
                rt.hview[Lx][k] += HISTORY
        if 0 < len(crossing) <= LEGALIZE_AT and not failed:
            # the last few crossings: each such net again (fewest pads
            # first) with a search wide enough to find the long way round,
            # where the rounds' narrower search gave up and went through
            for name in sorted(crossing, key=lambda n: len(pads[n])):
                if not rt.crossed(name):
                    continue
                lost = route_one(name, price * PRICE_GROWTH, limit=LEGALIZE_LIMIT)
                if lost:
                    failed[name] = lost
            crossing = [n for n, _ in crossings()]
        print(
            "pcb: round %d: %d nets routed again, %d still cross another, "
            "%d joins not found (%.0f s)"
            % (
                rnd,
                len(again),
                len(crossing),
                sum(len(v) for v in failed.values()),
                time.time() - t0,
            ),
            flush=True,
        )
        score = len(crossing) + len(failed)
        if best is None or score < best[0]:
            # the best round's tracks are the board's: the rounds can
            # wander apart again before they settle
            best = (
                score,
                {k: list(v) for k, v in rt.tracks.items()},
                {k: list(v) for k, v in rt.vias.items()},
            )
            best_words = ["%s crosses another net" % n for n in crossing]
            best_words += [
                "%s at (%.1f, %.1f)" % (n, x, y) for n, got in failed.items() for x, y in got
            ]
        if not crossing and not failed:
            break
        again = sorted(set(crossing) | set(failed), key=todo.index)
        price *= PRICE_GROWTH
    for name, segs in best[1].items():
        net = netinfo[name.replace(FEED, "")]
        for layer, ax, ay, bx, by, width in segs:
            if (ax, ay) == (bx, by):
                continue
            t = pcbnew.PCB_TRACK(board)
            t.SetStart(pcbnew.wxPointMM(ax, ay))
            t.SetEnd(pcbnew.wxPointMM(bx, by))
            t.SetWidth(mm(width))
            t.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
            t.SetNet(net)
            board.Add(t)
    for name, vias in best[2].items():
        for x, y in vias:
            _via(board, netinfo[name.replace(FEED, "")], x, y)
    words = best_words
    return words


# ---- ground ---------------------------------------------------------------------
class Obstacles:
    """The copper already on the board, other than ground, in 5 mm buckets:
    where a ground via and its stub may go."""

    CELL = 5.0

    def __init__(self, board, gnd_code):
        self.buckets = {}
        self.gnd = gnd_code
        for t in board.GetTracks():
            if t.GetNetCode() == gnd_code:
                continue
            if t.Type() == pcbnew.PCB_VIA_T:
                x, y = self._xy(t.GetPosition())
                r = pcbnew.ToMM(t.GetWidth()) / 2
                self._add((x - r, y - r, x + r, y + r), ("c", x, y, r, (0, 1)))
            else:
                ax, ay = self._xy(t.GetStart())
                bx, by = self._xy(t.GetEnd())
                hw = pcbnew.ToMM(t.GetWidth()) / 2
                layer = 0 if t.GetLayer() == pcbnew.F_Cu else 1
                self._add(
                    (min(ax, bx) - hw, min(ay, by) - hw, max(ax, bx) + hw, max(ay, by) + hw),
                    ("s", ax, ay, bx, by, hw, (layer,)),
                )
        for fp in board.GetFootprints():
            for p in fp.Pads():
                if p.GetNetCode() == gnd_code and p.GetNetCode() != 0:
                    continue
                bb = p.GetBoundingBox()
                x0, y0 = self._xy(bb.GetOrigin())
                x1, y1 = self._xy(bb.GetEnd())
                layers = []
                if p.IsOnLayer(pcbnew.F_Cu):
                    layers.append(0)
                if p.IsOnLayer(pcbnew.B_Cu):
                    layers.append(1)
                if p.GetAttribute() in (pcbnew.PAD_ATTRIB_PTH, pcbnew.PAD_ATTRIB_NPTH):
                    layers = [0, 1]
                self._add((x0, y0, x1, y1), ("r", x0, y0, x1, y1, tuple(layers)))
        # the coil's spiral (footprint copper, no pad)
        for fp in board.GetFootprints():
            for g in fp.GraphicalItems():
                if g.GetLayer() == pcbnew.F_Cu:
                    ax, ay = self._xy(g.GetStart())
                    bx, by = self._xy(g.GetEnd())
                    hw = pcbnew.ToMM(g.GetWidth()) / 2
                    self._add(
                        (min(ax, bx) - hw, min(ay, by) - hw, max(ax, bx) + hw, max(ay, by) + hw),
                        ("s", ax, ay, bx, by, hw, (0,)),
                    )

    @staticmethod
    def _xy(p):
        return pcbnew.ToMM(p.x), pcbnew.ToMM(p.y)

    def _keys(self, box):
        c = self.CELL
        for i in range(int(box[0] // c), int(box[2] // c) + 1):
            for j in range(int(box[1] // c), int(box[3] // c) + 1):
                yield i, j

    def _add(self, box, item):
        for k in self._keys(box):
            self.buckets.setdefault(k, []).append(item)

    def near(self, box):
        seen = set()
        for k in self._keys(box):
            for it in self.buckets.get(k, ()):
                if id(it) not in seen:
                    seen.add(id(it))
                    yield it

    def free_segment(self, ax, ay, bx, by, hw, layers, clear):
        box = (
            min(ax, bx) - hw - clear,
            min(ay, by) - hw - clear,
            max(ax, bx) + hw + clear,
            max(ay, by) + hw + clear,
        )
        for it in self.near(box):
            if not set(it[-1]) & set(layers):
                continue
            if it[0] == "c":
                d = _seg_point(ax, ay, bx, by, it[1], it[2])
                if d < hw + it[3] + clear:
                    return False
            elif it[0] == "s":
                d = _seg_seg(ax, ay, bx, by, it[1], it[2], it[3], it[4])
                if d < hw + it[5] + clear:
                    return False
            else:
                d = _seg_rect(ax, ay, bx, by, it[1], it[2], it[3], it[4])
                if d < hw + clear:
                    return False
        return True

    def add_via(self, x, y, r):
        self._add((x - r, y - r, x + r, y + r), ("c", x, y, r, (0, 1)))

    def add_segment(self, ax, ay, bx, by, hw, layer):
        self._add(
            (min(ax, bx) - hw, min(ay, by) - hw, max(ax, bx) + hw, max(ay, by) + hw),
            ("s", ax, ay, bx, by, hw, (layer,)),
        )


def _seg_point(ax, ay, bx, by, px, py):
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(ax + t * dx - px, ay + t * dy - py)


def _seg_seg(ax, ay, bx, by, cx, cy, dx, dy):
    def cross(ox, oy, px, py, qx, qy):
        return (px - ox) * (qy - oy) - (py - oy) * (qx - ox)

    d1 = cross(cx, cy, dx, dy, ax, ay)
    d2 = cross(cx, cy, dx, dy, bx, by)
    d3 = cross(ax, ay, bx, by, cx, cy)
    d4 = cross(ax, ay, bx, by, dx, dy)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)):
        return 0.0
    return min(
        _seg_point(ax, ay, bx, by, cx, cy),
        _seg_point(ax, ay, bx, by, dx, dy),
        _seg_point(cx, cy, dx, dy, ax, ay),
        _seg_point(cx, cy, dx, dy, bx, by),
    )


def _seg_rect(ax, ay, bx, by, x0, y0, x1, y1):
    if x0 <= ax <= x1 and y0 <= ay <= y1 or x0 <= bx <= x1 and y0 <= by <= y1:
        return 0.0
    edges = ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0))
    return min(_seg_seg(ax, ay, bx, by, *e) for e in edges)


def fanout(board, netinfo, name, vias_for):
    """Each surface pad of a plane's net gets vias_for(pad) short stubs to
    vias into the plane, where the copper leaves room; the pads no via
    could reach (none on a good placement)."""
    net = netinfo[name]
    code = net.GetNetCode()
    obs = Obstacles(board, code)
    clear = CLEARANCE_MM + 0.02
    r = VIA_MM / 2
    stuck = []
    done = set()
    for fp in board.GetFootprints():
        for p in fp.Pads():
            if p.GetNetCode() != code or p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH:
                continue
            want = vias_for(fp, p)
            px, py = Obstacles._xy(p.GetPosition())
            spot = (round(px, 3), round(py, 3))
            if not want or spot in done:
                continue  # fed by a track, or a stacked pad already joined
            done.add(spot)
            w, h = pcbnew.ToMM(p.GetSize().x), pcbnew.ToMM(p.GetSize().y)
            stub = max(0.2, min(0.4, w, h))
            got = 0
            if w >= 2.5 and h >= 2.5:
                # an exposed pad: its vias inside it (thermal vias)
                for dx, dy in ((0, 0), (-0.8, -0.8), (0.8, 0.8), (-0.8, 0.8), (0.8, -0.8))[
                    : max(want, 1)
                ]:
                    _via(board, net, px + dx, py + dy)
                    obs.add_via(px + dx, py + dy, r)
                continue
            if _to_exposed_pad(board, net, obs, fp, p, px, py, stub, clear):
                continue
            half = math.hypot(w, h) / 2
            # outward first (away from the part's middle): the vias then
            # keep out of the channels between a part and its neighbours
            fx, fy = Obstacles._xy(fp.GetPosition())
            out = math.atan2(py - fy, px - fx) if (px, py) != (fx, fy) else 0.0
            if len(fp.Pads()) > 4:
                # a chip's pin: straight out of its side, not across its
                # neighbours' way out
                out = round(out / (math.pi / 2)) * (math.pi / 2)
            turns = [0] + [k * sgn for k in range(1, 13) for sgn in (1, -1)][:23]
            # a chip's via well clear of its pins: its neighbours' tracks
            # leave the row beside its stub and turn away before the via
            reach = (
                (1.6, 2.0, 2.6, 3.3) if len(fp.Pads()) > 4 else (0.5, 0.8, 1.1, 1.5, 2.0, 2.6, 3.3)
            )
            for d in reach:
                for k in turns:
                    a = out + 2 * math.pi * k / 24
                    vx = px + (half + d) * math.cos(a)
                    vy = py + (half + d) * math.sin(a)
                    bx, by = vx - CENTRE[0], vy - CENTRE[1]
                    if not (L.X0 + 1 < bx < L.X1 - 1 and L.Y0 + 1 < by < L.Y1 - 1):
                        continue
                    if not obs.free_segment(vx, vy, vx, vy, r, (0, 1), clear):
                        continue
                    if not obs.free_segment(px, py, vx, vy, stub / 2, (0,), clear):
                        continue
                    _via(board, net, vx, vy)
                    t = pcbnew.PCB_TRACK(board)
                    t.SetStart(pcbnew.wxPointMM(px, py))
                    t.SetEnd(pcbnew.wxPointMM(vx, vy))
                    t.SetWidth(mm(stub))
                    t.SetLayer(pcbnew.F_Cu)
                    t.SetNet(net)
                    board.Add(t)
                    obs.add_via(vx, vy, r)
                    obs.add_segment(px, py, vx, vy, stub / 2, 0)
                    got += 1
                    if got >= want:
                        break
                if got >= want:
                    break
            if got < want:
                stuck.append("%s.%s" % (fp.GetReference(), p.GetNumber()))
    return stuck


def _to_exposed_pad(board, net, obs, fp, pad, px, py, stub, clear):
    """Join a chip's pin to its own exposed pad of the same net by a short
    track under the chip (the exposed pad has the vias): a ground pin
    between signal pins then puts no via in their way out (the PN532's
    TVSS pins sit between TX1, TVDD and TX2). True when joined."""
    for ep in fp.Pads():
        ew, eh = pcbnew.ToMM(ep.GetSize().x), pcbnew.ToMM(ep.GetSize().y)
        if ep is pad or ep.GetNetCode() != pad.GetNetCode() or ew < 2.5 or eh < 2.5:
            continue
        ex, ey = Obstacles._xy(ep.GetPosition())
        # the nearest point 0.3 mm inside the exposed pad's edge
        tx = min(max(px, ex - ew / 2 + 0.3), ex + ew / 2 - 0.3)
        ty = min(max(py, ey - eh / 2 + 0.3), ey + eh / 2 - 0.3)
        if not obs.free_segment(px, py, tx, ty, stub / 2, (0,), clear):
            continue
        t = pcbnew.PCB_TRACK(board)
        t.SetStart(pcbnew.wxPointMM(px, py))
        t.SetEnd(pcbnew.wxPointMM(tx, ty))
        t.SetWidth(mm(stub))
        t.SetLayer(pcbnew.F_Cu)
        t.SetNet(net)
        board.Add(t)
        obs.add_segment(px, py, tx, ty, stub / 2, 0)
        return True
    return False


def _via(board, net, x, y):
    v = pcbnew.PCB_VIA(board)
    v.SetPosition(pcbnew.wxPointMM(x, y))
    v.SetWidth(mm(VIA_MM))
    v.SetDrill(mm(VIA_DRILL_MM))
    v.SetNet(net)
    board.Add(v)


def planes(board, netinfo):
    """Ground poured on F.Cu, In1 and B.Cu, the LEDs' 5 V on In2, stitched
    by a ground via every STITCH_MM where the copper leaves room; none of
    them under the action pad's antenna (a plane there would carry eddy
    currents against its field: NXP AN1445)."""
    gnd = netinfo["GND"]
    obs = Obstacles(board, gnd.GetNetCode())
    r = VIA_MM / 2
    y = L.Y0 + 4
    while y < L.Y1 - 4:
        x = L.X0 + 4
        while x < L.X1 - 4:
            vx, vy = CENTRE[0] + x, CENTRE[1] + y
            if not in_coil(x, y) and obs.free_segment(
                vx, vy, vx, vy, r, (0, 1), ROUTE_CLEAR_MM + 0.3
            ):
                _via(board, gnd, vx, vy)
                obs.add_via(vx, vy, r)
            x += STITCH_MM
        y += STITCH_MM
    for layer, name in (
        (pcbnew.F_Cu, "GND"),
        (pcbnew.In1_Cu, "GND"),
        (pcbnew.In2_Cu, "+5V_LED"),
        (pcbnew.B_Cu, "GND"),
    ):
        z = pcbnew.ZONE(board)
        z.SetLayer(layer)
        z.SetNet(netinfo[name])
        z.SetLocalClearance(mm(0.3))
        z.SetMinThickness(mm(0.25))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        z.SetThermalReliefGap(mm(0.3))
        z.SetThermalReliefSpokeWidth(mm(0.4))
        ol = z.Outline()
        ol.NewOutline()
        e = EDGE_MM
        for x, y in (
            (L.X0 + e, L.Y0 + e),
            (L.X1 - e, L.Y0 + e),
            (L.X1 - e, L.Y1 - e),
            (L.X0 + e, L.Y1 - e),
        ):
            ol.Append(mm(CENTRE[0] + x), mm(CENTRE[1] + y))
        board.Add(z)
    k = pcbnew.ZONE(board)
    k.SetIsRuleArea(True)
    k.SetDoNotAllowCopperPour(True)
    k.SetDoNotAllowVias(False)
    k.SetDoNotAllowTracks(False)
    k.SetDoNotAllowPads(False)
    k.SetDoNotAllowFootprints(False)
    ls = pcbnew.LSET()
    for layer in (pcbnew.F_Cu, pcbnew.In1_Cu, pcbnew.In2_Cu, pcbnew.B_Cu):
        ls.AddLayer(layer)
    k.SetLayerSet(ls)
    ol = k.Outline()
    ol.NewOutline()
    cx, cy = L.COIL_AT[0], L.COIL_AT[1]
    h = L.COIL_KEEPOUT / 2
    for x, y in ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)):
        ol.Append(mm(CENTRE[0] + x), mm(CENTRE[1] + y))
    board.Add(k)


def fill(path):
    """Pour the zones of the board saved at path and save it again. (KiCad
    6's zone filler needs a board read from a file: on one built in a
    script it crashes.)"""
    board = pcbnew.LoadBoard(path)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    if not board.Save(path):
        raise SystemExit("pcb: could not write %s" % path)
    return board


def plane_vias(fp, pad):
    """How many vias join a pad to the LEDs' plane: none for the load
    switch (its output is a track to the 470 uF), VIAS_PER_PAD for the
    470 uF, where the strip's whole current enters, one elsewhere."""
    if fp.GetValue() == "TPS22965":
        return 0
    return VIAS_PER_PAD if fp.GetValue() == "470u" else 1


def in_coil(x, y):
    h = L.COIL_KEEPOUT / 2 + 2.0
    return abs(x - L.COIL_AT[0]) < h and abs(y - L.COIL_AT[1]) < h


def drc(board, path):
    """KiCad's DRC on the board: (violations, unconnected) from its report."""
    pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = open(path).read()
    v = re.search(r"\*\* Found (\d+) DRC violations \*\*", text)
    u = re.search(r"\*\* Found (\d+) unconnected pads \*\*", text)
    return int(v.group(1)) if v else -1, int(u.group(1)) if u else -1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-route", action="store_true")
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args(argv)
    coil_footprint(os.path.join(OUR_FP, "apixagon.pretty", "NFC_Coil_Cell_30mm.kicad_mod"))
    comps, nets = sexpr.read_netlist(open(NETLIST).read())
    board, netinfo = build(comps, nets)
    out = os.path.join(a.out, "rev_b.kicad_pcb")
    if not a.no_route:
        stuck = fanout(board, netinfo, "GND", lambda fp, p: 1)
        stuck += fanout(board, netinfo, "+5V_LED", plane_vias)
        if stuck:
            print("pcb: no room for a plane's via at %s" % ", ".join(stuck))
        left = route(board, netinfo)
        print("pcb: %d joins left%s" % (len(left), (": " + "; ".join(left[:20])) if left else ""))
        planes(board, netinfo)
    os.makedirs(a.out, exist_ok=True)
    if not board.Save(out):
        raise SystemExit("pcb: could not write %s" % out)
    if not a.no_route:
        board = fill(out)
        v, u = drc(board, os.path.join(a.out, "drc.txt"))
        print("pcb: DRC %d violations, %d unconnected pads" % (v, u))
    print("pcb: written %s" % out)


if __name__ == "__main__":
    main()

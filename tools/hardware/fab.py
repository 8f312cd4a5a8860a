"""Rev B's fabrication set from its PCB, with KiCad 6's pcbnew (Debian's
python3):

    /usr/bin/python3 tools/hardware/fab.py [--out DIR]

Writes into hardware/rev_b/fab/: the Gerbers (one per layer of the four
copper layers, masks, paste, silkscreens and outline, X2 attributes) and
the Excellon drill file with its map, zipped together as
the order a PCB fab takes (rev_b-gerbers.zip); the placement file
(rev_b-cpl.csv: Designator, Mid X, Mid Y, Layer, Rotation, the columns
JLCPCB's and most assembly services' uploads take); the assembly BOM
(rev_b-bom-assembly.csv, one line per part kind: Comment, Designator,
Footprint, Manufacturer, MPN, Supplier, Supplier Part Number); and an SVG
of each copper, mask and silkscreen layer plus one of the assembled
board's top (docs/img/pcb/), which the manual shows."""

import argparse
import csv
import os
import re
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pcb_place as L  # noqa: E402
import pcbnew  # noqa: E402
import sexpr  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
PCB = os.path.join(ROOT, "hardware", "rev_b", "rev_b.kicad_pcb")
NETLIST = os.path.join(ROOT, "hardware", "rev_b", "rev_b.net")
BOM = os.path.join(ROOT, "hardware", "rev_b", "bom.csv")
OUT = os.path.join(ROOT, "hardware", "rev_b", "fab")
IMG = os.path.join(ROOT, "build", "pcb", "img")  # SVGs; pcb_pictures.py makes the PNGs
CENTRE = (250.0, 250.0)  # pcb.py's

LAYERS = (
    ("F_Cu", "F.Cu", "top copper"),
    ("In1_Cu", "In1.Cu", "ground plane (inner layer 1)"),
    ("In2_Cu", "In2.Cu", "the LEDs' 5 V plane (inner layer 2)"),
    ("B_Cu", "B.Cu", "bottom copper"),
    ("F_Mask", "F.Mask", "top solder mask"),
    ("B_Mask", "B.Mask", "bottom solder mask"),
    ("F_Paste", "F.Paste", "top paste (stencil)"),
    ("F_SilkS", "F.SilkS", "top silkscreen"),
    ("B_SilkS", "B.SilkS", "bottom silkscreen"),
    ("Edge_Cuts", "Edge.Cuts", "board outline"),
)
# the layer pictures' colours, and the assembled top's stack (bottom first)
COLOURS = {
    "F.Cu": "#c8782a",
    "B.Cu": "#3a6fb0",
    "In1.Cu": "#6b6b6b",
    "In2.Cu": "#b04a3a",
    "F.Mask": "#2f6b3a",
    "B.Mask": "#2f6b3a",
    "F.Paste": "#9a9a9a",
    "F.SilkS": "#202020",
    "B.SilkS": "#202020",
    "Edge.Cuts": "#000000",
}


def gerbers(board, out):
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(out)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(True)
    po.SetCreateGerberJobFile(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetExcludeEdgeLayer(True)
    po.SetUseAuxOrigin(False)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    written = []
    for attr, name, _ in LAYERS:
        pc.SetLayer(getattr(pcbnew, attr))
        pc.OpenPlotfile(name.replace(".", "_"), pcbnew.PLOT_FORMAT_GERBER, name)
        pc.PlotLayer()
        written.append(pc.GetPlotFileName())
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(out, True, False)
    for f in os.listdir(out):
        if f.endswith(".drl"):
            written.append(os.path.join(out, f))
    return written


def zip_order(files, path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(files):
            # fixed dates: the zip is committed, and equal inputs give an equal zip
            info = zipfile.ZipInfo(os.path.basename(f), date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(f, "rb") as fh:
                z.writestr(info, fh.read())


def placement(board, path):
    """The pick-and-place file: every part the assembler places (not the
    coil, which is copper, nor the mounting holes), centre in mm from the
    board's lower-left corner, y up, as assembly services expect."""
    rows = []
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        if fp.GetAttributes() & pcbnew.FP_EXCLUDE_FROM_POS_FILES or ref.startswith("H"):
            continue
        p = fp.GetPosition()
        x = pcbnew.ToMM(p.x) - (CENTRE[0] + L.X0)
        y = (CENTRE[1] + L.Y1) - pcbnew.ToMM(p.y)
        layer = "Top" if fp.GetLayer() == pcbnew.F_Cu else "Bottom"
        rows.append(
            (ref, "%.3f" % x, "%.3f" % y, layer, "%.1f" % (fp.GetOrientationDegrees() % 360))
        )
    rows.sort(key=lambda r: _ref_key(r[0]))
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(("Designator", "Mid X", "Mid Y", "Layer", "Rotation"))
        w.writerows(rows)
    return len(rows)


def _ref_key(ref):
    m = re.match(r"([A-Z]+)(\d+)", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def assembly_bom(path):
    """One line per part kind, from make hardware's bom.csv (which carries
    prices): the columns an assembly service's upload takes. No supplier
    part number is known for any part (no distributor catalogue among the
    sources): the column is there, empty, for the maker's choice."""
    comps, _ = sexpr.read_netlist(open(NETLIST).read())
    with open(BOM) as f:
        src = list(csv.DictReader(f))
    rows = []
    for r in src:
        refs = expand(r["reference"])
        if not refs or not all(re.match(r"[A-Z]+\d+$", x) for x in refs):
            continue  # the totals' lines
        if not any(comps.get(x, {}).get("footprint", "").split(":")[0] != "apixagon" for x in refs):
            continue
        rows.append(
            (
                r["value"],
                ",".join(refs),
                r["footprint"].split(":", 1)[-1],
                r["manufacturer"],
                r["mpn"],
                "",
                "",
            )
        )
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(
            (
                "Comment",
                "Designator",
                "Footprint",
                "Manufacturer",
                "MPN",
                "Supplier",
                "Supplier Part Number",
            )
        )
        w.writerows(rows)
    return len(rows)


def expand(refs):
    """'C6-C12 C14' -> ['C6', ..., 'C12', 'C14'] (bom.csv's ranges)."""
    out = []
    for part in refs.split():
        m = re.match(r"([A-Z]+)(\d+)-([A-Z]+)(\d+)$", part)
        if m:
            out += ["%s%d" % (m.group(1), k) for k in range(int(m.group(2)), int(m.group(4)) + 1)]
        else:
            out.append(part)
    return out


def pictures(board, img):
    """An SVG of each layer, cropped to the board, in its colour on white,
    and the assembled top: mask, copper, paste (the parts' pads), the
    parts' outlines and the silkscreen over one another."""
    os.makedirs(img, exist_ok=True)
    tmp = os.path.join(img, ".plot")
    os.makedirs(tmp, exist_ok=True)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(tmp)
    po.SetPlotFrameRef(False)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.FULL_DRILL_SHAPE)
    bodies = {}
    for attr, name, _ in LAYERS + (("F_Fab", "F.Fab", "parts"),):
        pc.SetLayer(getattr(pcbnew, attr))
        pc.OpenPlotfile(name.replace(".", "_"), pcbnew.PLOT_FORMAT_SVG, name)
        pc.PlotLayer()
        pc.ClosePlot()
        bodies[name] = _body(open(pc.GetPlotFileName()).read())
        os.remove(pc.GetPlotFileName())
    os.rmdir(tmp)
    written = []
    for _, name, what in LAYERS:
        if name == "Edge.Cuts":
            continue
        path = os.path.join(img, "rev_b-%s.svg" % name.replace(".", "-").lower())
        _write_svg(
            path, [(bodies[name], COLOURS[name], 1.0), (bodies["Edge.Cuts"], "#000000", 1.0)], what
        )
        written.append(path)
    path = os.path.join(img, "rev_b-assembled.svg")
    _write_svg(
        path,
        [
            (bodies["F.Cu"], "#3d7d44", 1.0),
            (bodies["F.Paste"], "#d9c27a", 1.0),
            (bodies["F.Fab"], "#1a1a1a", 1.0),
            (bodies["F.SilkS"], "#f4f4f4", 1.0),
            (bodies["Edge.Cuts"], "#000000", 1.0),
        ],
        "the assembled board's top",
        background="#1f5a2a",
    )
    written.append(path)
    return written


def _body(svg):
    """The drawing inside a KiCad SVG plot (its <g> groups), colours left
    to the caller."""
    start = svg.index("<g ")
    end = svg.rindex("</svg>")
    return svg[start:end]


def _write_svg(path, layers, title, background="#ffffff"):
    x0, y0 = (CENTRE[0] + L.X0) * 1e6, (CENTRE[1] + L.Y0) * 1e6
    w, h = (L.X1 - L.X0) * 1e6, (L.Y1 - L.Y0) * 1e6
    parts = [
        '<?xml version="1.0" standalone="no"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" viewBox="%d %d %d %d">'
        % (L.X1 - L.X0, L.Y1 - L.Y0, x0, y0, w, h),
        "<title>APIXAGON rev B: %s</title>" % title,
        '<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>' % (x0, y0, w, h, background),
    ]
    for body, colour, opacity in layers:
        body = re.sub(
            r"(fill|stroke):#[0-9A-Fa-f]{6}", lambda m: "%s:%s" % (m.group(1), colour), body
        )
        body = re.sub(
            r'(fill|stroke)="#[0-9A-Fa-f]{6}"', lambda m: '%s="%s"' % (m.group(1), colour), body
        )
        parts.append('<g opacity="%.2f">%s</g>' % (opacity, body))
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pcb", default=PCB)
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--img", default=IMG)
    a = ap.parse_args(argv)
    board = pcbnew.LoadBoard(a.pcb)
    os.makedirs(a.out, exist_ok=True)
    for f in os.listdir(a.out):
        os.remove(os.path.join(a.out, f))
    files = gerbers(board, a.out)
    zip_order(files, os.path.join(a.out, "rev_b-gerbers.zip"))
    for f in files:
        os.remove(f)
    n = placement(board, os.path.join(a.out, "rev_b-cpl.csv"))
    k = assembly_bom(os.path.join(a.out, "rev_b-bom-assembly.csv"))
    pics = pictures(board, a.img)
    print(
        "fab: %d Gerber and drill files zipped, %d placements, %d BOM lines, %d pictures"
        % (len(files), n, k, len(pics))
    )


if __name__ == "__main__":
    main()

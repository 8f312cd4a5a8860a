"""A schematic drawing of a revision from its netlist: `make hardware`
writes hardware/<rev>/schematic.svg.

Net-label style, as large KiCad schematics are drawn: each part is a box
with its pins, each pin carries the name of its net, so two pins with the
same label are joined. One sheet per block of the circuit (circuit.py's
Block field: power, mcu, strip, pad, shift, ...), the cells' own parts on
a sheet of their own, a title block on each. Pure Python: the netlist and
the parts' pin names (parts.py) are all it reads."""

import html
import os
import re

from . import circuit, sexpr
from . import parts as P

PIN_H = 14  # px between pins
BOX_W = 120
LABEL_W = 150  # room for a net label on each side
COL_W = BOX_W + 2 * LABEL_W + 30
SHEET_W = 4 * COL_W + 40
TITLE_H = 60

SHEETS = (
    ("power", "USB-C, protection, the 5 V rails and the 3.3 V buck"),
    ("mcu", "RP2040, flash, crystal, USB, buttons, debug"),
    ("strip", "the LEDs' driver"),
    ("pad", "the action pad's NFC reader"),
    ("shift", "the reed switches' shift registers"),
    ("readers", "the cell readers and their antenna switching"),
    ("board", "other parts"),
    ("cells", "each cell's parts (the sensor and the LED under it)"),
)


def _spec_by_name():
    out = {}
    for v in vars(P).values():
        if isinstance(v, P.Spec):
            out.setdefault(v.name, v)
        elif isinstance(v, dict):
            for s in v.values():
                if isinstance(s, P.Spec):
                    out.setdefault(s.name, s)
    return out


def _ref_key(ref):
    m = re.match(r"([A-Z]+)(\d+)", ref)
    return (m.group(1), int(m.group(2))) if m else (ref, 0)


def _part_name(text, ref):
    m = re.search(
        r'\(comp\s+\(ref "%s"\).*?\(libsource\s+\(lib "[^"]*"\)\s+\(part "([^"]*)"\)'
        % re.escape(ref),
        text,
        re.S,
    )
    return m.group(1) if m else ""


def drawing(netlist_text, rev):
    comps, nets = sexpr.read_netlist(netlist_text)
    root = sexpr.parse(netlist_text)
    kind = {}
    for c in sexpr.find(sexpr.first(root, "components", []), "comp"):
        lib = sexpr.first(c, "libsource")
        kind[sexpr.value(c, "ref")] = sexpr.value(lib, "part", "") if lib else ""
    specs = _spec_by_name()
    net_of = {}
    for name, nodes in nets.items():
        for ref, pin in nodes:
            net_of[(ref, pin)] = name
    sheets = {}
    for ref in sorted(comps, key=_ref_key):
        f = comps[ref]["fields"]
        block = "cells" if f.get("Cell") not in (None, "pad") else f.get("Block", "board")
        sheets.setdefault(block, []).append(ref)
    out = []
    y = 0
    titles = dict(SHEETS)
    order = [s for s, _ in SHEETS if s in sheets] + [s for s in sheets if s not in titles]
    for n, block in enumerate(order, 1):
        body, h = _sheet(sheets[block], comps, kind, specs, net_of)
        out.append('<g transform="translate(0,%d)">' % y)
        out.append(
            '<rect x="5" y="5" width="%d" height="%d" fill="#fffef8" '
            'stroke="#444" stroke-width="2"/>' % (SHEET_W - 10, h + TITLE_H)
        )
        out.append(
            '<text x="20" y="35" font-size="20" font-weight="bold">'
            "APIXAGON %s - sheet %d/%d: %s</text>"
            % (
                html.escape(rev.replace("_", " ").upper()),
                n,
                len(order),
                html.escape(titles.get(block, block)),
            )
        )
        out.append(
            '<text x="20" y="52" font-size="11" fill="#555">'
            "generated from hardware/%s/%s.net (tools/hardware/circuit.py); "
            "pins with the same net label are connected</text>" % (rev, rev)
        )
        out.append('<g transform="translate(0,%d)">%s</g>' % (TITLE_H, body))
        out.append("</g>")
        y += h + TITLE_H + 20
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="DejaVu Sans, Arial, sans-serif">\n<title>APIXAGON %s schematic</title>\n'
        '<rect width="100%%" height="100%%" fill="white"/>\n' % (SHEET_W, y, SHEET_W, y, rev)
    )
    return head + "\n".join(out) + "\n</svg>\n"


def _sheet(refs, comps, kind, specs, net_of):
    cols = [0] * 4
    items = []
    for ref in refs:
        spec = specs.get(kind.get(ref, ""))
        pins = list(spec.pins) if spec else sorted({(p, p, "") for (r, p) in net_of if r == ref})
        pins = [(str(num), name) for num, name, *_ in pins]
        left = pins[: (len(pins) + 1) // 2]
        right = pins[(len(pins) + 1) // 2 :]
        h = max(len(left), len(right)) * PIN_H + 34
        c = cols.index(min(cols))
        x, y = 20 + c * COL_W + LABEL_W, cols[c] + 10
        cols[c] += h + 18
        items.append(_part(ref, comps[ref], left, right, x, y, h, net_of))
    return "\n".join(items), max(cols) + 10


def _part(ref, comp, left, right, x, y, h, net_of):
    g = [
        '<rect x="%d" y="%d" width="%d" height="%d" fill="#fff8dc" '
        'stroke="#8b1a1a" stroke-width="1.5"/>' % (x, y, BOX_W, h),
        '<text x="%d" y="%d" font-size="11" font-weight="bold" fill="#8b1a1a">%s</text>'
        % (x + 4, y + 12, html.escape(ref)),
        '<text x="%d" y="%d" font-size="10" fill="#333">%s</text>'
        % (x + 4, y + 24, html.escape(comp["value"][:20])),
    ]
    for side, pins in (("l", left), ("r", right)):
        for i, (num, name) in enumerate(pins):
            py = y + 34 + i * PIN_H
            net = net_of.get((ref, num))
            if side == "l":
                x0, x1 = x - 20, x
                g.append(
                    '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#8b1a1a"/>' % (x0, py, x1, py)
                )
                g.append(
                    '<text x="%d" y="%d" font-size="8" fill="#8b1a1a">%s</text>'
                    % (x + 3, py + 3, html.escape(name[:14]))
                )
                lab = html.escape(net) if net else "x (no connect)"
                g.append(
                    '<text x="%d" y="%d" font-size="9" text-anchor="end" fill="%s">%s</text>'
                    % (x0 - 3, py + 3, "#1a5a1a" if net else "#999", lab)
                )
            else:
                x0, x1 = x + BOX_W, x + BOX_W + 20
                g.append(
                    '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#8b1a1a"/>' % (x0, py, x1, py)
                )
                g.append(
                    '<text x="%d" y="%d" font-size="8" text-anchor="end" fill="#8b1a1a">%s</text>'
                    % (x0 - 3, py + 3, html.escape(name[:14]))
                )
                lab = html.escape(net) if net else "x (no connect)"
                g.append(
                    '<text x="%d" y="%d" font-size="9" fill="%s">%s</text>'
                    % (x1 + 3, py + 3, "#1a5a1a" if net else "#999", lab)
                )
    return "\n".join(g)


def write(rev):
    path = os.path.join(circuit.ROOT, "hardware", rev, "%s.net" % rev)
    with open(path) as f:
        text = f.read()
    out = os.path.join(circuit.ROOT, "hardware", rev, "schematic.svg")
    with open(out, "w") as f:
        f.write(drawing(text, rev))
    return out

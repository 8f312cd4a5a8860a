"""The schematic drawings (hardware/<rev>/schematic.svg, tools/hardware/schematic.py):
one sheet per block, every part and every pin's net on it."""

import os
import re

import pytest

from hardware import schematic, sexpr

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("rev", ("rev_a", "rev_b"))
def test_every_part_and_net_is_drawn(rev):
    with open(os.path.join(ROOT, "hardware", rev, "%s.net" % rev)) as f:
        text = f.read()
    comps, nets = sexpr.read_netlist(text)
    svg = schematic.drawing(text, rev)
    drawn = set(re.findall(r'font-weight="bold" fill="#8b1a1a">([A-Z]+\d+)<', svg))
    assert drawn == set(comps)
    for name in nets:
        assert ">%s<" % name.replace("&", "&amp;") in svg, name
    with open(os.path.join(ROOT, "hardware", rev, "schematic.svg")) as f:
        assert f.read() == svg, "hardware/%s/schematic.svg is stale: run make hardware" % rev

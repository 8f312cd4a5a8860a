# The power budget's margins: the parts are budgeted at their datasheet
# maximum where one is given, and the input fuse holds the whole budget at
# the warmest ambient the board is built for and still trips under what it
# protects.
import os

import pytest

from hardware import check, netlist, parts, power

REVS = ("rev_a", "rev_b")


def _net(rev):
    with open(os.path.join(check.ROOT, "hardware", rev, rev + ".net")) as f:
        return f.read()


def test_the_readers_are_budgeted_at_their_maximum():
    # ITVDD, the field's driver, is 150 mA at most (60 typical): the
    # budget takes the maximum, and the typical-only rows say why
    rows = {kind: ma for _, ma, kind, _ in parts.PN532.current}
    assert rows["max"] == 150
    for spec in netlist.SPECS.values():
        for _, _, kind, src in spec.current:
            assert kind in ("max", "allowance", "worst") or "no maximum" in src, (spec.name, src)


@pytest.mark.parametrize("rev", REVS)
def test_the_fuse_holds_the_full_budget_at_the_worst_ambient(rev):
    # Everything the board draws passes the input fuse: at most the
    # firmware's DERATE_PCT of a 3.0 A source. At power.AMBIENT_C its hold
    # current (the datasheet's derating) is above that with a 25 % margin;
    # its trip current is under the strip connector's contact rating.
    nl = netlist.Netlist(_net(rev))
    (ref,) = [r for r, c in nl.comps.items() if netlist.SPECS[c["part"]].trip]
    assert nl.net(ref, "1") == "VBUS" and nl.net(ref, "2") == "+5V"
    hold23, trip, hold_hot, ambient, vmax, _ = netlist.SPECS[nl.comps[ref]["part"]].trip
    full = power.full_budget_ma() / 1000.0
    assert full == 2.64  # 88 % of 3 A
    assert ambient >= power.AMBIENT_C == 50
    assert hold_hot >= 1.25 * full, (hold_hot, full)
    assert hold23 >= hold_hot and trip > hold23
    assert trip < parts.JST_VH4.amps[0]
    assert vmax >= 5.5  # USB's vSafe5V at its highest

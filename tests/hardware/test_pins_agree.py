# The firmware's pin tables and the emulated board's wiring against each
# revision's committed netlist (no SKiDL needed: the netlist is read back).
import json
import os
import re

import pytest

from hardware import check, netlist

REVS = ("rev_a", "rev_b")
ROOT = check.ROOT


@pytest.mark.parametrize("rev", REVS)
def test_pins_and_emulator_agree_with_the_netlist(rev):
    text, pins, wiring = check.committed(rev)
    assert check.disagreements(text, pins, wiring) == []


@pytest.mark.parametrize("rev", REVS)
def test_the_emulator_is_wired_from_the_circuit_not_from_pins_py(rev):
    import emuboard

    b = emuboard.EmuBoard(image="none.uf2", rev=rev, start=False)
    assert b.pins == check.load_wiring(os.path.join(ROOT, "hardware", rev, "wiring.json"))


def test_every_gpio_board_js_wires_comes_from_wiring_json():
    with open(os.path.join(ROOT, "tools", "rp2040", "board.js")) as f:
        src = f.read()
    used = set(re.findall(r"\bpins\.([A-Z][A-Z0-9_]*)", src))
    have = {}
    for rev in REVS:
        w = check.load_wiring(os.path.join(ROOT, "hardware", rev, "wiring.json"))
        for k in w:
            have.setdefault(k, set()).add(w["PROFILE"])
    assert used <= set(have), sorted(used - set(have))
    # and no GPIO number written into board.js's wiring itself
    assert not re.search(r"mcu\.gpio\[\d+\]", src)


def test_a_disagreement_is_named():
    text, pins, wiring = check.committed("rev_a")
    pins = dict(pins, LED_PIN=15)
    wiring = json.loads(json.dumps(wiring))
    wiring["MUX_SELECT"][1] = [9, 8, 13, 14]
    got = check.disagreements(text, pins, wiring)
    assert any("pins.py says LED_PIN = 15, the netlist 16" in g for g in got)
    assert any("wiring.json says MUX_SELECT" in g for g in got)


def test_the_rp2040_pin_functions_are_checked():
    # I2C SDA only on even GPIOs, both pins on one block; SPI by GPIO % 4
    assert netlist.i2c_bus(4, 5) == 0 and netlist.i2c_bus(6, 7) == 1
    with pytest.raises(netlist.WiringError):
        netlist.i2c_bus(5, 4)
    with pytest.raises(netlist.WiringError):
        netlist.i2c_bus(4, 7)
    assert netlist.spi_bus(2, 3, 4) == 0
    with pytest.raises(netlist.WiringError):
        netlist.spi_bus(2, 3, 5)


@pytest.mark.parametrize("rev", REVS)
def test_the_layout_is_the_netlists(rev):
    text, _, _ = check.committed(rev)
    d = netlist.derive(text)
    with open(os.path.join(ROOT, "hardware", "layout.json")) as f:
        lay = json.load(f)
    assert len(d["_LED_CELLS"]) == lay["leds"] == 61
    assert d["_SENSOR_CELLS"] == {c: v["sensor"] for c, v in lay["cells"].items()}


@pytest.mark.parametrize(
    "rev,key,hz,part",
    [
        ("rev_a", "CELL_I2C", 1000000, "PN532"),  # a 1 MHz readers' bus: over 400 kHz
        ("rev_a", "CELL_I2C", 1000000, "TCA9548A"),
        ("rev_b", "PAD_I2C", 1000000, "PN532"),
        ("rev_b", "SHIFT_SPI", 4000000, "74HC165"),
    ],
)
def test_a_bus_clocked_over_what_its_parts_take_is_named(rev, key, hz, part):
    text, pins, wiring = check.committed(rev)
    bus = list(pins[key])
    bus[check.PREFIX[key]] = hz
    got = check.disagreements(text, dict(pins, **{key: tuple(bus)}), wiring)
    assert any(("over the" in g and "the %s takes" % part in g) for g in got), got
    assert any("circuit.BUS_HZ" in g for g in got), got


@pytest.mark.parametrize("rev,profile", [("rev_a", "A"), ("rev_b", "B")])
def test_the_simulated_board_is_built_as_the_revisions_pins_say(rev, profile, tmp_path):
    # its lanes and reed columns are the pin table's (one source, the
    # circuit): sim/rig.py's numbers fail here when they differ
    from smartboard.sim import rig as R
    from smartboard.sim.rig import Rig

    _, pins, _ = check.committed(rev)
    assert pins.get("LANE", R.LANE) == R.LANE
    assert pins.get("MATRIX_COLS", R.MATRIX_COLS) == R.MATRIX_COLS
    r = Rig(profile, str(tmp_path / "settings.bin"), os.path.join(ROOT, "hardware", "layout.json"))
    cells = r.board.hw.cells
    if profile == "A":
        assert len(cells.lanes) == len(pins["MUX_SELECT"])
        assert all(max(ln.channels) // pins["LANE"] == k for k, ln in enumerate(cells.lanes))
    else:
        assert cells.cols == pins["MATRIX_COLS"]
        assert cells.rows == pins["SHIFT_BYTES"] * 8 // pins["MATRIX_COLS"]

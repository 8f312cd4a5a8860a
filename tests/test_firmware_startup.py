"""The board's start-up code and pin tables: they need the RP2040 to run,
so here they are compiled by mpy-cross (as deployed) and the tables are
checked as data: every pin a revision uses is named once."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

REVISIONS = sorted(d for d in os.listdir(os.path.join(FIRMWARE, "boards")) if d.startswith("rev_"))


def test_start_up_code_compiles(tmp_path):
    for rel in ["main.py"] + ["boards/%s/pins.py" % r for r in REVISIONS]:
        subprocess.run(
            [build_mpy.mpy_cross(), "-o", str(tmp_path / "x.mpy"), os.path.join(FIRMWARE, rel)],
            check=True,
        )


def _pins(rev):
    ns = {}
    with open(os.path.join(FIRMWARE, "boards", rev, "pins.py")) as f:
        exec(f.read(), ns)
    return ns


@pytest.mark.parametrize("rev", REVISIONS)
def test_pin_table_is_complete_and_has_no_pin_twice(rev):
    p = _pins(rev)
    assert p["PROFILE"] in ("A", "B")
    used = [p["LED_PIN"], *p["BUTTONS"], *p["PAD_I2C"][1:3]]
    if p["PROFILE"] == "A":
        used += [*p["CELL_I2C"][1:3]]
        for sel in p["MUX_SELECT"]:
            used += [*sel]
        assert p["LANE"] == 16 and 16 * len(p["MUX_SELECT"]) >= 61
        assert p["CELL_I2C"][0] != p["PAD_I2C"][0]  # the two I2C blocks
    else:
        used += [p["SHIFT_SPI"][1], p["SHIFT_SPI"][3], p["SHIFT_LATCH"]]
        assert 8 * p["SHIFT_BYTES"] >= 61
    assert len(used) == len(set(used)), "a GPIO used twice in %s" % rev
    assert all(0 <= g <= 28 for g in used)  # the Pico's GPIOs
    assert p["LED_DRIVER"] in ("pio", "bitstream")

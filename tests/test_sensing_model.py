"""tools/bench/sensing.py: the sensor time model's placement latencies over
many phases (no timing here: the figures are the model's own clock)."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from bench import sensing  # noqa: E402

ONE = ("queens_gambit_full.apx",)


def test_a_run_plays_the_match_to_its_end_and_times_every_card():
    fig = sensing.run(1, ONE)
    assert fig["placements"] > 40  # every card placed, none lost to the pauses
    assert 0 < fig["p50_ms"] <= fig["p95_ms"] <= fig["p99_ms"] <= fig["max_ms"]
    assert fig["runs"] == 1 and fig["records"] == list(ONE)


def test_the_same_seeds_give_the_same_figures_and_other_seeds_other_ones(tmp_path):
    path = os.path.join(ROOT, "tests", "data", ONE[0])
    settings = str(tmp_path / "settings.bin")
    a = sensing.play(path, 3, settings)
    assert sensing.play(path, 3, settings) == a
    assert sensing.play(path, 4, settings) != a


def test_a_wrong_argument_is_an_error_not_a_run(capsys):
    with pytest.raises(SystemExit) as e:
        sensing.main(["--runs", "0"])
    assert e.value.code == 2
    assert "--runs must be at least 1" in capsys.readouterr().err


def test_an_antenna_switch_settles_as_long_as_a_tag_takes_to_power_up():
    # Rev A's MOSFET switches put the field on the new coil within
    # microseconds (docs/hardware/antenna-switching.md); what a read waits
    # for after a switch is the tag, which ISO/IEC 14443-3 (5.1) lets take
    # 5 ms of unmodulated field: 5.1 ms, in the firmware, the simulator and
    # the emulated readers alike.
    import re

    from smartboard import scan
    from smartboard.sim import sensors

    assert scan.SETTLE_US == sensors.SETTLE_US == 5100
    with open(os.path.join(ROOT, "tools", "rp2040", "board.js")) as f:
        got = re.search(r"settle: (\d+) \* US", f.read())
    assert got and int(got.group(1)) == scan.SETTLE_US

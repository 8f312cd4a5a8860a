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

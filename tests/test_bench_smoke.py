"""The benchmark's inputs stay valid (no timing here: figures come from
`make bench`)."""

import os
import subprocess
import sys

from apixagon import record
from apixagon.game import Game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = os.path.join(ROOT, "tests", "data", "beehive_full.apx")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bench_core  # noqa: E402
import build_mpy  # noqa: E402


def test_scripted_game_is_a_legal_finished_beehive_game():
    with open(RECORD) as f:
        lines = f.read().splitlines()
    c = record.Checker(Game)
    record.read(lines, c)
    assert all(r == 0 for _, r in c.verdicts)
    assert c.game.mode == 2 and c.game.over()
    assert dict(c.tags)["Result"] == record.result(c.game)[3]
    kinds = [k for k, _, _ in c.game.history()]
    assert 5 in kinds and any(k in kinds for k in (2, 3, 4))  # a reserve, specials


def test_device_script_replays_the_game_in_the_target_heap(tmp_path):
    build_mpy.build(str(tmp_path))
    subprocess.run(
        [
            build_mpy.mpy_cross(),
            "-o",
            str(tmp_path / "bench_device.mpy"),
            os.path.join(ROOT, "tools", "bench_device.py"),
        ],
        check=True,
    )
    dev = bench_core.Device(str(tmp_path))
    out = dev.run(bench_core.HEAP_TARGET_WK, "game", RECORD)
    assert "RESULT ok" in out, out
    out = dev.run(bench_core.HEAP_TARGET_WK, "hint", RECORD, "3")
    assert out.startswith("TIME hint 3 "), out


def test_board_device_script_runs_every_measure(tmp_path):
    import bench_board

    build_mpy.build_all(str(tmp_path))
    subprocess.run(
        [
            build_mpy.mpy_cross(),
            "-o",
            str(tmp_path / "bench_board_device.mpy"),
            os.path.join(ROOT, "tools", "bench_board_device.py"),
        ],
        check=True,
    )
    dev = bench_board.Device(str(tmp_path))
    for what in ("event", "frame", "idle", "setup"):
        out = dev.run(bench_board.HEAP_TARGET_WK, what, "2", str(bench_board.POSITION))
        assert out.startswith("TIME %s " % what), out

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
import build_mpy  # noqa: E402
from bench import core as bench_core  # noqa: E402


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


def compile_tool(tmp_path, name):
    """tools/bench/NAME.py as tmp_path/NAME.mpy (what the benchmark runs)."""
    subprocess.run(
        [
            build_mpy.mpy_cross(),
            "-o",
            str(tmp_path / (name + ".mpy")),
            os.path.join(ROOT, "tools", "bench", name + ".py"),
        ],
        check=True,
    )


def test_device_script_replays_the_game_in_the_target_heap(tmp_path):
    build_mpy.build(str(tmp_path))
    compile_tool(tmp_path, "core_device")
    dev = bench_core.Device(str(tmp_path))
    out = dev.run(bench_core.HEAP_TARGET_WK, "game", RECORD)
    assert "RESULT ok" in out, out
    out = dev.run(bench_core.HEAP_TARGET_WK, "hint", RECORD, "3")
    assert out.startswith("TIME hint 3 "), out


def test_board_device_script_runs_every_measure(tmp_path):
    from bench import firmware as bench_board

    build_mpy.build_all(str(tmp_path))
    compile_tool(tmp_path, "firmware_device")
    dev = bench_board.Device(str(tmp_path))
    for what in ("event", "frame", "idle", "setup"):
        out = dev.run(bench_board.HEAP_TARGET_WK, what, "2", str(bench_board.POSITION))
        assert out.startswith("TIME %s " % what), out


def test_board_device_script_scans_every_position(tmp_path):
    from bench import firmware as bench_board

    build_mpy.build_all(str(tmp_path))
    compile_tool(tmp_path, "firmware_device")
    dev = bench_board.Device(str(tmp_path))
    for profile, k, f in (("A", "1", "1"), ("B", "2", "0")):
        out = dev.run(bench_board.HEAP_TARGET_WK, "scan", profile, k, f)
        rows = [line.split() for line in out.splitlines() if line.startswith("POS ")]
        assert len(rows) > 60, out
        assert all(int(r[3 if profile == "A" else 5]) > 0 for r in rows), out


def test_target_bench_inputs_resume_on_the_simulator(tmp_path):
    """The emulated parts' inputs: the scripted game as hands, and the match
    logs it boots from, written by smartboard.logstore, unfinished, and
    resumed by the simulated board to a match screen."""
    from bench import emulated, matchlogs

    setup, steps = emulated.record_script()
    with open(RECORD) as f:
        words = [line.split() for line in f if line.strip() and not line.startswith("[")]
    moves = [w for w in words if w[0] not in ("mode", "start", "option", "players")]
    assert setup["mode"] == 2 and len(steps) == len(moves)
    for rev in emulated.REVS:
        for make in (matchlogs.scripted_log, matchlogs.takeback_log):
            name, data, game = make(rev, str(tmp_path))
            log = matchlogs.log_lines(data)
            assert log.result is None and not game.over()
            assert len(log.moves) == game.nmoves()
            frames = matchlogs.match_frames(emulated.PROFILE[rev], log.lines(), str(tmp_path))
            assert frames and all(len(f) == 3 * 61 for f in frames)
    counts = matchlogs.log_records(data)
    assert counts["M"] == matchlogs.TAKEBACK_LOG_RECORDS and counts["U"] > 0


def test_memory_matches_are_legal_finished_games_of_their_modes():
    """The memory part (and tests/rp2040/test_rp2040_heap.py):
    each mode's scripted match is a legal record that ends its game, with
    what the mode has of specials and reserve decks, and its steps are
    hands the emulated board can play."""
    from apixagon.codes import MODES
    from bench import emulated, memory

    want = {"2p": "queens-gambit", "beehive": "beehive", "3v2": "3v2", "junior": "junior"}
    assert [n for n, _ in memory.MEMORY_MATCHES] == list(want)
    for name, rec in memory.MEMORY_MATCHES:
        path = emulated.data_path(rec)
        with open(path) as f:
            c = record.Checker(Game)
            record.read(f.read().splitlines(), c)
        assert all(r == 0 for _, r in c.verdicts), (rec, c.verdicts)
        assert MODES[c.game.mode] == want[name] and c.game.over(), rec
        kinds = {k for k, _, _ in c.game.history()}
        if name != "junior":
            assert {2, 3, 4} <= kinds, (rec, kinds)  # Rain, Beekeeper, Smoker
        if name in ("beehive", "3v2"):
            assert 5 in kinds, (rec, kinds)  # a reserve deck
        setup, steps = emulated.record_script(path)
        assert MODES[setup["mode"]] == want[name] and len(steps) == c.game.nmoves()


def test_target_bench_boots_each_image(capsys):
    """The emulated parts' harness on the emulated RP2040 (the images of `make
    firmware`): a flash built with its file system, the power on, a HELLO
    answered, the heap read."""
    import json

    from bench import target as bench_target

    assert bench_target.main(["--quick", "--part", "boot", "--json"]) == 0
    fig = json.loads(capsys.readouterr().out)
    for rev in bench_target.REVS:
        assert 0 < fig["boot"][rev]["usb_ms"] < fig["boot"][rev]["hello_ms"]
        assert fig["boot"][rev]["heap_setup"] > 100000


def test_only_the_bench_image_freezes_the_simulator(tmp_path):
    import build_firmware
    from test_firmware_startup import Frozen

    for sim in (False, True):
        path = tmp_path / ("manifest-%d.py" % sim)
        path.write_text(build_firmware.manifest_text("rev_a", sim))
        files = Frozen(str(path)).files
        assert "smartboard/board.py" in files and "main.py" in files
        assert any(f.startswith("smartboard/sim/") for f in files) == sim


def test_budget_verdicts_say_met_missed_or_not_run():
    from bench import budgets

    fig = {
        "core": {"worst_hint_us": 4999},  # just inside 5 ms
        "firmware": {"event_us": 30000},  # no scan: the one position, over 10 ms
        "play_rev_a": {"heap_lowest": 150 * 1024},  # exactly 150 KB
        "pull": {"pull_kb_s": 199.9},
    }
    got = {label: verdict for label, _, _, verdict in budgets.verdicts(fig)}
    assert got["full hint query, worst position"] == "met"
    assert got["one sensor event, worst"] == "MISSED"
    assert got["heap free, a match in play (lowest), rev A"] == "met"
    assert got["logs pull, KB per second of the chip's clock"] == "MISSED"
    assert got["boot to HELLO, rev A"] == "not run"
    assert len(got) == len(budgets.BUDGETS)


def test_the_budgets_check_the_levels_the_board_offers():
    # tools/bench/budgets.py checks the time of every level the board offers
    # (smartboard.computer.BOARD_LEVELS): the two lists are one
    from bench import budgets
    from smartboard import computer, settings

    assert budgets.BOARD_LEVELS == computer.BOARD_LEVELS
    assert settings.LIMITS[settings.LEVEL] == len(computer.BOARD_LEVELS)

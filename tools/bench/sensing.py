"""Placement to LED on profile A as the sensor time model has it, over many
phases: what one run of the chip draws from.

The bench's play part lands each card at a fixed cycle of the chip: a
run is reproducible, but it is one draw of 65 placements, and where each
card lands in its lane's round sets most of its latency. A change that
moves the loop's timing by a few microseconds anywhere (a module less in
the heap) draws again: profile A's 95 % went from 124 to 153-172 ms on the
chip with no change to the sensing (docs/development/notes.md). This
plays the scripted matches on the simulated board (smartboard.sim.rig,
as firmware_device.py's game does) with a seeded random pause of 0-150 ms
before each card, RUNS times each, and prints the pooled distribution.

The model counts the sensors' time alone (the firmware's processing
costs none) and runs the lanes in lockstep (each step costs the slowest
lane's read plus the others' bus time), where the chip runs each lane on
its own: its confirming reads are quicker there, its reads of a switched
antenna a little slower. Its figures are an estimate, for comparing two
ways of scanning, not a budget's figure.

  python -m bench.sensing [--runs N] [--refusals] [--json]   (from tools/, CPython)
"""

import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RECORDS = ("beehive_full.apx", "3v2_full.apx", "queens_gambit_full.apx")
PAUSE_MS = 150  # the most a pause before a card lasts: more than a lane's round
RUNS = 20
REFUSE = 0.3  # --refusals: the share of the cards first put where they may not go


def _paths():
    fw = os.path.join(ROOT, "firmware")
    if fw not in sys.path:
        sys.path.insert(0, fw)


def play(record_path, seed, settings, refused=None, lifted=None):
    """One match of record_path on a fresh simulated board (profile A,
    hint mode on), a random pause before each card: its latencies (ms).
    refused, lifted (lists): before REFUSE of the cards, that card first
    put on an empty cell the board does not light (no card may go there),
    the ms until the board shows it refused appended to refused, and
    lifted again, until the cell is as it was, to lifted."""
    _paths()
    from apixagon.geometry import NCELLS, cell_name
    from smartboard import view
    from smartboard.sim import replay
    from smartboard.sim.rig import Rig

    for f in (settings, settings + ".deck"):
        if os.path.exists(f):
            os.remove(f)
    rig = Rig("A", settings, os.path.join(ROOT, "hardware", "layout.json"))
    rig.board.settings.set(0, 1, 0)  # settings.DISPLAY: hint mode, as the bench
    rnd = random.Random(seed)
    put, lift = rig.put, rig.lift
    carrying = [False]  # a card lifted by the record (a special's): put back at once
    red = (view.ERR_RED, view.ERR_AMBER)

    def until(cond):
        end = rig.now_us + 5000000
        while not cond() and rig.now_us < end:
            rig.tick()

    def wrong_first(code):
        b = rig.board
        lay = b.view.layer
        cells = [x for x in range(NCELLS) if not b.sensed[x] and lay[x] & 0x3F == view.OFF]
        if not cells:
            return
        x = rnd.choice(cells)
        t0 = rig.now_us
        put(cell_name(x), code)
        until(lambda: b.view.layer[x] & 0x3F in red)
        refused.append((rig.now_us - t0) // 1000)
        rig.run(rnd.randrange(300))
        t0 = rig.now_us
        lift(cell_name(x))
        until(lambda: b.view.layer[x] & 0x3F not in red and not b.sensed[x])
        lifted.append((rig.now_us - t0) // 1000)

    def lifted_by_record(name):
        carrying[0] = True
        lift(name)

    def paused_put(name, code):
        if carrying[0]:
            carrying[0] = False
            put(name, code)
            return
        rig.run(rnd.randrange(PAUSE_MS))
        if refused is not None and rig.board.ref is not None and rnd.random() < REFUSE:
            wrong_first(code)
            rig.run(rnd.randrange(PAUSE_MS))
        put(name, code)

    rig.put = paused_put
    rig.lift = lifted_by_record
    with open(record_path) as f:
        p = replay.play(rig, f)
    return p.latency


def summary(lat):
    lat = sorted(lat)
    n = len(lat)
    return {
        "placements": n,
        "mean_ms": round(sum(lat) / n, 1),
        "p50_ms": lat[n // 2],
        "p95_ms": lat[(n * 95) // 100],
        "p99_ms": lat[(n * 99) // 100],
        "max_ms": lat[-1],
    }


def run(runs=RUNS, records=RECORDS, progress=None, refusals=False):
    lat, ref, lif = [], [], []
    with tempfile.TemporaryDirectory(prefix="sensing-") as tmp:
        settings = os.path.join(tmp, "settings.bin")
        for i, name in enumerate(records):
            path = os.path.join(ROOT, "tests", "data", name)
            for seed in range(runs):
                with contextlib.redirect_stdout(io.StringIO()):
                    if refusals:
                        lat += play(path, seed, settings, ref, lif)
                    else:
                        lat += play(path, seed, settings)
                if progress is not None:
                    progress(i * runs + seed + 1, len(records) * runs)
    fig = summary(lat)
    fig["runs"] = runs
    fig["records"] = list(records)
    if refusals:
        fig["refused"] = summary(ref)
        fig["lifted"] = summary(lif)
    return fig


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.sensing", description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=RUNS, help="runs of each match (%d)" % RUNS)
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    ap.add_argument(
        "--refusals",
        action="store_true",
        help="a card put where it may not go before %d %% of the placements, timed too"
        % round(100 * REFUSE),
    )
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")

    def progress(k, n):
        if not args.json:
            sys.stderr.write("\r  %d/%d matches" % (k, n))
            if k == n:
                sys.stderr.write("\n")

    fig = run(args.runs, progress=progress, refusals=args.refusals)
    if args.json:
        print(json.dumps(fig))
    else:
        print(
            "placement to LED, profile A, the sensor time model (an estimate), %d placements "
            "of %d runs of %s: mean %.0f ms, 50 %% %d, 95 %% %d, 99 %% %d, worst %d ms"
            % (
                fig["placements"],
                args.runs,
                ", ".join(RECORDS),
                fig["mean_ms"],
                fig["p50_ms"],
                fig["p95_ms"],
                fig["p99_ms"],
                fig["max_ms"],
            )
        )
        for kind, what in (("refused", "shown refused"), ("lifted", "lifted again")):
            if kind in fig:
                k = fig[kind]
                print(
                    "a card put where it may not go, %s, %d: mean %.0f ms, 95 %% %d, worst %d ms"
                    % (what, k["placements"], k["mean_ms"], k["p95_ms"], k["max_ms"])
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())

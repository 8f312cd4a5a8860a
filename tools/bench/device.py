"""`make bench-device PORT=/dev/ttyACM0`: the benchmark's parts that need no
model of the board's parts, on a real Raspberry Pi Pico over its USB serial
port, for the "real Pico" column beside the emulator's (docs/figures.md).

A Pico flashed with the board's image (`make firmware`:
build/firmware/apixagon-rev_a.uf2) is enough: nothing need be wired to it.
Over its raw REPL (mpremote's transport), timed by the board's own clock:

  - calibration: the pin loop and the programs others timed on real Picos
    (bench/calibration.py), and MicroPython's perf_bench where a checkout
    is at hand (MICROPYTHON_PERF_BENCH);
  - core: the rules core frozen in the image (bench/core_device.py) at the
    positions the emulator's figures name (the crowded and the worst one);
  - boot: a reset (machine.reset()) until the firmware answers HELLO, in
    the PC's wall time (USB enumeration included: said as such).

The figures go to a JSON file (--out; by default
build/bench-device-<date>.json) in docs/figures/data's format, "where"
naming the board; an owner sends it to the project (docs/development/
bench.md, "A real Pico"). The same kit runs against the emulated board
through its pseudo-terminal (tests/rp2040/test_bench_device.py), so it
works the day a Pico is plugged in.

    python -m bench.device --port PORT [--out FILE] [--board NAME] [--quick]
"""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

from bench import calibration, results  # noqa: E402

REAL = "real board over USB (%s)"
CORE_K = {"hint": 20, "cards": 4, "check": 500, "push": 20}
RECORD = os.path.join(results.ROOT, "tests", "data", "beehive_full.apx")
REC = "/bench/beehive_full.apx"  # where it goes on the board


class DeviceError(Exception):
    """What went wrong, in words (the exit code is 1)."""


def positions():
    """(crowded, worst) positions of the scripted game as the committed
    figures name them (the core part's), else two fixed ones."""
    parts = results.merged(results.load_all())
    p = parts.get("core")
    f = (p or {}).get("figures", {}).get("core", {})
    return f.get("position", 66), f.get("worst_position", 5)


def core(repl, quick):
    from bench.emulated import core_timings, read

    repl.t.enter_raw_repl(soft_reset=True, timeout_overall=120)
    try:
        repl.t.fs_mkdir("bench")
    except Exception:
        pass  # already there
    repl.t.fs_writefile("core_device.py", read(os.path.join(HERE, "core_device.py")))
    repl.t.fs_writefile("bench/beehive_full.apx", read(RECORD))
    crowded, worst = positions()
    fig = {"position": crowded, "worst_position": worst, "worst_found_by": "the figures' data"}
    k = {w: (1 if quick else n) for w, n in CORE_K.items()}
    return core_timings(repl, REC, k, crowded, worst, fig)


def boot(port, repl, timeout=30.0):
    """A reset until the firmware answers HELLO: the PC's wall time."""
    from apixagon_host import link as L

    repl.t.enter_raw_repl(soft_reset=False, timeout_overall=60)
    t0 = time.monotonic()
    repl.t.exec_raw_no_follow("import machine\nmachine.reset()\n")
    repl.t.close()
    end = t0 + timeout
    last = None
    while time.monotonic() < end:
        try:
            with L.connect(port, timeout=5) as link:
                text = link.request("HELLO", "1")
                return {"hello_wall_ms": round((time.monotonic() - t0) * 1000), "hello": text}
        except Exception as e:  # not back yet: the port comes and goes
            last = e
            time.sleep(0.05)
    raise DeviceError(
        "the board did not answer HELLO within %.0f s of its reset (%s)" % (timeout, last)
    )


def run(port, quick=False, board=None, say=print):
    from bench.emulated import Repl

    try:
        repl = Repl(port)
    except Exception as e:
        raise DeviceError("cannot open %s: %s" % (port, e)) from None
    fig = {}
    t0 = time.monotonic()
    try:
        say("calibration ...")
        fig["calibration"] = calibration.measure(repl, quick)
        c = fig["calibration"]
        say("  pin loop %.1f us; %d programs" % (c["loop_us"], len(c["programs"])))
        say("core ...")
        fig["core"] = core(repl, quick)
        c = fig["core"]
        say(
            "  full hint query %.1f ms crowded, %.1f ms at the worst position"
            % (c["hint_us"] / 1000, c["worst_hint_us"] / 1000)
        )
        say("boot ...")
        fig["boot"] = {"device": boot(port, repl)}
        ms = fig["boot"]["device"]["hello_wall_ms"]
        say("  reset to HELLO %d ms (wall time, USB enumeration included)" % ms)
    finally:
        try:
            repl.close()
        except Exception:
            pass
    return record(fig, REAL % (board or port), quick, round(time.monotonic() - t0, 1))


def record(fig, where, quick, wall_s):
    """The run as docs/figures/data's files hold one: its parts named
    "device-<part>" (never taken for the emulator's), "where" the board."""
    when = results.now()
    at = results.commit()
    return {
        "schema": results.SCHEMA,
        "set": "device",
        "run": {
            "parts": ["device-" + p for p in fig],
            "quick": quick,
            "started": when,
            "date": when,
            "commit": at,
            "machine": results.machine(),
            "wall_s": wall_s,
            "command": " ".join(["python", "-m", "bench.device"] + sys.argv[1:]),
        },
        "parts": {
            "device-" + p: {
                "figures": {p: v},
                "where": where,
                "source": "measured",
                "date": when,
                "commit": at,
                "quick": quick,
            }
            for p, v in fig.items()
        },
        "budgets": [],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m bench.device", description=__doc__.splitlines()[0])
    ap.add_argument("--port", required=True, help="the board's USB serial port (/dev/ttyACM0)")
    ap.add_argument("--out", help="the JSON file to write (default build/bench-device-DATE.json)")
    ap.add_argument("--board", help='what the board is, for the figures ("Pico, 2023")')
    ap.add_argument("--quick", action="store_true", help="one repetition of each core query")
    args = ap.parse_args(argv)
    try:
        rec = run(args.port, args.quick, args.board)
    except DeviceError as e:
        print("bench-device: %s" % e, file=sys.stderr)
        return 1
    out = args.out or os.path.join(
        results.ROOT, "build", "bench-device-%s.json" % rec["run"]["date"][:10]
    )
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    print("figures written to %s: send it to the project (docs/development/bench.md)" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

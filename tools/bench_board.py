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
  - an RP2040 estimate and the placement-to-LED latency of both profiles,
    from those costs plus the sensor timings (issue 3's figures).
Options: --quick (no callgrind), --json (figures as one JSON object).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

HEAP_TARGET_WK = 96
POSITION = 60  # a crowded position of the record (55 cards on the board)
SLOWDOWN = (10, 30)  # MicroPython on an RP2040 vs the unix port here
MHZ = 125
K_TIME = {"event": 200, "frame": 500, "idle": 5000}
K_GRIND = {"event": 20, "frame": 50, "idle": 500}
STRIP_WRITE_MS = 1.8  # 61 LEDs bit-banged at 800 kHz (24 bits x 1.25 us)
REED_STABLE = 8  # smartboard.scan: agreeing matrix passes, one per loop tick
TARGET_MS = {"A": 300, "B": 50}


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


class Device:
    def __init__(self, lib):
        self.boot = "import sys; sys.path[:0]=[%r]; import bench_board_device" % lib

    def cmd(self, heap_wk, *args):
        return [micropython(), "-X", "heapsize=%dwK" % heap_wk, "-c", self.boot, *args]

    def run(self, heap_wk, *args):
        p = subprocess.run(self.cmd(heap_wk, *args), capture_output=True, text=True, cwd=ROOT)
        return p.stdout + p.stderr

    def callgrind(self, *args):
        p = subprocess.run(
            ["valgrind", "--tool=callgrind", "--toggle-collect=main_"]
            + ["--callgrind-out-file=/dev/null"]
            + self.cmd(256, *args),
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        m = re.search(r"Collected : (\d+)", p.stderr)
        if not m:
            raise RuntimeError("callgrind gave no count:\n" + p.stderr[-2000:])
        return int(m.group(1))


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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the callgrind counts")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    say = (lambda s: None) if args.json else (lambda s: (sys.stdout.write(s), sys.stdout.flush()))
    if not micropython():
        print("bench: micropython not found (run through make bench)", file=sys.stderr)
        return 2
    fig = {}
    with tempfile.TemporaryDirectory() as tmp:
        sizes = build_mpy.build_all(tmp)
        subprocess.run(
            [build_mpy.mpy_cross(), "-o", os.path.join(tmp, "bench_board_device.mpy")]
            + [os.path.join(ROOT, "tools", "bench_board_device.py")],
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

    # RP2040 estimate: unix-port time x 10-30; instructions at one per cycle.
    def est(us):
        return (us * SLOWDOWN[0] / 1000, us * SLOWDOWN[1] / 1000)

    ev = est(fig["event_us"])
    fr = est(fig["frame_us"])
    tick = est(fig["idle_us"])
    fig["rp2040_event_ms"] = [round(v, 1) for v in ev]
    fig["rp2040_frame_ms"] = [round(v + STRIP_WRITE_MS, 1) for v in fr]
    if "event_instr" in fig:
        fig["rp2040_event_ms_by_instr"] = round(fig["event_instr"] / MHZ / 1000, 1)
    # Placement to LED update = seeing the card + one event + one frame.
    # Profile A: the NFC sweep's time model in the simulator (5 ms settle
    # per antenna switch, 4.5 ms per read, 1.5 ms empty timeout, legal
    # cells read first). Profile B: REED_STABLE loop ticks (a whole matrix
    # pass each) at the RP2040 tick cost.
    proc = ev[1] + fr[1] + STRIP_WRITE_MS
    sa = fig["sense_ms_A"]
    fig["latency_ms_A"] = {k: round(sa[k] + proc) for k in ("mean", "p95", "max")}
    sense_b = REED_STABLE * tick[1]
    fig["latency_ms_B"] = round(sense_b + proc, 1)
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
    print("RP2040 estimate (x%d-%d):" % SLOWDOWN)
    print("  sensor event %.1f-%.1f ms" % ev, end="")
    if "rp2040_event_ms_by_instr" in fig:
        print(
            " (%.1f ms by instructions at %d MHz)" % (fig["rp2040_event_ms_by_instr"], MHZ), end=""
        )
    print()
    print("  LED frame %.1f-%.1f ms + %.1f ms strip write" % (fr[0], fr[1], STRIP_WRITE_MS))
    la = fig["latency_ms_A"]
    print(
        "Placement to LED update, profile A (NFC per cell): mean %d ms, 95%% %d ms, worst %d ms"
        " over %d placements (target <= %d ms)"
        % (la["mean"], la["p95"], la["max"], sa["n"], TARGET_MS["A"])
    )
    print(
        "Placement to LED update, profile B (reeds + pad): %.1f ms worst (target <= %d ms)"
        % (fig["latency_ms_B"], TARGET_MS["B"])
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The engine's 10 000 moves over random positions of every mode, legal,
under CPython and under the MicroPython unix port (the firmware as .mpy):
the full count of tests/core/test_engine.py, whose MicroPython run takes a
sample. Prints the count and the time of each; exit 1 on an illegal move.

  python tools/engine_legal.py [--moves 10000] [--seed 11]
"""

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tests", "core"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))

import mpsuites  # noqa: E402

# What each interpreter runs: random positions (every level) and self-play.
SCRIPT = """
import sys
sys.path.insert(0, %(lib)r)
sys.path.insert(0, %(helpers)r)
import enginekit
a, none = enginekit.engine_moves(%(random)d, %(seed)d)
s = enginekit.self_play(%(selfplay)d, %(seed)d)
print("RESULT", a, none, s)
"""


def run(cmd):
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    took = time.time() - t0
    line = [x for x in p.stdout.splitlines() if x.startswith("RESULT")]
    if p.returncode or not line:
        print(p.stdout[-2000:], p.stderr[-3000:])
        return None, took
    a, none, s = (int(x) for x in line[0].split()[1:])
    return (a, none, s), took


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    n_self = args.moves // 10
    lib = mpsuites.build_lib(os.path.join("build", "mptest", "eleg"))
    values = dict(
        random=args.moves - n_self,
        selfplay=n_self,
        seed=args.seed,
        lib=lib,
        helpers=os.path.join(lib, "helpers"),
    )
    script = os.path.join(ROOT, "build", "engine_legal_run.py")
    with open(script, "w") as f:
        f.write(SCRIPT % values)
    ok = True
    for name, cmd in (
        ("CPython", [sys.executable, script]),
        ("MicroPython", [mpsuites.micropython(), "-X", "heapsize=4M", script]),
    ):
        if name == "CPython":
            # CPython reads the sources, not the .mpy
            values2 = dict(values, lib="firmware", helpers=os.path.join("tests", "core"))
            with open(script, "w") as f:
                f.write(SCRIPT % values2)
        else:
            with open(script, "w") as f:
                f.write(SCRIPT % values)
        got, took = run(cmd)
        if got is None:
            ok = False
            print("%s: FAILED (%.0f s)" % (name, took))
            continue
        a, none, s = got
        print(
            "%s: %d engine moves legal (%d at random positions of every mode, %d of them"
            " none: no card of the hand fits; %d in self-play), %.0f s"
            % (name, a + s, a, none, s, took)
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

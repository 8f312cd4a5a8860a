"""Measure the unix-port suites' heap and write their caps: tests/heapcaps.json.

For each suite that tests/test_micropython.py and tests/e2e/test_fuzz.py
run under the MicroPython unix port (each module of tests/core and
tests/board, and the board's link fuzzed in-process), the smallest
`-X heapsize` in bytes, to 1 KB, at which it passes: bisection between a
size at which it passes (its group's former cap, doubled until it passes)
and nothing, each probe the very command the test runs
(tests/mpsuites.py). Its cap is that peak + 25 %, rounded up to a whole KB
(mpsuites.MARGIN), checked to pass.

The caps are tripwires for leaks and runaway buffers; the board's budget
is the heap on the emulated RP2040. So the file carries, beside the caps,
the board's figures: the lowest heap free in the 2-player match on rev A,
the firmware frozen and deployed (tools/bench/memory.py's heap_match, as
tests/rp2040/test_rp2040_heap.py plays it; --no-board leaves the last
ones in the file).

    python tools/heapcaps.py                      # every suite, and the board
    python tools/heapcaps.py --suite board/test_board_play --no-board
    python tools/heapcaps.py --board-only         # the board's figures alone
    python tools/heapcaps.py --check              # runs nothing: what is stale

With --suite, only those suites are measured; the others keep their
entries. Takes a few minutes for all (--jobs, 2 by default), the board
about two more.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import mpsuites  # noqa: E402

KB = 1024
START = {"core": 96 * KB, "board": 192 * KB, mpsuites.FUZZ: 192 * KB}  # 48 / 96 wK here
TOP = 4096 * KB  # never a cap: something is wrong


def commit():
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout.strip()
        return out + ("+changes" if dirty else "") if out else "?"
    except OSError:
        return "?"


class Runner:
    """One suite's probes: passes(bytes) -> bool."""

    def __init__(self, lib, fuzz_batches):
        self.lib = lib
        self.fuzz = fuzz_batches
        self.runs = 0

    def passes(self, suite, heap):
        self.runs += 1
        if suite == mpsuites.FUZZ:
            return mpsuites.run_fuzz(self.fuzz, heap)[0]
        return mpsuites.run_module(self.lib, suite.split("/")[1], heap)[0]


def measure(run, suite, say):
    """(peak, cap, probes) of a suite: the smallest heap (KB steps) at
    which it passes, and its cap, checked to pass (raised a KB at a time
    if it does not: a heap that is not monotonic)."""
    hi = START[mpsuites.group_of(suite)] // KB
    n = 1
    while not run.passes(suite, hi * KB):
        hi *= 2
        n += 1
        if hi * KB > TOP:
            raise RuntimeError("%s does not pass even at %d KB" % (suite, TOP // KB))
    lo = 0  # fails (nothing runs in no heap)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        n += 1
        if run.passes(suite, mid * KB):
            hi = mid
        else:
            lo = mid
    peak = hi * KB
    cap = mpsuites.cap_of(peak)
    n += 1
    while not run.passes(suite, cap):
        say("  %s fails at its cap %d: one KB more\n" % (suite, cap))
        cap += KB
        n += 1
    return peak, cap, n


def board_figures(say):
    """The board's heap on the emulated RP2040 (rev A, the 2-player match,
    frozen and deployed), as tests/rp2040/test_rp2040_heap.py measures it."""
    sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "tools", "rp2040")]
    from bench import budgets, memory
    from bench.emulated import IMAGES

    rev = "rev_a"
    images = IMAGES
    image = os.path.join(images, "apixagon-%s.uf2" % rev)
    out = {"rev": rev, "match": dict(memory.MEMORY_MATCHES)["2p"]}
    with tempfile.TemporaryDirectory(prefix="heapcaps-") as tmp:
        # deployed: the firmware as .mpy in a slot of the littlefs, the
        # tightest heap (memory.FIRMWARES' "littlefs"); not every kind of
        # the memory part, whose "deployed" runs in place from ROMFS
        for kind in ("frozen", "deployed"):
            say("  the board (emulated RP2040), %s firmware, 2-player match ...\n" % kind)
            files = ()
            if kind == "deployed":
                files = memory.deployed_files(images, rev, os.path.join(tmp, kind))
            fig = memory.heap_match(
                image,
                rev,
                os.path.join(tmp, kind, "board"),
                out["match"],
                files=files,
                deployed=kind == "deployed",
            )
            out[kind] = {"heap_boot": fig["heap_boot"], "heap_lowest": fig["heap_lowest"]}
    out["budget_kb"] = {"frozen": budgets.HEAP_FROZEN_KB, "deployed": budgets.HEAP_DEPLOYED_KB}
    out["summary"] = "lowest free %d bytes frozen (budget %d KB), %d deployed (budget %d KB)" % (
        out["frozen"]["heap_lowest"],
        budgets.HEAP_FROZEN_KB,
        out["deployed"]["heap_lowest"],
        budgets.HEAP_DEPLOYED_KB,
    )
    return out


def check(caps):
    """Suites without a cap, caps for suites gone; 0 if none."""
    have = set(caps.get("suites", {}))
    want = set(mpsuites.suites())
    for s in sorted(want - have):
        print("no measured cap: %s (runs at %s)" % (s, mpsuites.UNMEASURED[mpsuites.group_of(s)]))
    for s in sorted(have - want):
        print("a cap for a suite that is gone: %s" % s)
    return 1 if want != have else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", action="append", help="only this suite (repeatable)")
    ap.add_argument("--jobs", type=int, default=2, help="suites measured at once")
    ap.add_argument("--no-board", action="store_true", help="keep the board's last figures")
    ap.add_argument("--board-only", action="store_true", help="measure the board alone")
    ap.add_argument("--check", action="store_true", help="say which suites have no cap; no runs")
    ap.add_argument("--out", default=mpsuites.CAPS_FILE, help="the file (tests/heapcaps.json)")
    args = ap.parse_args(argv)
    caps = mpsuites.load_caps(args.out)
    if args.check:
        return check(caps)
    if not mpsuites.micropython():
        print("heapcaps: micropython not found (make .venv/.installed-stamp)", file=sys.stderr)
        return 2
    every = mpsuites.suites()
    todo = [] if args.board_only else args.suite or every
    bad = [s for s in todo if s not in every]
    if bad:
        print("heapcaps: no suite %s (they are: %s)" % (bad, " ".join(every)), file=sys.stderr)
        return 2
    say = sys.stdout.write
    t0 = time.monotonic()
    head = commit()  # what is measured: the tree as it is now
    lib = mpsuites.build_lib(mpsuites.lib_dir("t")) if todo else None
    batches = mpsuites.fuzz_prepare() if mpsuites.FUZZ in todo else None
    run = Runner(lib, batches)
    got = {}
    queue = list(todo)
    if mpsuites.FUZZ in queue:  # the longest first
        queue.remove(mpsuites.FUZZ)
        queue.insert(0, mpsuites.FUZZ)
    lock = threading.Lock()
    errors = []

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                suite = queue.pop(0)
            try:
                peak, cap, n = measure(run, suite, say)
            except Exception as e:  # noqa: BLE001 - one suite must not hide the others
                errors.append((suite, e))
                say("  %s: %s\n" % (suite, e))
                continue
            with lock:
                got[suite] = {"peak": peak, "cap": cap}
            say("  %-40s peak %7d  cap %7d  (%d runs)\n" % (suite, peak, cap, n))

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    suites = dict(caps.get("suites", {}))
    suites.update(got)
    out = {
        "about": (
            "The unix-port suites' heap caps (tools/heapcaps.py; the rule in "
            "tests/mpsuites.py): peak = the smallest -X heapsize in bytes, to 1 KB, at "
            "which the suite passed; cap = peak + %d %%, rounded up to a whole KB. "
            "Tripwires for leaks and runaway buffers on this 64-bit PC; the board's "
            "budget is its heap on the emulated RP2040 (board)." % round(mpsuites.MARGIN * 100)
        ),
        "margin": mpsuites.MARGIN,
        "measured": datetime.date.today().isoformat(),
        "commit": head,
        "micropython": subprocess.run(
            [mpsuites.micropython(), "-c", "import sys; print(sys.version)"],
            capture_output=True,
            text=True,
        ).stdout.strip(),
        "suites": {
            k: suites[k] for k in sorted((k for k in suites if k in every), key=every.index)
        },
        "board": caps.get("board"),
    }
    if not args.no_board:
        try:
            out["board"] = board_figures(say)
        except Exception as e:  # noqa: BLE001 - the caps are worth writing anyway
            errors.append(("the board", e))
            say("  the board: %s\n" % e)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    say(
        "wrote %s: %d suites measured in %.0f s (%d runs)\n"
        % (os.path.relpath(args.out, ROOT), len(got), time.monotonic() - t0, run.runs)
    )
    if out["board"]:
        say("the board: %s\n" % out["board"]["summary"])
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

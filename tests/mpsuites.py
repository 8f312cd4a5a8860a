"""The unix-port suites: how tests/test_micropython.py runs each module of
tests/core and tests/board, and tests/e2e/test_fuzz.py the board's link
fuzzed in-process, under the MicroPython unix port, and at what heap.
tools/heapcaps.py measures each suite's heap with these same commands, so
that what it measures is what the tests run.

The caps (tests/heapcaps.json, written by tools/heapcaps.py): each suite
runs at the smallest `-X heapsize` (bytes, to 1 KB) at which it passed when
measured, plus MARGIN (25 %), rounded up to a whole KB. They are tripwires
for leaks and runaway buffers in code that runs on the board, not the
board's budget: on this 64-bit PC the unix port's heap also holds every
module's bytecode (frozen in flash on the board) and objects of twice the
size. The board's budget is measured on the emulated RP2040, in the chip's
own heap (tests/rp2040/test_rp2040_heap.py, python -m bench --part
memory); tests/heapcaps.json carries the board's figure beside the caps. A
suite that outgrows its cap fails: re-run tools/heapcaps.py for it (the
board's figure comes with it) and commit the new cap, or find the leak.

The unix port keeps each module's path (its qstr) and sys.argv in the
heap, so every path here is relative to the repository, of a fixed length:
the same run needs the same heap in any clone, however long its folder's
path (a clone in a longer path used to fail the fuzz with a MemoryError:
it needed 195.6-196 KB of its 196 608 bytes). One string of the clone's
path is left: the unix port puts the script's folder, made absolute, in
sys.path[0] (a byte a character, which the margin covers many times over;
past ~250 characters the unix port stops at start-up, "FATAL: uncaught
NLR", and mpy-cross refuses its paths, "name too long").
"""

import json
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests")
GROUPS = ("core", "board")  # tests/<group>/test_*.py, each module a suite
FUZZ = "fuzz"  # the board's link fuzzed in-process (tests/board/fuzzrun.py)
CAPS_FILE = os.path.join(TESTS, "heapcaps.json")
MARGIN = 0.25  # cap = measured peak + 25 %, rounded up to a whole KB
# A suite tools/heapcaps.py has not measured yet (a new module) runs at its
# group's cap of before the measured ones (N wK: N K of the 32-bit board's
# words, twice the bytes here) until the tool gives it its own.
UNMEASURED = {"core": "48wK", "board": "96wK", FUZZ: "96wK"}

if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


# ---- the suites and their caps ------------------------------------------------------
def modules(group):
    d = os.path.join(TESTS, group)
    return sorted(n[:-3] for n in os.listdir(d) if n.startswith("test_") and n.endswith(".py"))


def suites():
    """Every suite's name: core/test_x, board/test_y, then fuzz."""
    return ["%s/%s" % (g, m) for g in GROUPS for m in modules(g)] + [FUZZ]


def group_of(suite):
    return suite.split("/")[0]


def cap_of(peak):
    """The cap of a suite that passed at peak bytes: + MARGIN, a whole KB."""
    return int(math.ceil(peak * (1 + MARGIN) / 1024.0)) * 1024


def load_caps(path=CAPS_FILE):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"suites": {}}


def heap_of(suite, caps=None):
    """(the -X heapsize value, its measured peak or None) for a suite."""
    caps = caps if caps is not None else load_caps()
    got = caps.get("suites", {}).get(suite)
    if got:
        return str(got["cap"]), got["peak"]
    return UNMEASURED[group_of(suite)], None


def over_cap(suite, heap, caps=None):
    """What to say when a suite fails at its cap."""
    caps = caps if caps is not None else load_caps()
    got = caps.get("suites", {}).get(suite)
    board = caps.get("board")
    if got:
        text = "%s failed at its cap, -X heapsize=%s (measured peak %d bytes on %s, + %d %%)" % (
            suite,
            heap,
            got["peak"],
            caps.get("measured", "?"),
            round(MARGIN * 100),
        )
    else:
        text = "%s failed at -X heapsize=%s (no measured cap yet)" % (suite, heap)
    text += (
        ". If it fails for want of heap (MemoryError) and needs more for a reason, "
        "re-run `python tools/heapcaps.py --suite %s` and commit tests/heapcaps.json" % suite
    )
    if board:
        text += "; the board's heap on the emulated RP2040: %s" % board.get("summary", board)
    return text


# ---- the test modules -----------------------------------------------------------------
def lib_dir(worker):
    """build/mptest/wNNN: the compiled firmware and helpers of one runner
    (a pytest-xdist worker, "master" without one; tools/heapcaps.py: "t");
    the same length for every runner (the path is in the heap)."""
    if worker.startswith("gw"):
        tag = "w%03d" % (int(worker[2:]) + 1)
    elif worker == "master":
        tag = "w000"
    else:
        tag = (worker + "000")[:4]
    return os.path.join("build", "mptest", tag)


def build_lib(out):
    """The firmware (.mpy, the unix port's machine code) into ROOT/out and
    the test helpers compiled into out/helpers (source would not fit the
    heap); out relative to ROOT."""
    full = os.path.join(ROOT, out)
    shutil.rmtree(full, ignore_errors=True)
    os.makedirs(full)
    build_mpy.build_all(full)
    helpers = os.path.join(full, "helpers")
    os.mkdir(helpers)
    for g in GROUPS:
        d = os.path.join(TESTS, g)
        for name in os.listdir(d):
            if name.endswith(".py"):
                dest = build_mpy.short_path(os.path.join(helpers, name[:-3] + ".mpy"), d)
                subprocess.run([build_mpy.mpy_cross(), "-o", dest, name], cwd=d, check=True)
    return out


def run_module(lib, module, heap, timeout=600):
    """tests/mp_run.py running one test module at -X heapsize=heap: (passed, output)."""
    proc = subprocess.run(
        [
            micropython(),
            "-X",
            "heapsize=%s" % heap,
            os.path.join("tests", "mp_run.py"),
            lib,
            os.path.join(lib, "helpers"),
            module,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,  # data files (hardware/layout.json) by the same path as under pytest
    )
    out = proc.stdout + proc.stderr
    ok = (
        proc.returncode == 0
        and "DONE" in out
        and "FAIL" not in out
        and "Traceback" not in out
        and " 0 failed" in out
        and " 0 passed" not in out
    )
    return ok, out


# ---- the link fuzzed in-process ------------------------------------------------------
FUZZ_SEED = 20240611 + 2
FUZZ_BATCHES = 250  # of 40 frames
FUZZ_LIB = os.path.join("build", "fz")
FUZZ_HELPERS = os.path.join("build", "fzk")
FUZZ_STREAM = os.path.join("build", "fz.bin")


def runner_stream(path, seed, sim, batches):
    """A seeded stream of fuzzed batches (tests/fuzzkit.py) written to
    path for tests/board/fuzzrun.py; the batches, for its RunCheck."""
    import fuzzkit

    fz = fuzzkit.Fuzzer(seed, ("0001.alog", "0002.alog"), sim=sim, reboot=fuzzkit.ANYWHERE)
    fz.stale = True
    out = [fz.batch(40) for _ in range(batches)]
    with open(path, "wb") as f:
        for b in out:
            f.write(fuzzkit.encode(b))
    return out


def fuzz_prepare(firmware_mpy=None):
    """The fuzz's firmware, kits and stream under build/ (short paths of
    their own: the unix port interns each module's path in the heap, on
    the board they are frozen under short names); firmware_mpy a build of
    the firmware to copy (else one is made). The batches."""
    lib = os.path.join(ROOT, FUZZ_LIB)
    shutil.rmtree(lib, ignore_errors=True)
    if firmware_mpy:
        shutil.copytree(firmware_mpy, lib)
    else:
        os.makedirs(lib)
        build_mpy.build_all(lib)
    helpers = os.path.join(ROOT, FUZZ_HELPERS)
    os.makedirs(helpers, exist_ok=True)
    d = os.path.join(TESTS, "board")
    for name in ("boardkit", "logkit"):
        out = build_mpy.short_path(os.path.join(helpers, name + ".mpy"), d)
        subprocess.run([build_mpy.mpy_cross(), "-o", out, name + ".py"], cwd=d, check=True)
    return runner_stream(os.path.join(ROOT, FUZZ_STREAM), FUZZ_SEED, False, FUZZ_BATCHES)


def run_fuzz(batches, heap, timeout=300):
    """tests/board/fuzzrun.py with the board's link at -X heapsize=heap:
    (passed, what it said, its RunCheck or None)."""
    import fuzzkit

    cmd = [micropython(), "-X", "heapsize=%s" % heap, os.path.join("tests", "board", "fuzzrun.py")]
    cmd += [FUZZ_LIB, FUZZ_HELPERS, FUZZ_STREAM, "board"]
    proc = subprocess.run(cmd, capture_output=True, cwd=ROOT, timeout=timeout)
    err = proc.stderr.decode(errors="replace")[-3000:]
    if proc.returncode != 0:
        return False, err, None
    check = fuzzkit.RunCheck(batches)
    try:
        check.feed(proc.stdout)
    except AssertionError as e:
        return False, "%s\n%s" % (e, err), check
    ok = check.done is not None and check.b == len(batches)
    return ok, "batches %d of %d\n%s" % (check.b, len(batches), err), check

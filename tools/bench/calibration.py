"""The emulator's timing model against real Picos (tools/rp2040/timing.js):
what others measured on a Raspberry Pi Pico running MicroPython, each
figure with its program, version and source, and the same program on the
emulated board, ideal and with the model (target.py's calibration part;
docs/figures.md, "Calibration").

The programs are written here from their published descriptions
(calibration_device.py). MicroPython's own benchmarks (tests/perf_bench)
are run too where a MicroPython checkout is at hand (MICROPYTHON_PERF_BENCH
names its tests/perf_bench folder): this repository carries none of their
code. A figure within TOLERANCE of the model's is reproduced."""

import os

TOLERANCE = 0.15
LOOP_PIN = 25  # the Pico's LED: free on both revisions
LOOP_N = 2000
# The pin loop on a real Pico as it was reported: R. Longbottom's
# bit-banging page (2021, MicroPython ~1.13-1.14, a loop of its own, not
# this one: http://www.roylongbottom.org.uk/, "Raspberry Pi Pico ... Bit
# Banging Benchmarks"). Shown beside, not calibrated against.
REAL_PICO_LOOP_US = 31
LOOP_CODE = """import time
from machine import Pin
p = Pin(%d, Pin.OUT)
N = %d
t0 = time.ticks_us()
for i in range(N):
    p.value(1)
    p.value(0)
print('LOOP', time.ticks_diff(time.ticks_us(), t0))
def f(p, n):
    t0 = time.ticks_us()
    for i in range(n):
        p.value(1)
        p.value(0)
    return time.ticks_diff(time.ticks_us(), t0)
print('FUNC', f(p, N))
import machine
print('FREQ', machine.freq())
""" % (LOOP_PIN, LOOP_N)

SHAOZIYANG = "https://github.com/shaoziyang/micropython_benchmarks (README, RP2040 row)"
TT_GPIO = "https://github.com/TinyTapeout/tt-micropython-firmware/issues/8"
PERF_BENCH = (
    "https://github.com/micropython/micropython/commit/79edaddf501f30b44c544fd9dbef8b073c63cd0f"
)

# (key, what was timed, published µs, MicroPython version, source)
PUBLISHED = (
    ("int_add", "10 000 small-int additions in a function", 80000, "1.23.0", SHAOZIYANG),
    ("int_mul", "10 000 multiplications to a big int", 276000, "1.23.0", SHAOZIYANG),
    ("int_div", "10 000 int divisions (true division)", 126000, "1.23.0", SHAOZIYANG),
    ("float_add", "10 000 float additions", 129000, "1.23.0", SHAOZIYANG),
    ("float_mul", "10 000 float multiplications", 129000, "1.23.0", SHAOZIYANG),
    ("float_div", "10 000 float divisions", 134000, "1.23.0", SHAOZIYANG),
    ("float_pow", "10 000 float powers", 993000, "1.23.0", SHAOZIYANG),
    ("mandelbrot", "Mandelbrot set, 81 x 31 points, 100 iterations", 5212000, "1.23.0",
     SHAOZIYANG),
    ("pi_1000", "1000 digits of pi, big integers", 868000, "1.23.0", SHAOZIYANG),
    ("gpio_2048", "2048 Pin.value() calls at module level", 45667, "~1.22 (TinyTapeout's build)",
     TT_GPIO),
)  # fmt: skip

# MicroPython's perf_bench on an RPI_PICO (its commit message's scores at
# N=100 M=100, after the change; time = 1e6 * norm / score), run as
# run-perfbench.py runs them: the test, benchrun.py, bm_run(100, 100).
PERF_BENCH_PUBLISHED = (
    ("misc_pystone", 300, 1456.75),
    ("bm_chaos", 50, 215.26),
    ("misc_mandel", 400, 1746.60),
    ("bm_float", 250, 2444.11),
    ("bm_fannkuch", 6, 54.37),
    ("misc_raytrace", 50, 246.16),
    ("bm_nqueens", 1000, 2259.78),
    ("bm_hexiom", 10, 35.09),
    ("core_qstr", 4, 140.84),
    ("misc_aes", 32, 308.72),
    ("bm_wordcount", 8, 41.87),
    ("core_locals", 8, 29.19),
)
PERF_BENCH_VERSION = "1.23.0 (the -O2 change of 2024-03-26)"


def measure(repl, quick=False):
    """The calibration part's figures from a board's raw REPL (bench.emulated
    Repl: the emulated board, or a real one over its USB serial port): the
    pin loop at module level and in a function, the published programs,
    MicroPython's perf_bench where a checkout is at hand. µs of the board's
    own clock."""
    got = dict(line.split() for line in repl.run(LOOP_CODE).splitlines() if line.strip())
    fig = {
        "loop_us": round(int(got["LOOP"]) / LOOP_N, 2),
        "loop_us_in_function": round(int(got["FUNC"]) / LOOP_N, 2),
        "loop_us_real_pico_reported": REAL_PICO_LOOP_US,
        "freq": int(got["FREQ"]),
        "programs": parse(repl.run(("QUICK = True\n" if quick else "") + device_code())),
    }
    d = perf_bench_dir()
    out = {}
    for name, _, _ in PERF_BENCH_PUBLISHED if d else ():
        test = perf_bench_code(d, name)
        if test is not None:
            w = repl.run(test).split()
            if w and w[0].isdigit():
                out[name] = int(w[0])
    if out:
        fig["perf_bench"] = out
    return fig


def device_code():
    with open(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration_device.py")
    ) as f:
        return f.read()


def perf_bench_dir():
    d = os.environ.get("MICROPYTHON_PERF_BENCH")
    return d if d and os.path.isfile(os.path.join(d, "benchrun.py")) else None


def perf_bench_code(d, name):
    """A perf_bench test as run-perfbench.py sends it, or None."""
    path = os.path.join(d, name + ".py")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        code = f.read()
    with open(os.path.join(d, "benchrun.py")) as f:
        code += "\n" + f.read()
    return code + "\nbm_run(100, 100)\n"


def parse(out):
    """{name: µs} of the lines "NAME us" a program printed."""
    got = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 2 and w[1].lstrip("-").isdigit():
            got[w[0]] = int(w[1])
    return got


def keys():
    """The program of each of rows()'s rows, in order (a perf_bench row's:
    its test's name)."""
    out = [k for k, _, _, _, _ in PUBLISHED]
    return out + [name for name, _, _ in PERF_BENCH_PUBLISHED]


def rows(ideal, typical):
    """[(what, source, version, published µs, ideal µs, model µs, ratio)] from
    the calibration part's figures in the two profiles."""
    out = []
    pi, pt = ideal.get("programs", {}), typical.get("programs", {})
    for key, what, us, version, source in PUBLISHED:
        out.append((what, source, version, us, pi.get(key), pt.get(key)))
    bi, bt = ideal.get("perf_bench", {}), typical.get("perf_bench", {})
    # every row, measured or not: keys() names them in order
    for name, norm, score in PERF_BENCH_PUBLISHED:
        out.append(
            (
                "perf_bench %s (N=100, M=100)" % name,
                PERF_BENCH,
                PERF_BENCH_VERSION,
                round(1e6 * norm / score),
                bi.get(name),
                bt.get(name),
            )
        )
    return [r + ((r[5] / r[3]) if r[5] else None,) for r in out]

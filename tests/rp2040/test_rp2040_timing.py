"""The real chip's timing on the emulated RP2040 (tools/rp2040/timing.js):
the XIP cache's misses and the flash's program and erase times, charged
to the chip's clock in the 'typical' and 'worst' profiles, none in
'ideal' (rp2040js as it is). Seen from the board's own clock
(time.ticks_us), as every figure is: a file written to the littlefs takes
its erases' time (45 ms each, typical; 400 ms, worst: the W25Q16JV's
datasheet), with the timer running through them; a Python loop pays its
cache misses (40 cycles each), fewer once its code is in the cache."""

import emukit

CODE = (
    "import time\n"
    "def loop(n):\n"
    "    x = 0\n"
    "    for i in range(n):\n"
    "        x += i\n"
    "t0 = time.ticks_us()\n"
    "loop(2000)\n"
    "print('COLD', time.ticks_diff(time.ticks_us(), t0))\n"
    "t0 = time.ticks_us()\n"
    "loop(2000)\n"
    "print('WARM', time.ticks_diff(time.ticks_us(), t0))\n"
    "t0 = time.ticks_us()\n"
    "f = open('t.bin', 'wb')\n"
    "f.write(bytes(8192))\n"
    "f.close()\n"
    "print('WRITE', time.ticks_diff(time.ticks_us(), t0))\n"
)


def run(tmp_path, profile):
    out, before, after = emukit.at_repl(tmp_path, CODE, profile, timing=profile)
    got = {k: int(v) for k, v in (line.split() for line in out.splitlines() if line.strip())}
    return got, before, after


def test_the_flash_and_the_cache_cost_what_a_real_chip_pays(tmp_path):
    ideal, _, s0 = run(tmp_path, "ideal")
    typical, t0, t1 = run(tmp_path, "typical")
    worst, w0, w1 = run(tmp_path, "worst")
    assert s0["profile"] == "ideal" and s0["misses"] == 0 and s0["flashNs"] == 0
    # the file: its erases stall the core, the timer goes on
    erases = t1["erases"] - t0["erases"]
    assert erases >= 2 and t1["flashNs"] - t0["flashNs"] >= erases * 45e6
    assert typical["WRITE"] >= erases * 45000 > 10 * ideal["WRITE"], (ideal, typical)
    assert worst["WRITE"] >= (w1["erases"] - w0["erases"]) * 400000, worst
    # the loop: misses make it slower; once its code is cached, fewer
    assert t1["misses"] > t0["misses"] > 0
    assert typical["COLD"] > ideal["COLD"] and typical["WARM"] >= ideal["WARM"]
    assert typical["COLD"] - ideal["COLD"] > typical["WARM"] - ideal["WARM"], (ideal, typical)
    # the CPU alone: the same in both profiles with the flash's time
    assert abs(worst["WARM"] - typical["WARM"]) <= typical["WARM"] // 20, (typical, worst)

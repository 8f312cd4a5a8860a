# Programs that others timed on a real Raspberry Pi Pico (tools/bench/
# calibration.py names each measurement and its source), written here from
# their published descriptions and run on the emulated board over its raw
# REPL: the same work, timed by the board's own clock. Each prints "NAME us".
import gc
import time

from machine import Pin


def timed(name, f, *args):
    gc.collect()
    t0 = time.ticks_us()
    f(*args)
    print(name, time.ticks_diff(time.ticks_us(), t0))


# Arithmetic in a loop inside a function, its operands in a list passed in
# (shaoziyang/micropython_benchmarks: "C = p[1] + p[2]" n times).
def add(p):
    for i in range(p[0]):
        c = p[1] + p[2]  # noqa: F841 - stored, as the timed program does


def mul(p):
    for i in range(p[0]):
        c = p[1] * p[2]  # noqa: F841 - stored, as the timed program does


def div(p):
    for i in range(p[0]):
        c = p[1] / p[2]  # noqa: F841 - stored, as the timed program does


def power(p):
    for i in range(p[0]):
        c = p[1] ** p[2]  # noqa: F841 - stored, as the timed program does


# The Mandelbrot set on an 81 x 31 grid of complex points, `n` iterations
# at most each (the same source's "Mandelbrot iterating 100 times").
def mandelbrot(n):
    def inside(c):
        z = 0
        for i in range(n):
            z = z * z + c
            if abs(z) > 4:
                return False
        return True

    out = ""
    for v in range(31):
        for u in range(81):
            out += " " if inside((u / 30 - 2) + (v / 15 - 1) * 1j) else "#"
        out += "\n"
    return out


# Digits of pi with big integers (the same source's "Pi Calculation 1000
# bits": a series summed with 10**(n+8) fixed point).
def pi_digits(n):
    one = 10 ** (n + 8)
    t = c = 3 * one
    k, dk, d, dd = 1, 0, 0, 24
    while t > 1:
        k, dk, d, dd = k + dk, dk + 8, d + dd, dd + 32
        t = t * k // d
        c += t
    return c // 10**8


try:
    QUICK  # noqa: B018 - set before this script by bench.device --quick
except NameError:
    QUICK = False

timed("int_add", add, [10000, 12345678, 56781234])
timed("int_mul", mul, [10000, 12345678, 56781234])
timed("int_div", div, [10000, 99999991, 45481])
timed("float_add", add, [10000, 12345678.1234, 56781234.5678])
timed("float_mul", mul, [10000, 12345678.1234, 56781234.5678])
timed("float_div", div, [10000, 99999991.2345, 45481.1357])
if not QUICK:  # the three that take seconds
    timed("float_pow", power, [10000, 1234.5678, 2.3456])
    timed("mandelbrot", mandelbrot, 100)
    timed("pi_1000", pi_digits, 1000)

# GPIO from Python at module level: 256 x 8 Pin.value() calls on eight
# input pins (TinyTapeout's tt-micropython-firmware issue 8).
pins = [Pin(i, Pin.IN) for i in (9, 10, 11, 12, 17, 18, 19, 20)]
t0 = time.ticks_us()
for i in range(256):
    for j in range(8):
        pins[j].value(i & (1 << j))
print("gpio_2048", time.ticks_diff(time.ticks_us(), t0))

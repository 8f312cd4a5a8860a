# Stand-in for CircuitPython's `board` (tests and tools/bench/strip_cp.py):
# the RP2040's GP0..GP29 as pins, and no on-board NEOPIXEL (the library
# then leaves the power pins alone).
from microcontroller import Pin

for _n in range(30):
    globals()["GP%d" % _n] = Pin(_n)
del _n

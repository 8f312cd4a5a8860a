# time.ticks_us/ticks_ms arithmetic as MicroPython's rp2 port has it: the
# ticks wrap at 2^30 and ticks_diff answers in +-2^29 (a tick more than
# half a period old reads as in the future). One copy for the tests that
# run the firmware's clocks through the wrap (test_fw_drivers,
# test_loop_clock, test_pio_strip); plain functions: also under the unix
# port.
PERIOD = 1 << 30


def ticks_add(t, d):
    return (t + d) & (PERIOD - 1)


def ticks_diff(a, b):
    h = PERIOD >> 1
    return ((a - b + h) & (PERIOD - 1)) - h

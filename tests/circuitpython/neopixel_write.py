# Stand-in for CircuitPython's `neopixel_write`, the library's one hardware
# hook: each call's bytes are what the WS2812 line would carry, kept in
# WRITES as (the DigitalInOut, a copy of the buffer). KEEP = False keeps
# only the count (the benchmark: no copy in the figures).
WRITES = []
KEEP = True
count = 0


def neopixel_write(digitalinout, buf):
    global count
    count += 1
    if KEEP:
        WRITES.append((digitalinout, bytes(buf)))

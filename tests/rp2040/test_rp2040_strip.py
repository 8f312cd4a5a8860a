"""The LED strip's driver on the emulated RP2040: the start-up code's PIO
state machine fed by a DMA channel paced by its TX DREQ (the model of the
strip in tools/rp2040/board.js drains the FIFO at the WS2812 bit rate).
Each write() puts exactly the buffer's bytes on the wire, returns while the
frame is still going out, and a frame painted at once after it neither
reaches the frame on the wire nor runs into it (the latch gap)."""

import ast
import subprocess
import sys

import emukit

HZ = 125_000_000
FRAMES = 3

# Frame k: byte i is (7 i + 31 k) mod 256; the buffer is painted over at
# once after each write (byte 0: 99), then the next frame is painted.
CODE = (
    """
import time
from boards import build
from boards.rev_a import pins
s = build.led_strip(pins, 61)
us = []
busy = []
for k in range(%d):
    for i in range(len(s.buf)):
        s.buf[i] = (7 * i + 31 * k) & 255
    t0 = time.ticks_us()
    s.write()
    us.append(time.ticks_diff(time.ticks_us(), t0))
    busy.append(s.dma.active())
    s.buf[0] = 99
time.sleep_ms(10)
print('WRITES', us, busy)
"""
    % FRAMES
)


def frame(k):
    return bytes((7 * i + 31 * k) & 255 for i in range(183))


def test_the_dma_driver_writes_each_buffer_exactly_and_frees_the_cpu(tmp_path):
    board = emukit.boot("rev_a", tmp_path)
    try:
        before = len(board.frames)
        out = subprocess.run(
            [sys.executable, "-m", "mpremote", "connect", board.port, "exec", CODE],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        line = [w for w in out.stdout.splitlines() if w.startswith("WRITES")]
        assert line, (out.stdout, out.stderr)
        us, busy = ast.literal_eval(line[0][len("WRITES") :].replace("] [", "], ["))
        board.wait_ms(20)
        got = board.frames[before:]
        want = [frame(k) for k in range(FRAMES)]
        # every frame on the wire, byte for byte, in order, none with the
        # 99 painted after its write
        assert [g for c, g in got][-FRAMES:] == want
        # the DMA still feeds the FIFO when write() returns: the CPU's part
        # is a copy and a trigger, not the 1.8 ms on the wire
        assert all(busy)
        assert us[0] < 500, us
        # back-to-back frames: each waited for the one before on the wire
        # (183 bytes of 10 us) and the latch gap (>= 50 us low)
        cycles = [c for c, g in got][-FRAMES:]
        for a, b in zip(cycles, cycles[1:]):
            assert (b - a) / HZ * 1e6 >= 183 * 10 + 50
    finally:
        board.close()

"""The PIO strip driver with stand-ins for rp2: it assembles its program
through the rp2 module it is given (never importing it), and write() hands
the painter's buffer to the state machine, one byte per word at the top,
or to the DMA channel that feeds its FIFO (tests/rp2040/test_rp2040_strip.py:
the same on the emulated chip)."""

import rp2ticks
from smartboard.drivers.neopixel_pio import PioStrip, ws2812_program


class FakeSM:
    def __init__(self):
        self.puts = []

    def put(self, data, shift=0):
        self.puts.append([b << shift for b in data])


class FakeRp2:
    class PIO:
        OUT_LOW = 0
        SHIFT_LEFT = 0

    def __init__(self):
        self.config = None

    def asm_pio(self, **config):
        self.config = config
        return lambda f: f


def test_program_is_built_by_the_rp2_module_passed_in():
    rp2 = FakeRp2()
    prog = ws2812_program(rp2)
    assert callable(prog)
    assert rp2.config["pull_thresh"] == 8 and rp2.config["autopull"]


def test_write_sends_every_byte_of_the_buffer_at_the_top_of_a_word():
    sm = FakeSM()
    s = PioStrip(sm, 61)
    s.buf[0:3] = b"\x10\x20\x30"
    s.write()
    words = sm.puts[0]
    assert len(words) == 183 and words[:3] == [0x10 << 24, 0x20 << 24, 0x30 << 24]


class FakeDma:
    # Stands in for rp2.DMA: config() as the channel's registers take it; a
    # trigger copies the source as the transfer would (the bytes the FIFO
    # gets, in order).
    def __init__(self):
        self.regs = {}
        self.sent = []

    def pack_ctrl(self, **kw):
        return kw

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        for k, v in (("read", read), ("write", write), ("count", count), ("ctrl", ctrl)):
            if v is not None:
                self.regs[k] = v
        if trigger:
            src = self.regs["read"]
            self.sent.append(bytes(src[: self.regs["count"]]))


class FakeClock:
    # time's ticks_us/ticks_diff; each reading moves 5 us on
    def __init__(self):
        self.us = 1000

    def ticks_us(self):
        self.us += 5
        return self.us

    def ticks_diff(self, a, b):
        return a - b


def test_pio_strip_hands_the_dma_exactly_its_buffer_and_keeps_the_latch_gap():
    sm = object()
    dma = FakeDma()
    clock = FakeClock()
    strip = PioStrip(sm, 61, dma, 2, clock)
    assert dma.regs["write"] is sm and dma.regs["count"] == 183
    ctrl = dma.regs["ctrl"]
    # bytes into the TX FIFO, paced by the state machine's DREQ
    assert ctrl["size"] == 0 and ctrl["treq_sel"] == 2 and not ctrl["inc_write"]
    for i in range(183):
        strip.buf[i] = i
    t0 = clock.us
    strip.write()
    assert clock.us - t0 < 100  # the first frame waits for nothing
    first = bytes(strip.buf)
    strip.buf[0] = 99  # the next frame painted while the DMA reads: not on the wire
    assert bytes(dma.regs["read"]) == first
    t1 = clock.us
    strip.write()
    # a frame right after: it waits for the first on the wire (183 bytes of
    # 10 us) and the latch gap
    assert clock.us - t1 >= 183 * 10 + 50
    assert dma.sent == [first, bytes((99,)) + first[1:]]


class Rp2Clock(FakeClock):
    # the rp2 port's ticks: a period of 2^30 us, differences in +-2^29
    reads = 0

    def ticks_us(self):
        self.reads += 1
        assert self.reads < 10000, "write() still waiting"  # a bound, not a hang
        self.us = rp2ticks.ticks_add(self.us, 5)
        return self.us

    def ticks_diff(self, a, b):
        return rp2ticks.ticks_diff(a, b)


def test_a_frame_after_a_long_quiet_does_not_wait_through_the_timers_wrap():
    # A board idle for more than 2^29 us (8.9 min) between two frames: the
    # last frame's start reads as in the future through ticks_diff's wrap;
    # it is long off the wire, and write() must not wait for it.
    clock = Rp2Clock()
    strip = PioStrip(object(), 61, FakeDma(), 2, clock)
    strip.write()
    clock.us = rp2ticks.ticks_add(clock.us, (1 << 29) + 1000)
    t = clock.us
    strip.write()
    assert clock.ticks_diff(clock.us, t) < 100

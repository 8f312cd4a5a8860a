# The LED strip through a PIO state machine (rp2): the built-in neopixel
# bit-bangs with interrupts off for ~1.8 ms a frame. Fed by the CPU
# (sm.put), the frame still costs the CPU that 1.8 ms: put waits while the
# 183 words do not fit the 4-word FIFO. Fed by a DMA channel paced by the
# state machine's TX DREQ, write() costs the CPU a copy and the trigger,
# and the strip's 1.8 ms on the wire run beside the loop: a frame has 2 ms
# of the chip in all (docs/figures.md, on the target).
#
# The start-up code builds the parts and passes them in (this file never
# imports rp2, machine or time):
#   sm = rp2.StateMachine(0, ws2812_program(rp2), freq=8_000_000, sideset_base=Pin(pin))
#   PioStrip(sm, n, rp2.DMA(), dreq, time)   # or PioStrip(sm, n): sm.put
# dreq: the DREQ of that state machine's TX FIFO (RP2040 datasheet 2.5.3.1:
# PIO0's TX0..3 are 0..3, PIO1's 8..11).

# A WS2812 byte is 8 bits of 1.25 us on the wire
_BYTE_US = 10
# The low time that latches a frame: >= 50 us for the WS2812, 280 us for
# the WS2812B-V5 (their datasheets): the next frame starts no sooner.
_LATCH_US = 300


def ws2812_program(rp2):
    """The PIO program, assembled by the rp2 module passed in."""

    @rp2.asm_pio(
        sideset_init=rp2.PIO.OUT_LOW,
        out_shiftdir=rp2.PIO.SHIFT_LEFT,
        autopull=True,
        pull_thresh=8,
    )
    def ws2812():
        # The delays live in the body: rp2.asm_pio runs it with the module's
        # globals swapped for the assembler's names, so a module-level
        # constant would be a NameError on the board. WS2812 bit at 8 MHz:
        # 10 cycles = 1.25 us; a 1 is high for T1 + T2 = 7 cycles (0.875 us),
        # a 0 for T1 = 2 (0.25 us): MicroPython's own example.
        T1 = 2
        T2 = 5
        T3 = 3
        wrap_target()  # noqa: F821 - names of the rp2 assembler
        label("bitloop")  # noqa: F821
        out(x, 1).side(0)[T3 - 1]  # noqa: F821
        jmp(not_x, "do_zero").side(1)[T1 - 1]  # noqa: F821
        jmp("bitloop").side(1)[T2 - 1]  # noqa: F821
        label("do_zero")  # noqa: F821
        nop().side(0)[T2 - 1]  # noqa: F821
        wrap()  # noqa: F821

    return ws2812


class PioStrip:
    def __init__(self, sm, n, dma=None, dreq=0, clock=None):
        self.sm = sm
        self.n = n
        self.buf = bytearray(3 * n)  # GRB, painted in place
        self.dma = dma
        if dma is not None:
            # What the DMA reads while the painter paints the next frame in
            # buf: write() copies buf here, so buf is the painter's at once.
            self._out = bytearray(3 * n)
            # Byte transfers into the TX FIFO: the bus replicates a narrow
            # write across the word (RP2040 datasheet 2.1.5), so the byte
            # is in the top 8 bits the program shifts out first.
            self._ctrl = dma.pack_ctrl(size=0, inc_read=True, inc_write=False, treq_sel=dreq)
            dma.config(read=self._out, write=sm, count=3 * n, ctrl=self._ctrl)
            self.clock = clock
            self._frame_us = 3 * n * _BYTE_US + _LATCH_US
            self._at = clock.ticks_us() - self._frame_us  # the last frame's start

    def write(self):
        dma = self.dma
        if dma is None:
            # One word per byte, shifted to the top: the program shifts
            # left and pulls 8 bits at a time. put() returns once the last
            # 4 words are in the FIFO; the latch gap follows by itself
            # since the next frame is a loop tick away.
            self.sm.put(self.buf, 24)
            return
        c = self.clock
        # The previous frame off the wire and latched before this one
        # starts (frames are a loop tick apart or more: no wait then).
        # 0 <= d: a frame more than 2^29 us (8.9 min) ago reads negative
        # through ticks_diff's wrap; it is long off the wire, no wait.
        d = c.ticks_diff(c.ticks_us(), self._at)
        while 0 <= d < self._frame_us:
            d = c.ticks_diff(c.ticks_us(), self._at)
        self._at = c.ticks_us()
        self._out[:] = self.buf
        dma.config(read=self._out, trigger=True)  # count and ctrl as set up

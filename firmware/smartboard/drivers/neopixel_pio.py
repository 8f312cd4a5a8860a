# The LED strip through a PIO state machine (rp2): the CPU feeds the frame
# to the TX FIFO with interrupts on, where the built-in neopixel bit-bangs
# with interrupts off for ~1.8 ms a frame (issue 3). The feeding still
# takes ~1.8 ms: sm.put waits while the 183 words do not fit the 4-word
# FIFO (measured on the emulated RP2040); a DMA transfer would free it. The start-up code builds
#   rp2.StateMachine(0, ws2812_program(rp2), freq=8_000_000, sideset_base=Pin(pin))
# and passes it in: this file never imports rp2 or machine itself.


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
    def __init__(self, sm, n):
        self.sm = sm
        self.n = n
        self.buf = bytearray(3 * n)  # GRB, painted in place

    def write(self):
        # One word per byte, shifted to the top: the program shifts left
        # and pulls 8 bits at a time. put() returns once the last 4 words
        # are in the FIFO; the >= 50 us low gap that latches the frame
        # follows by itself since the next frame is a loop tick away.
        self.sm.put(self.buf, 24)

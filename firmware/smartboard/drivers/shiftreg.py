# The reeds of profile B: a chain of 74HC165 parallel-in shift registers on
# SPI. Pulsing the latch (SH/LD) low loads every switch at once; the chain
# then clocks out nbytes. Reeds close to ground against pull-ups, so a
# card (closed) reads 0: the bits are inverted here.


class ShiftRegMatrix:
    """One 74HC165 (8 cells) per matrix row: read_row(r) is byte r of the
    chain, so no mask wider than a byte is ever built (a 64-bit int would
    be a heap-allocated long on MicroPython, every pass)."""

    def __init__(self, spi, latch, nbytes, cols=8):
        if cols != 8:
            raise ValueError("shiftreg: one 74HC165 per row of 8 cells")
        self.spi = spi
        self.latch = latch
        self.cols = cols
        self.buf = bytearray(nbytes)

    def refresh(self):
        self.latch.value(0)
        self.latch.value(1)
        self.spi.readinto(self.buf)

    def read_row(self, r):
        """Mask of the occupied cells of row r (one snapshot per pass)."""
        if r == 0:
            self.refresh()
        return ~self.buf[r] & 0xFF

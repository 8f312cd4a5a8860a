# The reeds of profile B: a chain of 74HC165 parallel-in shift registers on
# SPI. Pulsing the latch (SH/LD) low loads every switch at once; the chain
# then clocks out nbytes. Reeds close to ground against pull-ups, so a
# card (closed) reads 0: the bits are inverted here.


class ShiftRegMatrix:
    def __init__(self, spi, latch, nbytes, cols):
        self.spi = spi
        self.latch = latch
        self.cols = cols
        self.buf = bytearray(nbytes)
        self._bits = 0

    def refresh(self):
        self.latch.value(0)
        self.latch.value(1)
        self.spi.readinto(self.buf)
        v = 0
        for i in range(len(self.buf)):
            v |= (~self.buf[i] & 0xFF) << (8 * i)
        self._bits = v

    def read_row(self, r):
        """Mask of the occupied cells of row r (one snapshot per pass)."""
        if r == 0:
            self.refresh()
        return (self._bits >> (r * self.cols)) & ((1 << self.cols) - 1)

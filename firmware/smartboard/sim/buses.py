# Bus-level twins for the real drivers: pins that record their writes, and
# a 74HC165 chain over SPI backed by SimCells.


class SimPin:
    def __init__(self, v=1):
        self.v = v
        self.writes = 0

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        self.writes += 1


class SimSpi165:
    """74HC165 chain: byte i carries inputs 8i..8i+7, low = closed."""

    def __init__(self, cells, latch):
        self.cells = cells
        self.latch = latch

    def readinto(self, buf):
        for i in range(len(buf)):
            b = 0xFF
            for k in range(8):
                ch = 8 * i + k
                if ch < len(self.cells.cells) and self.cells.cells[ch]:
                    b &= ~(1 << k)
            buf[i] = b & 0xFF

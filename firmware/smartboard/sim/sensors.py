# Simulated twins of the cell sensors: a table of what lies on each channel,
# read back through the same calls as the real reader, mux and matrix, with
# noise injected on demand (missed reads, torn reads) to prove debouncing.
import random

from .. import tag


class SimCells:
    """What physically lies on each channel: 0 none, else 1 + tag code
    (profile A), or anything non-zero for occupied (profile B)."""

    def __init__(self, nchannels):
        self.cells = bytearray(nchannels)
        self.foreign = bytearray(nchannels)  # 1: a non-APIXAGON tag lies there
        self.miss = 0  # per read, in 1/1000: the tag is not seen
        self.torn = 0  # per read, in 1/1000: the page comes back damaged

    def put(self, ch, code):
        self.cells[ch] = 1 + code

    def lift(self, ch):
        self.cells[ch] = 0


class SimMux:
    def __init__(self):
        self.ch = 0
        self.switches = 0

    def select(self, ch):
        self.ch = ch
        self.switches += 1


class SimNfcReader:
    def __init__(self, cells, mux):
        self.cells = cells
        self.mux = mux
        self.reads = 0

    def read_page(self, buf):
        self.reads += 1
        ch = self.mux.ch
        cells = self.cells
        if cells.foreign[ch]:
            buf[0:4] = b"\x04\x13\x55\x21"
            return 4
        v = cells.cells[ch]
        if not v or (cells.miss and random.randrange(1000) < cells.miss):
            return 0
        c = v - 1
        tag.encode(tag.side_of(c), tag.kind_of(c), tag.index_of(c), buf)
        if cells.torn and random.randrange(1000) < cells.torn:
            buf[random.randrange(4)] ^= 1 << random.randrange(8)
        return 4


class SimMatrix:
    def __init__(self, cells, cols):
        self.cells = cells
        self.cols = cols
        self.bounce = 0  # per switch read, in 1/1000: reads the wrong way

    def read_row(self, r):
        mask = 0
        for c in range(self.cols):
            on = self.cells.cells[r * self.cols + c] != 0
            if self.bounce and random.randrange(1000) < self.bounce:
                on = not on
            if on:
                mask |= 1 << c
        return mask

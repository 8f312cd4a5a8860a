# Simulated twins of the cell sensors: a table of what lies on each channel,
# read back through the same calls as the real reader, mux and matrix, with
# noise injected on demand (missed reads, torn reads) to prove debouncing.
import random

from .. import scan, tag


class SimCells:
    """What physically lies on each channel: 0 none, else 1 + tag code
    (profile A), or anything non-zero for occupied (profile B)."""

    def __init__(self, nchannels):
        self.cells = bytearray(nchannels)
        self.foreign = bytearray(nchannels)  # 1: a non-APIXAGON tag lies there
        self.blank = bytearray(nchannels)  # 1: the card's tag has no payload
        self.deck = 1  # serial of the deck on the table (goes into UIDs)
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


# Time model of one reader: after an antenna switch the tag gets the
# board's settling (scan.SETTLE_US, 5.1 ms: the tag's power-up, not the
# MOSFET switch's microseconds), a tag read takes ~4.5 ms, and an empty
# antenna answers "no tag" after a short timeout. `us` adds them up so the
# simulator's clock and the benchmark's latency figures follow them.
SETTLE_US = scan.SETTLE_US
READ_US = 4500
EMPTY_US = 1500
# Of those, the I2C traffic at 400 kHz (~22 us a byte): InListPassiveTarget
# with its ACK, ready polls and answer (~35 bytes), plus InDataExchange when
# a tag answers (~45 more). The rest is the reader's own RF work, which
# several readers do at once (scan.NfcLanes); their bus traffic queues.
BUS_EMPTY_US = 800
BUS_READ_US = 1800


class SimNfcReader:
    def __init__(self, cells, mux):
        self.cells = cells
        self.mux = mux
        self.reads = 0
        self.us = 0  # modelled time spent reading
        self.bus_us = 0  # of which on the I2C bus
        self._last = -1
        self._uid = 0
        self.dead = False  # a reader that stopped answering (smartboard.health)
        # A reader that hangs (its bus held, its answer never ready): only
        # a reset pulse on its line clears it (buses.SimResetLine).
        self.hung = False
        self.in_reset = False  # its reset line is low
        self.held = False  # the board's recovery stopped asking it (hold())

    def answering(self):
        return not (self.dead or self.hung)

    # smartboard.recover's calls, as on the PN532 driver
    def hold(self):
        self.held = True

    def reinit(self):
        self.held = False
        return not (self.dead or self.hung or self.in_reset)

    def _silent(self):
        return self.dead or self.hung or self.held or self.in_reset

    def uid(self, buf):
        """A 7-byte NXP-style UID, derived from the deck serial and card."""
        u = self._uid
        buf[0] = 0x04
        buf[1] = 0xA7
        buf[2] = (u >> 16) & 255
        buf[3] = (u >> 8) & 255
        buf[4] = u & 255
        buf[5] = 0x80
        buf[6] = 0x42
        return 7

    def read_page(self, buf):
        self.start()
        return self.finish(buf)

    def start(self, again=False, uid=True):
        # again (a READ of the tag still listed) costs the twin a whole
        # read, as before: its time model stays an upper bound.
        if self._silent():
            return  # the driver gives up at once on a reader that is down
        self.reads += 1
        ch = self.mux.ch
        if ch != self._last:
            self._last = ch
            self.us += SETTLE_US

    def poll(self, buf):
        """The read's answer: a twin never keeps the host waiting (its
        time is counted in `us`)."""
        return self.finish(buf)

    def finish(self, buf):
        if self._silent():
            return scan.NO_READER
        ch = self._last
        cells = self.cells
        if cells.foreign[ch]:
            self.us += READ_US
            self.bus_us += BUS_READ_US
            buf[0:4] = b"\x04\x13\x55\x21"
            self._uid = 0x100 | ch
            return 4
        v = cells.cells[ch]
        if not v or (cells.miss and random.randrange(1000) < cells.miss):
            self.us += EMPTY_US
            self.bus_us += BUS_EMPTY_US
            return 0
        self.us += READ_US
        self.bus_us += BUS_READ_US
        c = v - 1
        self._uid = cells.deck << 8 | c
        if cells.blank[ch]:
            for i in range(4):
                buf[i] = 0  # an NTAG user page never written
            return 4
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

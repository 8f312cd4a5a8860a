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
        # clock(): its reader's time in us (SimNfcReader sets it); at: when
        # the antenna last switched, on that clock (long before at first)
        self.clock = None
        self.at = -scan.SETTLE_US

    def select(self, ch):
        if ch != self.ch and self.clock is not None:
            self.at = self.clock()
        self.ch = ch
        self.switches += 1


# Time model of one reader: after an antenna switch the tag needs the
# board's settling (scan.SETTLE_US, 5.1 ms: the tag's power-up, not the
# MOSFET switch's microseconds) before it can answer, a tag read takes
# ~4.5 ms, and an empty antenna answers "no tag" after a short timeout.
# `us` adds them up so the simulator's clock and the benchmark's latency
# figures follow them. As a real PN532, the twin sends its request when it
# gets the command: asked sooner than SETTLE_US after the switch (on
# `clock`, or on `us` where the host's wait_us() counts), it finds no tag.
SETTLE_US = scan.SETTLE_US
READ_US = 4500
EMPTY_US = 1500
# Of those, the I2C traffic at 400 kHz (~22 us a byte): InListPassiveTarget
# with its ACK, ready polls and answer (~35 bytes), plus InDataExchange when
# a tag answers (~45 more). The rest is the reader's own RF work, which
# several readers do at once (scan.NfcLanes); their bus traffic queues.
BUS_EMPTY_US = 800
BUS_READ_US = 1800


class SimFields:
    """The RF fields on now among some twins, and the most at once."""

    def __init__(self):
        self.on = 0
        self.most = 0

    def add(self, d):
        self.on += d
        if self.on > self.most:
            self.most = self.on


class SimNfcReader:
    """clock: the host's time in us (a test's), or None: the twin's own
    modelled time (`us`); fields: a SimFields its RF field counts in."""

    def __init__(self, cells, mux, clock=None, fields=None):
        self.cells = cells
        self.mux = mux
        self.reads = 0
        self.us = 0  # modelled time spent reading
        self.bus_us = 0  # of which on the I2C bus
        self.clock = clock or self._us
        mux.clock = self.clock
        self.early = 0  # requests sent before the tag there had power
        # Its RF field: off at power-on, on with RFConfiguration (field())
        # or the first command that needs it (a PN532 switches it on
        # itself); a tag powers up from when it came on, as after a switch
        self.field_on = False
        self.on_at = -SETTLE_US
        self.fields = fields
        self._early = False
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

    def _us(self):
        return self.us

    def field(self, on):
        """RFConfiguration's RF field item (the PN532 driver's field())."""
        if self._silent():
            return False
        self._set_field(on)
        if on:
            self.on_at = self.clock()
        return True

    def _set_field(self, on):
        if on != self.field_on:
            self.field_on = on
            if self.fields is not None:
                self.fields.add(1 if on else -1)

    def wait_us(self, us):
        """The host holding its next command (scan.NfcScanner's wait_us
        without a clock): time on the twin's clock."""
        self.us += us

    # smartboard.recover's calls, as on the PN532 driver
    def hold(self):
        self.held = True
        self._set_field(False)  # its RSTPD_N low: powered down

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
        self._last = self.mux.ch
        self._set_field(True)  # a list needs the field: the PN532 turns it on
        # the request goes out now: the tag there powered up or not
        at = self.mux.at if self.mux.at > self.on_at else self.on_at
        self._early = self.clock() - at < SETTLE_US
        if self._early:
            self.early += 1

    def poll(self, buf):
        """The read's answer: a twin never keeps the host waiting (its
        time is counted in `us`)."""
        return self.finish(buf)

    def finish(self, buf):
        if self._silent():
            return scan.NO_READER
        ch = self._last
        cells = self.cells
        if self._early:  # the tag had no power yet: nothing answered
            self.us += EMPTY_US
            self.bus_us += BUS_EMPTY_US
            return 0
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

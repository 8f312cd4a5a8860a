# The bus-hang recovery (smartboard/recover.py) over the real drivers: a
# PN532 that hangs its bus is reset through its RSTPD_N (held low LOW_MS,
# WAKE_MS before it is spoken to again), set up again and read; one that
# stays dead is tried ATTEMPTS times and left down, said once; the
# TCA9548A forgets its port with the reset. Plain functions and twins:
# these run under the unix port too.
from smartboard import recover, scan, tag
from smartboard.drivers.i2cmux import TCA9548A
from smartboard.drivers.pn532 import NO_READER, PN532
from smartboard.recover import ATTEMPTS, LOW_MS, RETRY_MS, WAKE_MS, Recovery
from smartboard.sim.buses import SimPn532I2C
from smartboard.sim.sensors import SimCells, SimMux, SimNfcReader


class Clock:
    def __init__(self):
        self.ms = 0

    def __call__(self):
        return self.ms


class Line:
    """A reset line: its edges with their times; a pulse of min_ms or more
    low clears the bus's hang, nothing else does."""

    def __init__(self, clock, bus, min_ms=LOW_MS):
        self.clock = clock
        self.bus = bus
        self.min_ms = min_ms
        self.v = 1
        self.edges = []  # (ms, level)

    def value(self, v=None):
        if v is None:
            return self.v
        if v != self.v:
            self.edges.append((self.clock(), v))
            if v and self.clock() - self.edges[-2][0] >= self.min_ms:
                self.bus.hung = False
                self.bus.woke_at = self.clock()
        self.v = v
        self.bus.in_reset = not v  # in reset: nothing answers


class HangBus:
    """A PN532's bus that hangs: every transfer times out (SDA held low:
    machine.I2C's OSError ETIMEDOUT) until its reader is reset; in reset
    it does not ACK (EIO). The commands it passes on are counted, with
    the time of the first one after a reset."""

    def __init__(self, inner, clock):
        self.inner = inner
        self.clock = clock
        self.hung = False
        self.in_reset = False
        self.dead = False
        self.woke_at = -1
        self.first_after = -1
        self.calls = 0
        self.commands = []

    def _check(self):
        self.calls += 1
        if self.hung:
            raise OSError(110)
        if self.in_reset or self.dead:
            raise OSError(5)

    def writeto(self, addr, buf):
        self._check()
        if self.woke_at >= 0 and self.first_after < 0:
            self.first_after = self.clock()
        self.commands.append(buf[6])
        self.inner.writeto(addr, buf)

    def readfrom_into(self, addr, buf):
        self._check()
        self.inner.readfrom_into(addr, buf)


def rig():
    clock = Clock()
    cells = SimCells(64)
    mux = SimMux()
    bus = HangBus(SimPn532I2C(SimNfcReader(cells, mux)), clock)
    r = PN532(bus)
    line = Line(clock, bus)
    return clock, cells, mux, bus, r, line


def run(rec, clock, ms, every=1):
    """Step the recovery for ms of the clock; the ms it gave up at, or -1."""
    gave = -1
    end = clock.ms + ms
    while clock.ms < end:
        if rec.step(clock.ms) and gave < 0:
            gave = clock.ms
        clock.ms += every
    return gave


def test_a_hung_reader_is_reset_set_up_again_and_read():
    clock, cells, mux, bus, r, line = rig()
    c = tag.code(1, tag.NORMAL, 5)
    cells.put(3, c)
    s = scan.NfcScanner(r, mux, bytes([3]), wait_us=bus.inner.reader.wait_us)
    for _ in range(scan.STABLE + 1):
        s.scan_for_changes()
    assert s.state[3] == 1 + c
    bus.hung = True  # SDA held low from here on
    for _ in range(8):
        assert s.scan_for_changes() == -1
    assert not r.answering() and s.state[3] == 1 + c  # down, the card kept
    rec = Recovery((line,), (r,))
    assert rec.step(0) is False and line.v == 0  # the pulse begins at once
    n = bus.calls
    buf = bytearray(4)
    assert r.read_page(buf) == NO_READER and bus.calls == n  # held: no traffic
    run(rec, clock, LOW_MS + WAKE_MS + 5)
    (t0, lo), (t1, hi) = line.edges
    assert lo == 0 and hi == 1 and t1 - t0 >= LOW_MS
    # spoken to again only after its wake-up, SAMConfiguration first
    assert bus.first_after - t1 >= WAKE_MS
    assert bus.commands[-2:] == [0x14, 0x32]  # SAMConfiguration, RFConfiguration
    assert r.answering() and rec.tries == 0 and rec.resets == 1
    assert r.read_page(buf) == 4 and tag.decode(buf) == c
    lifts = 0
    for _ in range(scan.LIFT_STABLE + 2):
        if s.scan_for_changes() >= 0:
            lifts += 1
    assert lifts == 0 and s.state[3] == 1 + c  # and the scan goes on, nothing lost


def test_a_reader_that_stays_dead_is_tried_then_left_down_and_said_once():
    clock, cells, mux, bus, r, line = rig()
    bus.dead = True  # no ACK at all: a reset does not help
    buf = bytearray(4)
    for _ in range(8):
        r.read_page(buf)
    assert not r.answering()
    rec = Recovery((line,), (r,), recover.PAD)
    gave = run(rec, clock, ATTEMPTS * (LOW_MS + WAKE_MS + RETRY_MS) + 100)
    assert gave >= 0 and rec.gave_up() and rec.resets == ATTEMPTS
    pulses = [e for e in line.edges if e[1] == 0]
    assert len(pulses) == ATTEMPTS
    # the attempts RETRY_MS apart, after each pulse's set-up failed
    assert pulses[1][0] - pulses[0][0] >= LOW_MS + WAKE_MS + RETRY_MS
    assert run(rec, clock, 10 * RETRY_MS) == -1 and rec.resets == ATTEMPTS  # no more pulses
    # plugged back: the driver's probe finds it, the recovery is idle again
    bus.dead = False
    from smartboard.drivers.pn532 import PROBE_EVERY

    for _ in range(PROBE_EVERY + 1):
        r.read_page(buf)
    assert r.answering()
    run(rec, clock, 10)
    assert not rec.gave_up() and rec.tries == 0


def test_the_board_says_a_recovery_gave_up():
    from smartboard import health

    text = health.stuck(recover.CELLS, ATTEMPTS)
    assert "reset %d times" % ATTEMPTS in text and "reader" in text
    assert "action pad" in health.stuck(recover.PAD, ATTEMPTS)


class SwitchBus:
    """A TCA9548A at 0x70 with a PN532 twin per port; reset, it deselects
    every port (datasheet, RESET Input)."""

    def __init__(self, devices):
        self.devices = devices
        self.port = -1
        self.selects = 0

    def writeto(self, addr, buf):
        if addr == 0x70:
            self.port = {1: 0, 2: 1, 4: 2, 8: 3}[buf[0]]
            self.selects += 1
        elif self.port < 0:
            raise OSError(5)  # no port on: nobody ACKs
        else:
            self.devices[self.port].writeto(addr, buf)

    def readfrom_into(self, addr, buf):
        if self.port < 0:
            raise OSError(5)
        self.devices[self.port].readfrom_into(addr, buf)


class SwitchLine:
    def __init__(self, bus):
        self.bus = bus

    def value(self, v):
        if not v:
            self.bus.port = -1


def test_the_switch_is_reset_with_its_readers_and_selects_its_port_again():
    cells = SimCells(64)
    muxes = [SimMux() for _ in range(4)]
    bus = SwitchBus([SimPn532I2C(SimNfcReader(cells, m)) for m in muxes])
    sw = TCA9548A(bus)
    readers = [PN532(sw.port(k)) for k in range(4)]
    c = tag.code(0, tag.NORMAL, 2)
    cells.put(16 * 3 + 1, c)
    muxes[3].select(16 * 3 + 1)
    bus.devices[3].reader.wait_us(scan.SETTLE_US)  # the tag there powered up
    buf = bytearray(4)
    assert readers[3].read_page(buf) == 4
    readers[2].alive = False  # one reader down: the cell bus is reset
    rec = Recovery((SwitchLine(bus),), (sw,) + tuple(readers), recover.CELLS)
    clock = Clock()
    rec.step(0)
    assert bus.port == -1 and all(r.held for r in readers)
    n = bus.selects
    run(rec, clock, LOW_MS + WAKE_MS + 5)
    assert all(r.answering() for r in readers) and rec.tries == 0
    assert bus.selects > n  # the port written again after the reset
    assert readers[3].read_page(buf) == 4 and tag.decode(buf) == c

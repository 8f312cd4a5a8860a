# The real drivers over bus-level twins: the mux writes only what changes
# and enables one chip at a time; the shift-register chain feeds the reed
# scanner the right cells.
import rp2ticks
from smartboard import scan, tag
from smartboard.drivers.mux import AnalogMux
from smartboard.drivers.pn532 import PN532
from smartboard.drivers.shiftreg import ShiftRegMatrix
from smartboard.sim.buses import SimPin, SimPn532I2C, SimSpi165
from smartboard.sim.sensors import SimCells, SimMux, SimNfcReader


def test_mux_selects_channel_bits_and_one_enable():
    sel = [SimPin(0) for _ in range(4)]
    en = [SimPin() for _ in range(4)]
    m = AnalogMux(sel, en)
    m.select(0x2B)  # mux 2, channel 11 = 0b1011
    assert [p.v for p in sel] == [1, 1, 0, 1]
    assert [p.v for p in en] == [1, 1, 0, 1]
    before = [p.writes for p in sel]
    m.select(0x2A)  # one bit differs: one write
    assert sum(p.writes for p in sel) - sum(before) == 1
    m.select(0x0A)  # another chip: the old one is disabled first
    assert [p.v for p in en] == [0, 1, 1, 1]


def test_shift_register_chain_feeds_the_reed_scanner():
    cells = SimCells(64)
    latch = SimPin()
    sr = ShiftRegMatrix(SimSpi165(cells, latch), latch, 8, 8)
    cells.put(19, 0)
    cells.put(63, 0)
    assert sr.read_row(0) == 0 and sr.read_row(2) == 1 << 3 and sr.read_row(7) == 1 << 7
    assert latch.writes == 2 and latch.v == 1  # pulsed low then high
    s = scan.ReedMatrixScanner(sr, 8, 8)
    got = []
    for _ in range(8 * (scan.REED_STABLE + 1)):
        ch = s.scan_for_changes()
        if ch >= 0:
            got.append(ch)
    assert sorted(got) == [19, 63]


def pn532():
    cells = SimCells(64)
    mux = SimMux()
    bus = SimPn532I2C(SimNfcReader(cells, mux))
    return PN532(bus), bus, cells, mux


def powered(*twins):
    """The test, as the host, holds its next command SETTLE_US after an
    antenna switch (the twin's clock): the tag there has power."""
    for t in twins:
        t.wait_us(scan.SETTLE_US)


def test_pn532_reads_the_payload_of_the_card_on_the_antenna():
    r, bus, cells, mux = pn532()
    buf = bytearray(4)
    mux.select(5)
    powered(bus.reader)
    assert r.read_page(buf) == 0  # nothing there
    c = tag.code(1, tag.NORMAL, 17)
    cells.put(5, c)
    assert r.read_page(buf) == 4 and tag.decode(buf) == c
    uid = bytearray(7)
    assert r.uid(uid) == 7 and uid[0] == 0x04


def test_pn532_torn_frame_and_silence_are_failed_reads_not_cards():
    r, bus, cells, mux = pn532()
    cells.put(3, tag.code(0, tag.NORMAL, 2))
    mux.select(3)
    powered(bus.reader)
    buf = bytearray(4)
    bus.corrupt = True
    assert r.read_page(buf) == -1
    bus.busy = True
    assert r.read_page(buf) == -1 and r.errors == 2
    bus.busy = False
    # Through the scanner: one failed read changes no state.
    s = scan.NfcScanner(r, mux, bytes([3]))
    for _ in range(4):
        s.scan_for_changes()
    assert s.state[3] == 1 + tag.code(0, tag.NORMAL, 2)
    bus.corrupt = True
    for _ in range(3):
        assert s.scan_for_changes() == -1
    assert s.state[3] == 1 + tag.code(0, tag.NORMAL, 2)


def test_mux_of_the_second_lane_counts_from_its_base():
    sel = [SimPin(0) for _ in range(4)]
    en = [SimPin() for _ in range(2)]
    m = AnalogMux(sel, en, 32)
    m.select(32 + 16 + 5)  # its second chip, channel 5
    assert [p.v for p in sel] == [1, 0, 1, 0] and [p.v for p in en] == [1, 0]


def test_four_pn532_lanes_started_together_report_every_change():
    # NfcLanes starts every reader before collecting any answer: each
    # reader keeps its own command in flight (rev A, issue 3 latency).
    cells = SimCells(64)
    lanes = []
    deb = scan.Debouncer(64, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
    for lo in (0, 16, 32, 48):
        mux = SimMux()
        r = PN532(SimPn532I2C(SimNfcReader(cells, mux)))
        lanes.append(scan.NfcScanner(r, mux, bytes([lo + 3]), deb=deb))
    s = scan.NfcLanes(lanes)
    codes = [tag.code(k & 1, tag.NORMAL, k) for k in range(4)]
    for k in range(4):
        cells.put(16 * k + 3, codes[k])
    got = []
    for _ in range(3 * scan.STABLE + 3):
        ch = s.scan_for_changes()
        if ch >= 0:
            got.append(ch)
    # all four settle in the same step: one is reported now, the rest on
    # the next calls
    assert sorted(got) == [3, 19, 35, 51]
    assert [s.state[16 * k + 3] for k in range(4)] == [1 + c for c in codes]


class Rp2Ticks:
    """time.ticks_us and time.ticks_diff as the rp2 port has them (a period
    of 2^30 us, differences in +-2^29); each reading moves 100 us on, and
    a reading past `limit` fails the test instead of spinning for ever."""

    def __init__(self, t, limit=20000):
        self.t = t
        self.reads = 0
        self.limit = limit
        self.diff = rp2ticks.ticks_diff

    def us(self):
        self.reads += 1
        assert self.reads < self.limit, "still waiting after %d readings" % self.reads
        self.t = rp2ticks.ticks_add(self.t, 100)
        return self.t


def test_lanes_ask_their_readers_whatever_the_chips_timer_reads():
    # After a soft reset (mpremote's, at the end of a deploy) the RP2040's
    # timer runs on from its power-on: past 2^29 us (8.9 min) a lane never
    # asked (its time 0) read as asked in the future through ticks_diff's
    # wrap, and the scan waited for ever (the watchdog reset the board).
    for start in (0, (1 << 29) + 1000, (1 << 30) - 300):
        cells = SimCells(64)
        mux = SimMux()
        deb = scan.Debouncer(64, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
        r = PN532(SimPn532I2C(SimNfcReader(cells, mux)))
        clock = Rp2Ticks(start)
        s = scan.NfcLanes([scan.NfcScanner(r, mux, bytes([3]), deb=deb)], clock.us, clock.diff)
        cells.put(3, tag.code(1, tag.NORMAL, 7))
        got = []
        for _ in range(3 * scan.STABLE + 3):
            ch = s.scan_for_changes()
            if ch >= 0:
                got.append(ch)
        assert got == [3], (start, got)


class SwitchBus:
    """An I2C bus with a TCA9548A at 0x70 and a PN532 twin per port."""

    def __init__(self, devices):
        self.devices = devices
        self.port = -1
        self.selects = 0

    def writeto(self, addr, buf):
        if addr == 0x70:
            self.port = {1: 0, 2: 1, 4: 2, 8: 3}[buf[0]]
            self.selects += 1
        else:
            self.devices[self.port].writeto(addr, buf)

    def readfrom_into(self, addr, buf):
        self.devices[self.port].readfrom_into(addr, buf)


def test_readers_behind_the_i2c_switch_each_answer_on_their_port():
    from smartboard.drivers.i2cmux import TCA9548A

    cells = SimCells(64)
    muxes = [SimMux() for _ in range(4)]
    bus = SwitchBus([SimPn532I2C(SimNfcReader(cells, m)) for m in muxes])
    sw = TCA9548A(bus)
    readers = [PN532(sw.port(k)) for k in range(4)]
    c = tag.code(1, tag.NORMAL, 9)
    cells.put(16 * 2 + 7, c)
    buf = bytearray(4)
    for k in range(4):
        muxes[k].select(16 * k + 7)
    powered(*(d.reader for d in bus.devices))
    for r in readers:
        r.start()  # all four in flight
    got = [r.finish(buf) for r in readers]
    assert got == [0, 0, 4, 0] and tag.decode(buf) == c
    n = bus.selects
    readers[3].read_page(buf)  # the same port again: no switch write
    assert bus.selects == n


class DeadBus:
    """An I2C bus whose device does not ACK (machine.I2C raises OSError)."""

    def __init__(self, inner=None):
        self.inner = inner
        self.dead = True
        self.calls = 0

    def writeto(self, addr, buf):
        self.calls += 1
        if self.dead:
            raise OSError(5)  # EIO: no ACK
        self.inner.writeto(addr, buf)

    def readfrom_into(self, addr, buf):
        self.calls += 1
        if self.dead:
            raise OSError(110)  # ETIMEDOUT: a bus held low
        self.inner.readfrom_into(addr, buf)


def test_pn532_that_does_not_answer_never_raises_and_is_down():
    from smartboard.drivers.pn532 import NO_READER, PROBE_EVERY

    cells = SimCells(64)
    mux = SimMux()
    bus = DeadBus(SimPn532I2C(SimNfcReader(cells, mux)))
    r = PN532(bus)  # set-up fails: no exception, the reader is down
    assert not r.answering()
    buf = bytearray(4)
    n = bus.calls
    assert r.read_page(buf) == NO_READER and bus.calls == n  # no bus traffic while down
    # it is set up again every PROBE_EVERY starts: plugged back, it answers
    bus.dead = False
    cells.put(5, tag.code(0, tag.NORMAL, 7))
    mux.select(5)
    powered(bus.inner.reader)
    for _ in range(PROBE_EVERY - 2):
        assert r.read_page(buf) == NO_READER
    assert r.read_page(buf) == 4 and r.answering()
    assert tag.decode(buf) == tag.code(0, tag.NORMAL, 7)


def test_pn532_goes_down_after_failures_in_a_row_and_the_scanner_keeps_its_cells():
    from smartboard.drivers.pn532 import DOWN_AFTER

    cells = SimCells(64)
    mux = SimMux()
    sim = SimPn532I2C(SimNfcReader(cells, mux))
    bus = DeadBus(sim)
    bus.dead = False
    r = PN532(bus)
    c = tag.code(1, tag.NORMAL, 4)
    cells.put(3, c)
    s = scan.NfcScanner(r, mux, bytes([3]), wait_us=sim.reader.wait_us)
    for _ in range(scan.STABLE + 1):
        s.scan_for_changes()
    assert s.state[3] == 1 + c and r.answering()
    bus.dead = True  # the cable comes loose mid-match
    for _ in range(DOWN_AFTER + scan.LIFT_STABLE + 2):
        assert s.scan_for_changes() == -1
    assert not r.answering()
    assert s.state[3] == 1 + c  # no phantom lift of the card it saw


def test_a_cell_made_hot_after_the_scanner_was_told_is_still_swept():
    # The sweep skips the cells of the last prioritise() (the hot reads
    # visit those); the board's own map changes between two calls, so the
    # scanner keeps a copy: skipping by the live map, a cell made hot since
    # was in neither the hot reads nor the sweep (a Smoker's lift unseen).
    cells = SimCells(64)
    mux = SimMux()
    twin = SimNfcReader(cells, mux)
    s = scan.NfcScanner(PN532(SimPn532I2C(twin)), mux, bytes(range(8)), wait_us=twin.wait_us)
    hot = bytearray(64)
    hot[1] = 1
    s.prioritise(hot)
    hot[5] = 1  # the board's map, changed: the scanner not told yet
    cells.put(5, tag.code(0, tag.NORMAL, 9))
    got = [s.scan_for_changes() for _ in range(40 * scan.STABLE)]
    assert 5 in got


def _reads_by_channel(n_hot, n, reads, cards=()):
    """The channels a lane of n antennas reads, n_hot of them hot, a card
    lying on each channel of cards (seen before the hot cells are told)."""
    cells = SimCells(64)
    mux = SimMux()
    twin = SimNfcReader(cells, mux)
    s = scan.NfcScanner(PN532(SimPn532I2C(twin)), mux, bytes(range(n)), wait_us=twin.wait_us)
    for ch in cards:
        cells.put(ch, tag.code(0, tag.NORMAL, ch))
    for _ in range(n * 8 * scan.STABLE):
        s.scan_for_changes()
    assert all(s.state[ch] for ch in cards)
    hot = bytearray(64)
    for ch in range(n_hot):
        hot[ch] = 1
    s.prioritise(hot)
    got = bytearray()  # (a list of ints outgrew the unix port's heap cap)
    select = mux.select

    def seen(ch):
        got.append(ch)
        select(ch)

    mux.select = seen
    for _ in range(reads):
        s.scan_for_changes()
    return got


def _when(got, ch):
    return [i for i, c in enumerate(got) if c == ch]


def _gaps(steps):
    return [b - a for a, b in zip(steps, steps[1:])]


def test_a_lane_with_few_cells_not_hot_gives_its_reads_to_the_hot_ones():
    # One empty cell of 16 not hot: read about every WARM_READS reads of the
    # lane (a wrong card put there is seen soon), the hot ones the rest.
    got = _reads_by_channel(15, 16, 4 * scan.COLD_READS)
    assert max(_gaps(_when(got, 15))) <= scan.WARM_READS + 1
    # each hot cell comes round every 15 reads, a little more with the other's
    assert max(_gaps(_when(got, 3))) <= 17


def test_every_empty_cell_is_read_about_every_warm_reads():
    # Where a card put on the wrong cell must be seen (its refusal shown
    # red): before, every cell not hot was read about every COLD_READS
    # reads (~1 s), the same as a card lying still.
    for n_hot in (0, 4, 10, 14):
        n_warm = 16 - n_hot
        got = _reads_by_channel(n_hot, 16, 3 * scan.COLD_READS)
        bound = max(scan.WARM_READS, (scan.HOT_MIN + 1) * n_warm) + 1
        for ch in range(n_hot, 16):
            steps = _when(got, ch)
            assert len(steps) >= 2, (n_hot, ch)
            assert max(_gaps(steps)) <= bound, (n_hot, ch, max(_gaps(steps)), bound)


def test_every_card_lying_still_is_read_about_every_cold_reads_whatever_the_counts():
    # Occupied cells (only a lift changes them) in proportion, by a pointer
    # of their own: one pointer for empty and occupied cells, skipping,
    # came round to the same part of them when their counts shared a
    # factor, and a lift there (a Beekeeper's source, the reserve) went
    # unseen for good.
    for n_hot, cards in ((2, range(3, 13)), (0, range(2, 16)), (6, range(8, 16)), (1, (4, 9))):
        got = _reads_by_channel(n_hot, 16, 4 * scan.COLD_READS, cards)
        bound = 3 * scan.COLD_READS // 2 + 2 * len(cards)
        for ch in range(n_hot, 16):
            steps = _when(got, ch)
            assert len(steps) >= 2, (n_hot, ch, cards)
            n_warm = 16 - n_hot - len(cards)
            warm = max(scan.WARM_READS, (scan.HOT_MIN + 1) * n_warm) + 2 * len(cards) + 2
            limit = bound if ch in cards else warm
            assert max(_gaps(steps)) <= limit, (n_hot, ch, max(_gaps(steps)), limit)


def test_lanes_read_on_for_their_slice_and_return_after_a_read_without_one():
    cells = SimCells(64)
    mux = SimMux()
    deb = scan.Debouncer(64, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
    clock = Rp2Ticks(0, limit=10**6)
    # the twin on the lanes' clock: a list sent early finds no tag
    twin = SimNfcReader(cells, mux, lambda: clock.t)
    lane = scan.NfcScanner(PN532(SimPn532I2C(twin)), mux, bytes(range(4)), deb=deb)
    reads = []
    step = lane.step

    def counted():
        c = step()
        if c != scan.BUSY:
            reads.append(c)
        return c

    lane.step = counted
    s = scan.NfcLanes([lane], clock.us, clock.diff)
    s.slice_us = 0
    s.scan_for_changes()
    assert len(reads) == 1
    del reads[:]
    s.slice_us = scan.NO_WAIT  # one pass: the lane is not due yet, nothing waited for
    t0 = clock.t
    assert s.scan_for_changes() == -1 and not reads and clock.diff(clock.t, t0) < 1000
    clock.t += scan.SETTLE_US + scan.RF_US
    s.scan_for_changes()  # due now: stepped once, no more
    del reads[:]
    s.slice_us = scan.SLICE_US
    t0 = clock.t
    s.scan_for_changes()  # a quiet board: reads until the slice is spent
    assert len(reads) > 1 and clock.diff(clock.t, t0) >= scan.SLICE_US
    del reads[:]
    cells.put(2, tag.code(1, tag.NORMAL, 4))
    got = -1
    while got < 0:
        got = s.scan_for_changes()  # a change ends the slice at once
    assert got == 2


def test_lanes_sleep_only_while_no_reader_can_answer():
    # The core sleeps a millisecond (sleep_ms(1)) on a pass that found no
    # lane to ask, and only when no lane's answer can be there within it
    # (scan.IDLE_US): no lane is asked late for a sleep.
    cells = SimCells(64)
    deb = scan.Debouncer(64, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
    lanes = []
    clock = Rp2Ticks(0, limit=10**6)
    for lo in (0, 16, 32, 48):
        mux = SimMux()
        r = PN532(SimPn532I2C(SimNfcReader(cells, mux, lambda: clock.t)))
        lanes.append(scan.NfcScanner(r, mux, bytes(range(lo, lo + 4)), deb=deb))
    room = []  # at each sleep: us until the first lane's answer can be there
    s = []

    def sleep_ms(ms):
        at, gap = s[0]._at, s[0]._gap
        due = [clock.diff(rp2ticks.ticks_add(at[k], gap[k]), clock.t) for k in range(4)]
        room.append(min(due) - 1000 * ms)
        clock.t = rp2ticks.ticks_add(clock.t, 1000 * ms)

    s.append(scan.NfcLanes(lanes, clock.us, clock.diff, sleep_ms))
    cells.put(18, tag.code(1, tag.NORMAL, 4))
    got = -1
    for _ in range(8):
        got = max(got, s[0].scan_for_changes())
    assert got == 18 and len(room) > 5
    assert min(room) >= 0, room
    clock.t = rp2ticks.ticks_add(clock.t, scan.SETTLE_US + scan.RF_US)
    assert not s[0].rest()  # answers there to collect: no sleep


def test_lanes_hold_each_list_until_the_tag_on_the_new_antenna_has_power():
    # A PN532 sends REQA the moment it gets InListPassiveTarget: asked
    # sooner than SETTLE_US after its antenna switched, the tag there has
    # no power yet and the cell reads empty (the twins: SimNfcReader.early).
    # The lanes hold each command until then and serve the others meanwhile.
    cells = SimCells(64)
    deb = scan.Debouncer(64, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
    clock = Rp2Ticks(0, limit=10**6)
    twins = []
    lanes = []
    for lo in (0, 16, 32, 48):
        mux = SimMux()
        twins.append(SimNfcReader(cells, mux, lambda: clock.t))
        lanes.append(
            scan.NfcScanner(PN532(SimPn532I2C(twins[-1])), mux, bytes(range(lo, lo + 4)), deb=deb)
        )
    s = scan.NfcLanes(lanes, clock.us, clock.diff)
    sent = []  # per command: us since its lane's antenna switched
    for k in range(4):
        start = twins[k].start

        def timed(again=False, uid=True, k=k, start=start):
            sent.append(clock.t - twins[k].mux.at)
            start(again, uid)

        twins[k].start = timed
    for k in range(4):
        cells.put(16 * k + 2, tag.code(k & 1, tag.NORMAL, k))
    got = set()
    t0 = clock.t
    while len(got) < 4 and clock.t - t0 < 2000000:
        ch = s.scan_for_changes()
        if ch >= 0:
            got.add(ch)
    assert got == {2, 18, 34, 50}
    assert sum(t.early for t in twins) == 0 and min(sent) >= scan.SETTLE_US
    # non-blocking: while one lane's command was held, the others were read
    assert sum(t.reads for t in twins) > 4 * 4


def test_lanes_take_turns_when_the_supply_carries_fewer_fields_than_readers():
    # rev A on a Default USB port: fewer RF fields may be on at once than
    # there are readers (smartboard.power fields_allowed); a lane's field
    # goes off (RFConfiguration) once its read is collected and the next
    # one's comes on, its tag given SETTLE_US to power up again
    from smartboard.sim.sensors import SimFields

    cells = SimCells(64)
    deb = scan.Debouncer(64, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
    clock = Rp2Ticks(0, limit=10**6)
    fields = SimFields()
    twins = []
    lanes = []
    for lo in (0, 16, 32, 48):
        mux = SimMux()
        twins.append(SimNfcReader(cells, mux, lambda: clock.t, fields))
        lanes.append(
            scan.NfcScanner(PN532(SimPn532I2C(twins[-1])), mux, bytes(range(lo, lo + 4)), deb=deb)
        )
    s = scan.NfcLanes(lanes, clock.us, clock.diff)
    for n in (1, 2):
        s.fields = n
        fields.most = fields.on
        want = set()
        for k in range(4):
            cells.lift(16 * k + n)  # the card the last round put, if any
            cells.put(16 * k + 1 + n, tag.code(k & 1, tag.NORMAL, k))
            want.add(16 * k + 1 + n)
            if n > 1:
                want.add(16 * k + n)
        got = set()
        t0 = clock.t
        while got != want and clock.t - t0 < 5000000:
            ch = s.scan_for_changes()
            if ch >= 0:
                got.add(ch)
        assert got == want, (n, got)
        assert fields.most <= n, (n, fields.most)
        assert sum(t.early for t in twins) == 0
    s.fields = 4  # a stronger source: all on, each lane reading on its own
    for _ in range(20):
        s.scan_for_changes()
    assert fields.on == 4

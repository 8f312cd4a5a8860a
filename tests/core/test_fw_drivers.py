# The real drivers over bus-level twins: the mux writes only what changes
# and enables one chip at a time; the shift-register chain feeds the reed
# scanner the right cells.
from smartboard import scan
from smartboard.drivers.mux import AnalogMux
from smartboard.drivers.shiftreg import ShiftRegMatrix
from smartboard.sim.buses import SimPin, SimSpi165
from smartboard.sim.sensors import SimCells


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

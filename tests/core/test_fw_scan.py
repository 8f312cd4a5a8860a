# Sensing with debouncing, through the simulated twins of both profiles.
import random

from smartboard import scan, tag
from smartboard.sim.sensors import SimCells, SimMatrix, SimMux, SimNfcReader

CH = bytes(range(64))


def nfc(stable=scan.STABLE):
    cells = SimCells(64)
    mux = SimMux()
    r = SimNfcReader(cells, mux)
    # no clock: the hold after each antenna switch on the twin's time
    return scan.NfcScanner(r, mux, CH, stable, wait_us=r.wait_us), cells


def sweep(s, n=64):
    """Run n scan calls; the (channel, state) changes reported."""
    out = []
    for _ in range(n):
        ch = s.scan_for_changes()
        if ch >= 0:
            out.append((ch, s.state[ch]))
    return out


def test_debouncer_needs_stable_reads():
    d = scan.Debouncer(4, 3)
    assert not d.feed(0, 5) and not d.feed(0, 5)
    assert d.feed(0, 5) and d.state[0] == 5
    for raw in (0, 5, 0, 5, 0, 5):  # flicker never settles
        assert not d.feed(0, raw)
    assert d.state[0] == 5


def test_error_states_need_longer_to_settle():
    d = scan.Debouncer(1, 3, 8)
    for _ in range(7):
        assert not d.feed(0, scan.UNREADABLE)
    assert d.feed(0, scan.UNREADABLE)


def test_placement_and_lift_are_reported_once():
    s, cells = nfc()
    code = tag.code(1, tag.NORMAL, 12)
    assert sweep(s, 128) == []
    cells.put(40, code)
    assert sweep(s, 128) == [(40, 1 + code)]
    assert sweep(s, 128) == []
    cells.lift(40)
    assert sweep(s, 128) == [(40, scan.EMPTY)]


def test_a_placement_settles_within_one_sweep():
    s, cells = nfc()
    sweep(s, 10)
    cells.put(20, tag.code(0, tag.RAIN, 1))
    got = sweep(s, 64)  # the focus re-reads: no need for three sweeps
    assert got == [(20, 1 + tag.code(0, tag.RAIN, 1))]


def test_foreign_and_damaged_tags_are_error_states():
    s, cells = nfc()
    cells.foreign[3] = 1
    assert sweep(s, 200) == [(3, scan.FOREIGN)]
    random.seed(7)
    s, cells = nfc()
    cells.put(5, 7)
    cells.torn = 1000  # every read damaged: a broken tag
    got = sweep(s, 64 * 30)
    # Damage to the magic byte reads as a foreign tag, elsewhere as torn:
    # either way an error state, never a card.
    assert got and all(ch == 5 for ch, state in got)
    assert all(state in (scan.UNREADABLE, scan.FOREIGN) for ch, state in got)


def test_noise_never_makes_a_phantom_change():
    random.seed(11)
    s, cells = nfc()
    for ch in range(0, 64, 3):
        cells.put(ch, tag.code(ch & 1, tag.NORMAL, ch % 31))
    sweep(s, 64 * 4)  # settle
    before = bytes(s.state)
    cells.torn = 50  # 5 % of reads damaged
    cells.miss = 10  # 1 % of reads miss the tag
    assert sweep(s, 64 * 150) == []
    assert bytes(s.state) == before


def test_reed_matrix_profile():
    random.seed(3)
    cells = SimCells(64)
    m = SimMatrix(cells, 8)
    s = scan.ReedMatrixScanner(m, 8, 8)
    assert sweep(s, 64) == []
    cells.put(17, 0)
    # a call reads the whole matrix: REED_STABLE calls see a placement
    got = sweep(s, scan.REED_STABLE)
    assert got == [(17, scan.OCCUPIED)]
    m.bounce = 20  # 2 % of switch reads wrong
    assert sweep(s, 8 * 300) == []
    m.bounce = 0
    cells.lift(17)
    assert sweep(s, scan.REED_STABLE) == [(17, scan.EMPTY)]


class CountingMatrix(SimMatrix):
    def __init__(self, cells, cols):
        SimMatrix.__init__(self, cells, cols)
        self.rows_read = 0

    def read_row(self, r):
        self.rows_read += 1
        return SimMatrix.read_row(self, r)


def test_reed_scan_reads_one_pass_per_call_and_sees_changes_in_skipped_rows():
    cells = SimCells(64)
    m = CountingMatrix(cells, 8)
    s = scan.ReedMatrixScanner(m, 8, 8)
    cells.put(42, 0)
    assert sweep(s, scan.REED_STABLE) == [(42, scan.OCCUPIED)]
    m.rows_read = 0
    assert sweep(s, 10) == []  # quiet: rows are compared, not fed
    assert m.rows_read == 80
    cells.put(5, 0)
    cells.lift(42)
    got = sweep(s, scan.REED_STABLE + 1)
    assert sorted(got) == [(5, scan.OCCUPIED), (42, scan.EMPTY)]

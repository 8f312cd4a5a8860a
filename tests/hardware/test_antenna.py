# Rev A's antenna network in ngspice (tools/hardware/antenna.py), read from
# the committed netlist: for the shortest and the longest run, the TX load
# resonates at 13.56 MHz, the antenna's Q is in its window, and the
# switched-off coils (and the nearest one, coupled) barely move either.
import pytest

from hardware import antenna, circuit

pytestmark = pytest.mark.skipif(
    antenna.ngspice() is None,
    reason="ngspice is not installed (Debian: apt-get install ngspice; make test installs it)",
)


@pytest.fixture(scope="module")
def built():
    return antenna.readers()


@pytest.fixture(scope="module")
def rows(built):
    return antenna.report(built)


def test_every_cell_has_a_run_its_capacitors_and_a_reader(built):
    cells = [c for r in built.values() for c in r.cells]
    assert len(cells) == len(circuit.layout()["cells"]) == 61
    for r in built.values():
        # pn532()'s EMC filter and matching, and the feed inductors
        assert (r.l0, r.c0, r.c1, r.c2) == pytest.approx((560e-9, 220e-12, 33e-12, 100e-12))
        assert r.feed == pytest.approx(2 * 560e-9)
        for c in r.cells:
            assert c.run_mm == pytest.approx(circuit.run_mm(c.name), abs=0.5)
            assert 200e-12 <= c.cs_a <= c.cs_b <= 350e-12
    short, long_ = antenna.extremes(built)
    assert short[1].run_mm < 40 < 200 < long_[1].run_mm


def test_the_tx_load_resonates_at_13_56_mhz_for_the_shortest_and_longest_run(rows):
    for r in rows:
        assert abs(r["f_res"] - antenna.F0) <= antenna.F_TOL * antenna.F0, r
        # resistive there, and a load the PN532's drivers can carry
        assert abs(r["z_tx"].imag) < 0.1 * r["z_tx"].real and 50 < r["z_tx"].real < 150, r


def test_the_antennas_q_is_in_its_window(rows):
    for r in rows:
        assert antenna.Q_MIN <= r["q_ant"] <= antenna.Q_MAX, r
        assert r["q_sys"] < r["q_ant"]  # the driver's load lowers it


def test_switched_off_coils_barely_detune_the_selected_one(rows):
    for r in rows:
        assert abs(r["detune_off"]) < antenna.DETUNE_MAX, r
        assert abs(r["detune_neighbour"]) < antenna.DETUNE_MAX, r
        assert r["q_neighbour"] == pytest.approx(r["q_ant"], rel=0.05), r
        # an open coil beside it carries almost none of the field's current
        assert r["i_neighbour_ratio"] < 0.05, r


def test_the_switches_stay_on_and_off(rows):
    for r in rows:
        assert r["vgs_on_min"] >= 1.7, r  # RDS(ON) as modelled (parts.DMG1012T)
        assert r["v_body_reverse"] >= -0.2, r  # a silicon diode passes nothing there


def test_cs_ideal_is_what_tuning_the_extremes_gives(built):
    for (reader, cell), (run, cs) in zip(antenna.extremes(built), circuit.CS_IDEAL):
        assert cell.run_mm == pytest.approx(run, abs=0.5)
        assert antenna.tune(reader, cell) == pytest.approx(cs, rel=0.01)


def test_a_mistuned_run_fails_the_resonance_check(built):
    reader, cell = antenna.extremes(built)[0]
    keep = cell.cs_a, cell.cs_b
    try:
        cell.cs_a = cell.cs_b = 2 * keep[0]
        f = antenna.figures(reader, cell)["f_res"]
    finally:
        cell.cs_a, cell.cs_b = keep
    assert f is None or abs(f - antenna.F0) > antenna.F_TOL * antenna.F0

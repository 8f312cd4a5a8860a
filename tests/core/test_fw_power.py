# The LED strip's budget from the USB supply (smartboard.power): the CC
# sense reading's thresholds, the supply's twin, and the painter following
# the supply at each frame it writes.
from apixagon.geometry import NCELLS
from smartboard import layout, power
from smartboard.paint import Painter
from smartboard.sim.strip import SimStrip
from smartboard.sim.supply import SimCC, sim_supply

LEVELS = (224, 417)  # boards/rev_*/pins.py CC_LEVELS: the ADC mV at vRd 0.66 / 1.23 V
PINS = {"CC_LEVELS": LEVELS, "POWER_REST_MA": 127}


def test_the_cc_reading_names_the_supply():
    assert power.supply_ma(0, LEVELS) == 500  # no advertisement read: Default USB
    assert power.supply_ma(223, LEVELS) == 500
    assert power.supply_ma(224, LEVELS) == 1500
    assert power.supply_ma(416, LEVELS) == 1500
    assert power.supply_ma(417, LEVELS) == 3000
    assert power.supply_ma(700, LEVELS) == 3000  # vRd 2.04 V: the 3 A range's top
    # far above any vRd: no CC divider (a Pico's GPIO29 reads VSYS / 3)
    assert power.supply_ma(1650, LEVELS) == 500


def test_the_twin_reads_each_advertisement_in_its_range():
    for advert, ma in (("500mA", 500), ("1.5A", 1500), ("3A", 3000)):
        assert power.supply_ma(SimCC(LEVELS, advert).mv(), LEVELS) == ma


def test_the_strip_gets_what_the_rest_of_the_board_leaves():
    s = sim_supply(PINS, "500mA")
    assert s.led_budget_ma() == 500 - 127 and s.ma == 500
    s.cc.advert = "3A"
    assert s.led_budget_ma() == 3000 - 127
    assert power.Supply(lambda: 0, LEVELS, 600).led_budget_ma() == 0  # never negative


def _white(p):
    for x in range(NCELLS):
        p.cell(x, 255, 255, 255)


def test_the_painter_follows_the_supply_at_each_frame():
    lay = layout.load("hardware/layout.json")
    strip = SimStrip(61)
    p = Painter(strip, lay.led, 900, 255)
    p.supply = sim_supply(PINS, "3A")
    _white(p)
    p.show()
    assert p.budget_ma == 2873 and p.frame_ma() <= 2873 and p.frame_ma() > 2800
    p.supply.cc.advert = "500mA"  # the source lowers its advertisement
    _white(p)
    p.show()
    assert p.budget_ma == 373 and p.frame_ma() <= 373
    r, g, b = strip.rgb(0)
    assert r == g == b and r > 0  # dimmed evenly, still lit

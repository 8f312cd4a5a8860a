# The LED strip's budget from the USB supply (smartboard.power): the CC
# sense reading's thresholds, the supply's twin, and the painter following
# the supply at each frame it writes.
from apixagon.geometry import NCELLS
from smartboard import layout, power
from smartboard.paint import Painter
from smartboard.sim.strip import SimStrip
from smartboard.sim.supply import SimCC, sim_supply

# boards/rev_*/pins.py CC_LEVELS: the ADC mV at vRd 0.61, 0.70, 1.16 and 1.31 V
LEVELS = (207, 237, 393, 444)
PINS = {"CC_LEVELS": LEVELS, "POWER_REST_MA": 127}


def test_the_cc_reading_names_the_supply():
    assert power.supply_ma(0, LEVELS) == 500  # no advertisement read: Default USB
    assert power.supply_ma(207, LEVELS) == 500
    assert power.supply_ma(237, LEVELS) == 1500
    assert power.supply_ma(393, LEVELS) == 1500
    assert power.supply_ma(444, LEVELS) == 3000
    assert power.supply_ma(692, LEVELS) == 3000  # vRd 2.04 V: the 3 A range's top
    # far above any vRd: no CC divider (a Pico's GPIO29 reads VSYS / 3)
    assert power.supply_ma(1650, LEVELS) == 500


def test_a_reading_between_two_ranges_keeps_the_supply_read_before():
    # the gaps between the sink's ranges (USB Type-C, Table 4-36) are the
    # hysteresis: a reading that wanders over a threshold flips nothing
    for mv in (208, 222, 236):  # between Default USB's range and 1.5 A's
        assert power.supply_ma(mv, LEVELS, 500) == 500
        assert power.supply_ma(mv, LEVELS, 1500) == 1500
        assert power.supply_ma(mv, LEVELS, 3000) == 500  # not 3 A: the lower of the two
    for mv in (394, 420, 443):  # between 1.5 A's and 3.0 A's
        assert power.supply_ma(mv, LEVELS, 1500) == 1500
        assert power.supply_ma(mv, LEVELS, 3000) == 3000
        assert power.supply_ma(mv, LEVELS, 500) == 1500  # not 3 A: the lower of the two
    s = power.Supply(None, LEVELS, 127)
    got = []
    for mv in (250, 230, 215, 240, 228, 210, 200, 225, 231):  # noise about 0.66 V
        s.read_mv = lambda mv=mv: mv
        s.led_budget_ma()
        got.append(s.ma)
    assert got == [1500] * 6 + [500] * 3  # one step down, when a reading left the gap


def test_the_twin_reads_each_advertisement_in_its_range():
    for advert, ma in (("500mA", 500), ("1.5A", 1500), ("3A", 3000)):
        assert power.supply_ma(SimCC(LEVELS, advert).mv(), LEVELS) == ma


def test_the_strip_gets_what_the_rest_of_the_board_leaves():
    # of 88 % of the supply (power.DERATE_PCT): never the whole of it
    s = sim_supply(PINS, "500mA")
    assert s.led_budget_ma() == 440 - 127 and s.ma == 500
    s.cc.advert = "1.5A"
    assert s.led_budget_ma() == 1320 - 127
    s.cc.advert = "3A"
    assert s.led_budget_ma() == 2640 - 127
    assert power.Supply(lambda: 0, LEVELS, 600).led_budget_ma() == 0  # never negative


def _white(p):
    for x in range(NCELLS):
        p.cell(x, 255, 255, 255)


def _lit(advert, pins=PINS):
    """A painter on the supply's twin, a white frame written: (painter, strip)."""
    strip = SimStrip(61)
    p = Painter(strip, layout.load("hardware/layout.json").led, 900, 255)
    p.supply = sim_supply(pins, advert)
    _white(p)
    p.show()
    return p, strip


def test_the_painter_follows_the_supply_at_each_frame():
    p, strip = _lit("3A")
    assert p.budget_ma == 2513 and p.frame_ma() <= 2513 and p.frame_ma() > 2450
    p.supply.cc.advert = "500mA"  # the source lowers its advertisement
    _white(p)
    p.show()
    assert p.budget_ma == 313 and p.frame_ma() <= 313
    r, g, b = strip.rgb(0)
    assert r == g == b and r > 0  # dimmed evenly, still lit


def test_a_lowered_advertisement_is_followed_on_a_static_screen():
    # no frame is written while the screen does not change: the painter
    # still reads the supply every FOLLOW_MS and dims the frame out within
    # the 60 ms USB Type-C gives a sink (tSinkAdj)
    from smartboard.paint import FOLLOW_MS

    p, strip = _lit("3A")
    writes = strip.frames
    for now in range(0, 200, 5):
        p.follow(now)  # the supply the same: nothing written again
    assert strip.frames == writes and p.frame_ma() > 2450
    p.supply.cc.advert = "500mA"
    at = 200
    while p.frame_ma() > 440 - 127:
        at += 5
        p.follow(at)
        assert at - 200 <= FOLLOW_MS + 5 < 60
    assert strip.frames == writes + 1
    p.supply.cc.advert = "3A"  # raised: the next frame may be brighter, none written now
    for now in range(at, at + 100, 5):
        p.follow(now)
    assert strip.frames == writes + 1 and p.budget_ma == 2640 - 127


def test_the_strip_is_switched_on_once_the_supply_can_carry_it():
    # the strip's load switch (STRIP_EN) is off through reset; the painter
    # switches it on after it has read the supply, never writes into it
    # while it is off, and switches it off below the dark LEDs' draw
    from smartboard.paint import FOLLOW_MS, RAMP_MS

    lay = layout.load("hardware/layout.json")
    strip = SimStrip(61)
    p = Painter(strip, lay.led, 900, 255)
    p.supply = sim_supply({"CC_LEVELS": LEVELS, "POWER_REST_MA": 406}, "500mA")  # rev A
    p.power = strip.switch
    p.powered = strip.powered = False
    _white(p)
    p.show()
    assert strip.frames == 0 and not strip.powered  # not read yet: still off
    p.follow(0)
    # 440 - 406 = 34 mA left, under the 61 dark LEDs' 61 mA: it stays off
    assert not strip.powered and not p.lit_ok() and strip.frames == 0
    p.show()
    assert strip.frames == 0  # nothing written into a strip without power
    p.supply.cc.advert = "1.5A"
    p.follow(FOLLOW_MS)
    assert strip.powered and p.lit_ok() and strip.frames == 0  # its rail rising
    t = FOLLOW_MS
    while strip.frames == 0:
        t += FOLLOW_MS
        p.follow(t)
        assert t <= FOLLOW_MS + RAMP_MS + FOLLOW_MS
    assert 0 < p.frame_ma() <= 1320 - 406  # the frame written again, within the limit
    p.supply.cc.advert = "500mA"
    p.follow(t + FOLLOW_MS)
    assert not strip.powered and not p.lit_ok()


def test_fields_allowed_keep_the_board_within_the_supply():
    # rev A: 755 mA with its five PN532 fields on (117 mA each from USB at
    # the datasheet's 150 mA): 2 fit 88 % of a 500 mA port, all 5 a 1.5 A one
    assert power.fields_allowed(500, 755, 5, 117) == 2
    assert 755 - 3 * 117 <= 500 * power.DERATE_PCT // 100 < 755 - 2 * 117
    assert power.fields_allowed(1500, 755, 5, 117) == 5
    assert power.fields_allowed(500, 197, 1, 117) == 1  # rev B fits as it is
    assert power.fields_allowed(100, 755, 5, 117) == 0  # never negative
    s = power.Supply(lambda: 0, LEVELS, 755, 5, 117)
    s.led_budget_ma()
    assert s.fields() == 2

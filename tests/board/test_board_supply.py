# The LEDs' limit follows the USB-C supply on the simulated board even when
# the screen does not change: a static frame is not written again by the
# view, so the board reads the supply every paint.FOLLOW_MS and writes the
# frame out dimmed when a source lowers its advertisement, within the 60 ms
# USB Type-C gives a sink (tSinkAdj; smartboard/power.py).
from apixagon.geometry import NCELLS
from boardkit import settings_path
from smartboard.paint import FOLLOW_MS
from smartboard.sim.rig import Rig
from smartboard.sim.supply import sim_supply

PINS = {"CC_LEVELS": (207, 237, 393, 444), "POWER_REST_MA": 127}


def _estimate(frame):
    # smartboard/paint.py's estimate: 20 mA a channel at 255, 1 mA an LED
    return sum(frame) * 20 // 255 + len(frame) // 3


def test_a_static_screen_follows_a_lowered_advertisement():
    r = Rig("B", settings_path("supply-static"), "hardware/layout.json", sim_supply(PINS, "3A"))
    r.run(500)
    p = r.board.hw.painter
    for x in range(NCELLS):  # a bright frame out, as a view would paint one
        p.cell(x, 255, 255, 255)
    p.show()
    n = r.strip.frames
    r.run(300)
    assert r.strip.frames == n  # nothing changes on the board: no frame written
    assert _estimate(r.strip.frame) > 2000
    p.supply.cc.advert = "500mA"
    t0 = r.now()
    while _estimate(r.strip.frame) > 500 - 127:
        r.tick()
        assert r.now() - t0 <= FOLLOW_MS + 5 < 60, "not followed within tSinkAdj"
    assert r.strip.frames == n + 1

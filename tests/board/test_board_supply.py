# The LEDs' limit follows the USB-C supply on the simulated board even when
# the screen does not change: a static frame is not written again by the
# view, so the board reads the supply every paint.FOLLOW_MS and writes the
# frame out dimmed when a source lowers its advertisement, within the 60 ms
# USB Type-C gives a sink (tSinkAdj; smartboard/power.py).
from apixagon.geometry import NCELLS
from boardkit import settings_path
from smartboard.paint import FOLLOW_MS
from smartboard.power import DERATE_PCT
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
    while _estimate(r.strip.frame) > 500 * DERATE_PCT // 100 - 127:
        r.tick()
        assert r.now() - t0 <= FOLLOW_MS + 5 < 60, "not followed within tSinkAdj"
    assert r.strip.frames == n + 1


def test_a_port_too_weak_for_the_lights_is_said_and_the_strip_stays_off():
    # rev A's five readers leave a Default USB port too little for the
    # strip's dark LEDs: the strip stays switched off and the board says
    # why (STATUS hw=supply); a stronger source lights it again
    pins = dict(PINS, POWER_REST_MA=406)
    r = Rig("A", settings_path("supply-weak"), "hardware/layout.json", sim_supply(pins, "500mA"))
    said = []

    class Heard:
        def on_event(self, board, what):
            if isinstance(what, str):
                said.append(what)

    r.board.listener = Heard()
    r.run(1500)
    assert r.strip.frames == 0 and not r.strip.powered
    assert r.board.faults_text() == "supply"
    assert any("too little power for the lights" in m for m in said), said
    r.board.hw.painter.supply.cc.advert = "1.5A"
    r.run(1500)
    assert r.strip.powered and r.strip.frames > 0
    assert r.board.faults_text() == "ok"
    assert any("the lights have power again" in m for m in said), said


def _fields_on_at_once(advert, name):
    """Rev A with its own pin table on a source that advertises `advert`:
    a match's first two moves played; (fields allowed, most on at once,
    the moves read)."""
    import json

    from apixagon.geometry import cell_name
    from boardkit import card, play
    from smartboard import buttons, power

    with open("hardware/rev_a/wiring.json") as f:  # pins.py's figures (make hardware)
        pins = json.load(f)
    r = Rig("A", settings_path(name), "hardware/layout.json", sim_supply(pins, advert))
    r.press(buttons.CONFIRM)
    g = r.board.ref.game
    out = bytearray(NCELLS)
    for side in (0, 1):
        g.legal_cells(side, out)
        to = [c for c in range(NCELLS) if out[c]][side * 7]
        play(r, [("put", cell_name(to), card(side, 0))])
    ma = {"500mA": power.DEFAULT_MA, "1.5A": power.MA_1A5}[advert]
    rest, n, each = pins["POWER_REST_MA"], pins["RF_FIELDS"], pins["RF_FIELD_MA"]
    allowed = power.fields_allowed(ma, rest, n, each)
    return allowed, r.fields.most, g.ply()


def test_rev_a_on_a_default_usb_port_keeps_no_more_fields_on_than_it_carries():
    # rev A's five PN532 fields at their datasheet maximum put the board at
    # 755 mA, over a 500 mA port: the firmware keeps no more fields on at
    # once than fields_allowed lets (2: the pad's and one cell reader's,
    # the four taking turns), and play still reads the cards
    allowed, most, moves = _fields_on_at_once("500mA", "supply-fields")
    assert allowed == 2 and most <= allowed
    assert moves == 2
    # on a 1.5 A source all five are on (the lanes read at once)
    allowed, most, moves = _fields_on_at_once("1.5A", "supply-fields-2")
    assert allowed == 5 and most == 5 and moves == 2

"""The LEDs' current limit on the emulated RP2040, from the USB-C CC
reading on its ADC pin (the circuit's divider, modelled in board.js): on a
Default USB port a board full of cards (they blink white in set-up) is
dimmed to what the port leaves the strip; when the source says 3 A the
same frame goes out whole, within the 3 A limit."""

import emukit
from apixagon.geometry import NCELLS, cell_name
from smartboard import tag
from smartboard.power import DERATE_PCT


def estimate(grb):
    # smartboard/paint.py's estimate: 20 mA per channel at 255, 1 mA an LED
    return sum(grb) * 20 // 255 + len(grb) // 3


def test_the_strip_follows_the_supply_the_cc_pin_advertises(tmp_path):
    rev = "rev_b"  # reeds: a card on every cell is quick to model
    rest = emukit.wiring_of(rev)["POWER_REST_MA"]
    board = emukit.boot(rev, tmp_path, before=lambda b: b.supply("500mA"))
    try:
        for x in range(NCELLS):
            board.put(cell_name(x), tag.code(x & 1, tag.NORMAL, x % 31))
        board.wait_ms(1500)
        lit = [estimate(g) for _, g in board.frames[-6:]]
        limit = 500 * DERATE_PCT // 100 - rest  # smartboard/power.py
        assert max(lit) <= limit
        assert max(lit) > limit - 20  # the limit, not the frame, decided it
        board.supply("3A")
        n = len(board.frames)
        board.wait_ms(1200)  # new blink phases: frames painted under the new limit
        lit = [estimate(g) for _, g in board.frames[n:]]
        # the white set-up frame at the default brightness, 160: 2357 mA
        assert 2000 < max(lit) <= 3000 * DERATE_PCT // 100 - rest
    finally:
        board.close()


def test_the_supply_is_read_on_a_static_screen_too(tmp_path):
    # a screen that does not change writes no frame, and a frame was when
    # the supply was read: a source that lowered its advertisement went
    # unheeded. The painter reads the CC sense every paint.FOLLOW_MS (20 ms)
    # whatever the screen does, within the 60 ms USB Type-C gives a sink.
    rev = "rev_b"
    cc = emukit.wiring_of(rev)["CC_SENSE"]
    board = emukit.boot(rev, tmp_path)
    try:
        board.wait_ms(1000)
        n, reads = len(board.frames), board.adc_reads(cc)
        board.wait_ms(300)
        assert len(board.frames) - n <= 1  # the set-up screen: (nearly) static
        got = board.adc_reads(cc) - reads
        assert got >= 300 // 20 - 2, "the CC sense read %d times in 300 ms" % got
    finally:
        board.close()


def test_a_port_too_weak_for_the_lights_keeps_the_strip_off_until_a_stronger_one(tmp_path):
    # rev A's five readers leave a Default USB port less than the strip's
    # 61 dark LEDs draw: its load switch (STRIP_EN) stays off, no frame
    # reaches it, STATUS says hw=supply; a 1.5 A source switches it on
    from apixagon_host import link as L

    rev = "rev_a"
    board = emukit.boot(rev, tmp_path, before=lambda b: b.supply("500mA"))
    try:
        board.wait_ms(1500)  # a health check (1 s) after the supply was read
        assert board.frames == []
        with L.connect(board.port, timeout=60) as link:
            assert L.fields(link.request("STATUS"))["hw"] == "supply"
        board.supply("1.5A")
        board.wait_ms(1500)
        assert board.frames  # switched on: the set-up screen reaches the strip
        with L.connect(board.port, timeout=60) as link:
            assert L.fields(link.request("STATUS"))["hw"] == "ok"
    finally:
        board.close()


def test_rev_a_on_a_default_usb_port_keeps_its_fields_within_it_and_plays(tmp_path):
    # rev A's five PN532 fields at their datasheet maximum put the board
    # over a 500 mA port (755 mA): no more are on at once than
    # smartboard.power.fields_allowed lets (2: the pad's and one cell
    # reader's, the four taking turns), board.js counting them from the
    # RFConfiguration and list commands each reader gets; play still
    # reads the cards
    from apixagon_host import link as L
    from emukit import card
    from smartboard import power

    rev = "rev_a"
    w = emukit.wiring_of(rev)
    allowed = power.fields_allowed(
        power.DEFAULT_MA, w["POWER_REST_MA"], w["RF_FIELDS"], w["RF_FIELD_MA"]
    )
    assert allowed == 2
    board = emukit.boot(rev, tmp_path, before=lambda b: b.supply("500mA"))
    try:
        board.wait_ms(500)
        with L.connect(board.port, timeout=60) as link:
            board.press("confirm")
            board.wait_ms(600)
            assert "phase=play" in link.request("STATUS").split()
            for n, (cell, code) in enumerate((("E4", "B12"), ("E6", "G3")), 1):
                board.put(cell, card(code))
                board.wait_ms(1500)
                assert "moves=%d" % n in link.request("STATUS").split()
        rd = board.readers()
        assert rd["fields_most"] <= allowed, rd
        assert all(rd["readers"][str(k)]["commands"] > 20 for k in range(4)), rd
        assert sum(rd["readers"][str(k)]["early"] for k in range(4)) == 0, rd
    finally:
        board.close()

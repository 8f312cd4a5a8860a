# Every frame the view paints, through the simulated board's scenarios and
# LED modes (tools/hardware/modes.py), at the top brightness, on each
# supply the USB-C CC pins can advertise: the estimate of the bytes
# written never exceeds the firmware's limit, and the limit plus the rest
# of the board stays within the supply.
import pytest
from smartboard.power import DERATE_PCT

from hardware import check, modes, power

SUPPLY = {"500mA": 500, "1.5A": 1500, "3A": 3000}


@pytest.mark.parametrize("advert", sorted(SUPPLY))
@pytest.mark.parametrize("rev,profile", [("rev_a", "A"), ("rev_b", "B")])
def test_no_frame_draws_more_than_the_supply_allows(rev, profile, advert):
    text, pins, _ = check.committed(rev)
    # profile B's reeds take the simulator longer: two of the records (the
    # specials and reserve; Junior's colours) - the screens are the same
    rec = modes.RECORDS if profile == "A" else ("beehive_full.apx", "junior_full.apx")
    rows = modes.frames(profile, pins, advert, rec)
    limit = power.led_budget(SUPPLY[advert], pins["POWER_REST_MA"])
    assert {m for m, _, _, _ in rows} == set(modes.MODES)
    over = [r for r in rows if r[2] > limit or r[3] != limit]
    assert over == [], over[:5]
    worst = modes.worst(rows)
    # the rest of the board with no more RF fields on at once than the
    # firmware lets be (smartboard/power.py fields_allowed, on the pin
    # table's RF_FIELDS and RF_FIELD_MA, which are the netlist's)
    assert (pins["RF_FIELDS"], pins["RF_FIELD_MA"]) == power.rf_fields(text)
    rest = power.rest_at_ma(text, SUPPLY[advert])
    planned = SUPPLY[advert] * DERATE_PCT // 100
    if pins["POWER_REST_MA"] > planned:
        # rev A's five readers at their datasheet maximum (150 mA of field
        # current each) are over a 500 mA port by themselves: two fields
        # on at once, the strip off (hardware/README.md)
        assert (rev, advert) == ("rev_a", "500mA")
        assert power.fields_allowed(text, SUPPLY[advert]) == 2 and rest <= planned
    else:
        assert rest == pins["POWER_REST_MA"]
    assert max(w for _, w in worst.values()) + rest <= planned
    # the limit had work to do: a board full of cards blinks white
    assert worst["set-up"][0] > 3000
    # a supply that cannot carry the 61 dark LEDs (rev A's five readers on
    # a Default USB port) keeps the strip switched off: nothing drawn
    dark = limit < 61 * power.LED_DARK_MA
    assert all(r[2] == 0 for r in rows) if dark else any(r[2] > 0 for r in rows)
    assert dark == (rev == "rev_a" and advert == "500mA")

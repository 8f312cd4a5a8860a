# A match's date (docs/protocol.md, CLOCK): once a host gave the board the
# time, each new match's log names the day and time it began in UTC
# (PGN's UTCDate/UTCTime; the board knows no time zone); before that its
# clock is the boot's default and the log names no date. One board a test:
# also run under MicroPython at 96 wK.
from boardkit import card, play
from eventkit import started, watched
from smartboard import buttons
from smartboard import matchlog as L


def _header(bd):
    lines = L.Lines()
    L.read_log(bd.flash.contents(bd.log.path), lines)
    return lines.header


def test_no_date_without_a_hosts_clock():
    bd = started("dt-none")
    play(bd.r, [("put", "A1", card(0, 0))])
    head = _header(bd)
    assert head and [h for h in head if "UTC" in h] == []


def test_a_match_after_a_hosts_clock_carries_its_utc_date():
    bd = watched("dt-set")
    assert bd.ask("CLOCK 1764180000") == (True, "1764180000")  # 2025-11-26 18:00:00 UTC
    bd.r.press(buttons.CONFIRM)
    play(bd.r, [("put", "A1", card(0, 0))])
    head = _header(bd)
    assert '[UTCDate "2025.11.26"]' in head
    times = [h for h in head if h.startswith("[UTCTime")]
    assert times in (['[UTCTime "18:00:00"]'], ['[UTCTime "18:00:01"]'])  # a second may pass

# Junior on the link (docs/protocol.md): SET players, STATUS players= and
# winner=, DECLARE out (RULES §6 D-13); and a match dated from the host's
# clock (CLOCK, the log's [Date] and [Time]). Plain functions: also run
# under the MicroPython unix port.
from apixagon.codes import JUNIOR
from boardkit import card, play
from eventkit import evs, watched
from smartboard import buttons, declare, report

# imported by the link at its first DECLARE (and refusal); made here first,
# they lie below the boards the tests build and drop (eventkit)
assert declare and report


def _err(bd, text):
    ok, reply = bd.ask(text)
    assert not ok, (text, reply)
    return reply


def test_junior_players_set_and_named_and_player_out_from_the_host():
    bd = watched("dl-junior", JUNIOR)
    st = bd.status()
    assert (st["mode"], st["players"]) == ("junior", "2")
    assert bd.ask("SET players 6") == (True, "players=6")
    assert bd.status()["players"] == "6" and "players=6" in bd.ask("CONF")[1]
    assert _err(bd, "SET players 1") == "6 bad arguments: SET players 2..6 junior"
    assert _err(bd, "SET players 7") == "6 bad arguments: SET players 2..6 junior"
    bd.r.press(buttons.CONFIRM)
    g = bd.r.board.ref.game
    assert g.players == 6 and bd.status()["players"] == "6"
    evs(bd)
    # D-13: while every line named its player the board counts cards in
    # hands; none placed yet: player 3 still holds theirs
    assert bd.ask("DECLARE out 3") == (True, "refused bad-target J3 out")
    assert _err(bd, "DECLARE out 7").startswith("6 ")  # no player 7 of 6
    cells = ("E5", "E6", "E7", "E8", "E9")
    play(bd.r, [("put", cells[k], card(0, k)) for k in range(5)])
    # 4 lines after the first, none named: player 3 may have placed 4 of 5
    assert bd.ask("DECLARE out 3") == (True, "refused bad-target J3 out")
    play(bd.r, [("put", "F9", card(0, 5))])
    evs(bd)
    assert bd.ask("DECLARE out 3") == (True, "7 J3 out")
    assert evs(bd) == [("move", "7 J3 out"), ("phase", "over")]
    st = bd.status()
    assert (st["phase"], st["winner"], st["players"]) == ("over", "J3", "6")
    assert st["end"] == "declared-out" and "runs" not in st  # §6 D-13


def test_a_match_is_dated_from_the_hosts_clock_once_it_was_set():
    bd = watched("dl-clock")
    bd.r.press(buttons.CONFIRM)  # no clock set: no date (the host dates it)
    play(bd.r, [("put", "A1", card(0, 0))])
    bd.log.flush_all()
    assert [x for x in _header(bd) if x.startswith("[D") or x.startswith("[T")] == []
    bd.abandon()
    assert _err(bd, "CLOCK 1795822200 900").startswith("6 ")  # 15 h east of UTC: none
    assert _err(bd, "CLOCK 1795822200 60 0").startswith("6 ")
    # 2026-11-27 23:30 UTC, the host one hour east of it: its day is the 28th
    assert bd.ask("CLOCK 1795822200 60")[0]
    assert abs(int(bd.status()["clock"]) - 1795822200) < 5  # the clock itself is UTC
    bd.r.press(buttons.CONFIRM)
    play(bd.r, [("put", "A1", card(0, 0))])
    bd.log.flush_all()
    h = _header(bd)
    assert '[Date "2026.11.28"]' in h and '[Time "00:30"]' in h, h
    assert h.index('[Date "2026.11.28"]') < h.index("mode queens-gambit")


def _header(bd):
    from smartboard.logstore import records

    lines = records.Lines()
    records.read_log(bd.flash.contents("logs/" + bd.log.current()), lines)
    return lines.header

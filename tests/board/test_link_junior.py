# Junior on the link (docs/protocol.md): SET players, STATUS players= and
# winner=, DECLARE out (RULES §6 D-13). Plain functions: also run under
# the MicroPython unix port.
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
    assert _err(bd, "SET players 1") == "6 bad arguments: players 1: junior takes 2 to 6"
    assert _err(bd, "SET players 7").startswith("6 ")
    bd.r.press(buttons.CONFIRM)
    g = bd.r.board.ref.game
    assert g.players == 6 and bd.status()["players"] == "6"
    evs(bd)
    # D-13: while every line named its player the board counts cards in
    # hands; none placed yet: player 3 still holds theirs
    assert bd.ask("DECLARE out 3") == (True, "refused bad-target J3 out")
    assert _err(bd, "DECLARE out 7").startswith("6 ")  # no player 7 of 6
    play(bd.r, [("put", "E5", card(0, 0)), ("put", "E6", card(0, 1))])
    evs(bd)
    assert bd.ask("DECLARE out 3") == (True, "3 J3 out")
    assert evs(bd) == [("move", "3 J3 out"), ("phase", "over")]
    st = bd.status()
    assert (st["phase"], st["winner"], st["players"]) == ("over", "J3", "6")

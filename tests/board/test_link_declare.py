# DECLARE over the link (docs/protocol.md): the declarations the buttons
# make, from a host — with the buttons' verdicts and events; bad arguments
# are ERR 6 and change nothing. (Junior's, and SET players, in
# test_link_junior.) Plain functions: also run under the MicroPython unix
# port.
from apixagon.codes import BEEHIVE, QUEENS_GAMBIT
from boardkit import card, play
from eventkit import evs, started, watched
from smartboard import buttons, declare, report

# imported by the link at its first DECLARE (and refusal); made here first,
# they lie below the boards the tests build and drop (eventkit)
assert declare and report


def _err(bd, text):
    ok, reply = bd.ask(text)
    assert not ok, (text, reply)
    return reply


def test_declare_commits_as_the_buttons_do():
    bd = started("dl-beehive", BEEHIVE)
    g = bd.r.board.ref.game
    # refused by the rules: an OK reply naming the refusal, the refused event
    assert bd.ask("DECLARE pass") == (True, "refused cannot-pass A1 pass")
    assert evs(bd) == [("refused", "cannot-pass A1 pass")]
    assert bd.status()["refused"] == "cannot-pass:A1_pass"
    assert bd.ask("DECLARE deck-empty A") == (True, "1 A deck-empty")
    assert evs(bd) == [("move", "1 A deck-empty")]
    assert bd.ask("DECLARE pass") == (True, "2 A1 pass")  # 6 players: at will (D-9)
    assert evs(bd) == [("move", "2 A1 pass")] and g.side_to_play() == 1
    play(bd.r, [("put", "I9", card(1, 0))])
    assert bd.ask("DECLARE pass") == (True, "4 A2 pass")
    play(bd.r, [("put", "I7", card(1, 1))])
    assert g.reserve_due()  # A3, the keeper: nothing of A's to take back (D-14)
    evs(bd)
    assert bd.ask("DECLARE reserve") == (True, "6 A3 reserve")
    assert evs(bd) == [("move", "6 A3 reserve")] and g.reserve_used(0)
    assert bd.ask("DECLARE forced-removal B") == (True, "7 B forced-removal")
    assert bd.ask("DECLARE deck-empty gold") == (True, "8 B deck-empty")  # gold's deck: B
    assert bd.ask("DECLARE out 2") == (True, "refused not-allowed-in-mode J2 out")
    # a preview on the buttons is ended by what the host declares
    bd.r.press(buttons.DECLARE)
    assert bd.status()["declare"] == "pass:B3"
    assert bd.ask("DECLARE deck-empty A") == (True, "9 A deck-empty")  # the count ends it
    assert "declare" not in bd.status() and bd.status()["phase"] == "over"


def test_declare_with_bad_arguments_changes_nothing():
    bd = watched("dl-bad", BEEHIVE)
    assert _err(bd, "DECLARE pass").startswith("8 ")  # no match in play
    bd.r.press(buttons.CONFIRM)
    evs(bd)
    for text in (
        "DECLARE",
        "DECLARE dance",
        "DECLARE PASS",
        "DECLARE pass A1",
        "DECLARE reserve C3",
        "DECLARE deck-empty",
        "DECLARE deck-empty G",  # team game: the teams are A and B
        "DECLARE deck-empty A B",
        "DECLARE forced-removal J",
        "DECLARE out",
        "DECLARE out 0",
        "DECLARE out 7",
        "DECLARE out x",
        "DECLARE out 99999999999",
    ):
        assert _err(bd, text).startswith("6 bad arguments"), text
    assert bd.r.board.ref.game.nmoves() == 0 and evs(bd) == []
    assert "refused" not in bd.status()


def test_declare_in_two_players_names_sides_by_letter_or_deck():
    bd = started("dl-two", QUEENS_GAMBIT)
    assert _err(bd, "DECLARE deck-empty A").startswith("6 ")  # no team A here
    assert bd.ask("DECLARE forced-removal B") == (
        True,
        "refused not-allowed-in-mode B forced-removal",
    )
    assert bd.ask("DECLARE reserve") == (True, "refused not-allowed-in-mode B reserve")
    assert bd.ask("DECLARE deck-empty g") == (True, "1 G deck-empty")  # §3.3: the count
    assert bd.status()["winner"] == "draw"  # nothing on the board: D-6
    assert _err(bd, "DECLARE pass").startswith("8 ")  # over: no match in play

# Every refusal named, as the link tells a host (docs/protocol.md): the
# `refused` event (the reason's name and the refused record line) and
# STATUS refused= while it stands, never a `say`; the declaration
# previewed (declare=). Plain functions: also run under MicroPython at
# 96 wK.
from apixagon.codes import BEEHIVE, JUNIOR, SILENT_SWARM
from boardkit import card, play, special
from eventkit import evs, started
from smartboard import buttons, report, tag

assert report  # made before any board (eventkit)


def test_a_refused_placement_is_an_event_and_a_status_field_until_lifted():
    bd = started("ev-refused")
    r = bd.r
    play(r, [("put", "A1", card(0, 0))])
    assert evs(bd) == [("move", "1 B 0 A1")]
    play(r, [("put", "A2", card(1, 4))])
    assert evs(bd) == [("refused", "adjacent-opponent G 4 A2")]
    assert bd.status()["refused"] == "adjacent-opponent:G_4_A2"
    r.tick()  # said once, not again at the next scan
    play(r, [("put", "I5", card(1, 5))])  # another card: the refusal stands
    assert ("refused", "adjacent-opponent G 4 A2") not in evs(bd)
    play(r, [("lift", "I5", None)])
    evs(bd)
    play(r, [("lift", "A2", None)])
    assert evs(bd) == [("changed", "")] and "refused" not in bd.status()
    # a card of the side not to play, then a Rain before the specials are
    # unlocked; an accepted move ends the refusal (its move event says
    # so: no changed event)
    play(r, [("put", "E6", card(0, 5))])
    assert evs(bd) == [("refused", "not-your-turn B 5 E6")]
    play(r, [("lift", "E6", None)])
    evs(bd)
    play(r, [("put", "I5", special(1, tag.RAIN))])  # §3.1: specials locked
    assert evs(bd) == [("refused", "specials-locked G rain I5")]
    play(r, [("lift", "I5", None), ("put", "I5", card(1, 5))])
    assert evs(bd) == [("changed", ""), ("move", "2 G 5 I5")]
    assert "refused" not in bd.status()


def test_a_refused_special_on_the_pad_is_an_event_not_a_say():
    bd = started("ev-pad")
    r = bd.r
    play(r, [("put", "E3", card(0, 0))])
    evs(bd)
    play(r, [("tap", None, special(1, tag.SMOKER))])
    assert evs(bd) == [("refused", "specials-locked G smoker")]
    play(r, [("tap", None, special(0, tag.BEEKEEPER))])
    assert evs(bd) == [("refused", "not-your-turn B beekeeper")]
    assert bd.status()["refused"] == "not-your-turn:B_beekeeper"


def test_a_refused_declaration_is_an_event():
    bd = started("ev-declare", SILENT_SWARM)
    r = bd.r
    r.press(buttons.DECLARE)  # the pass of the seat to play comes first (§4 D-9)
    assert bd.status()["declare"] == "pass:A1"
    evs(bd)
    r.press(buttons.CONFIRM)  # no deck declared empty: no tactical void
    ev = evs(bd)
    assert ev == [("refused", "cannot-pass A1 pass")], ev
    assert bd.r.board.ref.game.nmoves() == 0 and "declare" not in bd.status()
    assert bd.status()["refused"] == "cannot-pass:A1_pass"


def test_junior_takes_the_black_deck_alone_and_says_so():
    # §6: one deck. The board plays the Black deck's normal cards (J0..J30
    # to the companion); a Gold card or a special is not-allowed-in-mode,
    # the Gold one named as a two-player record names it, never as a player.
    bd = started("ev-junior", JUNIOR)
    r = bd.r
    play(r, [("put", "E5", card(1, 5))])
    assert evs(bd) == [("refused", "not-allowed-in-mode G 5 E5")]
    assert bd.status()["refused"] == "not-allowed-in-mode:G_5_E5"
    play(r, [("lift", "E5", None), ("put", "E5", card(0, 5))])
    assert evs(bd) == [("changed", ""), ("move", "1 J 5 E5")]  # nobody named (D-13)
    play(r, [("tap", None, special(0, tag.SMOKER))])
    assert evs(bd) == [("refused", "not-allowed-in-mode J smoker")]
    play(r, [("put", "E6", special(1, tag.RAIN))])
    assert evs(bd) == [("refused", "not-allowed-in-mode G rain E6")]
    assert bd.r.board.ref.game.nmoves() == 1


def test_a_team_refusal_names_the_seat():
    bd = started("ev-team", BEEHIVE)
    play(bd.r, [("put", "E6", card(1, 5))])  # team B's card, team A to play
    assert evs(bd) == [("refused", "not-your-turn B1 5 E6")]


def test_display_mode_and_the_previewed_declaration_are_changed_events():
    bd = started("ev-display")
    d = bd.status()["display"]
    bd.r.press(buttons.MODE)
    assert evs(bd) == [("changed", "")] and bd.status()["display"] != d
    assert "declare" not in bd.status()
    bd.r.press(buttons.DECLARE)
    assert evs(bd) == [("changed", "")] and bd.status()["declare"] == "deck-empty:B"
    bd.r.press(buttons.DECLARE)
    assert evs(bd) == [("changed", "")] and bd.status()["declare"] == "deck-empty:G"
    bd.r.press(buttons.DECLARE)
    assert evs(bd) == [("changed", "")] and "declare" not in bd.status()

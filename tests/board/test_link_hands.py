# HANDS (docs/protocol.md): the cards and specials each side has left.
# Plain functions: also run under MicroPython at 96 wK.
from apixagon.codes import JUNIOR, TWO_VS_ONE
from boardkit import card, play
from eventkit import started, watched
from smartboard import buttons, hands

# imported by the link at the first HANDS; made here first, it lies below
# the boards the tests build and drop (eventkit)
assert hands


def test_hands_lists_the_cards_and_specials_each_side_has_left():
    bd = watched("ev-hands")
    assert bd.ask("HANDS") == (True, "none")  # no match yet
    bd.r.press(buttons.CONFIRM)
    assert bd.ask("HANDS") == (True, "B=7fffffff G=7fffffff Bs=rrbs Gs=rrbs")
    play(bd.r, [("put", "E3", card(0, 0)), ("put", "A1", card(1, 30))])
    assert bd.ask("HANDS") == (True, "B=7ffffffe G=3fffffff Bs=rrbs Gs=rrbs")
    # bad arguments: refused, nothing changed
    ok, text = bd.ask("HANDS B")
    assert not ok and text.startswith("6 ")
    assert bd.r.board.ref.game.nmoves() == 2


def test_hands_of_teams():
    bd = started("ev-hands-2v1", TWO_VS_ONE)
    assert bd.ask("HANDS") == (True, "A=7fffffff B=7fffffff As=rrbs Bs=rs")  # §5


def test_hands_of_junior():
    bd = started("ev-hands-junior", JUNIOR)
    assert bd.ask("HANDS") == (True, "J=7fffffff")  # one deck, no specials (§6)

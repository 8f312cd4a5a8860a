# HANDS (docs/protocol.md): the cards and specials each side has left.
# Plain functions: also run under MicroPython at 96 wK.
from apixagon.codes import JUNIOR, OK, SILENT_SWARM, TWO_VS_ONE
from boardkit import card, play, x
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


class _Ref:
    def __init__(self, game):
        self.game = game


def test_hands_name_the_penalty_special_until_it_is_played():
    # §4 D-11: A's keeper builds a reserve of 7 cards; B, which had played
    # its Smoker, may take back one special already played: the board
    # cannot see which, so HANDS lists the kinds it may be (Bps=), and the
    # specials left (Bs=) stay what they were. Once played, it is gone and
    # Bs= is still right (the core learns the kind when it is played).
    from apixagon.game import Game

    g = Game(SILENT_SWARM, 1)
    spots = (x("A1"), x("A3"), x("A5"), x("C1"), x("C3"), x("C5"), x("C7"))
    for k in range(7):
        _put(g, 0, k, spots[k])
    _put(g, 0, 20, x("G7"))
    _put(g, 1, 30, x("E5"))  # the Royal Cell taken: specials unlocked (§3.1)
    _put(g, 1, 0, x("I9"))
    assert g.smoker(1, x("G7")) == OK  # B1
    _put(g, 0, 21, x("G9"))
    assert g.deck_empty(0) == OK and g.reserve(0, bytes(spots)) == OK  # A1: 7 cards
    ref = _Ref(g)
    assert hands.reply(ref, ()).split()[-3:] == ["As=rrbs", "Bs=rrb", "Bps=s"]
    assert g.place(1, 1, x("I7")) == OK
    assert g.place(0, 0, x("A1")) == OK  # A2: the builders' next turn: the Smoker is usable
    assert hands.reply(ref, ()).endswith("Bs=rrb Bps=s")
    assert g.smoker(1, x("G9")) == OK
    assert hands.reply(ref, ()).endswith("As=rrbs Bs=rrb")  # no Bps=: played


def _put(g, side, card, at):
    # a card on the board directly, without a move (tests/core/util.put)
    g.board[at] = 1 + side * 32 + card
    if card < 31:
        g.loc[side * 31 + card] = at + 1

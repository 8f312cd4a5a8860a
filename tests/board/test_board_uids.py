# A deck without payloads is taught on the pad in order, then plays like
# any other; a tag the board never learned stays an error (issue 3, item 2).
from boardkit import card, errors, play, rig, settings_path, x
from smartboard import buttons, referee, uids
from smartboard.board import PLAY, SETUP
from smartboard.uids import UidTable, code_at


def teach(r, n=uids.DECK):
    for i in range(n):
        r.tap(code_at(i), 700, blank=True)
        r.run(100)


def test_teaching_order_covers_the_deck_once():
    codes = [code_at(i) for i in range(uids.DECK)]
    assert len(set(codes)) == uids.DECK
    assert codes[0] == card(0, 0) and codes[35] == card(1, 0)


def test_a_taught_deck_plays():
    r = rig("uids-teach")
    r.cells.blank[:] = b"\x01" * len(r.cells.blank)  # every tag blank
    teach(r)
    assert not r.board.learning and r.uids.count == uids.DECK
    assert r.board.message == "deck learned: 70 cards"
    r.press(buttons.CONFIRM)
    assert r.board.phase == PLAY
    play(r, [("put", "A1", card(0, 3)), ("put", "I9", card(1, 4))])
    g = r.board.ref.game
    assert g.card_at(x("A1")) == 3 and g.card_at(x("I9")) == 4 and errors(r) == []
    # Restarted, the board still knows the deck (flash).
    again = rig("uids-teach", fresh=False)
    assert again.uids.count == uids.DECK and again.uids.error is None
    # A card of another, untaught deck is an unknown tag, not a move.
    r.cells.deck = 2
    play(r, [("put", "C3", card(0, 5))])
    assert (x("C3"), referee.UNKNOWN) in errors(r) and g.ply() == 2


def test_teaching_can_be_cancelled_and_refuses_repeats():
    r = rig("uids-cancel")
    teach(r, 3)
    assert r.board.learning and r.uids.count == 3
    r.tap(code_at(1), 700, blank=True)  # the same tag again
    r.run(100)
    assert r.uids.count == 3 and r.board.message == "that card is already learned"
    r.press(buttons.MODE)
    assert not r.board.learning and r.board.phase == SETUP
    assert r.uids.count == 0  # nothing had been saved before


def test_a_bad_deck_file_is_ignored_with_a_reason():
    path = settings_path("uids-bad") + ".deck"
    t = UidTable(path)
    t.learn(b"\x04\x01\x02\x03\x04\x05\x06", 7)
    t.save()
    with open(path, "rb") as f:
        data = bytearray(f.read())
    for bad, why in (
        (data[:-1], "unreadable"),
        (b"XXXX" + data[4:], "unreadable"),
        (data[:-1] + bytes([data[-1] ^ 0x40]), "corrupt"),
    ):
        with open(path, "wb") as f:
            f.write(bad)
        u = UidTable(path)
        assert not u.load() and why in u.error and u.count == 0
    assert UidTable(path).lookup(b"\x04", 9) == -1  # malformed length

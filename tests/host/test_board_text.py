"""What the host makes of a board's text before it uses or prints it:
STATUS key=value words from boards old and new, GET replies, and control
characters on their way to a terminal (apixagon_host.link, .termtext).
The same cases end to end, against a board on a pseudo-terminal, are in
tests/e2e/test_hostile_board.py."""

import binascii

import pytest
from apixagon_host import link as L
from apixagon_host import words as W
from apixagon_host.liveview import status_line
from apixagon_host.termtext import clean, clean_lines
from smartboard import proto


def test_a_value_with_a_space_from_an_older_board_stays_whole():
    old = L.fields("phase=play display=card query logs=2 hw=ok")
    new = L.fields("phase=play display=card_query logs=2 hw=ok faults=0")
    assert old["display"] == "card query" and new["display"] == "card_query"
    assert old["logs"] == new["logs"] == "2" and old["hw"] == "ok"
    assert status_line(old) == status_line(new) == "[play]  mode ?  display card query"
    assert L.fields("apixagon stray =x proto=1") == {"proto": "1"}  # nothing before a key


def test_status_words_of_a_board_in_trouble():
    from apixagon_host.logs import warnings

    st = L.fields("phase=safe error=MODE_held_at_power-on logs=3 unpulled=1 faults=2 hw=pad low=1")
    w = warnings(st)
    assert w[0].startswith("the board runs in safe mode (MODE held at power-on)"), w
    assert "storage is low" in w[1] and "the action pad's reader" in w[2], w
    assert w[3] == "the board's main loop caught 2 errors since it started (it went on)", w
    assert warnings(L.fields("phase=play logs=0 hw=ok faults=0")) == []


def reply(data, off=0):
    return "%d %d %04X %s" % (
        off,
        len(data),
        proto.crc16(data),
        binascii.b2a_base64(data, newline=False).decode() if data else "-",
    )


@pytest.mark.parametrize(
    "rest,why",
    [
        (reply(b"abcd"), None),
        (reply(b""), None),
        (reply(b"abcd", 5), "offset '5' where 0 was asked"),
        ("0 4 1234", "not a GET reply"),
        ("0 4 ABCD !!!!", "invalid base64"),
        ("0 4 ABCD YWJjZ", "invalid base64"),  # 5 characters: cut short
        ("0 x ABCD YWJjZA==", "a length that is not a number"),
        ("0 5 ABCD YWJjZA==", "4 bytes where it said 5"),
        ("0 4 ABCD YWJjZA==", "a chunk that does not match its CRC"),
        ("%s 4 ABCD YWJjZA==" % ("9" * 5000), "offset"),  # no int() of 5000 digits
    ],
)
def test_a_get_reply_is_read_or_says_what_is_wrong(rest, why):
    data, got = L._chunk(rest, 0)
    if why is None:
        assert got is None and data in (b"abcd", b"")
    else:
        assert data is None and got.startswith(why)


def test_control_characters_are_shown_escaped_and_text_is_left_alone():
    assert clean("B 12 E4  # caf\u00e9 \u00a0\u2713") == "B 12 E4  # caf\u00e9 \u00a0\u2713"
    assert clean("\x1b]0;t\x07\x1b[2J\x9b\u202e\x00\t\r") == (
        "\\x1b]0;t\\x07\\x1b[2J\\x9b\\u202e\\x00\\x09\\x0d"
    )
    assert clean("\ud800") == "\\ud800"  # a lone surrogate could not even be encoded
    assert clean_lines("one\x1b\ntwo") == "one\\x1b\ntwo"


def test_what_a_player_sees_is_read_from_events_and_status():
    # firmware 0.7.0 (docs/protocol.md): refused, want, HANDS, as words.py
    # reads them for the companion, the monitor and the web page
    said = (
        "refused: B3 on E6: beside an opponent card without blocking or extending a run"
        " (adjacent-opponent)"
    )
    assert W.refusal("adjacent-opponent B 3 E6") == said
    assert W.status_refusal("adjacent-opponent:B_3_E6") == said
    assert W.status_refusal("special-used:B_smoker") == (
        "refused: Bsmoker: each special card is used once, and this one has been (special-used)"
    )
    assert W.refusal("garbage") == "refused: garbage" and W.refusal("") == "refused"
    assert W.want_cells("E4:B12 F5:G3 D2:Grain") == [("E4", "B12"), ("F5", "G3"), ("D2", "Grain")]
    assert W.want_cells("E4:B12,F5:G3") == [("E4", "B12"), ("F5", "G3")]
    assert W.want_cells("") == [] and W.want_cells("E4 :G3 x:") == []
    black, gold = W.hands_lines("B=7ffffffe G=3fffffff Bs=rrbs Gs=-")
    assert black == "Black (blue): %s  specials: rain rain bee smoker" % " ".join(
        map(str, range(1, 31))
    )
    assert gold == "Gold: %s  specials: none" % " ".join(map(str, range(30)))
    assert W.hands_lines("J=1") == ["the deck: 0"]
    assert W.hands_lines("none") == ["no match in play: the hands are full"]
    with pytest.raises(ValueError):
        W.hands_lines("B=zz Bs=r")


def test_the_penalty_special_and_the_new_moves_in_words():
    # HANDS' Bps= (§4 D-11: one special back, of one of these kinds); a
    # firmware that does not send it is read as before
    lines = W.hands_lines("A=0 B=1 As=- Bs=r Bps=rs")
    assert lines == [
        "team A: no cards  specials: none",
        "team B: 0  specials: rain  + one back (penalty): rain or smoker",
    ]
    assert W.action("A2 pass") == "A2 passes"  # §4 D-9
    assert W.action("J3 out") == "player 3 is out of cards"  # §6 D-13
    assert W.action("A3 reserve") == "A3: the empty reserve"  # §4 D-14
    assert W.action("A3 reserve C1 C2") == "A3 reserve C1 C2"
    assert W.winner_text("J3", "JJ") == "player 3 wins"
    assert W.winner_text("G") == "Gold wins"  # RULES §1: the colour its lights show
    assert W.winner_text("B", "AB") == "team B wins" and W.winner_text("draw") == "draw"

"""The online protocol, pure (host/apixagon_host/online/protocol.py): no
broker, no board. Each bad input gets a clear error and changes nothing."""

import json

import pytest
from apixagon_host.online import protocol as P

CODE = "TEST42"


def side(me="B", other="G"):
    s = P.Side(CODE, me, other)
    s.load(["mode queens-gambit", "start black"])
    return s


def msg(kind, who="G", **f):
    return P.encode(kind, CODE, who, **f)


def test_codes():
    assert P.check_code(" qg42 ") == "QG42"
    for bad in ("", "ab", "QG0O", "Q" * 13, "QG 42", None):
        with pytest.raises(P.ProtocolError, match="bad match code"):
            P.check_code(bad)


def test_a_local_move_goes_out_and_a_far_one_is_awaited_then_acked():
    s = side()
    out = s.board_move(1, "B 11 I9")
    assert ("send", "move", {"n": 1, "line": "B 11 I9", "head": P.chain(["B 11 I9"])}) in out
    assert out[-1][0] == "record"
    out = s.message(msg("move", n=2, line="G 22 H7", head="h"))
    assert out == [("expect", 2, "G 22 H7")]
    assert s.message(msg("move", n=2, line="G 22 H7", head="h")) == []  # asked once
    out = s.board_move(2, "G 22 H7")
    assert ("send", "ack", {"n": 2, "head": s.head()}) in out
    assert s.moves == ["B 11 I9", "G 22 H7"]
    assert s.message(msg("ack", n=1, head=P.chain(["B 11 I9"]))) == []
    assert s.acked == 1 and s.unacked() == []


def test_repeats_gaps_and_conflicts():
    s = side()
    s.board_move(1, "B 11 I9")
    s.board_move(2, "G 22 H7")
    # a move already on the board: acked again (the sender missed our ack)
    assert s.message(msg("move", n=2, line="G 22 H7", head="h"))[0][:2] == ("send", "ack")
    # a different move 2: the boards differ
    assert s.message(msg("move", n=2, line="G 5 E5", head="h"))[0][0] == "diverged"
    # a move past a gap: ask for the whole record
    assert s.message(msg("move", n=6, line="G 5 E5", head="h")) == [("send", "want", {})]
    # a move of our side from them: refused, nothing changes
    out = s.message(msg("move", n=3, line="B 5 E5", head="h"))
    assert out[0][0] == "error" and s.far == {}


def test_a_snapshot_brings_what_is_missing_both_ways():
    s = side()
    s.board_move(1, "B 11 I9")
    theirs = ["mode queens-gambit", "start black"]
    out = s.message(msg("snapshot", lines=theirs, moves=0, head=P.chain([]), log=""))
    assert ("send", "move", {"n": 1, "line": "B 11 I9", "head": s.head()}) in out
    moves = ["B 11 I9", "G 22 H7"]
    out = s.message(msg("snapshot", lines=theirs + moves, moves=2, head=P.chain(moves), log=""))
    assert out == [("expect", 2, "G 22 H7")] and s.acked == 1
    bad = ["B 11 I8", "G 22 H7"]
    out = s.message(msg("snapshot", lines=theirs + bad, moves=2, head=P.chain(bad), log=""))
    assert out[0][0] == "diverged" and "move 1" in out[0][1]


def test_a_move_our_board_lost_is_played_again():
    s = side()
    moves = ["B 11 I9"]
    out = s.message(msg("snapshot", lines=moves, moves=1, head=P.chain(moves), log=""))
    assert out[0][0] == "say" and "lost move 1" in out[0][1]
    assert s.board_move(1, "B 11 I9")[0][:2] == ("send", "move")
    s2 = side()
    s2.message(msg("snapshot", lines=moves, moves=1, head=P.chain(moves), log=""))
    assert s2.board_move(1, "B 12 I9")[0][0] == "diverged"


def test_take_backs():
    s = side()
    s.board_move(1, "B 11 I9")
    s.message(msg("ack", n=1, head=s.head()))
    out = s.board_move(0, None)  # the board's `move 0`: all taken back
    assert ("send", "undo", {"n": 1, "line": "B 11 I9"}) in out
    assert s.moves == [] and s.acked == 0
    s.board_move(1, "B 11 I9")
    s.message(msg("move", n=2, line="G 22 H7", head="h"))
    s.board_move(2, "G 22 H7")
    out = s.board_move(1, "B 11 I9")  # the far card taken back: awaited again
    assert ("expect", 2, "G 22 H7") in out


def test_their_take_back_pending_or_on_the_board():
    s = side()
    s.board_move(1, "B 11 I9")
    s.message(msg("move", n=2, line="G 22 H7", head="h"))
    # not on this board yet: the board stops waiting for it
    out = s.message(msg("undo", n=2, line="G 22 H7"))
    assert out[0] == ("unexpect",) and s.far == {} and s.expecting == 0
    # on this board: its card to lift, then the board stops waiting
    s.message(msg("move", n=2, line="G 5 E5", head="h"))
    s.board_move(2, "G 5 E5")
    out = s.message(msg("undo", n=2, line="G 5 E5"))
    assert out[0][0] == "say" and "lift its card" in out[0][1]
    assert s.board_move(1, "B 11 I9")[0] == ("unexpect",)
    assert s.far == {} and s.moves == ["B 11 I9"]
    # played on since: refused, said
    s.message(msg("move", n=2, line="G 5 E5", head="h"))
    s.board_move(2, "G 5 E5")
    s.board_move(3, "B 7 E7")
    out = s.message(msg("undo", n=2, line="G 5 E5"))
    assert out[0] == ("send", "refused", {"n": 2, "line": "G 5 E5", "reason": "played-on"})
    # nonsense: an error, nothing changes
    before = list(s.moves)
    assert s.message(msg("undo", n=9, line="G 5 E5"))[0][0] == "error"
    assert s.message(msg("undo", n=3, line="B 7 E7"))[0][0] == "error"
    assert s.moves == before


def test_our_take_back_voids_their_answer():
    s = side()
    s.board_move(1, "B 11 I9")
    s.message(msg("move", n=2, line="G 22 H7", head="h"))  # awaited here
    out = s.board_move(0, None)
    assert ("send", "undo", {"n": 1, "line": "B 11 I9"}) in out
    assert s.far == {}  # an answer to a move no longer there


def test_the_board_refusing_a_far_move_is_reported_and_not_asked_again():
    s = side()
    s.board_move(1, "B 11 I9")
    assert s.message(msg("move", n=2, line="G 22 I9", head="h")) == [("expect", 2, "G 22 I9")]
    out = s.expect_answer(2, "G 22 I9", "refused occupied G 22 I9")
    assert out[0] == ("send", "refused", {"n": 2, "line": "G 22 I9", "reason": "occupied"})
    assert s.message(msg("move", n=2, line="G 22 I9", head="h")) == []
    assert s.message(msg("move", n=2, line="G 22 H7", head="h")) == [("expect", 2, "G 22 H7")]


@pytest.mark.parametrize(
    "data, why",
    [
        (b"\xff\xfe", "not JSON"),
        (b"{", "not JSON"),
        (b"[]", "not an object"),
        (b'{"v":2,"t":"ack"}', "version"),
        (json.dumps({"v": 1, "t": "hug", "code": CODE, "side": "G"}).encode(), "unknown message"),
        (msg("ack", n=1, head="x").replace(CODE.encode(), b"THER2"), "wrong match code"),
        (msg("ack", who="B", n=1, head="x"), "from side"),
        (msg("ack", n=-1, head="x"), "out of range"),
        (json.dumps({"v": 1, "t": "ack", "code": CODE, "side": "G", "n": "1"}).encode(), "field n"),
        (msg("move", n=2, line="hello", head="x"), "not a move line"),
        (msg("snapshot", lines=["B 1 A1"], moves=2, head="x", log=""), "do not count"),
        (b"x" * (P.MAX_BYTES + 1), "too long"),
    ],
)
def test_bad_messages_are_said_and_change_nothing(data, why):
    s = side()
    s.board_move(1, "B 11 I9")
    before = (list(s.moves), dict(s.far), s.acked, s.expecting)
    out = s.message(data)
    assert len(out) == 1 and out[0][0] == "error" and why in out[0][1], out
    assert (list(s.moves), dict(s.far), s.acked, s.expecting) == before


def test_encode_refuses_unknown_types():
    with pytest.raises(P.ProtocolError, match="unknown message type"):
        P.encode("hug", CODE, "B")

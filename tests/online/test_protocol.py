"""The online protocol, pure (host/apixagon_host/online/protocol.py and
its secrets, seal.py): no broker, no board. Each bad input gets a clear
error and changes nothing; a message not MAC'd by the other seat, too long
or replayed is dropped unread."""

import itertools
import json
import math
import re

import pytest
from apixagon_host.online import protocol as P
from apixagon_host.online import seal

KEY = b"k" * 32  # the other seat's key in these tests
_seq = itertools.count(1)


def side(me="B", other="G"):
    s = P.Side(KEY, me, other)
    s.load(["mode queens-gambit", "start black"])
    return s


def msg(kind, who="G", key=KEY, seq=None, **f):
    return P.encode(kind, key, who, next(_seq) if seq is None else seq, **f)


def test_codes_are_drawn_with_75_bits_and_read_in_groups_of_4():
    codes = [seal.new_code() for _i in range(400)]
    assert len(set(codes)) == 400
    assert seal.entropy_bits() >= 60
    # every symbol of the alphabet drawn, about equally (15 random a code)
    counts = {ch: sum(c[:-1].count(ch) for c in codes) for ch in seal.ALPHABET}
    assert min(counts.values()) > 0.5 * 400 * 15 / 32
    assert math.log2(len(seal.ALPHABET)) * seal.RANDOM_SYMBOLS >= 75
    shown = seal.group(codes[0])
    assert re.match(r"^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$", shown), shown
    assert not set(shown) & set("ILOU")
    # typed back in any case, with spaces, I and O for 1 and 0
    c = codes[0]
    assert P.check_code(shown.lower()) == c
    assert P.check_code(" ".join(shown.split("-"))) == c
    typed = c.replace("1", "I").replace("0", "O")
    assert P.check_code(typed) == c


def test_bad_codes_say_what_a_code_is():
    c = seal.new_code()
    wrong = c[:3] + ("A" if c[3] != "A" else "B") + c[4:]
    with pytest.raises(P.ProtocolError, match="mistyped"):
        P.check_code(wrong)
    for bad in ("", "ab", "QG42", c + "A", c[:-1] + "U", None):
        with pytest.raises(P.ProtocolError, match="bad match code"):
            P.check_code(bad)


def test_every_single_mistyped_symbol_is_caught():
    # The check symbol catches any one symbol typed wrong, anywhere (a
    # hash's 5 bits let one in 32 through: this test's older self failed
    # now and then).
    for c in (seal.new_code() for _ in range(20)):
        for i in range(len(c)):
            for ch in seal.ALPHABET:
                if ch != c[i]:
                    with pytest.raises(P.ProtocolError, match="mistyped"):
                        P.check_code(c[:i] + ch + c[i + 1 :])
        assert P.check_code(c)


def test_topics_carry_a_hash_of_the_code_never_the_code():
    c = seal.new_code()
    mid = seal.match_id(c)
    assert re.match(r"^[0-9a-f]{32}$", mid) and mid != seal.match_id(seal.new_code())
    for t in (
        P.topic_from(mid, "B"),
        P.topic_presence(mid, "G"),
        P.topic_record(mid),
        P.topic_setup(mid),
        P.topic_join(mid),
        P.topic_seat(mid),
    ):
        low = t.lower()
        for form in (c, seal.group(c)):
            assert form.lower() not in low, t
    assert seal.code_key(c).hex() not in mid


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


def test_forged_replayed_and_oversize_messages_are_dropped_unread():
    s = side()
    s.board_move(1, "B 11 I9")
    before = (list(s.moves), dict(s.far), s.acked, s.expecting)
    # a legal move under Gold's letter, MAC'd with another key
    out = s.message(msg("move", key=b"x" * 32, n=2, line="G 22 H7", head="h"))
    assert out[0][0] == "drop" and "not signed" in out[0][1]
    # an ack and a misnumbered move, unsigned
    forged = json.loads(msg("ack", n=1, head=s.head()))
    forged["mac"] = "0" * 64
    assert s.message(json.dumps(forged).encode())[0][0] == "drop"
    del forged["mac"]
    assert s.message(json.dumps(forged).encode())[0][0] == "drop"
    # the real message, then the same bytes again: the copy dropped
    real = msg("move", n=2, line="G 22 H7", head="h")
    assert s.message(real) == [("expect", 2, "G 22 H7")]
    out = s.message(real)
    assert out[0][0] == "drop" and "replay" in out[0][1]
    # an older real message (a lower number) after a newer one: dropped
    old = msg("want", seq=5)
    assert s.message(old)[0][0] == "drop"
    # too long: dropped before it is read
    out = s.message(b"{" + b" " * P.MAX_BYTES + b"}")
    assert out[0][0] == "drop" and "too long" in out[0][1]
    assert (list(s.moves), s.acked) == before[:1] + before[2:3]
    # the secret is never in what is said
    assert all(KEY.hex() not in a[1] for a in out)


def test_a_side_with_no_seat_joined_takes_nothing():
    s = P.Side(None, "B", "G")
    s.load([])
    assert s.message(msg("move", n=1, line="G 22 H7", head="h"))[0][0] == "drop"


def test_seat_keys_come_from_both_secrets_and_the_code():
    h, j, x = seal.new_secret(), seal.new_secret(), seal.new_secret()
    ck = seal.code_key(seal.new_code())
    hp, jp = seal.public(h), seal.public(j)
    on_host = seal.seat_keys(ck, seal.exchange(h, jp), hp, jp)
    on_join = seal.seat_keys(ck, seal.exchange(j, hp), hp, jp)
    assert on_host("B") == on_join("B") and on_host("G") == on_join("G")
    assert on_host("B") != on_host("G")
    # a third board with the code, and an eavesdropper's guess, get other keys
    third = seal.seat_keys(ck, seal.exchange(x, hp), hp, seal.public(x))
    assert third("G") != on_host("G")
    other_code = seal.seat_keys(seal.code_key(seal.new_code()), seal.exchange(h, jp), hp, jp)
    assert other_code("G") != on_host("G")


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
        (b'{"v":2,"t":"ack"}', "not signed"),
        (b"x" * (P.MAX_BYTES + 1), "too long"),
    ],
)
def test_unreadable_messages_are_dropped_and_change_nothing(data, why):
    s = side()
    s.board_move(1, "B 11 I9")
    before = (list(s.moves), dict(s.far), s.acked, s.expecting)
    out = s.message(data)
    assert len(out) == 1 and out[0][0] == "drop" and why in out[0][1], out
    assert (list(s.moves), dict(s.far), s.acked, s.expecting) == before


def _signed(**m):
    m["mac"] = seal.mac(KEY, json.dumps(m, separators=(",", ":"), sort_keys=True).encode())
    return json.dumps(m).encode()


@pytest.mark.parametrize(
    "make, why",
    [
        (lambda: _signed(v=1, t="ack", side="G", seq=next(_seq), n=1, head="x"), "version"),
        (lambda: _signed(v=2, t="hug", side="G", seq=next(_seq)), "unknown message"),
        (lambda: msg("setup", setup={}, pub="00" * 32), "unknown message"),
        (lambda: msg("ack", who="B", n=1, head="x"), "from side"),
        (lambda: msg("ack", n=-1, head="x"), "out of range"),
        (lambda: _signed(v=2, t="ack", side="G", seq=next(_seq), n="1", head="x"), "field n"),
        (lambda: _signed(v=2, t="ack", side="G", seq="1", n=1, head="x"), "its number"),
        (lambda: msg("move", n=2, line="hello", head="x"), "not a move line"),
        (lambda: msg("snapshot", lines=["B 1 A1"], moves=2, head="x", log=""), "do not count"),
    ],
)
def test_bad_signed_messages_are_said_and_change_nothing(make, why):
    s = side()
    s.board_move(1, "B 11 I9")
    before = (list(s.moves), dict(s.far), s.acked, s.expecting)
    out = s.message(make())
    assert len(out) == 1 and out[0][0] == "error" and why in out[0][1], out
    assert (list(s.moves), dict(s.far), s.acked, s.expecting) == before


def test_encode_refuses_unknown_types():
    with pytest.raises(P.ProtocolError, match="unknown message type"):
        P.encode("hug", KEY, "B", 1)


def test_message_numbers_rise_across_a_restart_even_with_the_clock_set_back(tmp_path, monkeypatch):
    keep = seal.Keep(str(tmp_path), "m" * 32, "host")
    first = seal.Counter(keep)
    a = first.next()
    assert first.next() > a
    # started again with the clock an hour behind
    now = seal.time.time_ns()
    monkeypatch.setattr(seal.time, "time_ns", lambda: now - 3600 * 10**9)
    again = seal.Counter(seal.Keep(str(tmp_path), "m" * 32, "host"))
    assert again.next() > first.last
    # the file holds the seat's keys for its user only
    assert oct(seal.os.stat(keep.path).st_mode & 0o777) == "0o600"

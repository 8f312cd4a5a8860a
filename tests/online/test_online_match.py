"""Two boards, two homes, one match over a real broker (Debian's
mosquitto on 127.0.0.1): the scripted 2-player record played to its end,
each board refereeing every move, with one host killed and started again,
one broker connection dropped and one board's power cut mid-match; both
boards' logs end with the same moves. And what the network may bring
that no honest board sends: a forged move, refused by the receiving
board, and malformed messages, said and ignored."""

import os
import time

import pytest
from apixagon_host import link as L
from apixagon_host.errors import CommandError
from apixagon_host.online import protocol as P
from apixagon_host.online.session import Gone
from apixagon_host.online.transport import Transport
from onlinekit import LINES, MOVES, Home, play_move, table_after, wait_for
from smartboard.logstore import names, records


def newest_log(home):
    d = os.path.join(home.flash, "logs")
    logs = sorted(n for n in os.listdir(d) if n.endswith(names.SUFFIX))
    with open(os.path.join(d, logs[-1]), "rb") as f:
        data = f.read()
    got = records.Lines()
    v, good, _, _ = records.read_log(data, got)
    assert v == records.OK_LOG, records.verdict_name(v)
    return got


def test_a_match_over_the_broker_survives_kills_drops_and_a_power_cut(homes, mqtt):
    b, g = homes["B"], homes["G"]
    b.connect(mqtt.url, "QG42", "host", side="black")
    g.connect(mqtt.url, "QG42", "join")
    wait_for(lambda: b.session.peer_online and g.session.peer_online, what="presence")
    n = len(MOVES)
    for k in range(1, n + 1):
        if k == 11:
            # the joiner's program killed; Black plays on meanwhile
            assert MOVES[k - 1][0] == "B"
            g.kill()
            b.hands(LINES, k)
            wait_for(lambda: b.moves >= k)
            time.sleep(0.3)
            g.connect(mqtt.url, "QG42", "join")
            wait_for(lambda: g.session.side.expecting == k, what="the restarted side awaits")
            g.hands(LINES, k)
            wait_for(lambda: g.moves >= k and b.session.side.acked >= k, what="acked after restart")
            continue
        if k == 20:
            # Gold's broker connection cut just as it plays (a network's drop)
            assert MOVES[k - 1][0] == "G"
            g.session.net.drop()
        if k == 30:
            # Black's board loses its power with the match logged to here
            time.sleep(0.8)  # quiet ticks: the log written
            boots = b.board.boots
            b.board.power_cut()
            assert b.board.wait_boot(boots + 1)
            wait_for(lambda: not b.session.ready, what="the session to see the reboot")
            st = b.status()
            assert st["phase"] == "resume", st
            done = int(st["moves"])
            assert done == k - 1, st
            for cell, code in table_after(MOVES[:done]).items():
                b.request("HAND", "put", cell, code)
            wait_for(lambda: b.session.ready, what="the session to attach again")
        play_move(homes, k)
    wait_for(lambda: b.session.finished and g.session.finished, what="both sides to finish")
    assert b.error is None and g.error is None, (b.error, g.error)
    assert b.session.errors == [] and g.session.errors == []
    time.sleep(0.5)
    logs = [newest_log(h) for h in (b, g)]
    want = [P.norm(x) for x in MOVES]
    for got in logs:
        assert [P.norm(x) for x in got.moves] == want
        assert got.result is not None and got.result.startswith("black wins")
    assert any("away" in t for t in b.said)  # the kill's last will
    assert any("restarted" in t for t in b.said)


def test_a_forged_move_is_refused_by_the_receiving_board(homes, mqtt):
    b, g = homes["B"], homes["G"]
    b.connect(mqtt.url, "FRGX7", "host", side="black")
    g.connect(mqtt.url, "FRGX7", "join")
    play_move(homes, 1)  # B 11 I9
    # a third party (or a broken board) says Gold played onto Black's card
    spy = Transport(mqtt.url, "forger").start()
    forged = P.encode("move", "FRGX7", "G", n=2, line="G 22 I9", head="x")
    spy.publish(P.topic_from("FRGX7", "G"), forged)
    wait_for(lambda: b.session.refused, what="the forged move refused")
    assert b.session.refused[0][2] == "refused occupied G 22 I9"
    st = b.status()
    assert st["moves"] == "1" and "expect" not in st, st
    # Gold's own board hears of it (the `refused` message)
    wait_for(lambda: any("refused move 2" in t for t in g.said), what="gold told")
    # the real move still goes through
    play_move(homes, 2)
    # malformed and foreign messages: said, nothing changed
    for junk in (
        b"not json",
        b"[1,2]",
        P.encode("ack", "OTHER9", "G", n=1, head="x"),
        b'{"v":1,"t":"dance","code":"FRGX7","side":"G"}',
        b'{"v":9,"t":"ack","code":"FRGX7","side":"G","n":1,"head":"x"}',
        P.encode("move", "FRGX7", "G", n=0, line="G 1 A1", head="x"),
        P.encode("snapshot", "FRGX7", "G", lines=["B 1 A1"], moves=1, head="bad", log=""),
        P.encode("ack", "FRGX7", "G", n=99, head="x"),
    ):
        before = list(b.session.side.moves)
        k = len(b.session.errors)
        spy.publish(P.topic_from("FRGX7", "G"), junk)
        wait_for(lambda: len(b.session.errors) > k, what="the error for %r" % junk[:40])
        assert b.session.side.moves == before
    spy.stop(False)
    play_move(homes, 3)
    assert b.error is None and g.error is None


def test_join_with_a_wrong_code_or_a_bad_one_says_so(tmp_path, firmware_mpy, mqtt):
    h = Home(tmp_path, firmware_mpy, "lone")
    try:
        link = L.connect(h.board.port, timeout=5)
        from apixagon_host.online.session import Session

        with pytest.raises(CommandError, match="no match NXSUCH"):
            Session(link, mqtt.url, "NXSUCH", "join", wait=1).start()
        with pytest.raises(CommandError, match="bad match code"):
            Session(link, mqtt.url, "no such!", "join", wait=1)
        link.close()
    finally:
        h.board.stop()


def test_an_absent_side_is_declared_gone_after_the_grace(homes, mqtt):
    b, g = homes["B"], homes["G"]
    b.connect(mqtt.url, "GNEX55", "host", side="black", grace=1.5)
    g.connect(mqtt.url, "GNEX55", "join")
    play_move(homes, 1)
    t0 = time.monotonic()
    g.kill()  # its last will: offline
    wait_for(lambda: b.session.done.is_set(), timeout=15, what="black's session to end")
    took = time.monotonic() - t0
    assert isinstance(b.error, Gone) and "away for 1.5 s" in str(b.error), b.error
    assert b.error.code == 1
    assert 1.5 <= took < 10, took
    assert any("away" in t for t in b.said)
    # the board keeps the match: its log has the move
    assert b.board.proc.poll() is None


def test_a_board_unplugged_and_back_goes_on(homes, mqtt):
    b, g = homes["B"], homes["G"]
    b.connect(mqtt.url, "PLUG42", "host", side="black")
    g.connect(mqtt.url, "PLUG42", "join")
    play_move(homes, 1)
    s = b.session
    real = s.link.read_frame

    def unplugged(deadline):  # the USB gone mid-read, once
        s.link.read_frame = real
        raise L.LinkLost(s.link.port, OSError(5, "Input/output error"))

    s.link.read_frame = unplugged
    wait_for(lambda: any("waiting for the board" in t for t in b.said), what="the unplug said")
    wait_for(lambda: s.ready, what="the board found again")
    play_move(homes, 2)
    play_move(homes, 3)
    assert b.error is None and g.error is None


def test_take_backs_cross_the_network(homes, mqtt):
    b, g = homes["B"], homes["G"]
    b.connect(mqtt.url, "UNDX42", "host", side="black")
    g.connect(mqtt.url, "UNDX42", "join")
    play_move(homes, 1)
    # Gold plays and takes it back before Black's board has it: Black's
    # board stops waiting for it
    assert MOVES[1] == "G 22 H7"
    g.hands(LINES, 2)
    wait_for(lambda: b.session.side.expecting == 2, what="black awaits move 2")
    assert b.status()["expect"] == "G_22_H7"
    g.request("HAND", "lift", "H7")
    wait_for(lambda: g.moves == 1, what="gold's take-back")
    wait_for(lambda: "expect" not in b.status(), what="black to stop waiting")
    assert any("took back move 2" in t for t in b.said)
    play_move(homes, 2)
    play_move(homes, 3)  # B 22 A5, on both boards
    # Black takes back a move Gold's board has: Gold's players lift it
    b.request("HAND", "lift", "A5")
    wait_for(lambda: b.moves == 2, what="black's take-back")
    wait_for(lambda: any("lift its card" in t for t in g.said), what="gold told to lift")
    g.request("HAND", "lift", "A5")
    wait_for(lambda: g.moves == 2, what="gold's board takes it back")
    wait_for(lambda: "expect" not in g.status(), what="gold to stop waiting")
    for k in (3, 4, 5):
        play_move(homes, k)
    assert b.error is None and g.error is None
    assert b.session.errors == [] and g.session.errors == []

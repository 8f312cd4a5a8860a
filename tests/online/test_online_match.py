"""Two boards, two homes, one match over a real broker (Debian's
mosquitto on 127.0.0.1): the scripted 2-player record played to its end,
each board refereeing every move, with one host killed and started again,
one broker connection dropped and one board's power cut mid-match; both
boards' logs end with the same moves. And what the network may bring
that no honest board sends: a forged move, refused by the receiving
board, and malformed messages, said and ignored."""

import json
import os
import time

import pytest
from apixagon_host import link as L
from apixagon_host.errors import CommandError
from apixagon_host.online import protocol as P
from apixagon_host.online import seal
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
    code = seal.new_code()
    b.connect(mqtt.url, code, "host", side="black")
    g.connect(mqtt.url, code, "join")
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
            g.connect(mqtt.url, code, "join")
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
    assert b.session.dropped == [] and g.session.dropped == [], (
        b.session.dropped,
        g.session.dropped,
    )
    time.sleep(0.5)
    logs = [newest_log(h) for h in (b, g)]
    want = [P.norm(x) for x in MOVES]
    for got in logs:
        assert [P.norm(x) for x in got.moves] == want
        assert got.result is not None and got.result.startswith("black wins")
    assert any("away" in t for t in b.said)  # the kill's last will
    assert any("restarted" in t for t in b.said)


class Spy:
    """An outside MQTT client on the same broker: it lists every topic
    (a wildcard), keeps what it heard, and publishes what it likes."""

    def __init__(self, url):
        self.net = Transport(url, "spy-%d" % id(self))
        self.net.subscribe("#")
        self.net.start()
        self.heard = []

    def take(self):
        item = self.net.get(0.05)
        while item is not None:
            if item[0] == "msg":
                self.heard.append(item[1:])
            item = self.net.get(0)
        return self.heard

    def last(self, topic, kind, since=0):
        for t, data in reversed(self.take()[since:]):
            try:
                if t == topic and json.loads(data).get("t") == kind:
                    return data
            except ValueError:
                continue
        return None

    def publish(self, topic, data, retain=False):
        self.net.publish(topic, data, retain=retain)


def dropped_more(home, k, what):
    wait_for(lambda: len(home.session.dropped) > k, what="%s dropped" % what)


def test_forged_replayed_misnumbered_oversize_messages_and_a_third_board_change_nothing(
    homes, mqtt, tmp_path, firmware_mpy
):
    b, g = homes["B"], homes["G"]
    code = seal.new_code()
    mid = seal.match_id(code)
    spy = Spy(mqtt.url)
    b.connect(mqtt.url, code, "host", side="black")
    g.connect(mqtt.url, code, "join")
    wait_for(lambda: b.session.peer_online and g.session.peer_online, what="presence")
    play_move(homes, 1)
    play_move(homes, 2)
    # the attacker lists the topics: a hash of the code, never the code
    topics = {t for t, _d in spy.take()}
    assert topics and all(code not in t and seal.group(code) not in t for t in topics), topics
    assert P.topic_setup(mid) in topics and P.topic_from(mid, "G") in topics
    fake = b"f" * 32  # a key of the attacker's own
    gold, black = P.topic_from(mid, "G"), P.topic_from(mid, "B")
    line3 = MOVES[2]  # Black's next move, legal: forged under Gold's letter to Black
    assert line3[0] == "B"
    forged_gold = MOVES[3]
    attacks = [
        # a legal next move under Gold's letter (its own key: it has no other)
        (b, gold, P.encode("move", fake, "G", 2**40, n=3, line="G" + line3[1:], head="x")),
        (b, gold, P.encode("move", fake, "G", 2**40, n=4, line=forged_gold, head="x")),
        # a move with a wrong number to the joiner, and a forged ack to the host
        (g, black, P.encode("move", fake, "B", 2**40, n=9, line=line3, head="x")),
        (b, gold, P.encode("ack", fake, "G", 2**40, n=2, head="x")),
        # unauthenticated, and too long
        (b, gold, b'{"v":2,"t":"ack","side":"G","seq":99999999999999,"n":2,"head":"x"}'),
        (g, black, b"x" * (P.MAX_BYTES + 1)),
        # exact replays of Gold's real move 2 and of Black's real move 1
        (b, gold, spy.last(gold, "move")),
        (g, black, spy.last(black, "move")),
        # Gold's presence forged offline: Black would give up after the grace
        (
            b,
            P.topic_presence(mid, "G"),
            P.encode("presence", fake, "G", 2**50, state="offline", will=0),
        ),
    ]
    for home, topic, data in attacks:
        k = len(home.session.dropped)
        spy.publish(topic, data)
        dropped_more(home, k, data[:60])
    # the set-up overwritten by someone: the host puts its own back
    n = len(spy.take())
    spy.publish(P.topic_setup(mid), b"nothing here", retain=True)
    wait_for(
        lambda: spy.last(P.topic_setup(mid), "setup", since=n) is not None,
        what="the host's set-up again",
    )
    # Gold's retained presence overwritten: Gold puts its own back
    n = len(spy.take())
    spy.publish(P.topic_presence(mid, "G"), b"gone", retain=True)
    wait_for(
        lambda: spy.last(P.topic_presence(mid, "G"), "presence", since=n) is not None,
        what="gold's presence again",
    )
    # a third board with the code claims Gold's seat: refused on both sides
    third = Home(tmp_path, firmware_mpy, "third")
    try:
        with pytest.raises(CommandError, match="seat of Gold is taken by another board"):
            third.connect(mqtt.url, code, "join")
    finally:
        third.stop()
    wait_for(
        lambda: any("another board asked for the seat of Gold: refused" in t for t in b.said),
        what="the host to say it",
    )
    # nothing stopped, steered or stalled: both boards as before, the match
    # played to its end
    for h in (b, g):
        st = h.status()
        assert st["moves"] == "2" and "expect" not in st, (h.name, st)
        assert h.error is None and h.session.errors == [], (h.error, h.session.errors)
        assert not h.session.done.is_set()
    assert b.session.peer_online and g.session.peer_online
    for t in b.session.dropped + g.session.dropped:  # said without a secret
        assert code not in t and seal.group(code) not in t and seal.code_key(code).hex() not in t
    for k in range(3, len(MOVES) + 1):
        play_move(homes, k)
    wait_for(lambda: b.session.finished and g.session.finished, what="both sides to finish")
    assert b.error is None and g.error is None, (b.error, g.error)
    assert b.session.side.lines() == g.session.side.lines()
    # the end named on both sides, as each board's STATUS says it
    for h in (b, g):
        wait_for(lambda: h.session.done.is_set(), what="the session's end")
        end = [t for t in h.said if "both boards have every move" in t]
        assert end and "Black (blue) wins" in end[-1], h.said[-3:]
    spy.net.stop(False)


def test_join_with_a_wrong_code_or_a_bad_one_says_so(tmp_path, firmware_mpy, mqtt):
    h = Home(tmp_path, firmware_mpy, "lone")
    try:
        link = L.connect(h.board.port, timeout=5)
        from apixagon_host.online.session import Session

        nx = seal.new_code()
        with pytest.raises(CommandError, match="no match %s" % seal.group(nx)):
            Session(link, mqtt.url, nx, "join", wait=1, state_dir=h.state).start()
        with pytest.raises(CommandError, match="bad match code"):
            Session(link, mqtt.url, "no such!", "join", wait=1)
        link.close()
    finally:
        h.board.stop()


def test_an_absent_side_is_declared_gone_after_the_grace(homes, mqtt):
    b, g = homes["B"], homes["G"]
    code = seal.new_code()
    b.connect(mqtt.url, code, "host", side="black", grace=1.5)
    g.connect(mqtt.url, code, "join")
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
    code = seal.new_code()
    b.connect(mqtt.url, code, "host", side="black")
    g.connect(mqtt.url, code, "join")
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
    code = seal.new_code()
    b.connect(mqtt.url, code, "host", side="black")
    g.connect(mqtt.url, code, "join")
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


def test_a_broker_restart_then_a_joiner_killed_and_started_again(homes, mqtt):
    b, g = homes["B"], homes["G"]
    code = seal.new_code()
    b.connect(mqtt.url, code, "host", side="black")
    g.connect(mqtt.url, code, "join")
    wait_for(lambda: b.session.peer_online and g.session.peer_online, what="presence")
    play_move(homes, 1)
    play_move(homes, 2)
    # the broker crashes and comes back with nothing retained (its saved
    # state gone too: the worst case), then Gold's program is killed
    ups = [sum("connected to the broker" in t for t in h.said) for h in (b, g)]
    mqtt.halt(kill=True)
    for name in os.listdir(mqtt.state_dir):
        os.remove(os.path.join(mqtt.state_dir, name))
    mqtt.start()
    for h, n in zip((b, g), ups):
        wait_for(
            lambda: sum("connected to the broker" in t for t in h.said) > n,
            what="%s connected again" % h.name,
        )
    g.kill()
    # the same command again: the host's set-up is there again, the seat kept
    g.connect(mqtt.url, code, "join")
    wait_for(lambda: g.session.peer_online, what="gold sees black again")
    for k in (3, 4, 5):
        play_move(homes, k)
    assert b.error is None and g.error is None, (b.error, g.error)
    assert b.session.errors == [] and g.session.errors == []
    assert b.session.side.lines() == g.session.side.lines()
    assert not any("another board" in t for t in b.said)  # the same seat, not a new one
    assert b.session.dropped == [] and g.session.dropped == []  # nothing honest dropped

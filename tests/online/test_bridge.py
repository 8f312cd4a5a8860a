"""More than one broker: a club's mosquitto and a home's, the home's
bridged to the club's (mosquitto's own bridge, `topic apixagon/# both
1`), each board on its own broker. A whole match goes over the bridge and
survives the bridging broker killed and started again twice (a move in
flight each time, one from each side). And broker.py's persistence: a
restarted broker still has the matches' retained messages."""

import pytest
from apixagon_host.online import broker as B
from apixagon_host.online.transport import Transport, wait_until
from onlinekit import MOVES, Home, play_move, wait_for


def a_code(old):
    """A match code in the protocol's form of the day (seal's 16 symbols
    with a check, or the first version's short code)."""
    try:
        from apixagon_host.online import seal
    except ImportError:
        return old
    return seal.new_code()


@pytest.fixture
def two_brokers(tmp_path):
    """The club's broker and a home's bridged to it, on free 127.0.0.1
    ports, their settings, logs and state in tmp_path."""
    if B.mosquitto() is None:
        pytest.skip("mosquitto is not installed (make installs it)")
    club = B.Broker(folder=tmp_path / "club").start()
    home = B.Broker(folder=tmp_path / "home", bridge=club.address)
    try:
        home.start()
        yield club, home
    finally:
        home.stop()
        club.stop()


def _seen(t, topic, payload):
    item = t.get(0)
    while item is not None:
        if item[0] == "msg" and item[1] == topic and item[2] == payload:
            return True
        item = t.get(0)
    return False


def _passes(a, b, topic, payload, timeout=10):
    """A message published on a's broker reaches b's subscriber (sent
    again until it does: the bridge and the subscription come up in their
    own time)."""
    return wait_until(
        lambda: (a.publish(topic, payload), _seen(b, topic, payload))[1], timeout, 0.2
    )


def test_the_bridge_carries_both_ways_and_comes_back_after_a_kill(two_brokers, tmp_path):
    club, home = two_brokers
    conf = (tmp_path / "home" / "mosquitto.conf").read_text()
    assert "address %s\ntopic apixagon/# both 1" % club.address in conf
    x = Transport(club.url, "at-club").start()
    y = Transport(home.url, "at-home").start()
    try:
        y.subscribe("apixagon/v1/BRG2/from/B")
        x.subscribe("apixagon/v1/BRG2/from/G")
        assert _passes(x, y, "apixagon/v1/BRG2/from/B", b"1")
        assert _passes(y, x, "apixagon/v1/BRG2/from/G", b"2")
        home.restart(kill=True)
        assert wait_until(y.connected.is_set, 10)
        assert _passes(x, y, "apixagon/v1/BRG2/from/B", b"3")
        assert _passes(y, x, "apixagon/v1/BRG2/from/G", b"4")
    finally:
        x.stop()
        y.stop()


def test_a_restarted_broker_keeps_the_retained_messages(tmp_path):
    if B.mosquitto() is None:
        pytest.skip("mosquitto is not installed (make installs it)")
    state = tmp_path / "state"
    b = B.Broker(state_dir=state).start()  # persistence is broker.py's default
    try:
        t = Transport(b.url, "keeper").start()
        info = t.client.publish("apixagon/v1/KEP2/setup", b"kept", qos=1, retain=True)
        info.wait_for_publish(5)
        t.stop()
        b.restart()  # a clean stop saves the database
        assert (state / "mosquitto.db").exists()
        r = Transport(b.url, "reader")
        r.subscribe("apixagon/v1/KEP2/setup")
        r.start()
        try:
            assert wait_until(lambda: _seen(r, "apixagon/v1/KEP2/setup", b"kept"), 5)
        finally:
            r.stop()
    finally:
        b.stop()
    assert (state / "mosquitto.db").exists()  # a state folder given is kept


def test_a_match_over_two_bridged_brokers_survives_the_bridge_cut(
    tmp_path, firmware_mpy, two_brokers
):
    club, home = two_brokers
    homes = {"B": Home(tmp_path, firmware_mpy, "black"), "G": Home(tmp_path, firmware_mpy, "gold")}
    b, g = homes["B"], homes["G"]
    try:
        code = a_code("BRDG42")
        b.connect(club.url, code, "host", side="black")
        g.connect(home.url, code, "join")
        wait_for(lambda: b.session.peer_online and g.session.peer_online, what="presence")
        cuts = (15, 16)  # one move of each side in flight at the cut
        assert {MOVES[k - 1][0] for k in cuts} == {"B", "G"}
        for k in range(1, len(MOVES) + 1):
            play_move(homes, k, before_far=(lambda: home.restart(kill=True)) if k in cuts else None)
        wait_for(lambda: b.session.finished and g.session.finished, what="both sides to finish")
        assert b.error is None and g.error is None, (b.error, g.error)
        assert b.session.errors == [] and g.session.errors == []
        assert b.session.side.lines() == g.session.side.lines()
        assert len(b.session.side.moves) == len(MOVES)
        assert any("lost the broker" in t for t in g.said)  # the home's broker was gone
    finally:
        for h in homes.values():
            h.stop()

"""Spectators of an online match: the host publishes only its record held
back by at least 2 moves, signed with its match's Ed25519 key; the web
companion's /watch/FINGERPRINT page and /watch/FINGERPRINT.apx feed show
only records that verify against the fingerprint's key, newer than the
last (no replay), that the rules take; forged, unsigned and replayed ones
are ignored and said in a log line; the delay cannot go under its floor;
the page shows the table, never a hand. In Chromium (Debian's, driven by
Playwright, as tests/web) when it is installed."""

import json
import os
import sys
import threading
import time
import types
import urllib.error
import urllib.request

import pytest
from apixagon_host import cli
from apixagon_host.errors import CommandError
from apixagon_host.online import feed, seal
from apixagon_host.online import protocol as P
from apixagon_host.online.transport import Transport
from apixagon_host.online.watch import Watcher
from onlinekit import MOVES, play_move, wait_for

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")
pytest.importorskip("uvicorn", reason="the web companion's packages (make installs them)")


class Web:
    """create_app with the watcher (no board: a spectator may have none)."""

    def __init__(self, watcher):
        import uvicorn
        from apixagon_host.web.app import create_app
        from apixagon_host.web.serve import listen

        app = create_app(types.SimpleNamespace(), None, watcher=watcher)
        self.sock = listen("127.0.0.1", 0)
        self.url = "http://127.0.0.1:%d" % self.sock.getsockname()[1]
        self.server = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        )
        threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        ).start()
        wait_for(lambda: self.server.started, 10, "the web server")

    def get(self, path):
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def stop(self):
        self.server.should_exit = True
        time.sleep(0.3)
        self.sock.close()


def moves_of(text):
    return [x for x in text.splitlines() if P.is_move(x)]


HEADER = ["mode queens-gambit", "start black"]


def unsigned(data):
    msg = json.loads(data)
    del msg["sig"]
    return json.dumps(msg).encode()


def test_a_signed_feed_is_shown_and_forged_ones_are_ignored_and_said(tmp_path):
    said = []
    w = Watcher("mqtt://127.0.0.1:1", delay=2, log=said.append)  # never started
    key = feed.load_key(str(tmp_path), "ab" * 16)
    assert feed.load_key(str(tmp_path), "ab" * 16) == key  # a restarted host: the same key
    assert oct(os.stat(feed.key_path(str(tmp_path), "ab" * 16)).st_mode & 0o777) == "0o600"
    fp = feed.fingerprint(feed.public(key))
    topic = feed.topic(fp)
    good = feed.encode(key, 10, HEADER + MOVES[:5], 2)
    assert MOVES[3] not in good.decode()  # the host held back the last 2: never live
    w.take(topic, good)
    v = w.view(fp.upper())
    assert (v["moves"], v["shown"], v["delay"]) == (5, 3, 2)
    assert v["lines"] == HEADER + MOVES[:3] and w.view(fp, 4)["shown"] == 1
    other = feed.load_key(str(tmp_path), "cd" * 16)
    tampered = json.loads(good)
    tampered["lines"] = HEADER + MOVES[:1]
    forged = {
        "another key": feed.encode(other, 11, HEADER + MOVES[:5], 2),
        "unsigned": unsigned(feed.encode(key, 12, HEADER + MOVES[:5], 2)),
        "not verify": json.dumps(tampered).encode(),
        "a replay": feed.encode(key, 9, HEADER + MOVES[:3], 2),
        "the live record": feed.encode(key, 13, HEADER + MOVES[:5], 0),
        "by the rules": feed.encode(
            key, 14, HEADER + ["B 11 I9", "G 22 I9", "B 1 A1", "G 1 A2"], 2
        ),
        "not JSON": b"nope",
    }
    for why, data in forged.items():
        w.take(topic, data)
        assert w.view(fp)["lines"] == HEADER + MOVES[:3], why
        assert "ignored a record on %s" % topic in said[-1], why
    assert "another key" in said[0] and "unsigned" in said[1] and "does not verify" in said[2]
    assert "replay" in said[3] and "fewer moves than the minimum (2)" in said[4]
    assert "refused by the rules" in said[5] and w.refused == len(forged)
    # a record signed by another key on this topic, never shown under it
    w.take(feed.topic(feed.fingerprint(feed.public(other))), forged["another key"])
    assert w.view(feed.fingerprint(feed.public(other)))["shown"] == 3
    w.take(feed.topic("0" * 32), good)
    assert w.view("0" * 32) is None and w.view("not one") is None
    w.take(topic, feed.encode(key, 15, HEADER + MOVES[:6], 2))  # newer: taken
    assert w.view(fp)["shown"] == 4


def test_the_delay_has_a_floor_no_command_lowers(capsys):
    for n in (0, 1, -3):
        with pytest.raises(CommandError, match="at least 2 moves"):
            feed.check_delay(n)
        with pytest.raises(CommandError, match="at least 2 moves"):
            Watcher("mqtt://127.0.0.1:1", delay=n)
    assert cli.main(["serve", "--watch-broker", "mqtt://127.0.0.1:1", "--watch-delay", "0"]) == 2
    assert "--watch-delay 0: spectators are held back at least 2 moves" in capsys.readouterr().err
    assert cli.main(["online", "host", "--watch-delay", "1", "--port", "/nonexistent"]) == 2
    assert "--watch-delay 1: spectators are held back at least 2 moves" in capsys.readouterr().err


def test_spectators_follow_the_signed_feed_and_see_no_hand(homes, mqtt, request):
    try:
        browser = request.getfixturevalue("browser")  # the worker's (tests/conftest.py)
    except pytest.skip.Exception:
        browser = None  # the page checked without a browser
    said = []
    watcher = Watcher(mqtt.url, delay=2, log=said.append).start()
    web = Web(watcher)
    forger = Transport(mqtt.url, "forger")
    forger.start()
    b, g = homes["B"], homes["G"]
    ctx = page = None
    try:
        code = seal.group(seal.new_code())
        b.connect(mqtt.url, code, "host", side="black")
        g.connect(mqtt.url, code, "join")
        fp = b.session.watch_fp
        assert fp and g.session.watch_fp is None and fp not in code  # only the host signs
        assert web.get("/watch/%s" % ("0" * 32))[0] == 404
        assert web.get("/watch/%s.apx" % code)[0] == 404  # the code opens nothing
        if browser is not None:
            ctx = browser.new_context()
            page = ctx.new_page()
        for k in range(1, 6):
            play_move(homes, k)
            want = max(0, k - 2)
            wait_for(
                lambda: moves_of(web.get("/watch/%s.apx" % fp)[1]) == MOVES[:want],
                what="the feed at move %d" % k,
            )
            if page is not None and k in (1, 5):
                if k == 1:
                    page.goto(web.url + "/watch/%s" % fp)
                page.wait_for_function(
                    "t => document.querySelector('#shown') && "
                    "document.querySelector('#shown').textContent.startsWith(t)",
                    arg="move %d shown of %d played" % (want, k),
                    timeout=15000,
                )
                assert page.locator("#moves li").all_text_contents() == MOVES[:want]
                assert "hand" not in page.content().lower()
        # what the host published is already held back (not the page's doing)
        assert watcher.records[fp]["lines"][-1] == MOVES[2] and watcher.records[fp]["held"] == 2
        # forged records on the feed's topic: another key's, unsigned, and
        # a replay of an older one signed by the host's own key
        key = feed.load_key(b.state, b.session.mid)
        other = feed.load_key(b.state, "0" * 32)
        for data in (
            feed.encode(other, 2**60, HEADER + MOVES[:5], 2),
            unsigned(feed.encode(key, 2**60, HEADER + MOVES[:5], 2)),
            feed.encode(key, 1, HEADER + MOVES[:3], 2),
        ):
            n = len(said)
            forger.publish(feed.topic(fp), data, retain=True)
            wait_for(lambda: len(said) > n, what="the forged record said")
        assert [("ignored a record on apixagon/v2/watch/" + fp) in x for x in said] == [True] * 3
        status, text = web.get("/watch/%s.apx" % fp)
        assert status == 200 and moves_of(text) == MOVES[:3]
        status, text = web.get("/watch/%s" % fp)
        assert status == 200 and "move 3 shown of 5 played" in text
        status, text = web.get("/watch/%s.apx?delay=4" % fp)
        assert status == 200 and moves_of(text) == MOVES[:1]
        # a fingerprint whose topic only ever had a forged record
        lone = feed.fingerprint(feed.public(other))
        forger.publish(feed.topic(lone), unsigned(feed.encode(other, 3, HEADER, 2)), retain=True)
        wait_for(lambda: len(said) == 4, what="the unsigned record said")
        assert web.get("/watch/%s" % lone)[0] == 404 and web.get("/watch/%s.apx" % lone)[0] == 404
        if page is not None:
            page.reload()
            assert page.locator("#moves li").all_text_contents() == MOVES[:3]
            os.makedirs(os.path.join("build", "screens"), exist_ok=True)
            page.screenshot(path=os.path.join("build", "screens", "watch.png"))
        else:
            sys.stderr.write("chromium missing: the spectator page checked without a browser\n")
    finally:
        if ctx is not None:
            ctx.close()
        forger.stop(False)
        web.stop()
        watcher.stop()

"""Spectators of an online match: the web companion's /watch/CODE page and
/watch/CODE.apx feed follow the match through the broker, held back by
the chosen number of moves; a record the rules refuse is never shown;
the page shows the table, never a hand. In Chromium (Debian's, driven by
Playwright, as tests/web) when it is installed."""

import os
import sys
import threading
import time
import types
import urllib.error
import urllib.request

import pytest
from apixagon_host.online import protocol as P
from apixagon_host.online import seal
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


def rec(key, lines, moves=None):
    if moves is None:
        moves = sum(1 for x in lines if P.is_move(x))
    return P.encode("record", key, "B", 1, lines=lines, moves=moves, head="")


def test_the_watcher_shows_only_records_of_the_code_the_rules_take(mqtt):
    w = Watcher(mqtt.url, delay=1)
    code = seal.new_code()
    key, topic = seal.code_key(code), P.topic_record(seal.match_id(code))
    good = rec(key, ["mode queens-gambit", "start black"] + MOVES[:3])
    w.take(topic, good)
    assert w.view(code)["shown"] == 2 and w.view(code, 3)["shown"] == 0
    assert w.view(seal.group(code).lower())["moves"] == 3  # typed as people read it
    assert w.view(code, 0)["delay"] == 1  # never less than the watcher's own
    # published after it by someone without the code, or refused by the
    # rules: the good one is still what spectators see
    for bad in (
        b"nope",
        rec(key, ["mode queens-gambit", "B 11 I9", "G 22 I9"]),
        rec(key, ["mode queens-gambit", "hand B 1 2 3"], moves=0),
        rec(key, "B 11 I9", moves=0),
        rec(seal.code_key(seal.new_code()), ["mode queens-gambit"] + MOVES[:5]),
    ):
        w.take(topic, bad)
        assert w.view(code)["moves"] == 3
    assert w.refused >= 4
    w.take("apixagon/v2/not a match id/record", good)
    assert w.view("NXSUCH") is None and w.view(seal.new_code()) is None


def test_spectators_follow_with_their_delay_and_see_no_hand(homes, mqtt, request):
    try:
        browser = request.getfixturevalue("browser")  # the worker's (tests/conftest.py)
    except pytest.skip.Exception:
        browser = None  # the page checked without a browser
    watcher = Watcher(mqtt.url, delay=2).start()
    web = Web(watcher)
    b, g = homes["B"], homes["G"]
    ctx = page = None
    try:
        code = seal.group(seal.new_code())
        b.connect(mqtt.url, code, "host", side="black")
        g.connect(mqtt.url, code, "join")
        assert web.get("/watch/NXSUCH")[0] == 404
        assert web.get("/watch/not%20a%20code")[0] == 404
        assert web.get("/watch/NXSUCH.apx")[0] == 404
        if browser is not None:
            ctx = browser.new_context()
            page = ctx.new_page()
        for k in range(1, 7):
            play_move(homes, k)
            want = max(0, k - 2)
            wait_for(
                lambda: moves_of(web.get("/watch/%s.apx" % code)[1]) == MOVES[:want],
                what="the feed at move %d" % k,
            )
            if page is not None:
                if k == 1:
                    page.goto(web.url + "/watch/%s" % code)
                page.wait_for_function(
                    "t => document.querySelector('#shown') && "
                    "document.querySelector('#shown').textContent.startsWith(t)",
                    arg="move %d shown of %d played" % (want, k),
                    timeout=15000,
                )
                items = page.locator("#moves li").all_text_contents()
                assert items == MOVES[:want]
                assert "hand" not in page.content().lower()
        status, text = web.get("/watch/%s.apx?delay=5" % code)
        assert status == 200 and moves_of(text) == MOVES[:1]
        status, text = web.get("/watch/%s" % code.lower())
        assert status == 200 and "move 4 shown of 6 played" in text
        if page is not None:
            os.makedirs(os.path.join("build", "screens"), exist_ok=True)
            page.screenshot(path=os.path.join("build", "screens", "watch.png"))
        else:
            sys.stderr.write("chromium missing: the spectator page checked without a browser\n")
    finally:
        if ctx is not None:
            ctx.close()
        web.stop()
        watcher.stop()

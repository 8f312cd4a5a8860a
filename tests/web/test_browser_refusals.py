"""The web companion against a board that speaks the newer wire
(docs/protocol.md: the `refused` and `want` events, STATUS refused=,
declare=, HANDS): tests/e2e/fakeboard.py on a pty, answering WATCH with
those events. The page says each refusal with its reason, the
declaration previewed, the cards a resume waits for, the hands; and the
server's guards: cross-origin and Origin-less writes refused (the board
never hears them), a foreign Host refused, a non-local client refused."""

import asyncio
import concurrent.futures
import json

import fakeboard
import pytest
from smartboard import proto
from webkit import Server

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")

STATUS = fakeboard.STATUS.replace("watch=0", "watch=1").replace(
    "phase=setup", "phase=play moves=2 to_play=G last=G_3_F5"
) + (" refused=adjacent-opponent:G_3_E6 declare=deck-empty:G")
EVENTS = [
    ("move", "1 B 12 E4"),
    ("move", "2 G 3 F5"),
    ("refused", "adjacent-opponent G 3 E6"),
    ("refused", "not-your-turn B 5 D4"),
]


@pytest.fixture(scope="module")
def board():
    def watch(b, seq, args):
        out = proto.reply_ok(seq)
        if args == ["1"]:
            out += b"".join(proto.event(k, t) for k, t in EVENTS)
        return out

    with fakeboard.FakeBoard(status=STATUS) as b:
        b.answer["WATCH"] = watch
        b.answer["SET"] = lambda b, seq, args: proto.reply_ok(seq, "%s=%s" % tuple(args))
        b.answer["DECLARE"] = lambda b, seq, args: proto.reply_ok(seq, "3 G deck-empty")
        b.answer["HANDS"] = lambda b, seq, args: proto.reply_ok(
            seq, "B=7fffefff G=7ffffff7 Bs=rrbs Gs=rbs"
        )
        yield b


@pytest.fixture(scope="module")
def server(board, tmp_path_factory):
    s = Server(board.port, str(tmp_path_factory.mktemp("db") / "m.sqlite")).start()
    s.wait(lambda st: st["connected"] and st["moves"] == "2")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def page(server, browser):
    # (Playwright's waits evaluate JavaScript text, which the pages'
    # Content-Security-Policy forbids: the tests' own scripts only)
    ctx = browser.new_context(bypass_csp=True)
    yield ctx.new_page()
    ctx.close()


def test_each_refusal_shows_with_its_reason_and_the_declaration_previewed(server, page):
    page.goto(server.url + "/")
    page.wait_for_selector("#link.ok")
    page.wait_for_function("document.getElementById('events').textContent.includes('not-your')")
    # the refusal in force (STATUS refused=), in RULES.md's words and its code
    assert page.locator("#refusal").text_content() == (
        "refused: G3 on E6: beside an opponent card without blocking or extending a run"
        " (adjacent-opponent)"
    )
    events = page.locator("#events li.ev-refused").all_text_contents()
    assert len(events) == 2
    assert "B5 on D4: it is the other side's turn (not-your-turn)" in events[0]
    assert "DECLARE: deck empty for Gold — press CONFIRM" in (page.locator("#notes").text_content())
    assert page.locator("#turn").text_content() == "Gold to play"
    page.locator("#hands-button").click()
    page.wait_for_selector("#hands li")
    hands = page.locator("#hands").text_content()
    assert "specials: rain rain bee smoker" in hands and "Gold:" in hands


def test_the_declarations_are_buttons_that_send_declare(server, board, page):
    # what the board's DECLARE button offers in this match (queens-gambit:
    # either deck empty), as buttons; one pressed is a DECLARE to the board
    page.goto(server.url + "/")
    page.wait_for_selector("#link.ok")
    page.wait_for_selector("#declare:not([hidden])")
    buttons = page.locator("#declarations button").all_text_contents()
    assert buttons == ["deck empty: Black (blue)", "deck empty: Gold"]
    page.locator("#declarations button", has_text="Gold").click()
    server.wait(lambda st: ("DECLARE", ("deck-empty", "gold")) in board.asked)
    assert page.locator("#declare-out").text_content() == ""  # the board's events say the rest


def test_the_set_up_by_name_is_a_set_to_the_board(server, board, page):
    page.goto(server.url + "/")
    page.wait_for_selector("#link.ok")
    page.select_option("select[name=option]", "special_then_place")
    page.wait_for_function("document.getElementById('setup-note').textContent.includes('next')")
    assert ("SET", ("option", "1")) in board.asked


def test_a_cross_origin_or_origin_less_write_is_refused_and_the_board_never_hears_it(server, board):
    before = board.verbs().count("SET")
    for headers in ({"Origin": "http://evil.example"}, {}, {"Origin": "null"}):
        code, body = server.post("/api/set", {"key": "mode", "value": "beehive"}, headers)
        assert code == 403 and "same origin" in body
    code, body = server.post("/api/command", {"line": "confirm"}, {"Sec-Fetch-Site": "cross-site"})
    assert code == 403
    assert board.verbs().count("SET") == before
    code, body = server.post(
        "/api/set", {"key": "mode", "value": "beehive"}, {"Origin": server.url}
    )
    assert code == 200 and json.loads(body)["ok"]
    assert board.verbs().count("SET") == before + 1
    # a bad name changes nothing and says why
    code, body = server.post("/api/set", {"key": "mode", "value": "chess"}, {"Origin": server.url})
    assert code == 400 and "choose one of" in json.loads(body)["error"]
    assert board.verbs().count("SET") == before + 1


def test_a_foreign_host_name_and_paths_from_the_request_reach_nothing(server):
    import urllib.error
    import urllib.request

    req = urllib.request.Request(server.url + "/api/state", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=5)
    assert e.value.code == 400
    for path in (
        "/match/1/download.exe",
        "/match/../../etc/passwd",
        "/match/1",
        "/static/../app.py",
    ):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(server.url + path, timeout=5)
        assert e.value.code == 404, path


def test_a_client_of_another_computer_is_refused(server):
    async def ask(app, client):
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": "/api/state",
            "raw_path": b"/api/state",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1")],
            "client": (client, 5000),
            "server": ("127.0.0.1", server.port),
        }
        await app(scope, receive, send)
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])

    def run(client):  # (Playwright's loop runs in this thread: another one)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, ask(server.app, client)).result(10)

    status, body = run("192.168.1.20")
    assert status == 403 and b"only this computer" in body
    assert run("127.0.0.1")[0] == 200


def test_the_pages_run_only_their_own_scripts(server):
    import urllib.request

    with urllib.request.urlopen(server.url + "/", timeout=5) as r:
        csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp


def test_the_firmware_update_shows_its_progress_and_the_rollback(server, board, page, monkeypatch):
    # deploy itself is tested on the simulated board (tests/e2e/test_deploy.py);
    # here the page's part: progress while it runs, its result in words,
    # the live link paused meanwhile (one reader per port)
    import threading

    from apixagon_host import deploy
    from apixagon_host.errors import CommandError

    go = threading.Event()
    seen = {}

    def fake(state, args):
        seen["port"], seen["live"] = args.port, server.bridge.session.connected
        args.progress(1, 4)
        go.wait(10)
        args.progress(4, 4)
        raise CommandError(
            "update failed: the new firmware did not answer; rolled back: the board runs fw 0.4.0 "
            "again",
            1,
        )

    monkeypatch.setattr(deploy, "run", fake)
    page.goto(server.url + "/board")
    page.locator("#update-button").click()
    page.wait_for_function(
        "document.getElementById('update-progress').value == 1 "
        "&& document.getElementById('update-progress').max == 4"
    )
    assert page.locator("#update-button").is_disabled()
    code, body = server.post("/api/pull", {}, {"Origin": server.url})  # one job at a time
    assert code == 409 and "update is running" in body
    go.set()
    page.wait_for_function(
        "document.getElementById('update-result').textContent.includes('rolled')"
    )
    assert page.locator("#update-result").text_content() == (
        "failed: update failed: the new firmware did not answer; rolled back: the board runs "
        "fw 0.4.0 again"
    )
    assert seen == {"port": board.port, "live": False}
    server.wait(lambda st: st["connected"])  # the live link is back

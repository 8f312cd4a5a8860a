"""The spectators' link of `apixagon serve --watch-broker --allow-remote`
opens the watch pages of online matches and nothing else: with it the
live page, the commands, the library and the settings answer 403 in words
(guard.py). Driven as ASGI from another computer's address, no server."""

import asyncio
import types

from apixagon_host.online import feed
from apixagon_host.online.watch import Watcher
from apixagon_host.web.app import create_app

TOKEN = "T" * 24
WATCH = "W" * 24


def ask(app, path, query="", cookie=None, method="GET"):
    """(status, headers, text) of one request from 192.0.2.7."""
    headers = [(b"host", b"board.lan")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if method == "POST":
        headers += [(b"origin", b"http://board.lan"), (b"content-type", b"application/json")]
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": headers,
        "client": ("192.0.2.7", 50000),
        "server": ("board.lan", 8765),
        "scheme": "http",
        "root_path": "",
        "http_version": "1.1",
    }
    got = []
    sent = [False]

    async def receive():
        if sent[0]:
            await asyncio.sleep(3600)
        sent[0] = True
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message):
        got.append(message)

    asyncio.run(app(scope, receive, send))
    start = got[0]
    body = b"".join(m.get("body", b"") for m in got[1:])
    heads = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], heads, body.decode("utf-8", "replace")


def test_the_spectators_link_opens_the_watch_pages_only(tmp_path):
    watcher = Watcher("mqtt://127.0.0.1:1", log=lambda text: None)  # never started
    key = feed.load_key(str(tmp_path), "ab" * 16)
    fp = feed.fingerprint(feed.public(key))
    watcher.take(feed.topic(fp), feed.encode(key, 1, ["mode queens-gambit"], 2))
    app = create_app(
        types.SimpleNamespace(),
        str(tmp_path / "m.db"),
        allow_remote=True,
        hosts=["board.lan"],
        token=TOKEN,
        watcher=watcher,
        watch_token=WATCH,
    )
    page = "/watch/" + fp
    # the link: its token becomes a cookie, the page again without it
    status, heads, _text = ask(app, page, "watch=" + WATCH)
    assert status == 303 and heads["location"] == page
    assert "apixagon_watch=" + WATCH in heads["set-cookie"]
    watching = "apixagon_watch=" + WATCH
    assert ask(app, page, cookie=watching)[0] == 200
    status, _h, text = ask(app, page + ".apx", cookie=watching)
    assert status == 200 and text == "mode queens-gambit\n"
    for path, method in (
        ("/", "GET"),
        ("/events", "GET"),
        ("/api/state", "GET"),
        ("/api/command", "POST"),
        ("/api/set", "POST"),
        ("/library", "GET"),
        ("/match/1", "GET"),
        ("/board", "GET"),
        ("/watch/" + fp, "POST"),
    ):
        status, _h, text = ask(app, path, cookie=watching, method=method)
        assert status == 403, path
        assert "a spectators' link opens only the watch pages" in text, path
    # the watch token given on another page sets nothing and opens nothing
    status, heads, text = ask(app, "/library", "watch=" + WATCH)
    assert status == 403 and "set-cookie" not in heads and "carries the token" in text
    # a wrong watch token is no link; the companion's own token opens it all
    assert ask(app, page, cookie="apixagon_watch=" + "X" * 24)[0] == 403
    assert ask(app, page, "watch=" + "X" * 24)[0] == 403
    assert ask(app, page, cookie="apixagon_token=" + TOKEN)[0] == 200
    assert ask(app, "/rules", cookie="apixagon_token=" + TOKEN)[0] == 200

"""Every POST of the web companion, sent a body no page of it sends (not
JSON, not an object, fields of the wrong type or unknown, too big): a 4xx
with the error in words, no traceback, and nothing changed on the board
(a fake bridge records what reached it) nor in the match database.

The app is called in-process as ASGI (Starlette's TestClient needs httpx,
which the project does not install), with the Host and Origin of its own
page so that the guards let the request through."""

import asyncio
import concurrent.futures
import hashlib
import json

import pytest

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")

from apixagon_host.store import Store  # noqa: E402
from apixagon_host.web.app import create_app  # noqa: E402
from apixagon_host.web.bridge import Job  # noqa: E402
from test_web_guards import _db  # noqa: E402

HOST = b"127.0.0.1:8765"
BIG = 100 * 1024  # bytes: no page sends a body a tenth of that


class FakeSession:
    """A connected board's session that records the requests sent to it."""

    connected = True
    port = "/dev/fake"
    info = {}

    def __init__(self):
        self.status = {"phase": "setup", "sides": "BG", "mode": "classic"}
        self.sent = []
        self.stale = False

    def request(self, *args):
        self.sent.append(args)
        return ""


class FakeBridge:
    """bridge.Bridge's face to the app: calls run at once; the companion's
    command lines and the jobs started are recorded."""

    def __init__(self):
        self.session = FakeSession()
        self.log, self.version, self.job, self.times = [], 0, None, {}
        self.lines, self.jobs = [], []

    def call(self, fn):
        fut = concurrent.futures.Future()
        try:
            fut.set_result(fn(self.session))
        except BaseException as e:  # noqa: BLE001 - handed to the caller, as Bridge does
            fut.set_exception(e)
        return fut

    def companion(self):
        return self

    def command(self, line):
        self.lines.append(line)
        return True, ["done"]

    def run_job(self, what, run, **fields):
        self.jobs.append(what)
        self.job = Job(what)
        return self.job

    def changed(self):
        pass


async def _post(app, path, body, chunks=1, length=True):
    """(status, body) of one POST; the body in `chunks` parts, with or
    without its Content-Length."""
    size = -(-len(body) // chunks) or 1
    parts = [body[i : i + size] for i in range(0, len(body), size)] or [b""]
    messages = [
        {"type": "http.request", "body": p, "more_body": i < len(parts) - 1}
        for i, p in enumerate(parts)
    ]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    headers = [(b"host", HOST), (b"origin", b"http://" + HOST)]
    headers.append((b"content-type", b"application/json"))
    if length:
        headers.append((b"content-length", str(len(body)).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8765),
    }
    await app(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


def post(app, path, body, **kw):
    if not isinstance(body, bytes):
        body = json.dumps(body).encode()
    return asyncio.run(_post(app, path, body, **kw))


# Bodies no page sends, for every POST.
NOT_AN_OBJECT = [
    b"{bad json",
    b"a=1&b=2",  # a form's body
    b"[1,2]",
    b'"x"',
    b"5",
    b"null",
    b"true",
    b"",
    b"   ",
    b"\xff\xfe{}",  # not UTF-8
    b'{"line": "\xff"}',
    b"[" * 5000,  # nested past what the parser takes
    b'{"line": "\\ud800"}',  # a lone surrogate: no character
    b'{"x": ' + b"9" * 5000 + b"}",  # past Python's digits for an int
    b'{"x": "' + b"y" * BIG + b'"}',  # too big
    {"unknown": "field"},
]
ROUTES = {
    "/api/set": [
        {"key": 5, "value": "hint"},
        {"key": ["display"], "value": "hint"},
        {"key": "display", "value": None},
        {"key": "display", "value": 1},
        {"key": "display", "value": {"a": "b"}},
        {"key": "display"},
        {"value": "hint"},
        {},
        {"key": "display", "value": "hint", "more": "x"},
        {"key": "level", "value": "3\nREBOOT"},  # another frame's worth
        {"key": "level", "value": "3 4"},
        {"key": "level", "value": ""},
        {"key": "mode", "value": "chess"},
        {"key": "nonsense", "value": "1"},
    ],
    "/api/command": [
        {"line": ["x"]},
        {"line": 5},
        {"line": None},
        {"line": True},
        {},
        {"line": "help", "more": "x"},
    ],
    "/api/pull": [{"x": "y"}, {"db": "/tmp/other.sqlite"}],
    "/api/update": [{"x": "y"}, {"firmware": "/tmp"}],
    "/match/1/tags": [
        {"Event": 5},
        {"Event": None},
        {"Event": ["club"]},
        {"Event": {"a": "b"}},
        {"Board": "mine"},  # the board's own: not one the page edits
        {"Event": "club", "Result": "1-0"},
        {"Event": 'a "quote"'},
        {"Event": "x" * 300},
    ],
}


@pytest.fixture
def web(tmp_path):
    db = _db(tmp_path)
    with Store(db) as s:
        s.set_tags(1, {"Event": "before"})
    bridge = FakeBridge()
    return create_app(bridge, db), bridge, db


def _state(db):
    with open(db, "rb") as f:
        data = f.read()
    with Store(db, write=False) as s:
        return hashlib.sha256(data).hexdigest(), s.tags(1)


def _refused(code, body, path, sent):
    what = "%s %r" % (path, sent[:80] if isinstance(sent, bytes) else sent)
    assert code in (400, 404, 413), (what, code, body[:300])
    reply = json.loads(body)
    assert reply["ok"] is False, what
    error = reply["error"]
    assert isinstance(error, str) and len(error.split()) >= 3, (what, error)
    assert "Traceback" not in error and "Error:" not in error, (what, error)
    return error


@pytest.mark.parametrize("path", sorted(ROUTES))
def test_a_malformed_body_is_refused_in_words_and_changes_nothing(web, path, capsys):
    app, bridge, db = web
    before = _state(db)
    for sent in NOT_AN_OBJECT + ROUTES[path]:
        code, body = post(app, path, sent)
        _refused(code, body, path, sent)
    assert bridge.session.sent == [] and bridge.lines == [] and bridge.jobs == []
    assert _state(db) == before
    assert capsys.readouterr().err == ""  # nothing logged: no 500, no traceback


@pytest.mark.parametrize("path", sorted(ROUTES))
def test_a_body_too_big_is_refused_even_without_its_length(web, path):
    app, bridge, db = web
    big = b'{"line": "' + b"x" * BIG + b'"}'
    code, body = post(app, path, big, chunks=8, length=False)
    assert code == 413 and "over" in _refused(code, body, path, big)
    assert bridge.session.sent == [] and bridge.lines == [] and bridge.jobs == []


def test_the_tags_of_a_match_not_stored_are_a_404_whatever_the_body(web):
    app, _, db = web
    before = _state(db)
    for sent in (b"{bad json", b"[1,2]", {"Event": 5}, {"Event": "club"}):
        code, body = post(app, "/match/999/tags", sent)
        assert code == 404 and _refused(code, body, "/match/999/tags", sent) == "no such match"
    assert _state(db) == before


def test_the_bodies_the_pages_send_still_do_their_work(web):
    # (what the refusals above are measured against: the fake records these)
    app, bridge, db = web
    code, body = post(app, "/api/set", {"key": "display", "value": "hint"})
    assert code == 200 and json.loads(body)["ok"], body
    code, body = post(app, "/api/set", {"key": "level", "value": "3"})
    assert code == 200 and json.loads(body)["ok"], body
    assert bridge.session.sent == [("SET", "display", 1), ("SET", "level", "3")]
    code, body = post(app, "/api/command", {"line": "put 3 A1"})
    assert code == 200 and bridge.lines == ["put 3 A1"], body
    assert post(app, "/api/pull", {})[0] == 200
    bridge.job.running = False
    assert post(app, "/api/update", {})[0] == 200
    assert bridge.jobs == ["pull", "update"]
    code, body = post(app, "/match/1/tags", {"Black": "Anna", "Gold": "", "Event": "club"})
    assert code == 200 and json.loads(body)["ok"], body
    assert _state(db)[1] == {"Black": "Anna", "Event": "club"}

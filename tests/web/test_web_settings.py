"""The web page's set-up (/api/set) against the firmware's own link run in
process: a refused setting says what is allowed in the companion's words
(words.py), the computer and the hints taken are said with when they act,
as the companion says them."""

import json

import pytest

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")

from apixagon.codes import THREE_VS_TWO  # noqa: E402
from apixagon_host.link import BoardError  # noqa: E402
from apixagon_host.web.app import create_app  # noqa: E402
from eventkit import watched  # noqa: E402
from smartboard import buttons  # noqa: E402
from test_web_bodies import FakeBridge, post  # noqa: E402
from test_web_guards import _db  # noqa: E402


class BoardSession:
    """The bridge's session over the firmware's link (storekit.Board.ask):
    a reply, or its ERR as link.Link.wait raises it."""

    connected = True
    port = "/dev/fake"
    info = {}

    def __init__(self, mode=0):
        self.bd = watched("ws-%d" % mode, mode)
        self.stale = False

    @property
    def status(self):
        return self.bd.status()

    def request(self, verb, *args):
        ok, reply = self.bd.ask(" ".join([verb] + [str(a) for a in args]))
        if not ok:
            code, _, msg = reply.partition(" ")
            raise BoardError("board: %s" % msg, 1, int(code))
        return reply


def _app(tmp_path, mode=0):
    bridge = FakeBridge()
    bridge.session = BoardSession(mode)
    return create_app(bridge, _db(tmp_path)), bridge.session


def _set(app, key, value):
    code, body = post(app, "/api/set", {"key": key, "value": value})
    return code, json.loads(body)


LEVEL = "the board plays levels 1 to 5 (6 runs on the PC: apixagon play --level 6)"


@pytest.mark.parametrize(
    "key,value,allowed",
    [
        ("level", "6", LEVEL),
        ("level", "0", LEVEL),
        ("hintlimit", "7", "the hint limit is 0 (no limit) to 6 card queries a turn"),
        (
            "assist",
            "3",
            "assist is 0 (the legal cells), 1 (also the cells to block) or 2 (also a tapped"
            " card's good and poor cells)",
        ),
        (
            "computer",
            "A2+B1",
            "the computer plays black or gold in this mode: computer G, computer B or"
            " computer none",
        ),
    ],
)
def test_a_refused_setting_says_what_is_allowed_as_the_companion_does(
    tmp_path, key, value, allowed
):
    app, s = _app(tmp_path)
    before = s.bd.ask("CONF")
    code, reply = _set(app, key, value)
    assert code == 400 and not reply["ok"]
    assert reply["error"] == "%s %r? %s; nothing changed" % (key, value, allowed)
    assert s.bd.ask("CONF") == before


def test_a_seat_the_mode_lacks_names_the_seats_it_has(tmp_path):
    app, s = _app(tmp_path, THREE_VS_TWO)
    code, reply = _set(app, "computer", "B3")
    assert code == 400 and "the seats of 3v2 are A1, A2, A3, B1, B2" in reply["error"]
    assert "computer=0 " in s.bd.ask("CONF")[1]


def test_the_computer_and_the_hints_taken_are_said_with_when_they_act(tmp_path):
    app, s = _app(tmp_path)
    code, reply = _set(app, "assist", "2")
    assert code == 200 and reply["note"].startswith("assist 2: ")
    assert "poor cells rose" in reply["note"]
    s.bd.r.press(buttons.CONFIRM)
    code, reply = _set(app, "hintlimit", "1")
    assert reply["note"] == (
        "hint limit 1: at most 1 card query a turn — at once, in the match on the board too"
    )
    code, reply = _set(app, "level", "3")
    assert reply["note"].endswith("for the next match: the one on the board keeps its own")
    code, reply = _set(app, "mode", "beehive")
    assert reply["note"] == (
        "game mode: beehive — for the next match: the one on the board keeps its own"
    )

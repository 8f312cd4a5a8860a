"""The live page's events list in each page's language: the lines the
monitor words as they come (a refusal, a take-back, the cards a resume
waits for) are heard in the link's thread, in the server's language, and
worded again for each page (worded.py), so that an Italian page and an
English one open at the same time each read their own words."""

import json
import os
import re
import urllib.request

import pytest
from apixagon_host import i18n
from apixagon_host.companion import HELP
from test_web_lang import Marked
from webkit import Server


@pytest.fixture
def server(tmp_path):
    s = Server(str(tmp_path / "no-board"), str(tmp_path / "m.sqlite")).start()
    yield s
    s.stop()


def hear(server, *events, moves=None):
    """The board's events as the link's thread hears them (no board on
    the port: the session is handed them as its link would)."""

    def feed(session):
        if moves is not None:
            session.moves = moves
        for text in events:
            session._on_event(text)

    server.bridge.call(feed).result(10)


def stream(server, lang):
    req = urllib.request.Request(server.url + "/events", headers={"Cookie": "lang=" + lang})
    return urllib.request.urlopen(req, timeout=10)


def events_until(r, kind):
    """The page's events list from its stream, once it lists a `kind`."""
    for raw in r:
        line = raw.decode()
        if line.startswith("data: "):
            events = json.loads(line[6:])["events"]
            if any(e["kind"] == kind for e in events):
                return {e["kind"]: e["text"] for e in events}
    raise AssertionError("the stream ended before a %s event" % kind)


def test_two_pages_at_once_each_read_the_events_in_their_language(server, monkeypatch):
    monkeypatch.setitem(i18n._catalogues, "it", Marked())  # '[it] ' before every message
    with stream(server, "it") as it_page, stream(server, "en") as en_page:
        hear(
            server,
            "move 1 B 3 E6",
            "move 0",
            "want E4:B12 F5:G3",
            "expect G_12_F5",
            "refused occupied",
        )
        it = events_until(it_page, "refused")
        en = events_until(en_page, "refused")
    assert en["take-back"] == "take-back: B 3 E6 taken back (0 moves)"
    assert it["take-back"] == "[it] take-back: B 3 E6 taken back ([it] 0 moves)"
    assert en["want"] == "put back: E4 B12, F5 G3"
    assert it["want"] == "[it] put back: E4 B12, F5 G3"
    assert en["expect"] == "Gold plays G12 on F5 — take G12 from Gold's deck"
    assert it["expect"] == "[it] [it] Gold plays G12 on F5 — take G12 from [it] [it] Gold's deck"
    assert en["refused"] == "refused: the cell already holds a card (occupied)"
    assert it["refused"] == "[it] refused: [it] the cell already holds a card (occupied)"
    assert i18n.lang() == "en"  # the server's own language untouched


def test_junior_first_card_refused_in_the_italian_catalogue(server):
    # a message the Italian catalogue translates (words.JUNIOR_FIRST)
    hear(server, "refused bad-target J 5 E4", moves=0)

    def refusal(lang):
        req = urllib.request.Request(server.url + "/api/state", headers={"Cookie": "lang=" + lang})
        with urllib.request.urlopen(req, timeout=10) as r:
            events = json.load(r)["events"]
        return [e["text"] for e in events if e["kind"] == "refused"][-1]

    assert "Junior's first card goes on the Royal Cell, E5" in refusal("en")
    assert "in Junior la prima carta va sulla Casella Reale, E5" in refusal("it")
    assert "Junior's first card goes on the Royal Cell, E5" in refusal("en")


def test_the_command_hint_names_every_hand_command():
    # the companion's help's hands (put, lift, clear, tap and the buttons)
    hands = re.findall(r"\b([a-z]+)\b", HELP.splitlines()[0].partition(":")[2])
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "host", "apixagon_host", "web", "templates", "live.html")
    with open(path, encoding="utf-8") as f:
        hint = re.search(r'<label for="command">.*?<small>\((.*?)\)</small>', f.read()).group(1)
    named = {part.split()[0] for part in hint.split(" · ")}
    assert {"put", "lift", "clear", "tap"} <= set(hands)
    assert set(hands) <= named, set(hands) - named

"""The library and the replay of a match against the computer: the players
say who the computer is (the record's [Computer] and [Level] tags, which the
board writes, NOTATION.md tag pairs), where the list said "—"; the replay
shows those tags. No board needed: a database with the matches in it."""

import re
import urllib.request

import pytest
from apixagon_host.store import Store
from smartboard.logstore import records
from webkit import Server

COMPUTER = ['[Computer "G"]', '[Level "2"]', "mode queens-gambit", "start black", "B 12 E4"]
TEAMS = ['[Computer "A2 B1"]', '[Level "3"]', "mode beehive", "start A", "A1 12 E4"]


def log_bytes(lines):
    out = bytearray()
    prev = records.SEED
    for text in lines:
        kind = records.HEADER if text[0] in "ms[" else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    return bytes(out)


@pytest.fixture
def server(tmp_path):
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(COMPUTER))
        s.put("sim-A", "0002.alog", log_bytes(COMPUTER))
        s.set_tags(2, {"Black": "Anna"})
        s.put("sim-A", "0003.alog", log_bytes(TEAMS))
    srv = Server(str(tmp_path / "no-board"), db).start()
    yield srv
    srv.stop()


def get(server, path):
    with urllib.request.urlopen(server.url + path, timeout=10) as r:
        return r.read().decode()


def players(html):
    return [
        re.sub(r"<[^>]+>", "", c).strip()
        for c in re.findall(r'<td class="players">(.*?)</td>', html, re.S)
    ]


def test_the_library_names_the_computer_among_the_players(server):
    names = players(get(server, "/library"))
    assert names == [
        "team A v team B \u00b7 computer, level 3: A2 B1",
        "Anna v computer, level 2",
        "Black (blue) v computer, level 2",
    ], names


def test_the_replay_shows_the_computer_and_level_tags(server):
    html = get(server, "/match/1")
    tags = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html.split('id="record-tags"')[1]))
    assert tags["Computer"] == "Gold" and tags["Level"] == "2"
    assert "Players: Black (blue) v computer, level 2" in html

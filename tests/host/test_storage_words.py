"""What the host shows of the board's storage (issue 25, item 1): a power
cut that lost moves or a match (STATUS lost=), a match played unsaved
(unlogged=1), the board's question before it (unlogged=ask) and a storage
without room for the next match (room=0), in words: the companion's and
the monitor's status line and notes, the web pages (the live view's notes,
the board page's warnings) and `apixagon status` (its warnings); and the
companion's `nolog`, the players' answer to the question. Older firmware
sends none of the fields: nothing is shown."""

import pytest
from apixagon_host import liveview, logs, words
from apixagon_host.companion import Companion
from apixagon_host.link import BoardError
from smartboard import proto
from test_companion import FakeSession


def test_lost_in_words():
    assert words.lost_text("unlogged") == (
        "a power cut on the board: the match played unsaved was lost"
    )
    t = words.lost_text("0007.alog:12")
    assert "match 0007.alog lost its moves after move 12" in t and "flash was full" in t
    assert "could not be made" in words.lost_text("match")
    assert words.lost_text("0007.alog:3,unlogged").count(";") == 1


@pytest.mark.parametrize(
    "status,line,note",
    [
        ({"phase": "setup", "lost": "unlogged"}, None, "the match played unsaved was lost"),
        ({"phase": "setup", "room": "0"}, "STORAGE FULL", "the next match would not be saved"),
        ({"phase": "setup", "room": "0", "unlogged": "ask"}, "STORAGE FULL", "the board asks"),
        ({"phase": "play", "room": "0", "unlogged": "1"}, "NOT SAVED", "played unsaved"),
        ({"phase": "setup", "room": "1", "low": "1"}, "STORAGE LOW", None),
        ({"phase": "setup"}, None, None),  # older firmware: nothing said
        # firmware 0.9.1: moves waiting in memory now, and the board unable
        # to note it on its flash
        (
            {"phase": "play", "low": "1", "unsaved": "0007.alog:12"},
            "STORAGE LOW",
            "the moves after move 12 of match 0007.alog wait in memory",
        ),
        (
            {"phase": "play", "low": "1", "unsaved": "0007.alog:12", "unsafe": "1"},
            "STORAGE LOW",
            "keep it powered",
        ),
        ({"phase": "play", "low": "1", "unsaved": "match"}, "STORAGE LOW", "could not be made"),
    ],
)
def test_the_status_line_the_notes_and_the_warnings(status, line, note):
    text = liveview.status_line(dict(status, sides="BG"))
    notes = liveview.status_notes(status)
    warn = logs.warnings(status)
    if line is None:
        assert "STORAGE" not in text and "NOT SAVED" not in text
    else:
        assert line in text
    if note is None:
        assert not words.storage_notes(status) and notes == []
    else:
        assert any(note in n for n in notes), notes
        assert any(note in w for w in warn), warn


def test_nolog_answers_the_boards_question():
    s = FakeSession(board="APIXAGON rev A", replies={"NOLOG": "unsaved"})
    go_on, out = Companion(s, db=None).command("nolog")
    assert s.sent == [("NOLOG",)] and out == ["the match is played unsaved"]
    s = FakeSession(replies={"NOLOG": BoardError("not now", board_code=proto.E_STATE)})
    out = Companion(s, db=None).command("nolog")[1]
    assert "the board asks nothing" in out[0]
    s = FakeSession(replies={"NOLOG": BoardError("unknown", board_code=proto.E_VERB)})
    out = Companion(s, db=None).command("nolog")[1]
    assert "press CONFIRM again" in out[0]
    s = FakeSession()
    out = Companion(s, db=None).command("nolog now")[1]
    assert out[0].startswith("error") and not s.sent

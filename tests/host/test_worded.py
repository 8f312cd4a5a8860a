"""worded.Worded: a line in words kept as what it says, so that a reader in
another language (a web page in Italian, the server in English) gets it in
its own words; the companion's and the monitor's lines are made so."""

import gettext

from apixagon_host import i18n
from apixagon_host.companion import Companion
from apixagon_host.monitor import Session
from apixagon_host.worded import Worded, again, message
from test_companion import FakeSession


class Marked(gettext.NullTranslations):
    """A stand-in Italian catalogue: every message with '[it] ' before it."""

    def gettext(self, message):
        return "[it] " + message

    def ngettext(self, singular, plural, n):
        return "[it] " + (singular if n == 1 else plural)


def test_a_worded_line_is_its_words_and_words_itself_again(monkeypatch):
    monkeypatch.setitem(i18n._catalogues, "it", Marked())
    line = Worded(message, "lost the board ({why}): reconnecting", why="EIO")
    assert line == "lost the board (EIO): reconnecting"  # a str, in the language in use
    with i18n.using("it"):
        assert again(line) == "[it] lost the board (EIO): reconnecting"
    assert again(line) == "lost the board (EIO): reconnecting"
    assert again("board: hello") == "board: hello"  # the board's own words stay as they are


def test_the_monitors_lines_are_worded_again(monkeypatch):
    monkeypatch.setitem(i18n._catalogues, "it", Marked())
    heard = []
    s = Session("/dev/none", lambda kind, text: heard.append((kind, text)))
    for event in ("move 1 B 3 E6", "move 0", "want E4:B12", "want", "expect", "refused occupied"):
        s._on_event(event)
    with i18n.using("it"):
        said = [(kind, again(text)) for kind, text in heard]
    assert said[1:] == [
        ("take-back", "[it] take-back: B 3 E6 taken back ([it] 0 moves)"),
        ("want", "[it] put back: E4 B12"),
        ("want", "[it] put back: nothing left"),
        ("expect", "[it] the computer's move: done"),
        ("refused", "[it] refused: [it] the cell already holds a card (occupied)"),
    ]


def test_the_companions_tags_line_is_worded_again(tmp_path, monkeypatch):
    monkeypatch.setitem(i18n._catalogues, "it", Marked())
    s = FakeSession()
    s.status.update(phase="setup", log="-")
    c = Companion(s, db=str(tmp_path / "m.sqlite"))
    c.command("tag Black=Anna")
    s.status.update(phase="play", log="0007.alog")
    (line,) = c.tick()
    assert line == 'match 0007.alog: Black="Anna" (stored with it when pulled)'
    with i18n.using("it"):
        assert again(line) == '[it] match 0007.alog: Black="Anna" (stored with it when pulled)'

"""The companion's settings (SET) against the firmware's own link run in
process (the board's replies as a real board sends them): a refused
setting says what is allowed, in the host's words (words.py); a setting
taken is said, with when it acts; `status` shows the hints' settings;
what a person typed is echoed cut short."""

import contextlib

import pytest
from apixagon.codes import JUNIOR, THREE_VS_TWO
from apixagon_host import logs, monitor, words
from apixagon_host.companion import Companion
from apixagon_host.link import BoardError
from eventkit import watched
from smartboard import buttons


class BoardSession:
    """monitor.Session's face to the companion, over the firmware's link
    (storekit.Board.ask): a reply, or its ERR as link.Link.wait raises it."""

    connected = True
    port = "/dev/fake"

    def __init__(self, mode=0):
        self.bd = watched("cs-%d" % mode, mode)
        self.info = {"board": "APIXAGON_rev_A", "id": "x"}
        self.stale = False
        self.sent = []

    @property
    def status(self):
        return self.bd.status()

    def request(self, verb, *args):
        self.sent.append((verb,) + args)
        ok, reply = self.bd.ask(" ".join([verb] + [str(a) for a in args]))
        if not ok:
            code, _, msg = reply.partition(" ")
            raise BoardError("board: %s" % msg, 1, int(code))
        return reply

    @contextlib.contextmanager
    def paused(self):
        yield self

    def conf(self):
        return dict(f.split("=") for f in self.bd.ask("CONF")[1].split())


def say(s, line):
    go_on, out = Companion(s).command(line)
    assert go_on
    return out


LEVEL = "the board plays levels 1 to 5 (6 runs on the PC: apixagon play --level 6)"
HINTLIMIT = "the hint limit is 0 (no limit) to 6 card queries a turn"
ASSIST = "assist is 0 (the legal cells), 1 (also the cells to block) or 2"
TWO_SEATS = "the computer plays black or gold in this mode: computer G, computer B or computer none"


@pytest.mark.parametrize(
    "line,allowed",
    [
        ("level 0", LEVEL),
        ("level 99", LEVEL),
        ("level abc", LEVEL),
        ("level 6", LEVEL),  # the engine's 6 is the PC's: named
        ("hintlimit -1", HINTLIMIT),
        ("hintlimit 7", HINTLIMIT),
        ("assist 3", ASSIST),
        ("computer X", TWO_SEATS),
        ("computer A2+B1", TWO_SEATS),
    ],
)
def test_a_refused_setting_says_what_is_allowed_and_changes_nothing(line, allowed):
    s = BoardSession()
    before = s.conf()
    out = say(s, line)
    key, word = line.split()
    assert len(out) == 1 and allowed in out[0], out
    assert out[0].startswith("error: %s %r? " % (key, word)) and out[0].endswith("nothing changed")
    assert "bad arguments" not in out[0]
    assert s.conf() == before


def test_seats_a_mode_lacks_are_refused_with_the_seats_it_has():
    # RULES §5: 3v2's team B has two seats (B3 was taken, and the match
    # started without the computer)
    s = BoardSession(THREE_VS_TWO)
    for line in ("computer B3", "computer B1+B2+B3"):
        out = say(s, line)
        assert "the seats of 3v2 are A1, A2, A3, B1, B2" in out[0], out
        assert s.conf()["computer"] == "0"
    assert say(s, "computer a3+b2") == ["the computer plays A3, B2"]
    s.bd.r.press(buttons.CONFIRM)
    assert s.bd.status()["computer"] == "A3+B2:1"


def test_junior_has_no_computer():
    # RULES §6: a race of hands, no turns for a computer to take
    s = BoardSession(JUNIOR)
    for line in ("computer 2", "computer G"):
        out = say(s, line)
        assert out[0].startswith("error: computer ") and "Junior has no computer" in out[0], out
    assert s.conf()["computer"] == "0"
    assert say(s, "computer none") == ["no computer"]


def test_junior_and_its_players_are_said_in_words():
    s = BoardSession()
    assert say(s, "mode junior") == [
        "game mode: junior (2 to 6 players: players N; no computer, RULES §6)"
    ]
    assert say(s, "players 3") == ["3 players"]
    assert s.conf()["players"] == "3"


def test_the_computer_by_its_sides_name_and_when_it_plays():
    s = BoardSession()
    assert say(s, "computer gold") == ["the computer plays %s" % words.side_name("G")]
    assert say(s, "level 2") == ["the computer's level: 2"]
    assert s.conf()["computer"] == "8" and s.conf()["level"] == "2"
    s.bd.r.press(buttons.CONFIRM)
    # in a match: the next match's (the one on the board keeps its computer)
    out = say(s, "level 3")
    assert out == [
        "the computer's level: 3 — for the next match: the one on the board keeps its own"
    ]
    assert s.bd.status()["computer"] == "G:2"


def test_the_hints_act_at_once_and_say_so():
    s = BoardSession()
    s.bd.r.press(buttons.CONFIRM)
    at_once = " — at once, in the match on the board too"
    assert say(s, "assist 0") == ["assist 0: the hints light the legal cells" + at_once]
    assert say(s, "hintlimit 1") == ["hint limit 1: at most 1 card query a turn" + at_once]
    assert say(s, "hintlimit 0") == ["hint limit 0: no limit on hints" + at_once]
    assert (s.conf()["assist"], s.conf()["hintlimit"]) == ("0", "0")


def test_assist_2_says_what_its_colours_mean():
    s = BoardSession()
    out = say(s, "assist 2")
    assert len(out) == 1 and out[0].startswith("assist 2: "), out
    for words_ in ("good cells blinking green", "poor cells rose"):
        assert words_ in out[0], out


def test_status_shows_the_hints_settings(monkeypatch):
    monkeypatch.setattr(logs, "status", lambda state, args: state.out.write("board x\n"))
    s = BoardSession()
    say(s, "assist 2")
    say(s, "hintlimit 3")
    assert say(s, "status") == [
        "board x",
        "  assist    2 (the hints light %s)" % words.ASSIST_WORDS[2],
        "  hintlimit 3 (at most 3 card queries a turn)",
    ]


def test_an_older_boards_bare_refusal_is_worded_from_what_the_host_knows():
    # firmware before the SET KEY ALLOWED form said `bad arguments: SET`
    msg = "board: bad arguments: SET"
    assert words.setting_refused("level", "9", msg).endswith(LEVEL + "; nothing changed")
    assert TWO_SEATS in words.setting_refused("computer", "X", msg, "BG")
    assert words.setting_refused("computer", "X", msg, "AB") == msg  # its seats unknown
    other = "board: bad arguments: players 3: teen takes 2, 4 or 6"
    assert words.setting_refused("players", "3", other) == other


LONG = "x" * 5000


@pytest.mark.parametrize(
    "line",
    [
        LONG,
        "put E4 " + LONG,
        "put %s B3" % LONG,
        "tap " + LONG,
        "out " + LONG,
        "render " + LONG,
        "help " + LONG,
        "mode " + LONG,
        "level " + LONG,
        "computer " + LONG,
        "tag %s=Anna" % LONG,
        "tag " + LONG,
        "declare deck-empty " + LONG,
    ],
)
def test_what_was_typed_is_echoed_cut_short(line):
    s = BoardSession()
    out = say(s, line)
    assert len(out) == 1 and out[0].startswith("error: "), out
    assert "x" * 41 not in out[0] and "x" * 40 + "…" in out[0], out[0][:300]
    assert len(out[0]) < 300


def test_the_typed_line_echoed_above_the_prompt_is_cut_short():
    import io
    import os

    r, w = os.pipe()
    try:
        view = monitor.ScreenView(io.StringIO(), None, size=lambda: (80, 24))
        view.fd = r
        os.write(w, LONG.encode() + b"\r")
        got = []
        while not got:  # (a read takes 1 KB at most)
            got = view.read()
        assert got == [LONG]  # the command gets it whole
        echoed = view.pane[-1]
        assert echoed.startswith("> ") and len(echoed) <= 2 + monitor.ECHO_LINE + 1
    finally:
        os.close(r)
        os.close(w)

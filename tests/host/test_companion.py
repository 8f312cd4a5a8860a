"""The companion's typed commands (apixagon_host.companion) against a
recording stand-in for the live link: what is sent for each hand, and
that a bad command says why and sends nothing."""

import contextlib
import sys

import pytest
from apixagon_host import cli
from apixagon_host.companion import SIMULATOR, Companion
from smartboard import tag


class FakeSession:
    def __init__(self, board=SIMULATOR, sides="BG", connected=True):
        self.info = {"board": board, "id": "x"}
        self.status = {"sides": sides}
        self.connected = connected
        self.port = "/dev/fake"
        self.sent = []
        self.pauses = 0

    def request(self, *args):
        self.sent.append(args)
        return "ok"

    @contextlib.contextmanager
    def paused(self):
        self.pauses += 1
        yield self


def run(line, **kw):
    s = FakeSession(**kw)
    go_on, out = Companion(s, db=None).command(line)
    return s, go_on, out


@pytest.mark.parametrize(
    "line,sent",
    [
        ("put E4 B12", ("HAND", "put", "E4", tag.code(0, tag.NORMAL, 12))),
        ("put e4 g3", ("HAND", "put", "E4", tag.code(1, tag.NORMAL, 3))),
        ("lift I9", ("HAND", "lift", "I9")),
        ("tap Gbee", ("HAND", "tap", tag.code(1, tag.BEEKEEPER, 0))),
        ("tap Brain", ("HAND", "tap", tag.code(0, tag.RAIN, 0))),
        ("mode", ("HAND", "press", "mode")),
        ("confirm long", ("HAND", "press", "confirm", "long")),
        ("declare", ("HAND", "press", "declare")),
    ],
)
def test_hands_become_hand_frames(line, sent):
    s, go_on, out = run(line)
    assert go_on and out == [] and s.sent == [sent]


def test_team_games_name_the_cards_a_and_b():
    s, _, _ = run("put E4 A7", sides="AB")
    assert s.sent == [("HAND", "put", "E4", tag.code(0, tag.NORMAL, 7))]
    s, _, out = run("put E4 G7", sides="AB")
    assert s.sent == [] and "no card 'G7'" in out[0]


@pytest.mark.parametrize(
    "line,message",
    [
        ("fly E4", "unknown command 'fly' (try help)"),
        ("put Z9 B3", "no cell 'Z9' on the board"),
        ("put E4 B99", "no card 'B99'"),
        ("put E4", "usage: put CELL CARD"),
        ("put E4 B3 G5", "usage: put CELL CARD"),
        ("lift", "usage: lift CELL"),
        ("tap", "usage: tap CARD"),
        ("tap Xbee", "no card 'Xbee'"),
        ("confirm twice", "confirm takes nothing or 'long'"),
        ("mode long long", "mode takes nothing or 'long'"),
        ("render", "usage: render N"),
        ("render one", "render takes a match id"),
        ("list all", "list takes no arguments"),
        ("pull now", "pull takes no arguments"),
    ],
)
def test_bad_commands_say_why_and_send_nothing(line, message):
    s, go_on, out = run(line)
    assert go_on and s.sent == [] and s.pauses == 0
    assert len(out) == 1 and out[0].startswith("error: ") and message in out[0], out


def test_a_real_board_gets_no_hands():
    s, go_on, out = run("put E4 B12", board="APIXAGON_rev_A")
    assert s.sent == [] and "hands are for the simulated board" in out[0]
    assert "APIXAGON_rev_A is a real board" in out[0]


def test_no_hands_while_the_board_is_away():
    s, go_on, out = run("lift E4", connected=False)
    assert s.sent == [] and "not connected" in out[0]


def test_quit_help_and_blank():
    assert run("quit")[1] is False
    assert run("  ")[1:] == (True, [])
    _, go_on, out = run("help")
    assert go_on and any("put CELL CARD" in x for x in out)
    assert any(x.startswith("LEDs: ") for x in out) and out[-1].endswith("(* blinks)")


def test_list_runs_the_cli_on_the_database(tmp_path):
    s = FakeSession()
    _, out = Companion(s, db=str(tmp_path / "m.sqlite")).command("list")
    assert out == ["no matches stored yet (apixagon logs pull)"] and s.sent == []


def test_render_says_when_it_is_not_in_the_build(monkeypatch, tmp_path):
    import apixagon_host

    monkeypatch.setitem(sys.modules, "apixagon_host.render", None)  # import fails
    monkeypatch.delattr(apixagon_host, "render", raising=False)  # imported earlier
    s = FakeSession()
    _, out = Companion(s, db=str(tmp_path / "m.sqlite")).command("render 1")
    assert out[0].startswith("error: render is not available in this build")


def test_render_runs_the_cli_logs_render_when_it_is_there(monkeypatch, tmp_path):
    seen = []

    def fake_render(state, args):
        seen.append((args.id, args.output, args.db))
        state.out.write("wrote %s\n" % args.output)
        return 0

    monkeypatch.setattr(cli.logs, "render", fake_render)
    import apixagon_host

    monkeypatch.setitem(sys.modules, "apixagon_host.render", type(sys)("render"))
    monkeypatch.setattr(apixagon_host, "render", sys.modules["apixagon_host.render"], raising=False)
    db = str(tmp_path / "m.sqlite")
    _, out = Companion(FakeSession(), db=db).command("render 3")
    assert seen == [(3, str(tmp_path / "match-3.svg"), db)]
    assert out == ["wrote %s" % (tmp_path / "match-3.svg")]


def test_a_cli_error_is_shown_not_raised(tmp_path):
    # `status` runs the CLI's own command on the session's port (here a
    # port that does not exist): its error is a line, the companion goes on
    s = FakeSession()
    go_on, out = Companion(s, db=str(tmp_path / "m.sqlite")).command("status")
    assert go_on and out[-1].startswith("error: cannot open /dev/fake") and s.pauses == 1

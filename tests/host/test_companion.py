"""The companion's typed commands (apixagon_host.companion) against a
recording stand-in for the live link: what is sent for each hand, and
that a bad command says why and sends nothing."""

import ast
import contextlib
import os
import subprocess
import sys
import time

import pytest
from apixagon.geometry import NCELLS, parse_cell
from apixagon_host import logs
from apixagon_host.companion import SIMULATOR, Companion
from apixagon_host.link import BoardError
from smartboard import proto, tag


class FakeSession:
    def __init__(self, board=SIMULATOR, sides="BG", connected=True, cells=None, replies=None):
        self.info = {"board": board, "id": "x"}
        self.status = {"sides": sides}
        self.connected = connected
        self.port = "/dev/fake"
        self.cells = cells
        self.letters = sides
        self.stale = False
        self.sent = []
        self.pauses = 0
        self.replies = replies or {}  # verb -> reply, or a BoardError to raise

    def request(self, *args):
        self.sent.append(args)
        r = self.replies.get(args[0], "ok")
        if isinstance(r, Exception):
            raise r
        return r

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
    # every command, on the eight rows of events an 80x24 terminal shows
    assert go_on and any("put CELL CARD" in x for x in out) and len(out) <= 8
    assert all(len(x) <= 80 for x in out)
    for word in ("pass", "out N", "tag", "pull", "render", "players", "legend"):
        assert word in "\n".join(out), word
    _, _, out = run("help hands")
    assert any("Grain, Gbee, Bsmoker" in x for x in out)
    for topic in ("hands", "setup", "declare", "companion"):  # none wraps at 80
        assert all(len(x) <= 80 for x in run("help " + topic)[2]), topic
    _, _, out = run("help legend")
    assert any(x.startswith("LEDs: ") for x in out)
    assert out[-1].endswith("(* blinks, ** blinks fast)")
    _, _, out = run("help me")
    assert out[0].startswith("error: no help on 'me'")


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

    monkeypatch.setattr(logs, "render", fake_render)
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


# ---- the layers: cli on top, the commands below it, link and store at the bottom


HOST = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "host")
PACKAGE = os.path.join(HOST, "apixagon_host")


def _imports(path):
    # every module a file imports, at the top or inside a function
    tree = ast.parse(open(path).read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = node.module or ""
            out |= {(base or n.name).split(".")[0] for n in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("apixagon_host"):
            out |= {n.name for n in node.names}
    return out


def test_no_module_below_the_command_table_imports_it():
    below = [f for f in os.listdir(PACKAGE) if f.endswith(".py") and f != "cli.py"]
    assert "companion.py" in below and "monitor.py" in below
    for f in below:
        assert "cli" not in _imports(os.path.join(PACKAGE, f)), f


def test_link_and_store_import_no_command():
    commands = {"cli", "check", "logs", "play", "monitor", "companion", "deploy"}
    for f in ("link.py", "store.py", "errors.py", "termtext.py", "outfile.py", "progress.py"):
        assert not _imports(os.path.join(PACKAGE, f)) & commands, f


@pytest.mark.parametrize("module", ["monitor", "companion", "logs", "check", "play"])
def test_the_commands_import_and_run_with_cli_blocked(module, tmp_path):
    # a fresh interpreter where importing cli fails: each command module
    # still imports, and the companion still runs list (it calls logs)
    code = (
        "import sys; sys.modules['apixagon_host.cli'] = None\n"
        "import apixagon_host.%s\n"
        "from apixagon_host.companion import Companion\n"
        "class S: info = {}; status = {}; port = None; connected = False\n"
        "print(Companion(S(), db=%r).command('list')[1])\n" % (module, str(tmp_path / "m.sqlite"))
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HOST, os.path.join(HOST, "..", "firmware")]))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "no matches stored yet" in r.stdout


# ---- set-up by name: SET with the board's numbers


@pytest.mark.parametrize(
    "line,sides,sent,said",
    [
        ("mode beehive", "BG", ("SET", "mode", 2), "game mode: beehive"),
        ("mode Queens-Gambit", "BG", ("SET", "mode", 0), "game mode: queens-gambit"),
        ("mode teen", "BG", ("SET", "mode", 6), "game mode: teen (2, 4 or 6 players: players N)"),
        ("start gold", "BG", ("SET", "start", 1), "Gold starts"),
        ("start black", "BG", ("SET", "start", 0), "Black (blue) starts"),
        ("start B", "AB", ("SET", "start", 1), "team B starts"),
        ("start a", "AB", ("SET", "start", 0), "team A starts"),
        ("option special_then_place", "BG", ("SET", "option", 1), "option: special_then_place"),
        ("option none", "BG", ("SET", "option", 0), "option: none"),
        ("players 6", "BG", ("SET", "players", 6), "6 players"),
    ],
)
def test_set_up_by_name_is_a_set_and_said(line, sides, sent, said):
    # each setting taken is said in words (a family typing `mode junior`
    # saw nothing happen)
    s, go_on, out = run(line, sides=sides)
    assert go_on and out == [said] and s.sent == [sent]
    assert s.stale  # the status line asks STATUS for the new set-up


def test_junior_and_its_players_are_said():
    s = FakeSession()
    _, out = Companion(s).command("mode junior")
    assert s.sent == [("SET", "mode", 5)]
    assert out == ["game mode: junior (2 to 6 players: players N; no computer, RULES §6)"]
    s.status.update(mode="junior", sides="JJ")
    _, out = Companion(s).command("players 3")
    assert s.sent[-1] == ("SET", "players", 3) and out == ["3 players"]


def test_players_are_teens_2_4_6_and_juniors_2_to_6():
    s = FakeSession()
    s.status["mode"] = "teen"
    _, out = Companion(s).command("players 6")
    assert out == ["6 players"] and s.sent == [("SET", "players", 6)]
    _, out = Companion(s).command("players 5")
    assert out == ["error: players '5'? choose one of: 2, 4, 6"]
    s = FakeSession()
    s.status["mode"] = "junior"  # one deck dealt to 2 to 6 players (RULES §6, D-13)
    _, out = Companion(s).command("players 5")
    assert out == ["5 players"] and s.sent == [("SET", "players", 5)]
    _, out = Companion(s).command("players 7")
    assert out == ["error: players '7'? choose one of: 2, 3, 4, 5, 6"]


def test_set_up_in_play_says_it_is_for_the_next_match():
    s = FakeSession()
    s.status["phase"] = "play"
    _, out = Companion(s).command("option none")
    assert s.sent == [("SET", "option", 0)]
    assert out == ["option: none — for the next match: the one on the board keeps its own"]


def test_set_up_works_on_a_real_board_too():
    s, _, out = run("mode beehive", board="APIXAGON_rev_A")
    assert out == ["game mode: beehive"] and s.sent == [("SET", "mode", 2)]


@pytest.mark.parametrize(
    "line,message",
    [
        ("mode chess", "mode 'chess'? choose one of: queens-gambit, silent-swarm, beehive, 2v1"),
        ("start red", "start 'red'? choose one of: black, gold"),
        ("option fast", "option 'fast'? choose one of: none, special_then_place"),
        ("players 5", "players '5'? choose one of: 2, 4, 6"),
        ("players", "usage: players N"),
        ("start", "usage: start black|gold|A|B"),
        ("option none special_then_place", "usage: option NAME"),
    ],
)
def test_unknown_set_up_names_list_the_choices_and_send_nothing(line, message):
    s, go_on, out = run(line)
    assert go_on and s.sent == [] and len(out) == 1 and message in out[0], out


def test_team_games_start_a_or_b():
    s, _, out = run("start gold", sides="AB")
    assert s.sent == [] and "choose one of: A, B" in out[0]


def test_mode_alone_or_long_is_still_the_button():
    assert run("mode")[0].sent == [("HAND", "press", "mode")]
    assert run("mode LONG")[0].sent == [("HAND", "press", "mode", "long")]


def test_set_up_while_the_board_is_away_sends_nothing():
    s, _, out = run("mode beehive", connected=False)
    assert s.sent == [] and "not connected" in out[0]


# ---- hands: HANDS


def test_hands_lists_each_sides_cards_and_specials():
    reply = "B=%x G=%x Bs=rrbs Gs=-" % ((1 << 31) - 1 - (1 << 12), (1 << 3) | (1 << 30))
    s, go_on, out = run("hands", replies={"HANDS": reply})
    assert s.sent == [("HANDS",)]
    assert out[0] == "Black (blue): %s  specials: rain rain bee smoker" % " ".join(
        str(i) for i in range(31) if i != 12
    )
    assert out[1] == "Gold: 3 30  specials: none"


def test_hands_of_teams_junior_and_set_up():
    _, _, out = run("hand", replies={"HANDS": "A=1 B=0 As=s Bs=r"})
    assert out == ["team A: 0  specials: smoker", "team B: no cards  specials: rain"]
    _, _, out = run("hands", replies={"HANDS": "J=6"})
    assert out == ["the deck: 1 2"]
    _, _, out = run("hands", replies={"HANDS": "none"})
    assert out == ["no match in play: the hands are full"]


def test_hands_from_old_firmware_says_update_it():
    old = BoardError("board: ERR 5 unknown verb", board_code=proto.E_VERB)
    _, go_on, out = run("hands", replies={"HANDS": old})
    assert go_on and out == ["error: this board's firmware cannot tell the hands (update it)"]


@pytest.mark.parametrize("reply", ["B=zz", "nonsense", ""])
def test_a_bad_hands_reply_is_an_error_line(reply):
    _, go_on, out = run("hands", replies={"HANDS": reply})
    assert go_on and len(out) == 1 and out[0].startswith("error: the board's HANDS reply")


def test_hands_takes_no_arguments():
    s, _, out = run("hands all")
    assert s.sent == [] and out == ["error: hands takes no arguments"]


# ---- put on a card: the simulated board refuses it, the companion names it


def test_put_on_an_occupied_cell_names_the_card_the_board_refused_it_for():
    held = BoardError(
        "board error: bad arguments: E4 holds a card: lift it first", board_code=proto.E_ARGS
    )
    cells = bytearray(NCELLS)
    cells[parse_cell("E4")] = 1 + tag.code(0, tag.NORMAL, 12)
    s, go_on, out = run("put E4 G3", cells=bytes(cells), replies={"HAND": held})
    assert go_on and out == ["error: E4 holds B12: lift it first"]
    cells[parse_cell("E4")] = 0xFC  # a card the board cannot name yet
    s, _, out = run("put E4 G3", cells=bytes(cells), replies={"HAND": held})
    assert out == ["error: E4 holds a card: lift it first"]
    # the cells heard of may be a tick behind (a take-back): the board decides
    cells[parse_cell("E4")] = 1 + tag.code(0, tag.NORMAL, 12)
    s, _, out = run("put E4 G3", cells=bytes(cells))
    assert out == [] and s.sent == [("HAND", "put", "E4", tag.code(1, tag.NORMAL, 3))]


def test_put_on_a_card_asks_the_board_which_card_not_the_cells_heard_of():
    # The move's cells event can still wait behind the HAND reply: the
    # companion's copy is a move old (E4 empty), the board's CELLS is now.
    held = BoardError(
        "board error: bad arguments: E4 holds a card: lift it first", board_code=proto.E_ARGS
    )
    now = bytearray(NCELLS)
    now[parse_cell("E4")] = 1 + tag.code(1, tag.NORMAL, 5)
    replies = {"HAND": held, "CELLS": proto.hex_text(bytes(now))}
    s, _, out = run("put E4 B3", cells=bytes(NCELLS), replies=replies)
    assert out == ["error: E4 holds G5: lift it first"] and s.sent[-1] == ("CELLS",)
    # a board that cannot tell: the cells heard of, else "a card"
    replies["CELLS"] = BoardError("board error: unknown command", board_code=proto.E_VERB)
    s, _, out = run("put E4 B3", cells=None, replies=replies)
    assert out == ["error: E4 holds a card: lift it first"]


def test_pull_and_status_call_the_commands_with_the_port_and_database(monkeypatch, tmp_path):
    seen = []

    def command(name):
        def run(state, args):
            seen.append((name, args.port, args.db, args.delete, args.progress))
            state.out.write("%s done\n" % name)

        return run

    monkeypatch.setattr(logs, "pull", command("pull"))
    monkeypatch.setattr(logs, "status", command("status"))
    s = FakeSession()
    db = str(tmp_path / "m.sqlite")
    c = Companion(s, db=db)
    assert c.command("pull") == (True, ["pull done"])
    assert c.command("status") == (True, ["status done"])
    # (an option not given is None, as argparse leaves it: no --delete)
    assert seen == [
        ("pull", "/dev/fake", db, None, None),
        ("status", "/dev/fake", None, None, None),
    ]
    assert s.pauses == 2  # each opens the port itself


def _stored_tags(db, board, log_name):
    # the tags a pull of that log will store with it (Store.pend_tags)
    from apixagon_host.store import Store

    with Store(db, True) as store:
        return store.db.execute(
            "SELECT name, value FROM pending_tags WHERE board = ? AND number = ? ORDER BY name",
            (board, int(log_name[:4])),
        ).fetchall()


def test_tag_in_set_up_waits_for_the_match_then_is_kept_for_its_log(tmp_path):
    db = str(tmp_path / "m.sqlite")
    s = FakeSession()
    s.status.update(phase="setup", log="-")
    c = Companion(s, db=db)
    go_on, out = c.command("tag Black=Anna Gold=Ben")
    assert go_on and out == ['tags kept for the match about to start: Black="Anna"  Gold="Ben"']
    assert c.tick() == []  # still in set-up: no log to keep them for
    s.status.update(phase="play", log="0007.alog")
    assert c.tick() == ['match 0007.alog: Black="Anna"  Gold="Ben" (stored with it when pulled)']
    assert c.tick() == []  # once
    assert _stored_tags(db, "x", "0007.alog") == [("Black", "Anna"), ("Gold", "Ben")]


def test_a_tag_value_with_spaces_is_quoted_as_in_a_shell(tmp_path):
    db = str(tmp_path / "m.sqlite")
    s = FakeSession()
    s.status.update(phase="play", log="0004.alog")
    _, out = Companion(s, db=db).command("tag Black=\"Anna Maria\" Event='Club night'")
    assert out == [
        'match 0004.alog: Black="Anna Maria"  Event="Club night" (stored with it when pulled)'
    ]
    assert _stored_tags(db, "x", "0004.alog") == [("Black", "Anna Maria"), ("Event", "Club night")]


def test_tag_in_play_is_kept_at_once(tmp_path):
    db = str(tmp_path / "m.sqlite")
    s = FakeSession()
    s.status.update(phase="play", log="0003.alog")
    go_on, out = Companion(s, db=db).command("tag Event=Club_night")
    assert out == ['match 0003.alog: Event="Club_night" (stored with it when pulled)']
    assert _stored_tags(db, "x", "0003.alog") == [("Event", "Club_night")]


@pytest.mark.parametrize(
    "line,message",
    [
        ("tag", "usage: tag Name=value"),
        ("tag Anna", "is not Name=value"),
        ("tag =Anna", "is not Name=value"),
        ('tag Black=An"na', "nothing kept"),
        ("tag Board=mine", "nothing kept"),  # the board's own tag
    ],
)
def test_bad_tags_say_why_and_keep_nothing(tmp_path, line, message):
    db = str(tmp_path / "m.sqlite")
    s = FakeSession()
    s.status.update(phase="play", log="0003.alog")
    c = Companion(s, db=db)
    go_on, out = c.command(line)
    assert go_on and len(out) == 1 and out[0].startswith("error: ") and message in out[0]
    assert c.tags == {} and _stored_tags(db, "x", "0003.alog") == []


def test_a_match_seen_to_begin_is_dated_today_and_one_seen_midway_is_not(tmp_path):
    # The board has no clock of its own to date a match: the companion that
    # saw it begin keeps today's date for it (quietly: nobody asked).
    db = str(tmp_path / "m.sqlite")
    s = FakeSession()
    c = Companion(s, db=db)
    s.status.update(phase="play", log="0009.alog", moves="0")
    assert c.tick() == []
    got = dict(_stored_tags(db, "x", "0009.alog"))
    assert got["Date"] == time.strftime("%Y.%m.%d") and len(got["Time"]) == 5
    s.status.update(log="0010.alog", moves="12")  # a resumed match: begun before
    assert c.tick() == [] and _stored_tags(db, "x", "0010.alog") == []


def test_render_without_a_database_writes_into_the_data_folder(monkeypatch, tmp_path):
    # `make run` starts the companion in the checkout: a picture written
    # "here" landed among the sources; it goes beside the user's database
    seen = []

    def fake_render(state, args):
        seen.append(args.output)
        return 0

    monkeypatch.setattr(logs, "render", fake_render)
    monkeypatch.setenv("APIXAGON_DATA", str(tmp_path / "data"))
    import apixagon_host

    monkeypatch.setitem(sys.modules, "apixagon_host.render", type(sys)("render"))
    monkeypatch.setattr(apixagon_host, "render", sys.modules["apixagon_host.render"], raising=False)
    Companion(FakeSession()).command("render 4")
    assert seen == [str(tmp_path / "data" / "match-4.svg")]


# ---- declarations by name: DECLARE (RULES §4 D-9, D-14, §6 D-13)


@pytest.mark.parametrize(
    "line,sides,sent",
    [
        ("pass", "AB", ("DECLARE", "pass")),
        ("declare pass", "AB", ("DECLARE", "pass")),
        ("out 3", "JJ", ("DECLARE", "out", 3)),
        ("declare out 6", "JJ", ("DECLARE", "out", 6)),
        ("declare deck-empty A", "AB", ("DECLARE", "deck-empty", "A")),
        ("declare deck-empty gold", "AB", ("DECLARE", "deck-empty", "gold")),
        ("declare forced-removal b", "AB", ("DECLARE", "forced-removal", "B")),
        ("declare deck-empty g", "BG", ("DECLARE", "deck-empty", "G")),
        ("declare Deck-Empty Black", "BG", ("DECLARE", "deck-empty", "black")),
        ("declare reserve", "AB", ("DECLARE", "reserve")),
    ],
)
def test_declarations_by_name_are_declare_requests(line, sides, sent):
    s, go_on, out = run(line, sides=sides)
    # what became of it the board says in its own events (a move, a refusal)
    assert go_on and out == [] and s.sent == [sent]


@pytest.mark.parametrize(
    "line,sides,message",
    [
        ("declare dance", "AB", "usage: declare deck-empty|forced-removal SIDE"),
        ("declare deck-empty", "AB", "usage: declare"),
        ("declare reserve C3", "AB", "usage: declare"),
        ("pass now", "AB", "usage: declare"),
        ("out", "JJ", "usage: declare"),
        ("out 9", "JJ", "out takes a player's number, 1 to 6 (junior), not '9'"),
        ("out x", "JJ", "not 'x'"),
        (
            "declare deck-empty G",
            "AB",
            "no side 'G' in this match: choose one of: A, B, black, gold",
        ),
        ("declare deck-empty A", "BG", "no side 'A' in this match: choose one of: black, gold"),
        ("declare deck-empty J", "JJ", "no side 'J' in this match"),
    ],
)
def test_bad_declarations_say_why_and_send_nothing(line, sides, message):
    s, go_on, out = run(line, sides=sides)
    assert go_on and s.sent == [] and len(out) == 1 and message in out[0], out


def test_declarations_go_to_real_boards_and_older_firmware_is_told():
    s, _, out = run("pass", board="APIXAGON_rev_A", sides="AB")
    assert out == [] and s.sent == [("DECLARE", "pass")]
    old = BoardError("board: ERR 5 unknown command", board_code=proto.E_VERB)
    _, _, out = run("pass", sides="AB", replies={"DECLARE": old})
    assert out == [
        "error: this board's firmware takes no declarations from here (update it):"
        " use its DECLARE and CONFIRM buttons"
    ]
    setup = BoardError("board: ERR 8 not allowed now", board_code=proto.E_STATE)
    _, _, out = run("out 2", sides="JJ", replies={"DECLARE": setup})
    assert out == ["error: no match in play: nothing declared"]
    s, _, out = run("declare reserve", connected=False)
    assert s.sent == [] and "not connected" in out[0]


def test_put_of_a_card_that_lies_on_another_cell_says_so_and_changes_nothing():
    # the simulated board refuses one card on two cells (`card on E4`): a
    # physical card is in one place
    there = BoardError("board error: bad arguments: card on E4", board_code=proto.E_ARGS)
    s, go_on, out = run("put E5 J5", sides="JJ", replies={"HAND": there})
    assert go_on and out == [
        "error: J5 is on E4 already: one card cannot lie on two cells; lift it from E4"
        " first (nothing changed)"
    ]


def test_clear_lifts_every_card_of_the_simulated_board_in_set_up():
    s, go_on, out = run("clear", replies={"HAND": "lifted 17"})
    assert s.sent == [("HAND", "clear")]
    assert out == ["lifted 17 cards: the board is clear; confirm starts the match"]
    s, _, out = run("clear all")
    assert s.sent == [] and out == ["error: usage: clear"]
    s, _, out = run("clear", board="APIXAGON_rev_A")
    assert s.sent == [] and "hands are for the simulated board" in out[0]
    # in a match the simulator lifts nothing (a lift there is a take-back)
    refused = BoardError("board error: not now: clear in set-up only", board_code=proto.E_STATE)
    s = FakeSession(replies={"HAND": refused})
    s.status["phase"] = "over"
    _, out = Companion(s).command("clear")
    assert out == [
        "error: clear is for set-up: the match is over, press confirm first (the board keeps"
        " the final position until then), then clear; nothing lifted"
    ]
    s.status["phase"] = "play"
    _, out = Companion(s).command("clear")
    assert out[0].startswith("error: clear is for set-up: in a match a lift takes a move back")

"""Declarations typed in the companion, end to end: `apixagon monitor` on
a real pseudo-terminal, the firmware (.mpy) in the MicroPython unix port
on another, a real SQLite file. A six-player match with a tactical void's
pass (RULES §4 D-9) and the keeper's empty reserve (D-14), and a Junior
match of six players ended by `out 3` (§6 D-13), each played from the
companion's commands, previewed in words, logged by the board (dated by
the clock the companion set), pulled, exported, checked and replayed by
the CLI."""

import os
import subprocess
import sys
import time

import pytest
from ptykit import Terminal

APIXAGON = os.path.join(os.path.dirname(sys.executable), "apixagon")

# A beehive match (start A; keepers A3, B3): A lays a run of four on row C
# (cards 0-3 share symbol 25: sealed, §2), B lone cards; A declares its
# deck empty, A2 passes (6 players: at will), the keeper A3 builds the empty
# reserve (nothing of A's may come back), and A's second deck-empty ends
# the match by the count (§3.3, D-6): one sequence of 3 to none.
BEEHIVE = [
    ("put C1 A0", "1 A1 0 C1"),
    ("put I9 B0", "2 B1 0 I9"),
    ("put C2 A1", "3 A2 1 C2"),
    ("put I5 B1", "4 B2 1 I5"),
    ("put C3 A2", "5 A3 2 C3"),
    ("put G9 B2", "6 B3 2 G9"),
    ("put C4 A3", "7 A1 3 C4"),
    ("put G5 B3", "8 B1 3 G5"),
    ("declare deck-empty A", "9 A deck-empty"),
    ("pass", "10 A2 pass"),
    ("put E9 B4", "11 B2 4 E9"),
    ("declare reserve", "12 A3 reserve"),
    ("put A5 B5", "13 B3 5 A5"),
    ("declare deck-empty A", "14 A deck-empty"),
]
JUNIOR = [
    ("put E5 J0", "1 J 0 E5"),
    ("put E6 J1", "2 J 1 E6"),
    ("put E7 J2", "3 J 2 E7"),
    ("put E8 J3", "4 J 3 E8"),
    ("put E9 J4", "5 J 4 E9"),
    ("put F9 J5", "6 J 5 F9"),
    ("out 3", "7 J3 out"),
]


@pytest.fixture
def term():
    opened = []

    def start(argv, **kw):
        t = Terminal(argv, **kw)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def _cli(*argv):
    r = subprocess.run([APIXAGON] + list(argv), capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def _pulled_and_checked(t, board, db, tmp_path, result):
    """pull from inside the companion, then the CLI: the stored match
    exported as .apx, checked line by line, replayed to its end."""
    t.type("pull\r")
    t.wait_for(r"1 log pulled from sim-A")
    t.type("quit\r")
    assert t.wait_exit() == 0
    # the board dated the match itself: the companion had set its clock
    with open(os.path.join(board.flash, "logs", "0001.alog"), "rb") as f:
        assert b'[Date "%s"]' % time.strftime("%Y.%m.%d").encode() in f.read()
    out = str(tmp_path / "match.apx")
    assert _cli("logs", "export", "1", "--db", db, "-o", out)[0] == 0
    with open(out) as f:
        apx = f.read()
    rc, text = _cli("check", out)
    verdicts = [x for x in text.splitlines() if x.startswith("line ")]
    assert rc == 0 and verdicts and all(x.endswith(": ok") for x in verdicts), text
    assert text.rstrip().endswith("result: " + result), text
    rc, text = _cli("replay", "1", "--db", db)
    assert rc == 0 and text.rstrip().endswith("result: " + result), text[-500:]
    return apx


def test_a_six_player_match_with_a_pass_and_an_empty_reserve(board, term, tmp_path):
    db = str(tmp_path / "m.sqlite")
    t = term([APIXAGON, "monitor", "--port", board.port, "--db", db])
    t.wait_for(r"\[setup\]")
    t.type("mode beehive\r")
    t.wait_for(r"\[setup\]  mode beehive  team A starts", anywhere=True)
    t.type("confirm\r")
    t.wait_for(r"phase start")
    for i, (command, move) in enumerate(BEEHIVE):
        if command == "pass":
            # the DECLARE button first: its preview said in words (STATUS
            # declare=), then the typed pass commits it
            t.type("declare\r")
            t.wait_for(r"DECLARE: pass of A2 — press CONFIRM", anywhere=True)
        t.type(command + "\r")
        t.wait_for(r"move  %s" % move)
    # the end in words: who won and the rule that ended it (RULES §3.3, D-6)
    t.wait_for(
        r"the match is over: team A wins — team A ran out of cards, so the count", anywhere=True
    )
    t.wait_for(r"\[over\]  mode beehive  team A starts  team A wins", anywhere=True)
    apx = _pulled_and_checked(
        t, board, db, tmp_path, "team A wins (cards run out; more sequences of 3: 1 to 0)"
    )
    assert "\nA2 pass\n" in apx and "\nA3 reserve\n" in apx, apx
    assert apx.count("A deck-empty") == 2 and apx.rstrip().endswith("\nA deck-empty")


def test_a_junior_match_of_six_ended_by_player_3_out(board, term, tmp_path):
    db = str(tmp_path / "m.sqlite")
    t = term([APIXAGON, "monitor", "--port", board.port, "--db", db])
    t.wait_for(r"\[setup\]")
    t.type("mode junior\r")
    t.wait_for(r"\[setup\]  mode junior  2 players", anywhere=True)
    t.type("players 6\r")
    t.wait_for(r"\[setup\]  mode junior  6 players", anywhere=True)
    t.type("confirm\r")
    t.wait_for(r"phase start")
    for command, move in JUNIOR:
        if command.startswith("out"):
            t.type("declare\r")  # the button's first choice: player 1
            t.wait_for(r"DECLARE: player 1 is out of cards and wins — press CONFIRM", anywhere=True)
        t.type(command + "\r")
        t.wait_for(r"move  %s" % move)
    t.wait_for(r"the match is over: player 3 wins — player 3 was declared out", anywhere=True)
    t.wait_for(r"\[over\]  mode junior  6 players  player 3 wins", anywhere=True)
    apx = _pulled_and_checked(t, board, db, tmp_path, "player 3 wins (out of cards, declared)")
    assert "\nplayers 6\n" in apx and apx.rstrip().endswith("\nJ3 out"), apx
    assert "\nJ 0 E5\n" in apx  # the board names nobody: it cannot see whose hand (D-13)

"""`apixagon check` through the installed console script, as a user runs it."""

import io
import json
import os
import subprocess
import sys

from apixagon_host import cli

BIN = os.path.join(os.path.dirname(sys.executable), "apixagon")

RECORD = """\
[Event "Club night"]
mode queens-gambit
start black
B 0 A1      # line 4
G 1 I9
B 1 A2
G 12 A3     # beside black, and not a block with card 12: illegal
G 2 A3
B 31 E4     # no such card
"""


def run(args, stdin=None):
    return subprocess.run([BIN] + args, capture_output=True, text=True, input=stdin)


def test_check_prints_verdicts_and_result(tmp_path):
    f = tmp_path / "m.apx"
    f.write_text(RECORD)
    p = run(["check", str(f)])
    assert p.stdout.splitlines() == [
        "line 4: ok",
        "line 5: ok",
        "line 6: ok",
        "line 7: illegal adjacent-opponent",
        "line 8: ok",
        "line 9: illegal unknown-card",
        "result: in progress (black to play)",
    ]
    assert p.returncode == 1  # the record has illegal lines
    assert p.stderr == ""


def test_check_json(tmp_path):
    f = tmp_path / "m.apx"
    f.write_text(RECORD)
    p = run(["check", "--json", str(f)])
    data = json.loads(p.stdout)
    assert data["moves"][0] == {"line": 4, "ok": True}
    assert data["moves"][3] == {"line": 7, "ok": False, "reason": "adjacent-opponent"}
    assert data["result"]["status"] == "in-progress"
    assert data["result"]["text"] == "in progress (black to play)"
    assert p.returncode == 1


def test_check_clean_record_exits_zero_and_reads_stdin():
    p = run(["check", "-"], stdin="mode queens-gambit\nB 0 A1\nG 1 I9\nB deck-empty\n")
    assert p.returncode == 0
    assert p.stdout.splitlines()[-1].startswith("result: draw (cards run out")


def test_check_win_result_line(tmp_path):
    # Two sequences of 4 for black on rows A and I, gold playing far away.
    from apixagon import record
    from apixagon.deck import COMMON, HAS
    from apixagon.game import Game

    def cards_with(symbol, n, skip=()):
        return [c for c in range(31) if HAS[c * 31 + symbol] and c not in skip][:n]

    row_a = cards_with(0, 4)
    sym2 = COMMON[row_a[0] * 31 + 30] if row_a[0] != 30 else 1
    row_i = cards_with(sym2, 4, skip=row_a)
    if len(row_i) < 4:  # pick any symbol with four unused cards
        for s in range(31):
            row_i = cards_with(s, 4, skip=row_a)
            if len(row_i) == 4:
                break
    lines = ["mode queens-gambit", "start black"]
    gold = iter(range(31))
    gold_cells = iter(["C2", "C4", "C6", "D8", "F2", "F9", "G4", "G6"])
    for i, (c, cell) in enumerate(
        zip(row_a + row_i, ["A1", "A2", "A3", "A4", "I5", "I6", "I7", "I8"])
    ):
        lines.append("B %d %s" % (c, cell))
        if i < 7:
            lines.append("G %d %s" % (next(gold), next(gold_cells)))
    g, verdicts = record.check(lines, Game)
    assert all(r == 0 for _, r in verdicts), verdicts
    f = tmp_path / "win.apx"
    f.write_text("\n".join(lines) + "\n")
    p = run(["check", str(f)])
    assert p.stdout.splitlines()[-1] == "result: black wins (two sequences of 4)"
    assert p.returncode == 0


def test_missing_file_is_a_clear_error():
    p = run(["check", "/nonexistent/match.apx"])
    assert p.returncode == 2
    assert p.stdout == ""
    assert "cannot read /nonexistent/match.apx" in p.stderr


def test_binary_file_is_a_clear_error(tmp_path):
    f = tmp_path / "bin.apx"
    f.write_bytes(b"mode queens-gambit\n\xff\xfe\x00junk")
    p = run(["check", str(f)])
    assert p.returncode == 2
    assert "not a text record" in p.stderr
    assert "Traceback" not in p.stderr


def test_bad_arguments_exit_2_without_traceback():
    for args in ([], ["check"], ["frobnicate"], ["check", "--yaml", "x"]):
        p = run(args)
        assert p.returncode == 2, args
        assert "Traceback" not in p.stderr
        assert p.stderr.startswith("apixagon:") or "usage" in p.stderr


def test_help_lists_commands():
    p = run(["--help"])
    assert p.returncode == 0
    assert "check" in p.stdout and "play" in p.stdout


def test_play_session_in_process():
    # Gold's 12 on A2 touches black's A1 without blocking a run: refused.
    inp = io.StringIO("0 A1\n12 A2\n1 I9\nhint 2\nfoo\nundo\nhints\nsave /nonexistent/x\nquit\n")
    out = io.StringIO()
    code = cli.main(["play"], cli.State(out=out, inp=inp))
    text = out.getvalue()
    assert code == 0
    # in the companion's words, with the code for a bug report
    assert (
        "illegal: beside an opponent card without blocking or extending a run "
        "(adjacent-opponent) — nothing changed" in text
    )
    assert "G01*" in text  # gold's card on I9, marked as the last move
    assert "not a move" in text
    assert "took back the last move" in text
    assert "hint view on" in text
    assert "cannot save" in text


def test_play_rejects_unknown_mode():
    p = run(["play", "--mode", "chess"])
    assert p.returncode == 2
    assert "unknown mode 'chess'" in p.stderr


def test_a_byte_order_mark_keeps_the_mode_line(tmp_path):
    f = tmp_path / "m.apx"
    f.write_bytes(b"\xef\xbb\xbfmode junior\nJ 0 E5\n")
    p = run(["check", str(f)])
    assert p.stdout.splitlines() == ["line 2: ok", "result: in progress (1 card placed)"]
    assert p.returncode == 0


def test_an_extra_field_is_bad_syntax_before_bad_cell():
    p = run(["check", "-"], stdin="mode queens-gambit\nB 12 E4 extra\n")
    assert p.stdout.splitlines()[0] == "line 2: illegal bad-syntax"
    assert p.returncode == 1


def test_a_record_without_moves_is_an_error(tmp_path):
    for text in ("", '[Event "Club night"]\nmode beehive\n# nothing played\n'):
        f = tmp_path / "m.apx"
        f.write_text(text)
        for argv in (["check", str(f)], ["check", "--json", str(f)]):
            p = run(argv)
            assert p.returncode == 1 and p.stdout == ""
            assert p.stderr == "apixagon: %s: no moves: not a match record\n" % f


def test_play_takes_the_companions_put_cell_card():
    inp = io.StringIO("put A1 B0\nput I9 1\nput E5\nquit\n")
    out = io.StringIO()
    assert cli.main(["play"], cli.State(out=out, inp=inp)) == 0
    text = out.getvalue()
    assert "B00 " in text and "G01*" in text  # black's 0 on A1, gold's 1 on I9
    assert "not a move: bad-syntax (type moves in record notation, 12 E4, or put E4 12" in text


def test_a_byte_order_mark_is_skipped_in_a_file_and_on_stdin(tmp_path):
    # Some editors start a UTF-8 file with U+FEFF: line 1 is still the mode
    # line (junior here: a queens-gambit reading would refuse the J line).
    f = tmp_path / "bom.apx"
    f.write_bytes(b"\xef\xbb\xbfmode junior\nJ 0 E5\n")
    for args, stdin in ((["check", str(f)], None), (["check", "-"], "\ufeffmode junior\nJ 0 E5\n")):
        p = run(args, stdin)
        assert p.returncode == 0 and p.stdout.splitlines()[0] == "line 2: ok", p.stdout + p.stderr


def test_play_against_the_computer_on_the_terminal():
    # `apixagon play --computer gold --level 1`: Black's hand is dealt and
    # shown, a card not in it is refused, the computer answers each move
    # with a move of its own (its words), hint N grades cells (--assist 2).
    import re

    out = io.StringIO()
    # the first hand of Black for seed 1 (apixagon.dealer): read it back
    code = cli.main(
        ["play", "--computer", "gold", "--level", "1", "--assist", "2"],
        cli.State(out=out, inp=io.StringIO("hint 3\nquit\n")),
    )
    assert code == 0
    hand = re.search(r"your hand: ((?:B\d+ ?)+)", out.getvalue()).group(1).split()
    assert len(hand) == 4
    first, second = int(hand[0][1:]), [c for c in range(31) if "B%d" % c not in hand][0]
    assert re.search(r"G[a-i]\d", out.getvalue())  # hint 3: the good cells marked G
    out = io.StringIO()
    inp = io.StringIO("put A1 B%d\n%d I9\nquit\n" % (first, second))
    code = cli.main(["play", "--computer", "gold", "--level", "1"], cli.State(out=out, inp=inp))
    text = out.getvalue()
    assert code == 0
    assert "the computer: G " in text, text
    assert "card %d is not in your hand" % second in text
    out = io.StringIO()
    code = cli.main(
        ["play", "--hint-limit", "1"], cli.State(out=out, inp=io.StringIO("hint 3\nhint 4\nquit\n"))
    )
    assert "no more hints this turn (1 a turn)" in out.getvalue()
    p = run(["play", "--computer", "purple"])
    assert p.returncode == 2 and "--computer" in p.stderr

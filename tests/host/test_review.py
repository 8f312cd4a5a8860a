"""The match review (host/apixagon_host/review.py, `apixagon logs review`):
the grades of a position whose best move is known (a sequence of 4 to
complete, RULES §2), the hidden-information rule (a seat's move is judged
on its own hand and the public record only, RULES §8), the JSON schema,
Junior's timing (§6), the terminal's table and its refusals."""

import io
import json

from apixagon import record
from apixagon.game import Game
from apixagon_host import cli, review
from apixagon_host.store import Store
from smartboard.logstore import records

HEAD = ["mode queens-gambit", "start black"]
# Black builds cards 0, 5, 10 (all carry symbol 0, RULES §1) on A1-A3; Gold
# plays far away. Cards 15 and 20 carry symbol 0 too: on A4 they complete a
# sequence of 4 (§2).
OPENING = ["B 0 A1", "G 1 I9", "B 5 A2", "G 2 I8", "B 10 A3", "G 3 H9"]
MISSED = HEAD + OPENING + ["B 20 E8", "G 4 H8", "B 15 A4"]
TAKEN = HEAD + OPENING + ["B 15 A4", "G 4 H8", "B 20 E8"]


def row(got, ply):
    return next(m for m in got["moves"] if m["ply"] == ply)


def test_completing_a_sequence_of_4_is_best_and_missing_it_is_a_mistake_with_the_cell():
    missed = row(review.review(MISSED), 7)
    assert missed["grade"] in ("mistake", "blunder"), missed
    assert missed["better_cells"] == ["A4"], missed
    assert missed["better"] in ("B 15 A4", "B 20 A4"), missed
    taken = row(review.review(TAKEN), 7)
    assert taken["grade"] == "best" and taken["better"] is None, taken


def test_the_opponents_hidden_cards_never_change_a_moves_grade():
    # Gold's next card is its hidden hand when Black plays move 7: card 4
    # in one record (symbol 25, as Gold's run I9-I8: it extends it to 3 on
    # I7), card 7 in the other (no symbol 25). Black's move 7 and every
    # move of Black's before it are judged the same.
    a = HEAD + OPENING + ["B 20 E8", "G 4 H8"]
    b = HEAD + OPENING + ["B 20 E8", "G 7 C5"]
    ra, rb = review.review(a), review.review(b)
    for ply in range(1, 8):
        if row(ra, ply)["seat"] == "B":
            assert row(ra, ply) == row(rb, ply), ply
    # ... and the test can tell: with Gold's real hand the evaluator sees a
    # different position (a run of 3 for Gold or not), so a review that
    # read it would judge the answers to move 7 differently.
    g, _v = record.check(HEAD + OPENING + ["B 20 E8"], Game)
    worth = {}
    for card in (4, 7):
        view = review.SeatView(1, 1, bytes([card]), 4, 1)
        base, scores = review.evaluate(g, view, 0)
        worth[card] = max(scores.values())
    assert worth[4] != worth[7], worth


def test_the_evaluator_is_given_the_movers_own_cards_only():
    seen = []

    def spy(game, view, must):
        seen.append((view.side, bytes(view.hand)))
        return review.evaluate(game, view, must)

    review.review(MISSED, evaluator=spy)
    placed = {0: {0, 5, 10, 20, 15}, 1: {1, 2, 3, 4}}
    assert seen and all(set(hand) <= placed[side] for side, hand in seen), seen


def test_the_review_is_deterministic_and_keeps_its_schema():
    got = review.review(MISSED)
    assert got == review.review(MISSED)
    assert got == review.review(MISSED, jobs=2)  # a pool of 2 processes: the same review
    assert json.loads(json.dumps(got)) == got
    assert review.check_schema(got) == []
    assert got["schema"] == review.SCHEMA and got["mode"] == "queens-gambit"
    assert len(got["advantage"]) == len(got["moves"]) + 1
    assert set(got["accuracy"]) == {"B", "G"}
    assert all(0 <= a <= 100 for a in got["accuracy"].values())
    assert got["turning_points"][0]["ply"] == 9  # the sequence of 4 at last
    bad = dict(got, moves=[{"ply": "one"}])
    assert review.check_schema(bad)


def test_junior_says_only_whether_the_card_could_have_gone_earlier():
    # §6: a player's card is face up from their previous placement on; a
    # ply another player took while it had a legal cell is one it missed.
    lines = ["mode junior", "players 2", "J 0 E5", "J1 5 D4", "J2 6 E4", "J1 10 D3", "J2 3 C2"]
    got = review.review(lines)
    assert row(got, 2)["grade"] == "in-time" and row(got, 2)["earlier"] is None
    assert row(got, 3)["grade"] == "missed" and row(got, 3)["earlier"]["ply"] == 2
    assert row(got, 5)["grade"] == "missed" and row(got, 5)["earlier"]["ply"] == 4
    assert got["accuracy"] == {"J1": 50.0, "J2": 0.0}
    assert review.check_schema(got) == []


def log_bytes(lines):
    out = bytearray()
    prev = records.SEED
    for text in lines:
        kind = records.HEADER if text[0] in "ms[" else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    return bytes(out)


def run(argv):
    out = io.StringIO()
    code = cli.main(argv, cli.State(out=out))
    return code, out.getvalue()


def test_logs_review_prints_the_moves_turning_points_and_accuracy(tmp_path):
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(MISSED))
    code, text = run(["logs", "review", "1", "--db", db])
    assert code == 0, text
    lines = text.splitlines()
    seven = next(x for x in lines if x.split()[:2] == ["7", "B"])
    assert ("mistake" in seven or "blunder" in seven) and "A4" in seven, seven
    assert "turning points:" in lines and "accuracy:" in lines
    assert any(x.split()[:1] == ["B"] and x.endswith("%") for x in lines), text
    code, text = run(["logs", "review", "1", "--db", db, "--json"])
    got = json.loads(text)
    assert code == 0 and review.check_schema(got) == []
    assert row(got, 7)["better_cells"] == ["A4"]


def test_logs_review_draws_its_progress_on_stderr_only(tmp_path, capsys):
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(MISSED))
    code, text = run(["logs", "review", "1", "--db", db, "--json", "--progress"])
    assert code == 0 and json.loads(text)["schema"] == review.SCHEMA  # stdout: the JSON alone
    err = capsys.readouterr().err
    assert "reviewing [" in err and "9/9" in err, err


def test_logs_review_of_no_such_match_says_so(tmp_path):
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(MISSED))
    out = io.StringIO()
    code = cli.main(["logs", "review", "9", "--db", db], cli.State(out=out))
    assert code != 0
    code = cli.main(["logs", "review", "1", "--db", db, "--jobs", "0"], cli.State(out=out))
    assert code != 0


def test_an_illegal_record_is_refused_with_its_line_and_reason():
    # the Royal Cell is locked at the start (RULES §3.1)
    try:
        review.review(HEAD + ["B 0 E5"])
    except review.ReviewError as e:
        assert str(e) == "line 3: illegal royal-locked"
    else:
        raise AssertionError("an illegal record was reviewed")


def test_the_computers_seat_is_judged_with_the_hand_the_board_dealt_it():
    # A board's match against the computer (smartboard.computer, level 2,
    # [Seed] 1234 in its log): the review deals the computer's hand again
    # from the seed and judges each of its moves with exactly the cards
    # it held then; Black, whose hand the board never saw (§8), is judged
    # with an estimate from its own cards.
    from apixagon import dealer
    from apixagon import engine as E
    from apixagon.codes import DECK_EMPTY, OK
    from smartboard.computer import Computer, tags

    g = Game(0, 0, 0, False)
    comp = Computer(g, [(1, 1)], 2, 1234)
    table = dealer.Table(g, [(0, 1)], 99)
    black = E.Engine(2, 5)
    held = {}
    while not g.over() and g.nmoves() < 24:
        if g.side_to_play() == 1:
            m = comp.move(g)
            if not m or E.kind_of(m) == DECK_EMPTY:
                break
            held[g.nmoves() + 1] = sorted(comp.table.hand(1, 1))
            assert E.play(g, m, 1, 1) == OK
            comp.done(m, 1, 1, g)
        else:
            m = dealer.choose(g, table, black, 0, 1)
            if not m:
                break
            assert dealer.carry_out(g, table, black, m, 0, 1) == OK
    lines = ['[%s "%s"]' % kv for kv in tags(g, [(1, 1)], 2, 1234)] + record.write(g)
    got = review.review(lines)
    gold = [m for m in got["moves"] if m["seat"] == "G" and m["grade"]]
    assert gold and {m["ply"]: m["cards"] for m in gold} == {p: held[p] for p in held}
    assert all(m["hand"] == "dealt" for m in gold)
    assert all(m["hand"] == "inferred" for m in got["moves"] if m["seat"] == "B" and m["grade"])


def test_the_review_benchmark_runs_small(capsys, monkeypatch):
    # tools/bench_review.py's figures, on 6 moves (its time is a figure it
    # prints, never checked here)
    import os
    import sys

    tools = os.path.join(os.path.dirname(__file__), "..", "..", "tools")
    monkeypatch.syspath_prepend(tools)
    import bench_review

    monkeypatch.setattr(sys, "argv", ["bench_review.py", "--moves", "6", "--jobs", "1", "--json"])
    assert bench_review.main() == 0
    got = json.loads(capsys.readouterr().out)
    assert got["moves"] == 6 and got["mode"] == "queens-gambit"
    assert got["runs"][0]["jobs"] == 1 and got["runs"][0]["graded"] == 6

# .apx records (NOTATION.md): parsing, verdicts, writing. Runs under CPython
# and MicroPython.
import gc

import randplay
from apixagon import record
from apixagon.codes import (
    BAD_CELL,
    BAD_SYNTAX,
    BAD_TARGET,
    CANNOT_PASS,
    CARD_ALREADY_PLAYED,
    GAME_OVER,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    UNKNOWN_CARD,
)
from apixagon.game import Game


def verdicts_of(text):
    game, verdicts = record.check(text.split("\n"), Game)
    return game, dict(verdicts)


def test_notation_example_header_and_comments():
    text = """# a comment
[Event "Club night"]        # tag pairs before the first move
[Date "2026.11.22"]
[Board "serial 0042, firmware 1.0.0"]
mode queens-gambit          # a comment after a header
start black

B 12 E4
G 3 D5
"""
    game, v = verdicts_of(text)
    assert v == {8: OK, 9: OK}
    c = record.Checker(Game)
    record.read(text.split("\n"), c)
    assert c.tags == [
        ("Event", "Club night"),
        ("Date", "2026.11.22"),
        ("Board", "serial 0042, firmware 1.0.0"),
    ]


def test_tag_value_may_hold_a_hash():
    c = record.Checker(Game)
    record.read(['[Event "Club #1"]  # comment', "B 0 A1"], c)
    assert c.tags == [("Event", "Club #1")]
    assert c.verdicts == [(2, OK)]


def test_bad_lines_get_codes_and_change_nothing():
    text = "\n".join(
        [
            "mode queens-gambit",
            "B 0 A1",  # 2 ok
            "G 1 Z9",  # 3 bad cell
            "G 31 I9",  # 4 unknown card
            "G x I9",  # 5 unknown card
            "G 1",  # 6 bad syntax
            "X 1 I9",  # 7 bad syntax (no such side)
            "[Broken",  # 8 bad syntax
            "G 1 A1 A2",  # 9 bad syntax (one cell for a placement)
            "B 1 A2",  # 10 not your turn
            "A 1 I9",  # 11 not in a 2-player mode
            "G 1 I9",  # 12 ok
            "B 0 B1",  # 13 card already played
            "mode beehive",  # 14 headers come before the moves
            "G smoker",  # 15 bad syntax
            "B beekeeper A1",  # 16 bad syntax
        ]
    )
    game, v = verdicts_of(text)
    assert v[2] == OK and v[12] == OK
    assert v[3] == BAD_CELL
    assert v[4] == UNKNOWN_CARD and v[5] == BAD_SYNTAX
    assert v[6] == BAD_SYNTAX and v[7] == BAD_SYNTAX and v[8] == BAD_SYNTAX
    assert v[9] == BAD_SYNTAX
    assert v[10] == NOT_YOUR_TURN
    assert v[11] == NOT_ALLOWED_IN_MODE
    assert v[13] == CARD_ALREADY_PLAYED
    assert v[14] == BAD_SYNTAX
    assert v[15] == BAD_SYNTAX and v[16] == BAD_SYNTAX
    # Only the two legal placements reached the board.
    assert sum(1 for x in range(61) if game.board[x]) == 2


def test_bad_headers():
    game, v = verdicts_of("mode chess\noption fast\nstart purple\nB 0 A1")
    assert v == {1: BAD_SYNTAX, 2: BAD_SYNTAX, 3: BAD_SYNTAX, 4: OK}
    game, v = verdicts_of("mode queens-gambit\nplayers 4\nB 0 A1")
    assert v[2] == BAD_SYNTAX
    game, v = verdicts_of("mode junior\nstart black\nJ 0 E5")
    assert v == {2: BAD_SYNTAX, 3: OK}


def test_start_gold_and_team_seats():
    game, v = verdicts_of("mode queens-gambit\nstart gold\nB 0 A1\nG 0 A1")
    assert v == {3: NOT_YOUR_TURN, 4: OK}
    game, v = verdicts_of("mode silent-swarm\nstart B\nA 0 A1\nB2 0 A1\nB1 0 A1\nA1 0 I9\nB 1 E1")
    assert v == {3: NOT_YOUR_TURN, 4: NOT_YOUR_TURN, 5: OK, 6: OK, 7: OK}
    game, v = verdicts_of("mode silent-swarm\nA3 0 A1")
    assert v == {2: BAD_SYNTAX}  # no seat 3 in a team of two


def test_teen_players_and_letters():
    game, v = verdicts_of("mode teen\nplayers 2\nstart gold\nG 0 A1\nB 0 I9")
    assert v == {4: OK, 5: OK} and not game.teams
    game, v = verdicts_of("mode teen\nplayers 6\nA3 0 A1")
    assert v == {3: NOT_YOUR_TURN} and game.seats == (3, 3)


def test_junior_lines():
    # D-13: a line may name its player, one of the match's
    game, v = verdicts_of("mode junior\nJ 0 E5\nB 1 E6\nJ 1 E6\nJ1 2 E7\nJ3 3 E8")
    assert v == {2: OK, 3: NOT_ALLOWED_IN_MODE, 4: OK, 5: OK, 6: BAD_SYNTAX}


def test_game_over_lines():
    game, v = verdicts_of("mode queens-gambit\nB 0 A1\nB deck-empty\nG 1 I9")
    assert v == {2: OK, 3: OK, 4: GAME_OVER}
    assert record.result(game)[0] == "draw"


def test_result_texts():
    game, v = verdicts_of("mode queens-gambit\nstart black")
    assert record.result(game)[3] == "in progress (black to play)"
    game, v = verdicts_of("mode beehive\nstart B\nB 0 A1")
    assert record.result(game)[3] == "in progress (team A, seat A1 to play)"
    game, v = verdicts_of("mode junior\nJ 0 E5")
    assert record.result(game)[3] == "in progress (1 card placed)"


def roundtrip(mode, seed):
    # Streams the record (as the board would), one line at a time.
    g = randplay.play_game(mode, seed)
    tags = [("Event", "test")]
    c = record.Checker(Game)
    n = 0
    for line in record.lines(g, tags):
        n += 1
        record.parse_line(line, n, c)
    g2 = c.end()
    for lineno, reason in c.verdicts:
        assert reason == OK, record.verdict_text(lineno, reason)
    assert bytes(g2.board) == bytes(g.board)
    assert bytes(g2.s) == bytes(g.s)
    for a, b in zip(record.lines(g, tags), record.lines(g2, tags)):
        assert a == b
    gc.collect()


def test_write_then_read_queens_gambit():
    roundtrip(0, 7)


def test_write_then_read_beehive():
    roundtrip(2, 9)


def test_write_then_read_two_vs_one():
    roundtrip(3, 10)


def test_write_then_read_three_vs_two():
    roundtrip(4, 11)


def test_write_then_read_junior():
    roundtrip(5, 12)


def test_verdict_text():
    assert record.verdict_text(7, OK) == "line 7: ok"
    assert record.verdict_text(8, 7) == "line 8: illegal adjacent-opponent"


def test_api_rejects_out_of_range_input_without_exceptions():
    # The sensor layer and tools call the core directly: an index off the
    # board or a card out of range is a reason code, never an IndexError.
    from apixagon.codes import BAD_CELL, UNKNOWN_CARD
    from apixagon.geometry import NONE

    g = Game()
    assert g.place(0, 0, 0) == OK
    before = randplay.snapshot(g)
    for x in (NONE, 61, -1, 1000):
        assert g.check_place(1, 1, x) == BAD_CELL
        assert g.place(1, 1, x) == BAD_CELL
        assert g.rain(1, x) == BAD_CELL
        assert g.beekeeper(1, 0, x) == BAD_CELL
        assert g.beekeeper(1, x, 5) == BAD_CELL
        assert g.smoker(1, x) == BAD_CELL
        assert g.reserve(1, [x]) == BAD_CELL
    for card in (31, 99, -1):
        assert g.place(1, card, 40) == UNKNOWN_CARD
    assert g.place(7, 1, 40) == 4  # no such side: not-your-turn
    assert g.place(1, 1, 40, 9) == 4  # no such seat
    for side in (2, 7, 255, -1):  # declarations index the scalars by side
        assert g.deck_empty(side) == 16  # not-allowed-in-mode
        assert g.forced_removal(side) == 16
    assert randplay.snapshot(g) == before
    t = Game(1)  # silent-swarm: forced_removal(2) once wrote into the result
    assert t.forced_removal(2) == 16 and not t.over() and not t.reserve_used(0)


def put(g, side, card, name):
    from apixagon.geometry import parse_cell

    x = parse_cell(name)
    g.board[x] = 1 + side * 32 + card
    g.loc[side * 31 + card] = x + 1


def test_result_d6_tie_broken_by_sequences_of_4():
    from apixagon.deck import HAS

    def carrying(symbol):
        return [c for c in range(31) if HAS[c * 31 + symbol]]

    g = Game()
    for card, cell in zip(carrying(0), ("A1", "A2", "A3", "A4")):
        put(g, 0, card, cell)  # black: a sequence of 4 (also one of 3)
    for card, cell in zip(carrying(1), ("I5", "I6", "I7")):
        put(g, 1, card, cell)  # gold: a sequence of 3
    assert g.count_runs(0) == (1, 1) and g.count_runs(1) == (1, 0)
    assert g.deck_empty(0) == OK
    assert record.result(g) == (
        "win",
        "black",
        "more-sequences-of-4",
        "black wins (cards run out; more sequences of 4: 1 to 0)",
    )


def test_result_d6_gold_by_sequences_of_3_and_draw():
    from apixagon.deck import HAS

    def carrying(symbol):
        return [c for c in range(31) if HAS[c * 31 + symbol]]

    g = Game()
    for card, cell in zip(carrying(1), ("I5", "I6", "I7")):
        put(g, 1, card, cell)
    assert g.deck_empty(1) == OK
    assert record.result(g)[3] == "gold wins (cards run out; more sequences of 3: 1 to 0)"
    g = Game()
    assert g.deck_empty(0) == OK
    assert record.result(g)[3] == (
        "draw (cards run out; sequences of 3: 0 to 0, sequences of 4: 0 to 0)"
    )


def test_fuzzed_records_never_raise():
    # Token soup from the notation's own words plus junk: whatever a user
    # types, every line is a tag, a header or gets a verdict, and the
    # checker never raises.
    import random

    words = (
        "B G A J A1 B2 A9 J3 12 0 30 31 -1 99 x E5 E4 A1 I9 Z9 e5 rain beekeeper "
        "smoker reserve deck-empty forced-removal mode option start players beehive "
        'queens-gambit junior teen black gold 2 4 [Event "x"] [ ] " # \x00 \xe9'
    ).split(" ")
    random.seed(5)
    for game_no in range(20):
        text = []
        for i in range(40):
            n = random.randrange(6)
            text.append(" ".join(words[random.randrange(len(words))] for _ in range(n)))
        c = record.Checker(Game)
        record.read(text, c)
        seen = [ln for ln, _ in c.verdicts]
        assert len(seen) == len(set(seen))  # one verdict a line at most
        for i, line in enumerate(text):
            body = line.split("#")[0].strip()
            if (
                body
                and not body.startswith("[")
                and body.split()[0]
                not in (
                    "mode",
                    "option",
                    "start",
                    "players",
                )
            ):
                assert (i + 1) in seen, line
        record.result(c.game)
        gc.collect()


def test_nmoves_counts_record_lines_through_undo():
    # The board's STATUS moves= and move events: a count of the history's
    # entries, not the undo log's size in bytes (nlog).
    g = Game()
    assert g.nmoves() == 0
    lines = ["mode queens-gambit", "start black", "B 12 E4", "G 3 A1", "B 13 I9"]
    g, verdicts = record.check(lines, Game)
    assert [r for _, r in verdicts] == [OK, OK, OK]
    assert g.nmoves() == 3 == len(list(g.history())) and g.nlog > 3
    g.undo()
    assert g.nmoves() == 2 == len(list(g.history()))


def test_syntax_comes_before_cells():
    # NOTATION.md: a missing or extra field, or a field of the wrong kind,
    # is bad-syntax even when a cell name is wrong too.
    text = "\n".join(
        [
            "mode queens-gambit",
            "B 12 E4 extra",  # 2 an extra field
            "B 12 5",  # 3 a card where a cell belongs
            "B 12 Z9 extra",  # 4 extra field and a bad cell
            "B beekeeper Z9",  # 5 a missing field and a bad cell
            "B rain 12",  # 6 a card where a cell belongs
            "B 12 Z9",  # 7 a cell that is not on the board
            "B beekeeper A1 Z9",  # 8 as 7
        ]
    )
    game, v = verdicts_of(text)
    assert v == {
        2: BAD_SYNTAX,
        3: BAD_SYNTAX,
        4: BAD_SYNTAX,
        5: BAD_SYNTAX,
        6: BAD_SYNTAX,
        7: BAD_CELL,
        8: BAD_CELL,
    }


def test_two_cards_placed_is_plural():
    game, v = verdicts_of("mode junior\nJ 0 E5\nJ 1 E6")
    assert record.result(game)[3] == "in progress (2 cards placed)"


def test_a_field_of_the_wrong_kind_is_bad_syntax_before_a_bad_cell_or_card():
    # NOTATION.md's order: bad-syntax (a cell where the card belongs, an
    # unknown keyword, a field too many or too few), then bad-cell /
    # unknown-card.
    game, v = verdicts_of(
        "mode queens-gambit\nB E4 E4\nB foo E4\nB 99 E4\nB 12 Z9\nB 12 12\nB 12\nB 99 Z9"
    )
    want = {2: BAD_SYNTAX, 3: BAD_SYNTAX, 4: UNKNOWN_CARD, 5: BAD_CELL, 6: BAD_SYNTAX}
    want[7] = BAD_SYNTAX
    want[8] = BAD_CELL
    assert v == want


def test_pass_and_the_empty_reserve_are_record_lines():
    # RULES §4 D-9 (`A2 pass`), D-14 (`A1 reserve` with no cells)
    moves = ["A1 0 A1", "B1 0 I9", "A2 pass", "A deck-empty", "A2 pass", "A2 1 A3", "B2 1 I7"]
    moves += ["A1 reserve", "A1 reserve A1"]
    game, v = verdicts_of("mode silent-swarm\n" + "\n".join(moves))
    want = {2: OK, 3: OK, 4: CANNOT_PASS, 5: OK, 6: CANNOT_PASS, 7: OK, 8: OK}
    want[9] = BAD_TARGET  # A1 and A3 may come back: not the empty reserve
    want[10] = OK
    assert v == want
    assert record.write(game)[-4:] == ["A deck-empty", "A2 1 A3", "B2 1 I7", "A1 reserve A1"]

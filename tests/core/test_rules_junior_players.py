# RULES.md §6 with D-13: Junior's 2 to 6 players, each dealt
# floor(30/players) cards; lines that name their player (`J2 12 E4`), the
# first to place all their cards wins at once; `J2 out` when the board
# cannot count. The record side of it: NOTATION.md's `players`, `Jn out`.
from apixagon import record
from apixagon.codes import (
    ALL_PLACED,
    BAD_SYNTAX,
    BAD_TARGET,
    GAME_OVER,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    OK,
    OUT,
    OUT_DECLARED,
    RAN_OUT,
    SILENT_SWARM,
)
from apixagon.game import Game
from apixagon.geometry import NCELLS, NONE, ROYAL
from util import new, state


def jplay(g, seat, card):
    """Put card down for player seat (0: unnamed) on the first cell the
    rules allow (beside the reference card, D-8); asserted legal."""
    for x in range(NCELLS):
        if g.check_place(NONE, card, x, seat) == OK:
            assert g.place(NONE, card, x, seat) == OK
            return x
    raise AssertionError("no cell for card %d" % card)


def verdicts(text):
    game, v = record.check(text.split("\n"), Game)
    return game, dict(v)


def test_players_and_shares():
    for n, share in ((2, 15), (3, 10), (4, 7), (5, 6), (6, 5)):
        g = new(JUNIOR, 0, n)
        assert g.players == n and g.share == share  # "le eccedenze si scartano"
    assert new(JUNIOR).players == 2
    for n in (1, 7):
        try:
            new(JUNIOR, 0, n)
        except ValueError:
            continue
        raise AssertionError("junior for %d players" % n)


def test_the_first_card_on_the_royal_cell_belongs_to_nobody():
    g = new(JUNIOR, 0, 6)
    assert g.check_place(NONE, 0, ROYAL + 1, 3) == BAD_TARGET
    assert g.place(NONE, 0, ROYAL, 3) == OK  # turned up before the deal
    assert g.placed(3) == 0 and g.named()


def test_the_first_to_place_all_their_cards_wins_when_every_line_names_them():
    g = new(JUNIOR, 0, 6)  # 5 cards each
    jplay(g, 0, 0)
    card = 1
    for _ in range(4):
        for seat in (1, 2):
            jplay(g, seat, card)
            card += 1
    assert not g.over() and g.placed(1) == 4
    jplay(g, 1, card)
    assert g.over() == RAN_OUT and g.winner() == 1
    assert g.place(NONE, 20, 0, 2) == GAME_OVER
    assert g.undo() and not g.over() and g.placed(1) == 4  # a take-back reopens it


def test_out_is_refused_while_the_board_counts_cards_in_that_hand():
    # D-13: player n has placed its named cards and at most every unnamed
    # one; while that is short of its share, cards are still in its hand.
    g = new(JUNIOR, 0, 3)  # 10 cards each
    before = state(g)
    assert g.out(NONE, 2) == BAD_TARGET and state(g) == before
    jplay(g, 0, 0)
    jplay(g, 2, 1)
    jplay(g, 1, 2)
    for card in range(3, 11):
        jplay(g, 0, card)  # 8 lines that name nobody
    assert g.out(NONE, 2) == BAD_TARGET  # 1 named + 8 unnamed: 9 of 10
    jplay(g, 0, 11)
    assert g.out(NONE, 3) == BAD_TARGET  # 0 + 9
    assert g.out(NONE, 2) == OK  # 1 + 9: it may have run out
    assert g.over() == OUT_DECLARED and g.winner() == 2
    assert g.undo() == OUT and not g.over()


def test_without_names_every_card_dealt_down_ends_it_with_no_winner():
    g = new(JUNIOR, 0, 4)  # 7 each: 28 dealt, 2 discarded
    jplay(g, 0, 0)
    for card in range(1, 28):
        jplay(g, card % 5, card)  # some lines name a player, some do not
        assert not g.over()
    jplay(g, 0, 28)
    assert g.over() == ALL_PLACED


def test_player_numbers_and_outs_in_records():
    game, v = verdicts("mode junior\nplayers 6\nJ 0 E5\nJ6 1 E6\nJ7 2 E7\nJ out\nJ6 out")
    assert v == {3: OK, 4: OK, 5: BAD_SYNTAX, 6: BAD_SYNTAX, 7: BAD_TARGET}
    game, v = verdicts("mode junior\nplayers 7\nJ 0 E5")
    assert v == {2: BAD_SYNTAX, 3: OK} and game.players == 2
    game, v = verdicts("mode silent-swarm\nplayers 4\nA1 out")
    assert v == {2: BAD_SYNTAX, 3: NOT_ALLOWED_IN_MODE}
    text = "mode junior\nplayers 6\nJ 0 E5\nJ2 1 E6\nJ 2 E7\nJ 3 E8\nJ 4 E9\nJ2 out"
    game, v = verdicts(text + "\nJ 5 F9\nJ2 out\nJ1 6 G9")
    assert v == {3: OK, 4: OK, 5: OK, 6: OK, 7: OK, 8: BAD_TARGET, 9: OK, 10: OK, 11: GAME_OVER}
    want = ["players 6", "J 0 E5", "J2 1 E6", "J 2 E7", "J 3 E8", "J 4 E9", "J 5 F9", "J2 out"]
    assert record.write(game)[1:] == want
    assert record.result(game)[:3] == ("win", "player 2", "declared-out")


def test_a_record_replays_to_the_same_winner():
    g = new(JUNIOR, 0, 5)  # 6 each
    jplay(g, 0, 0)
    for card in range(1, 12):
        jplay(g, 1 + card % 2, card)
    assert g.over() == RAN_OUT and g.winner() == 2
    lines = record.write(g)
    game, v = verdicts("\n".join(lines))
    assert set(v.values()) == {OK} and game.winner() == 2
    assert record.result(game)[3] == "player 2 wins (placed all their cards)"
    assert new(SILENT_SWARM).seat_count(0) == 2 and g.seat_count(NONE) == 5

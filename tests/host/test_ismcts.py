# Level 7, the PC's Information Set Monte Carlo Tree Search
# (apixagon_host.ismcts): it reads only what its seat may know (RULES §8),
# plays legal moves, is deterministic under a seed with an iteration
# budget, keeps that budget, and finds a win in one (§3.3: a second
# sequence of 4). No timing here: every search is bounded by iterations.
import io

from apixagon import dealer
from apixagon import engine as E
from apixagon.codes import OK, PLACE
from apixagon.game import Game
from apixagon_host import cli
from apixagon_host.ismcts import Ismcts

# A two-player match (self-play of level 2, seed 7) up to Gold's turn,
# where Gold holds 30, 16, 7 and 26 and only G26 on D4 (cell 21)
# completes its second sequence of 4: 145 legal placements, one wins.
WIN_RECORD = (
    (0, 5, 37), (1, 23, 0), (0, 14, 45), (1, 10, 6), (0, 22, 52), (1, 8, 1), (0, 2, 44),
    (1, 13, 2), (0, 21, 46), (1, 25, 3), (0, 30, 38), (1, 6, 13), (0, 8, 47), (1, 15, 7),
    (0, 23, 53),
)  # fmt: skip
WIN_HAND = [30, 16, 7, 26]


def _win_position():
    g = Game(0, 0)
    for side, card, cell in WIN_RECORD:
        assert g.place(side, card, cell) == OK
    return g


def _into_match(seed, plies):
    g = Game(0, seed & 1)
    table = dealer.new_table(g, seed)
    engs = [E.Engine(3, seed), E.Engine(3, seed + 1)]
    for _ in range(plies):
        if g.over() or not dealer.step(g, table, engs):
            break
    return g, table


def test_finds_the_win_in_one():
    g = _win_position()
    t = g.side_to_play()
    assert t == 1
    wins = []
    out = bytearray(61)
    for c in WIN_HAND:
        g.card_cells(c, out, t)
        for x in range(61):
            if out[x]:
                g.place(t, c, x)
                if g.over() and g.winner() == t:
                    wins.append(E.move(PLACE, c, x))
                g.undo()
    assert wins == [E.move(PLACE, 26, 21)]  # the position is what it claims
    for seed in (1, 2, 3):
        ai = Ismcts(seed, seconds=None, iterations=60)
        assert ai.choose(g, WIN_HAND, 4, False) == wins[0], seed


def test_moves_are_legal_in_a_whole_match():
    # dealer.step raises on a move the core refuses; level 7 plays both
    # colours against level 3 to the end of the match
    for seed, black7 in ((3, True), (4, False)):
        g = Game(0, 0)
        table = dealer.new_table(g, seed)
        ai = Ismcts(seed, seconds=None, iterations=12)
        engs = [ai, E.Engine(3, seed)] if black7 else [E.Engine(3, seed), ai]
        n = 0
        while not g.over() and n < 400:
            if not dealer.step(g, table, engs):
                break
            n += 1
        assert g.over(), n


def test_choice_ignores_the_opponents_hidden_cards():
    # Two tables identical in what the seat may know (the record, its own
    # hand) but with different opponent hands and piles: the same move
    # under the same seed. The search is handed the seat's hand alone by
    # the dealer; a search that read the opponent's would differ here.
    for seed in range(3):
        g, table = _into_match(seed, 6 + 2 * seed)
        t = g.side_to_play()
        o = t ^ 1
        table.draw(t, 1)
        hand = list(table.hand(t, 1))
        first = dealer.choose(g, table, Ismcts(5, seconds=None, iterations=80), t, 1)
        seen = set()
        for k in range(3):
            pool = table.hand(o, 1) + table.piles[o]
            pool = pool[k + 1 :] + pool[: k + 1]  # another deal of its unseen cards
            n = len(table.hand(o, 1))
            table.hand(o, 1)[:] = pool[:n]
            table.piles[o][:] = pool[n:]
            seen.add(tuple(sorted(table.hand(o, 1))))
            assert table.hand(t, 1) == hand
            again = dealer.choose(g, table, Ismcts(5, seconds=None, iterations=80), t, 1)
            assert again == first, (seed, k)
        assert len(seen) > 1  # the opponent's hand did change


def test_seeded_and_keeps_its_iteration_budget():
    g, table = _into_match(11, 8)
    t = g.side_to_play()
    table.draw(t, 1)
    hand = list(table.hand(t, 1))
    before = bytes(g.board), bytes(g.loc), bytes(g.s), g.nlog
    a = Ismcts(9, seconds=None, iterations=150)
    m = a.choose(g, hand, 4, False)
    assert a.ran == 150
    assert len(a.n) <= 151  # one node expanded an iteration, and the root
    assert (bytes(g.board), bytes(g.loc), bytes(g.s), g.nlog) == before  # all taken back
    for _ in range(2):
        assert Ismcts(9, seconds=None, iterations=150).choose(g, hand, 4, False) == m
    assert E.play(g, m, t) == OK  # and it is legal
    b = Ismcts(9, seconds=None, iterations=7)
    b.choose(g, table.hand(g.side_to_play(), 1), 4, False)
    assert b.ran <= 7


def test_level_7_on_the_terminal(capsys):
    # `apixagon play --level 7` is offered; 8 is refused in words saying
    # what is allowed
    out = io.StringIO()
    code = cli.main(
        ["play", "--computer", "gold", "--level", "7"],
        cli.State(out=out, inp=io.StringIO("quit\n")),
    )
    assert code == 0, out.getvalue()
    assert "your hand:" in out.getvalue()
    out = io.StringIO()
    code = cli.main(
        ["play", "--computer", "gold", "--level", "8"],
        cli.State(out=out, inp=io.StringIO("quit\n")),
    )
    assert code != 0
    assert "1 (a child beats it) to 6" in capsys.readouterr().err

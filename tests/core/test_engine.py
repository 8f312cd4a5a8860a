# The computer player (apixagon.engine, apixagon.dealer), under CPython and
# MicroPython: every move it makes is legal in every mode (RULES §3-§7), it
# reads only what its seat may know (§8), and it is seeded.
import sys

import enginekit
from apixagon import dealer
from apixagon import engine as E
from apixagon.game import Game

# MicroPython runs a sample here; tools/engine_legal.py the full 10 000
# moves under both interpreters.
MP = sys.implementation.name == "micropython"
# The move's legality is the candidates' (the same code at every level:
# the look-ahead of levels 4-6 only orders them), so most moves are asked
# of the cheap levels and a share of the dear ones.
RANDOM_MOVES = 1500 if MP else 9000
SELF_PLAY_MOVES = 300 if MP else 1000


def test_engine_moves_are_legal_at_random_positions():
    # §3-§7: at positions of random matches of every mode, with a random
    # hand and level, the engine's move is one the core accepts.
    asked, none = enginekit.engine_moves(RANDOM_MOVES, 11, (1, 2, 3))
    assert asked == RANDOM_MOVES
    assert none < asked // 4, (none, asked)


def test_engine_self_play_every_mode_is_legal():
    # Whole matches of every mode between engines, the hands kept by the
    # dealer (draw, hand limit, specials, reserve, pass, declarations):
    # dealer.step raises on a move the core refuses.
    assert enginekit.self_play(SELF_PLAY_MOVES, 5) >= SELF_PLAY_MOVES


def test_engine_levels_4_to_6_are_legal():
    # The look-ahead levels, fewer moves (each costs more).
    asked, _ = enginekit.engine_moves(20 if MP else 400, 23, (4, 5, 6))
    assert asked >= 20


def _redeal(g, table, side, seat, seed):
    # §8: another deal of every card the seat cannot see (the other seats'
    # hands and every pile but its own), of the same sizes, from the same
    # cards: what its seat knows stays the same.
    rng = E.Rng(seed)
    for t in (0, 1):
        keys = [k for k in table.hands if k[0] == t and k != (side, seat)]
        pool = list(table.piles[t]) if t != side else []
        for k in keys:
            pool += table.hands[k]
        for i in range(len(pool) - 1, 0, -1):
            j = rng.below(i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        for k in keys:
            n = len(table.hands[k])
            table.hands[k][:] = pool[:n]
            pool = pool[n:]
        if t != side:
            table.piles[t][:] = pool


def test_engine_choice_ignores_hidden_cards():
    # The engine's choice does not change when the cards of the other
    # seats are dealt again in any way consistent with what its seat knows.
    for mode, players in ((0, 0), (1, 0), (2, 0), (4, 0)):
        for seed in range(2 if MP else 5):
            g = Game(mode, seed & 1, players)
            table = dealer.new_table(g, seed)
            engs = [E.Engine(5, seed), E.Engine(4, seed + 1)]
            for _ in range(4 + 3 * seed):  # into the match
                if g.over() or not dealer.step(g, table, engs):
                    break
            if g.over():
                continue
            t, seat = g.side_to_play(), g.seat_to_play()
            table.draw(t, seat)  # its hand full: the turn's draw is made
            hand = list(table.hand(t, seat))
            # through the dealer, which holds every hand of the table and
            # gives the engine its seat's alone
            first = dealer.choose(g, table, E.Engine(5, 99), t, seat)
            assert first
            for k in range(3):
                _redeal(g, table, t, seat, seed * 7 + k)
                assert table.hand(t, seat) == hand
                assert dealer.choose(g, table, E.Engine(5, 99), t, seat) == first, (mode, seed, k)


def test_engine_is_seeded():
    # The same seed, game and hand: the same move, on any interpreter
    # (the generator holds small ints only).
    g = Game(0, 0)
    hand = [3, 12, 17, 25]
    a = E.Engine(3, 7).choose(g, hand)
    for _ in range(3):
        assert E.Engine(3, 7).choose(g, hand) == a
    r = E.Rng(12345)
    seq = [r.next() for _ in range(5)]
    assert seq == [25286, 4434, 1644, 3039, 12370], seq


def test_engine_same_match_on_both_interpreters():
    # A whole seeded match of levels 4 and 6: the record's moves are the
    # same under CPython and MicroPython (integer worths, the engine's own
    # generator).
    g = Game(0, 0)
    table = dealer.new_table(g, 3)
    engs = [E.Engine(4, 1), E.Engine(6, 2)]
    moves = []
    while not g.over() and len(moves) < 120:
        if not dealer.step(g, table, engs):
            break
        k, p = g.last_move()
        moves.append(k * 1000000 + p[0] * 10000 + p[1] * 100 + (p[2] if len(p) > 2 else 0))
    h = 0
    for m in moves:
        h = (h * 31 + m) % 1000000007
    assert (len(moves), h) == EXPECTED_MATCH, (len(moves), h)


EXPECTED_MATCH = (22, 934463185)

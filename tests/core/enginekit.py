# Engine moves over random positions of every mode (runs under CPython and
# MicroPython): the test's and tools/engine_legal.py's, which runs the full
# count under both interpreters.
import random

import randplay
from apixagon import dealer
from apixagon import engine as E
from apixagon.codes import (
    BEEKEEPER,
    JUNIOR,
    OK,
    PASS,
    PLACE,
    RAIN_MOVE,
    RESERVE,
    SMOKER,
    TEEN,
)
from apixagon.geometry import NCELLS, NONE

# (mode, players) of every mode and Teen's and Junior's counts
MODES = ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 2), (5, 6), (TEEN, 2), (TEEN, 6))


def legal(g, m, t, cells=b""):
    """Is engine move m legal for side t (the core's check_*, no change)?"""
    k = E.kind_of(m)
    a, b = E.arg_a(m), E.arg_b(m)
    if k == PLACE:
        return g.check_place(t, a, b) == OK
    if k == RAIN_MOVE:
        return g.check_rain(t, b) == OK
    if k == BEEKEEPER:
        return g.check_beekeeper(t, a, b) == OK
    if k == SMOKER:
        return g.check_smoker(t, b) == OK
    if k == PASS:
        return g.check_pass(t) == OK
    if k == RESERVE:
        return g.check_reserve(t, cells, g.seat_to_play()) == OK
    return False


def random_position(mode, players, seed):
    """A game stopped at a random point of a random match (randplay), with
    stp now and then."""
    random.seed(seed)
    stop = random.randrange(60)
    g = randplay.new_game(mode, seed, players, seed % 5 == 0)
    out = bytearray(NCELLS)
    n = 0
    while not g.over() and n < stop:
        if randplay.play_turn(g, out) is None:
            break
        n += 1
    return g


def random_hand(g, t, rng):
    """1 to 4 of side t's cards not on the board (what a seat may hold)."""
    left = [c for c in range(31) if not g.loc[t * 31 + c]]
    h = []
    k = 1 + rng.below(4)
    while left and len(h) < k:
        h.append(left.pop(rng.below(len(left))))
    return h


def engine_moves(count, seed, levels=(1, 2, 3, 4, 5, 6)):
    """Ask the engine for count moves at random positions of every mode:
    random matches (randplay, stp now and then) in which, at each turn,
    the engine of a random level plays for a random hand half of the
    time; each of its moves is checked legal and carried out. Returns
    (moves asked, moves that were none)."""
    rng = E.Rng(seed)
    asked = none = 0
    i = 0
    out = bytearray(NCELLS)
    while asked < count:
        mode, players = MODES[i % len(MODES)]
        i += 1
        g = randplay.new_game(mode, seed + i, players, i % 5 == 0)
        n = 0
        while not g.over() and n < 200 and asked < count:
            n += 1
            if rng.below(2):
                if randplay.play_turn(g, out) is None:
                    break
                continue
            level = levels[rng.below(len(levels))]
            eng = E.Engine(level, seed + i + n)
            asked += 1
            if mode == JUNIOR:
                h = [c for c in range(31) if not g.loc[c]][:1]
                m = eng.choose(g, h)
                if not m:
                    none += 1
                    break
                assert E.kind_of(m) == PLACE
                assert g.check_place(NONE, E.arg_a(m), E.arg_b(m)) == OK
                assert g.place(NONE, E.arg_a(m), E.arg_b(m)) == OK
                continue
            t = g.side_to_play()
            h = random_hand(g, t, rng)
            m = eng.choose(g, h, dealer.hand_limit(g, t ^ 1), rng.below(2) == 0)
            if not m:
                none += 1
                if randplay.play_turn(g, out) is None:
                    break
                continue
            cells = bytes(eng.reserve_cells[: eng.nres])
            assert legal(g, m, t, cells), "level %d, mode %d: illegal %x" % (level, mode, m)
            if E.kind_of(m) == PLACE:
                assert E.arg_a(m) in h, "a card not in hand"
            assert E.play(g, m, t, 0, cells) == OK
    return asked, none


def self_play(count, seed, levels=(1, 2, 3)):
    """Whole self-play matches of every mode (dealer.step raises on an
    illegal move) until count engine moves were made: the moves made."""
    moves = 0
    i = 0
    while moves < count:
        mode, players = MODES[i % len(MODES)]
        i += 1
        g = randplay.new_game(mode, seed + i, players, i % 4 == 0)
        tab = dealer.new_table(g, seed + i)
        la = levels[(seed + i) % len(levels)]
        lb = levels[(seed + 2 * i) % len(levels)]
        engs = [E.Engine(la, seed + i), E.Engine(lb, seed + 3 * i)]
        n = 0
        while not g.over() and n < 300:
            k = dealer.step(g, tab, engs)
            if not k:
                break
            n += 1
            moves += 1
    return moves


class RandomPlayer:
    """Any legal placement of a card in hand, uniformly (no specials):
    tools/ladder.py's floor, and the player level 1 must beat
    (test_engine_levels)."""

    def __init__(self, seed):
        self.rng = E.Rng(seed)
        self.out = bytearray(NCELLS)
        self.reserve_cells = bytearray(12)
        self.nres = 0

    def choose(self, g, hand, limit=4, specials=True):
        if g.reserve_due():
            return E.move(RESERVE)
        t = g.side_to_play()
        cand = []
        for c in hand:
            if g.card_cells(c, self.out, t):
                cand += [E.move(PLACE, c, x) for x in range(NCELLS) if self.out[x]]
        return cand[self.rng.below(len(cand))] if cand else 0

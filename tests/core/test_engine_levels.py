# The computer's first level is a beginner's opponent (docs/guide/computer.md,
# "The computer's strength"): it plays its own runs, so it beats a player
# who places at random, and it loses to a child who plays their whole hand
# and blocks the long runs (RULES §2, §3). Under CPython and MicroPython.
import sys

from apixagon import dealer
from apixagon import engine as E
from apixagon.codes import DRAW, OK, PLACE
from apixagon.game import Game
from apixagon.geometry import NCELLS
from enginekit import RandomPlayer

MATCHES = 12 if sys.implementation.name == "micropython" else 40


class Beginner:
    """A child's plain rule: put a card on the open end of the opponent's
    longest run of 3 or more when one fits (§3: block), else the card of
    the whole hand that best grows its own runs (the engine's level 5)."""

    def __init__(self, seed):
        self.eng = E.Engine(5, seed)
        self.lv = bytearray(NCELLS)
        self.cells = bytearray(NCELLS)
        self.reserve_cells = self.eng.reserve_cells
        self.nres = 0

    def choose(self, g, hand, limit=4, specials=True):
        if not g.over() and not g.reserve_due():
            t = g.side_to_play()
            for i in range(g.threats(self.cells, self.lv, t)):
                x = self.cells[i]
                if self.lv[x] < 3:
                    break
                for c in hand:
                    if g.check_place(t, c, x) == OK:
                        return E.move(PLACE, c, x)
        m = self.eng.choose(g, hand, limit, specials)
        self.nres = self.eng.nres
        return m


def _score(make, level, n, seed0):
    # make's score against the level over n matches, colours alternating
    total = 0.0
    for k in range(n):
        p, e = make(seed0 + k), E.Engine(level, seed0 + 500 + k)
        engines = [p, e] if k % 2 == 0 else [e, p]
        g = Game(0, 0)
        table = dealer.new_table(g, seed0 + k)
        moves = 0
        while not g.over() and moves < 400 and dealer.step(g, table, engines):
            moves += 1
        if not g.over() or g.winner() == DRAW:
            total += 0.5
        elif (g.winner() == 0) == (k % 2 == 0):
            total += 1.0
    return total / n


def test_level_1_plays_its_own_runs():
    # It beats the random player nearly every time (0.978 over 400 on the
    # PC): it grows and seals its runs, loosely.
    assert _score(RandomPlayer, 1, MATCHES, 100) <= 0.1


def test_level_1_loses_to_a_beginner_who_blocks():
    # docs/guide/computer.md: most of its matches.
    assert _score(Beginner, 1, MATCHES, 200) >= 0.75

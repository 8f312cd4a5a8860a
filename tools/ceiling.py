"""How much stronger level 6 gets with more to go on: the ceiling of its
search, measured against level 6 itself.

  python tools/ceiling.py --player sees-hands [--games 200] [--jobs 2]
  python tools/ceiling.py --player wide [--games 200] [--jobs 2]

sees-hands: level 6 that reads the opponent's real hand in every deal of
its look one reply deep (RULES §8 forbids it a real player: a measure of
what the hidden cards are worth to this search). wide: level 6 looking
at 16 moves over 32 deals instead of 8 over 16 (about three times its
time). Each plays level 6 in matches of the two-player game, colours
alternating, every hand dealt by apixagon.dealer (tools/ladder.py's
match). Prints the score with its 95 % interval, in Elo too.
"""

import argparse
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import ladder  # noqa: E402
from apixagon import engine as E  # noqa: E402

_NC = 31
WIDE = (2, 1, 1, 1, 16, 32, 1, 1, 0)  # level 6's row of engine.LEVELS, twice as wide


class SeesHands(E.Engine):
    """Level 6 whose every deal of the opponent's hand is the real one."""

    table = None

    def _replies(self, g, o, nu, h, nd, full, b):
        hand = [v for (s, _), v in self.table.hands.items() if s == o][0]
        real = [c for c in hand if not g.loc[o * _NC + c]] or [self._uns[0]]
        for d in range(nd):
            for i in range(h):
                self._deal[d * 5 + i] = real[min(i, len(real) - 1)]
        return E.Engine._replies(self, g, o, nu, h, nd, full, b)

    def see(self, table):
        self.table = table


class Wide(E.Engine):
    """Level 6 over twice the moves and twice the deals."""

    def __init__(self, seed):
        E.Engine.__init__(self, 6, seed)
        self.level = len(E.LEVELS) - 1  # its own row, appended by _player


def _player(kind, seed):
    if kind == "sees-hands":
        return SeesHands(6, seed)
    if E.LEVELS[-1] != WIDE:
        E.LEVELS = E.LEVELS + (WIDE,)
    return Wide(seed)


def games(job):
    kind, k0, n = job
    out = []
    for k in range(k0, k0 + n):
        seed = 90000 + k
        p, six = _player(kind, 2 * seed + 1), E.Engine(6, 2 * seed + 2)
        first = k % 2 == 0
        see = p.see if kind == "sees-hands" else None
        r, _ = ladder.play_engines([p, six] if first else [six, p], seed, table_to=see)
        out.append(r if first else 1.0 - r)
    return out


def elo(s):
    s = min(max(s, 0.001), 0.999)
    return -400 * math.log10(1 / s - 1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--player", choices=("sees-hands", "wide"), required=True)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    jobs = [(a.player, k, min(10, a.games - k)) for k in range(0, a.games, 10)]
    t0 = time.time()
    if a.jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(a.jobs) as pool:
            res = sum(pool.map(games, jobs, chunksize=1), [])
    else:
        res = sum((games(j) for j in jobs), [])
    s = sum(res) / len(res)
    se = math.sqrt(s * (1 - s) / len(res))
    print(
        "%s against level 6: %d games, score %.3f (95 %% %.3f .. %.3f), "
        "Elo %+.0f (%+.0f .. %+.0f), %.0f s"
        % (a.player, len(res), s, s - 1.96 * se, s + 1.96 * se, elo(s), elo(s - 1.96 * se),
           elo(s + 1.96 * se), time.time() - t0)
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Level 7 (the PC's ISMCTS, apixagon_host.ismcts) against an engine level.

Pairs of two-player matches (queens-gambit, RULES §3) on the same seed
with the colours swapped (the same deals: the luck of the draw cancels
within a pair), every hand dealt by apixagon.dealer and each player seeing
only its own, as tools/ladder.py and tools/sprt.py play them. Level 7
thinks --seconds a move (a wall-clock budget: run it on a quiet core) or
--iterations a move (reproducible).

The score is level 7's mean over the games, the 95 % interval a normal
one over the pairs' means (a pair is the unit that is independent: its
two games share the deals). A line after every --every pairs, so a run
stopped at any time has said what it measured.

  python tools/ladder_ismcts.py --level 6 --seconds 1 [--pairs 200]
"""

import argparse
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "host"))

from apixagon import engine as E  # noqa: E402
from apixagon_host.ismcts import Ismcts  # noqa: E402
from ladder import play_engines  # noqa: E402  (tools/: the ladder's one match)


def summary(pairs):
    """Mean score and its 95 % interval over the pairs' means."""
    k = len(pairs)
    m = sum(pairs) / k
    if k < 2:
        return m, 0.0, 1.0
    var = sum((x - m) ** 2 for x in pairs) / (k - 1)
    h = 1.96 * math.sqrt(var / k)
    return m, max(0.0, m - h), min(1.0, m + h)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", type=int, default=6, help="the engine's level (1..6)")
    ap.add_argument("--seconds", type=float, default=None, help="level 7's time a move")
    ap.add_argument("--iterations", type=int, default=None, help="level 7's iterations a move")
    ap.add_argument("--c", type=float, default=None, help="UCB's exploration constant")
    ap.add_argument("--root-k", type=int, default=None, help="candidates at the root")
    ap.add_argument("--inner-k", type=int, default=None, help="candidates below the root")
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--every", type=int, default=5)
    args = ap.parse_args(argv)
    if args.seconds is None and args.iterations is None:
        args.seconds = 1.0
    pairs = []
    t0 = time.time()
    moves = 0
    think = 0.0
    iters = 0
    for k in range(args.pairs):
        seed = args.seed + k
        res = []
        for ismcts_black in (True, False):
            ai = Ismcts(2 * seed + 1, args.seconds, args.iterations)
            if args.c is not None:
                ai.c = args.c
            if args.root_k is not None:
                ai.root_k = args.root_k
            if args.inner_k is not None:
                ai.inner_k = args.inner_k
            eng = E.Engine(args.level, 2 * seed + 2)
            timed = _Timed(ai)
            r, _ = (
                play_engines([timed, eng], seed)
                if ismcts_black
                else play_engines([eng, timed], seed)
            )
            res.append(r if ismcts_black else 1.0 - r)
            moves += timed.calls
            think += timed.spent
            iters += timed.iters
        pairs.append(sum(res) / 2)
        if (k + 1) % args.every == 0 or k + 1 == args.pairs:
            m, lo, hi = summary(pairs)
            print(
                "pairs %d (games %d): level 7 scores %.3f, 95 %% %.3f .. %.3f; "
                "%.2f s and %.0f iterations a choice; %.0f s"
                % (
                    k + 1,
                    2 * (k + 1),
                    m,
                    lo,
                    hi,
                    think / max(1, moves),
                    iters / max(1, moves),
                    time.time() - t0,
                ),
                flush=True,
            )
    return 0


class _Timed:
    """Level 7 with its thinking timed (the table calls choose())."""

    def __init__(self, ai):
        self.ai = ai
        self.calls = 0
        self.spent = 0.0
        self.iters = 0

    def __getattr__(self, name):
        return getattr(self.ai, name)

    def choose(self, *a, **kw):
        t = time.monotonic()
        m = self.ai.choose(*a, **kw)
        self.spent += time.monotonic() - t
        self.calls += 1
        self.iters += self.ai.ran
        return m


if __name__ == "__main__":
    sys.exit(main())

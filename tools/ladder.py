"""`make ladder`: the computer's levels measured against each other.

Self-play matches of the two-player game (queens-gambit, RULES §3) between
neighbouring levels (a random player, level 1, ..., level 6) and a few
pairs two apart, each pair's games alternating who starts, seeded: the
same run gives the same games. Every hand is dealt by apixagon.dealer and
each engine sees only its own (as on the board).

Each player's turns are timed too (wall time on this PC, CPython): the
time per move per level printed below the table.

Ratings are a Bradley-Terry fit (Hunter's MM algorithm, "MM algorithms for
generalized Bradley-Terry models", Ann. Stat. 2004), a draw counting half
a win to each side, on the Elo scale (400 log10; the random player at 0).
The 95 % intervals are a bootstrap over the games (each pair's games drawn
again with replacement, the fit redone: 400 times, seeded), for each
rating and for each level's margin over the level below; a level is
"above" the one below when that margin's interval lies above 0, and "a
step" when the margin is at least +100 Elo and its interval lies above
+50 (the spacing the levels are made to: a player who beats one level
meets a clearly stronger one at the next). Exit 1 when a level is not a
step.

  python tools/ladder.py [--games N] [--jobs J] [--json] [--pairs a-b,...]
                        [--save FILE] [--add FILE ...]
"""

import argparse
import json
import math
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tests", "core"))  # enginekit: the random player

from apixagon import dealer  # noqa: E402
from apixagon import engine as E  # noqa: E402
from apixagon.codes import DRAW  # noqa: E402
from apixagon.game import Game  # noqa: E402
from enginekit import RandomPlayer  # noqa: E402

HEAD = (
    "| player | Elo (random = 0) | 95 % interval | margin over the level below"
    " | its 95 % interval | above? | a step (≥ +100, interval > +50)? |"
)
STEP = 100  # Elo: the least margin of a level over the one below
STEP_LO = 50  # and the least lower end of that margin's 95 % interval
PLAYERS = ("random", "1", "2", "3", "4", "5", "6")
NEIGHBOURS = [(i, i + 1) for i in range(6)] + [(i, i + 2) for i in range(1, 5)]


def player(i, seed, engine=E):
    return RandomPlayer(seed) if i == 0 else engine.Engine(i, seed)


def play(a, b, seed, engine_a=E, engine_b=E, mode=0, clock=None):
    """One match, a (index into PLAYERS) with Black (who starts), b with
    Gold: 1, 0.5 or 0 for a, and the moves made. clock: see play_engines,
    keyed by a and b."""
    engines = [player(a, 2 * seed + 1, engine_a), player(b, 2 * seed + 2, engine_b)]
    return play_engines(engines, seed, mode, clock, (a, b))


def play_engines(engines, seed, mode=0, clock=None, keys=(0, 1), table_to=None):
    """One match between two players ([Black, Gold], Black starts), every
    hand dealt from seed: 1, 0.5 or 0 for Black, and the moves made.
    clock (a dict): each player's turns timed into clock[keys[side]], a
    list [seconds, turns, the longest turn's seconds]. table_to: called
    with the dealer's table (tools/ceiling.py's player who sees hands)."""
    g = Game(mode, 0)
    table = dealer.new_table(g, seed)
    if table_to is not None:
        table_to(table)
    n = 0
    while not g.over() and n < 400:
        t = g.side_to_play()
        t0 = time.perf_counter()
        if not dealer.step(g, table, engines):
            break
        if clock is not None:
            dt = time.perf_counter() - t0
            c = clock.setdefault(keys[t], [0.0, 0, 0.0])
            c[0] += dt
            c[1] += 1
            c[2] = max(c[2], dt)
        n += 1
    if not g.over() or g.winner() == DRAW:
        return 0.5, n
    return (1.0 if g.winner() == 0 else 0.0), n


def pair_games(job):
    """The games of one pair: a list of a's scores (a starts the even
    games)."""
    a, b, games, seed0 = job
    out = []
    clock = {}
    for k in range(games):
        seed = seed0 + k
        if k % 2 == 0:
            out.append(play(a, b, seed, clock=clock)[0])
        else:
            out.append(1.0 - play(b, a, seed, clock=clock)[0])
    return a, b, out, clock


def fit(results, n=len(PLAYERS), iters=2000):
    """Bradley-Terry strengths by MM (draws as half wins, and a tenth of
    a virtual draw between neighbours so that a pair won every game stays
    finite): Elo ratings, the first player at 0."""
    w = [[0.0] * n for _ in range(n)]
    for (a, b), scores in results.items():
        s = sum(scores)
        w[a][b] += s
        w[b][a] += len(scores) - s
    for i in range(n - 1):
        w[i][i + 1] += 0.05
        w[i + 1][i] += 0.05
    p = [1.0] * n
    for _ in range(iters):
        new = []
        for i in range(n):
            wins = sum(w[i])
            den = 0.0
            for j in range(n):
                if j != i and w[i][j] + w[j][i]:
                    den += (w[i][j] + w[j][i]) / (p[i] + p[j])
            new.append(wins / den if den else p[i])
        g = math.exp(sum(math.log(x) for x in new) / n)
        p = [x / g for x in new]
    r = [400.0 * math.log10(x) for x in p]
    return [x - r[0] for x in r]


def bootstrap(results, rounds=400, seed=7):
    rng = random.Random(seed)
    fits = []
    for _ in range(rounds):
        res = {k: [rng.choice(v) for _ in v] for k, v in results.items()}
        fits.append(fit(res, iters=300))
    return fits


def interval(xs):
    xs = sorted(xs)
    return xs[int(0.025 * (len(xs) - 1))], xs[int(math.ceil(0.975 * (len(xs) - 1)))]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games per pair (default 400)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--pairs", help="a-b,... (0 the random player): only these pairs")
    ap.add_argument("--save", help="write the games' scores to this JSON file")
    ap.add_argument(
        "--add", action="append", default=[], help="fit with the scores saved in this file too"
    )
    args = ap.parse_args(argv)
    pairs = NEIGHBOURS
    if args.pairs:
        pairs = [tuple(int(x) for x in p.split("-")) for p in args.pairs.split(",")]
    jobs = []
    for a, b in pairs:
        # pairs of dear levels split in chunks, so that 2 jobs share them
        n = args.games
        step = max(1, n // 8)
        for k in range(0, n, step):
            jobs.append((a, b, min(step, n - k), args.seed + 100000 * a + 1000 * b + k))
    t0 = time.time()
    results = {}
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(args.jobs) as pool:
            done = pool.map(pair_games, jobs, chunksize=1)
    else:
        done = [pair_games(j) for j in jobs]
    clock = {}  # player -> [seconds, turns, longest]
    for a, b, scores, times in done:
        results.setdefault((a, b), []).extend(scores)
        for i, (sec, turns, top) in times.items():
            c = clock.setdefault(i, [0.0, 0, 0.0])
            c[0] += sec
            c[1] += turns
            c[2] = max(c[2], top)
    took = time.time() - t0
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"%d-%d" % k: v for k, v in results.items()}, f)
    for path in args.add:
        with open(path) as f:
            for k, v in json.load(f).items():
                a, b = (int(x) for x in k.split("-"))
                results.setdefault((a, b), []).extend(v)
    ratings = fit(results)
    boots = bootstrap(results)
    rows = []
    for i in range(len(PLAYERS)):
        lo, hi = interval([f[i] for f in boots])
        row = {"player": PLAYERS[i], "elo": round(ratings[i]), "lo": round(lo), "hi": round(hi)}
        if i:
            d = ratings[i] - ratings[i - 1]
            dlo, dhi = interval([f[i] - f[i - 1] for f in boots])
            row.update(
                margin=round(d),
                mlo=round(dlo),
                mhi=round(dhi),
                above=dlo > 0,
                step=d >= STEP and dlo > STEP_LO,
            )
        rows.append(row)
    pair_rows = []
    for (a, b), s in sorted(results.items()):
        pair_rows.append(
            {"pair": "%s-%s" % (PLAYERS[a], PLAYERS[b]), "games": len(s), "score": sum(s) / len(s)}
        )
    times = [
        {
            "player": PLAYERS[i],
            "turns": c[1],
            "mean_ms": round(1000 * c[0] / c[1], 2),
            "max_ms": round(1000 * c[2], 1),
        }
        for i, c in sorted(clock.items())
        if c[1]
    ]
    if args.json:
        print(
            json.dumps(
                {"ratings": rows, "pairs": pair_rows, "times": times, "seconds": round(took)},
                indent=1,
            )
        )
    else:
        print(HEAD)
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for r in rows:
            m = " | | | "
            if "margin" in r:
                yes = "yes" if r["above"] else "NO"
                step = "yes" if r["step"] else "NO"
                if r["player"] == "1":
                    step = "(the floor)"  # over the random player: not a level
                m = "%+d | %+d .. %+d | %s | %s" % (r["margin"], r["mlo"], r["mhi"], yes, step)
            print("| %s | %d | %d .. %d | %s |" % (r["player"], r["elo"], r["lo"], r["hi"], m))
        print()
        for p in pair_rows:
            print("%-12s games %4d  first named scores %.3f" % (p["pair"], p["games"], p["score"]))
        print()
        print("time a turn on this PC (CPython, one process each, wall time):")
        for r in times:
            print(
                "  %-7s %6d turns  mean %8.2f ms  longest %8.1f ms"
                % (r["player"], r["turns"], r["mean_ms"], r["max_ms"])
            )
        total = sum(len(s) for s in results.values())
        print("%d games in %.0f s (%d jobs)" % (total, took, args.jobs))
    levels = [r for r in rows[2:] if "step" in r]  # level 2 up: level 1's margin is over random
    return 0 if all(r["above"] and r["step"] for r in levels) else 1


if __name__ == "__main__":
    sys.exit(main())

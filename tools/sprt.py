"""A change to the engine is kept only if it is not weaker: a sequential
probability ratio test (SPRT), as chess engines test theirs.

The engine of the work tree (firmware/apixagon/engine.py) plays the engine
of a git revision (--base, default HEAD) at one level, in pairs of
two-player matches on the same seed with the colours swapped (the same
deals: the luck of the draw cancels within a pair). After each pair the
log-likelihood ratio of H1 (the new engine is elo1 stronger) against H0
(it is elo0, i.e. weaker) is updated; the test stops when it crosses
log((1-beta)/alpha) (H1: keep the change) or log(beta/(1-alpha)) (H0:
it is weaker, drop it), or after --max games (no verdict).

The LLR is the normal approximation of the trinomial (win, draw, loss)
model that cutechess-cli and fishtest use: with N games of mean score s and
per-game variance v, LLR = N (s1 - s0)(2 s - s0 - s1) / (2 v), s0 and s1
the expected scores at elo0 and elo1.

  python tools/sprt.py --level 4 [--base REV] [--elo0 -10] [--elo1 5] [--max 4000]

Exit 0: H1 accepted (not weaker); 1: H0 accepted (weaker); 2: no verdict.
"""

import argparse
import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import ladder  # noqa: E402
from apixagon import engine as new_engine  # noqa: E402


def base_engine(rev):
    """apixagon/engine.py as it is at git revision rev, loaded beside the
    package's own modules (its relative imports are the work tree's core)."""
    src = subprocess.run(
        ["git", "show", "%s:firmware/apixagon/engine.py" % rev],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    d = tempfile.mkdtemp(prefix="sprt-")
    path = os.path.join(d, "engine_base.py")
    with open(path, "wb") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location("apixagon.engine_base", path)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "apixagon"
    spec.loader.exec_module(mod)
    return mod


def score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def llr(w, d, lost, elo0, elo1):
    n = w + d + lost
    if not n or (w == n or lost == n or d == n):
        return 0.0
    s = (w + 0.5 * d) / n
    v = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + lost * s**2) / n
    s0, s1 = score(elo0), score(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * v)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--level", type=int, required=True)
    ap.add_argument("--base", default="HEAD")
    ap.add_argument("--elo0", type=float, default=-10.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--max", type=int, default=4000, help="games at most")
    ap.add_argument("--seed", type=int, default=424242)
    args = ap.parse_args(argv)
    base = base_engine(args.base)
    lo = math.log(args.beta / (1 - args.alpha))
    hi = math.log((1 - args.beta) / args.alpha)
    w = d = lost = 0
    t0 = time.time()
    lv = args.level
    k = 0
    verdict = None
    while w + d + lost < args.max:
        seed = args.seed + k
        k += 1
        # the new engine with Black, then with Gold, on the same deals
        r1, _ = ladder.play(lv, lv, seed, new_engine, base)
        r2, _ = ladder.play(lv, lv, seed, base, new_engine)
        for r in (r1, 1.0 - r2):
            w += r == 1.0
            d += r == 0.5
            lost += r == 0.0
        x = llr(w, d, lost, args.elo0, args.elo1)
        if k % 25 == 0:
            print("games %d  +%d =%d -%d  LLR %.2f (%.2f, %.2f)" % (2 * k, w, d, lost, x, lo, hi))
        if x >= hi:
            verdict = "H1: not weaker (keep the change)"
            break
        if x <= lo:
            verdict = "H0: weaker (drop the change)"
            break
    n = w + d + lost
    print(
        "level %d, new vs %s: +%d =%d -%d (%.3f), LLR %.2f in [%.2f, %.2f], %d games, %.0f s"
        % (lv, args.base, w, d, lost, (w + 0.5 * d) / n, llr(w, d, lost, args.elo0, args.elo1),
           lo, hi, n, time.time() - t0)
    )  # fmt: skip
    print(verdict or "no verdict after %d games" % n)
    if verdict is None:
        return 2
    return 0 if verdict.startswith("H1") else 1


if __name__ == "__main__":
    sys.exit(main())

"""The match review's time (host/apixagon_host/review.py): a 60-move match
reviewed at the engine's level 6, with 1 process and with a pool of 2.
Budget: 30 s on the shared 2-core machine (docs/guide/command-line.md,
"Reviewing a match"). Standalone (the repository alone), and `make bench`'s
"review" part (tools/bench: its figures on the figures page).

The match: the scripted 2-player match of tests/data (the capacity
figures' real-length match, 67 moves), cut at 60.

  python tools/bench_review.py [--moves 60] [--jobs 1,2] [--json]"""

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

from apixagon_host import review  # noqa: E402

BUDGET = 30.0  # seconds for a 60-move match on 2 cores


def match(moves):
    """The .apx lines of the scripted 2-player match (tests/data, 67
    moves: tools/make_scripted_game.py), cut after that many moves."""
    with open(os.path.join(ROOT, "tests", "data", "queens_gambit_full.apx")) as f:
        lines = [x for x in f.read().splitlines() if x.strip()]
    out, n = [], 0
    for x in lines:
        if review._is_move_line(x):
            if n == moves:
                break
            n += 1
        out.append(x)
    if n < moves:
        raise SystemExit("the scripted match has only %d moves" % n)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    lines = match(a.moves)
    mode = [x.split()[1] for x in lines if x.startswith("mode ")][0]
    out = {"moves": a.moves, "mode": mode, "budget_s": BUDGET, "runs": []}
    for jobs in (int(j) for j in a.jobs.split(",")):
        t0 = time.monotonic()
        got = review.review(lines, jobs=jobs)
        s = time.monotonic() - t0
        graded = sum(1 for m in got["moves"] if m["grade"])
        out["runs"].append({"jobs": jobs, "seconds": round(s, 2), "graded": graded})
        if not a.json:
            print(
                "review of a %d-move %s match, %d graded, %d process(es): %.2f s (budget %.0f s)"
                % (a.moves, out["mode"], graded, jobs, s, BUDGET)
            )
    out["within_budget"] = all(r["seconds"] < BUDGET for r in out["runs"])
    if a.json:
        print(json.dumps(out, indent=1))
    return 0 if out["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""Write tests/data/beehive_full.apx: the scripted 6-player game of the benchmark.

A complete beehive game played by the seeded random player of the core
suite (tests/core/randplay.py): placements, specials, a reserve deck and a
result. Regenerate with `python tools/make_scripted_game.py`; the record is
committed so that the benchmark is the same game from change to change.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "core")]

import randplay  # noqa: E402
from apixagon import record  # noqa: E402
from apixagon.codes import BEEHIVE  # noqa: E402

SEED = 130  # a long game with 5 specials and a reserve deck
PATH = os.path.join(ROOT, "tests", "data", "beehive_full.apx")


def main():
    g = randplay.play_game(BEEHIVE, SEED)
    tags = [
        ("Event", "Benchmark: scripted 6-player game"),
        ("Source", "tools/make_scripted_game.py, seed %d" % SEED),
        ("Result", record.result(g)[3]),
    ]
    with open(PATH, "w") as f:
        for line in record.lines(g, tags):
            f.write(line + "\n")
    print("wrote %s: %s" % (os.path.relpath(PATH, ROOT), record.result(g)[3]))


if __name__ == "__main__":
    main()

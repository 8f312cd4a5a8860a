"""Write the scripted games of the benchmarks: tests/data/*_full.apx.

Each a complete game played by the seeded random player of the core suite
(tests/core/randplay.py), its seed chosen for a long game with what the
mode has of specials, declarations and reserve decks:

  beehive_full.apx        6 players in teams (the benchmark's scripted game:
                          tools/bench/core.py, firmware.py, target.py)
  queens_gambit_full.apx  2 players (python -m bench --part memory)
  3v2_full.apx            5 players in teams (idem)
  junior_full.apx         junior, 6 players (idem: JUNIOR_PLAYERS)

Regenerate with `python tools/make_scripted_game.py [NAME ...]` (all by
default); the records are committed so that the benchmarks play the same
games from change to change. A change of the rules that makes a record
illegal (the benchmarks say which line) calls for a new one from here.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "core")]

import randplay  # noqa: E402
from apixagon import record  # noqa: E402
from apixagon.codes import BEEHIVE, JUNIOR, QUEENS_GAMBIT, THREE_VS_TWO  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data")
# Junior's players (RULES §6, D-13: 2..6; the most is the worst case the
# board carries); tools/bench/target.py reads them from the record's header.
JUNIOR_PLAYERS = 6

# name: (mode, seed, players, event). The seeds: the longest game of seeds
# 1-999 with the most kinds of specials and declarations (beehive's: 130,
# a long game with 5 specials and a reserve deck, kept as it was).
RECORDS = {
    "beehive_full.apx": (BEEHIVE, 130, 0, "Benchmark: scripted 6-player game"),
    "queens_gambit_full.apx": (
        QUEENS_GAMBIT,
        241,
        0,
        "Benchmark: scripted 2-player game",
    ),
    "3v2_full.apx": (THREE_VS_TWO, 194, 0, "Benchmark: scripted 3v2 game"),
    "junior_full.apx": (JUNIOR, 1, JUNIOR_PLAYERS, "Benchmark: scripted junior game"),
}


def write(name):
    mode, seed, players, event = RECORDS[name]
    g = randplay.play_game(mode, seed, players)
    tags = [
        ("Event", event),
        ("Source", "tools/make_scripted_game.py, seed %d" % seed),
        ("Result", record.result(g)[3]),
    ]
    path = os.path.join(DATA, name)
    with open(path, "w") as f:
        for line in record.lines(g, tags):
            f.write(line + "\n")
    print("wrote %s: %s" % (os.path.relpath(path, ROOT), record.result(g)[3]))


def main(argv=None):
    names = (argv if argv is not None else sys.argv[1:]) or list(RECORDS)
    for name in names:
        if name not in RECORDS:
            print("no scripted game %s (%s)" % (name, ", ".join(RECORDS)), file=sys.stderr)
            return 2
        write(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Real-length match logs, as the board writes them, for the capacity
figures and tests: each mode's scripted match played to its end
(tests/data/*_full.apx, written by tools/make_scripted_game.py: 2 players
67 moves, beehive 72, 3v2 73, junior 31) through the firmware's own
writer (smartboard.logstore.writer, CPython), with the header the board
gives it: its [Board] tag and, the companion having set its clock, [Date]
and [Time]. 648 to 1 468 bytes, 1 218 on average (rev A's name): the length mix the
board's "How many matches fit" counts in (docs/firmware/storage.md).

    from realmatches import logs, mix
    logs("rev_a")            # [(mode, bytes)] the four
    mix("rev_a", 1000)       # 1000 logs' bytes, the four in turn
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in ("firmware", os.path.join("tools", "rp2040")):
    _p = os.path.join(ROOT, _p)
    if _p not in sys.path:
        sys.path.insert(0, _p)

MATCHES = ("queens_gambit_full.apx", "beehive_full.apx", "3v2_full.apx", "junior_full.apx")
WHEN = 1790000000  # 2026-09-21: a date in every header, as when a host set the clock

_cache = {}


def logs(rev="rev_a"):
    """[(record name, log bytes)] of the four scripted matches."""
    if rev not in _cache:
        import emuboard
        from apixagon import record
        from apixagon.game import Game
        from smartboard.logstore import writer

        out = []
        name = emuboard.pins_of(rev)["NAME"]
        with tempfile.TemporaryDirectory() as tmp:
            for i, rec in enumerate(MATCHES):
                root = os.path.join(tmp, "logs%d" % i)
                log = writer.MatchLog(root, (("Board", name),))
                log.clock = lambda: WHEN
                with open(os.path.join(ROOT, "tests", "data", rec)) as f:
                    g, verdicts = record.check(f, Game)
                assert g.over() and all(r == 0 for _, r in verdicts), rec
                log.begin(g)
                log.flush_all()
                with open(os.path.join(root, log.current()), "rb") as f:
                    out.append((rec, f.read()))
        _cache[rev] = out
    return _cache[rev]


def mix(rev, n):
    """The bytes of n logs, the four matches in turn."""
    four = [data for _, data in logs(rev)]
    return [four[i % 4] for i in range(n)]

# Power cuts inside the running firmware while the scripted 6-player game
# (tests/data/beehive_full.apx) is played: sampled units of its write
# stream, late ones too (both Rains of a side on the table when the board
# resumes), in both sensing profiles; see test_matchlog_cuts.py and
# cutkit.py. A module of its own: under MicroPython each module gets a
# fresh 96 wK heap.
from cutkit import Run, uncut


def test_scripted_game_cut_at_sampled_units():
    n = uncut(None, False).flash.units
    assert n > 1000
    # Sampled: a stride through the whole stream, and the end (after the
    # second Rain of a side: both Rains on the table when it resumes).
    ks = [n - 90, n - 40, n - 3]
    ks += [(i * 211 + 37) % n for i in range(5)]
    for i in range(len(ks)):
        k = ks[i]
        run = Run("cuts-long", None, False, [k, (k * 13) % 150] if i & 1 else [k]).go()
        assert run.resumed >= 1 or k < 62, k  # a cut in the header: no log yet
        run = None


def test_scripted_game_profile_b_cut_late():
    # Profile B senses occupancy only: the identities come back from the
    # log, a side's two Rains as two cards (board.py, _check_resume). The
    # stream is the same as profile A's (the same records).
    n = uncut(None, False).flash.units
    run = Run("cuts-b", None, False, [n - 90, 40], "B").go()
    assert run.resumed >= 1 and run.boots == 3

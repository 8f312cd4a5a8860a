# Power cuts inside the running firmware (issue 4): the match log's flash
# is the simulated twin (smartboard.sim.flash), which cuts the power after
# N units of the write stream: the bytes before the cut land, PowerCut
# leaves the loop. At every unit of a short match's stream, and at every
# unit of the torn-tail repair the next boot makes (a second cut): the
# complete records on flash survive byte for byte, the next boot resumes
# at the logged position, the cards that stayed on the table are put right
# as the LEDs ask, play goes on, and the log ends holding the whole record
# (the harness: cutkit.py; the long game: test_matchlog_cuts_long.py).
from cutkit import HEADER_RECORDS, SHORT, Run, alogs, record_ends, uncut
from logkit import MICROPYTHON
from smartboard.logstore import records

# Every unit under CPython; under MicroPython (the same code, its heap and
# its bytes and integers) a stride through the same cuts, to stay quick.
STRIDE = 5 if MICROPYTHON else 1


def test_short_match_cut_at_every_unit_of_its_write_stream():
    n = uncut(SHORT, True).flash.units
    assert n > 100  # mkdir, header (.tmp + rename), 4 moves, the E
    resumed = torn = runs = 0
    for k in range(0, n, STRIDE):
        # Every third cut also cuts the next boot, at a unit that walks
        # through its torn-tail repair (.tmp write, rename) and on.
        run = Run("cuts-short", SHORT, True, [k] if k % 3 else [k, (k * 7) % 90]).go()
        assert run.boots >= 2
        resumed += run.resumed > 0
        torn += run.first[0] == records.TORN
        runs += 1
        run = None
    assert resumed > runs // 2 and torn > runs // 3


def test_a_second_cut_at_every_unit_of_the_torn_tail_repair():
    # The first cut tears the third move's record...
    run = uncut(SHORT, True)
    ends = record_ends(run.flash.contents(alogs(run.flash.files)[0]))
    good = ends[HEADER_RECORDS + 1]
    k = good + 2 + 3
    run = Run("cuts-probe", SHORT, True, [k]).go()
    assert run.first == [records.TORN, good, HEADER_RECORDS + 2]
    # ...and the second cuts the next boot at every unit of its repair
    # (.tmp bytes, the rename) and of the first appends after it.
    for k2 in range(0, good + 20, STRIDE):
        run = Run("cuts-repair", SHORT, True, [k, k2]).go()
        assert run.boots >= 3 and run.resumed >= 1
        assert run.fixed > 0  # the card of the torn move was lifted
        run = None

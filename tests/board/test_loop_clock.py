# The loop's clock (smartboard.loop.Millis) over the RP2040's ticks_ms,
# which wraps at 2^30 ms (12.4 days of a board left plugged in): the
# board's time goes on rising through the wrap, so a deadline set just
# before it (`now + 8000`, a record's quiet tick, a partial frame's second
# of silence) still falls due just after it. Plain functions: also run
# under the MicroPython unix port at 96 wK.
from rp2ticks import PERIOD, ticks_add, ticks_diff
from smartboard.loop import Millis


class Ticks:
    """time.ticks_ms and time.ticks_diff as the rp2 port has them."""

    def __init__(self, t):
        self.t = t

    def ms(self):
        return self.t

    def diff(self, a, b):
        return ticks_diff(a, b)

    def go(self, ms):
        self.t = ticks_add(self.t, ms)


def test_the_loops_time_rises_through_the_wrap_of_ticks_ms():
    tk = Ticks(PERIOD - 3000)
    now = Millis(tk.ms, tk.diff)
    assert now() == 0
    due = now() + 8000  # e.g. the corners' fault sign
    seen = []
    for _ in range(12):
        tk.go(1000)
        seen.append(now())
    assert tk.t < PERIOD - 3000  # the ticks wrapped ...
    assert seen == [1000 * (i + 1) for i in range(12)]  # ... the loop's time did not
    assert seen[6] < due <= seen[7]
    # the raw ticks would have put the deadline 2^30 ms (12.4 days) away
    assert tk.t - (PERIOD - 3000 + 8000) < -(1 << 29)


def test_the_loops_time_never_goes_back():
    tk = Ticks(100)
    now = Millis(tk.ms, tk.diff)
    tk.go(50)
    assert now() == 50
    tk.t = 40  # a tick source read out of order: no step back
    assert now() == 50
    tk.t = 200  # 50 ms after the last reading it took
    assert now() == 100
    # after the first 12.4 days the sum is past the small ints of the
    # RP2040: it goes on rising all the same
    now.ms = PERIOD - 10
    tk.go(20)
    assert now() == PERIOD + 10

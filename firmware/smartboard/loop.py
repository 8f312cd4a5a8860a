# One pass of the board's loop, guarded: the board's tick, then the serial
# link. An error in either is caught, counted and said (Board.fault), and
# the loop goes on — a bug hit in the middle of a match must never leave
# the board at the REPL, deaf to its host and executing whatever the host
# sends next as Python. The link runs even when the tick keeps failing, so
# the PC can always ask what is wrong and pull the matches. Ctrl-C still
# ends the loop: that is how mpremote takes the board over.
import gc

from apixagon.compat import const

# While the PC downloads the matches (the link answered HELLO, LOGS, GET,
# FETCH or PULLED less than HOT_MS ago) its next request gets the loop: a
# board tick (up to the lanes' 25 ms slice with four NFC readers on the
# RP2040) between a reply and the request it brings only made the request
# wait. HOT_MS as long as TICK_AT_LEAST_MS: a host that stores what it got
# before it asks again (a pull's PULLED after its last logs) is still
# answered at once. The sensors are still read at least every
# TICK_AT_LEAST_MS: a card put down meanwhile is seen. A forced tick that
# falls due while a request of the download waits, or less than ANSWER_MS
# after the last answer (the host reading it), comes after that request,
# unless the sensors have waited LATE_MS: a pipelined download always has
# a request waiting, and a pull's PULLED, asked a ms after its last logs
# came, waited a whole tick (~5 ms) for nothing.
HOT_MS = const(100)
TICK_AT_LEAST_MS = const(100)
LATE_MS = const(200)
ANSWER_MS = const(5)


def step(board, link, now, tick=None):
    """tick: what runs the board's tick (the simulator's rig.tick, which
    keeps its sensors' time); board.tick(now) if None. True when the pass
    found nothing to do and nothing falls due within a millisecond (no
    card, no flash work, no request, no download): the chip may sleep
    until its next interrupt (boards/start.py)."""
    hot = link.hot
    if hot < 0:  # a download's request was answered since the last step (Link.cmd_*)
        hot = link.hot = now + HOT_MS
    if now >= hot or now - link.ticked >= TICK_AT_LEAST_MS:
        if now < hot and now - link.ticked < LATE_MS:
            _poll(board, link, now, False)
            if link.hot < 0 or now < hot - HOT_MS + ANSWER_MS:
                return False  # a request answered, or one soon: the tick on a later pass
        link.ticked = now
        board.brief = now < hot  # a download's forced tick: no reading on (scan.NfcLanes)
        try:
            if tick is None:
                board.tick(now)
            else:
                tick()
        except KeyboardInterrupt:
            raise
        except Exception as e:  # noqa: BLE001 - see above
            _caught(board, "the loop", e)
    _poll(board, link, now, True)
    return board.quiet and not link.got and now >= link.hot


def _poll(board, link, now, changes):
    """The link's turn, guarded: its requests, then (changes) the cells'
    and LEDs' events when the PC watches. Without them before a
    download's forced tick (step): the tick makes the changes."""
    try:
        link.poll(now)
        if changes:
            link.send_changes()
    except KeyboardInterrupt:
        raise
    except Exception as e:
        _caught(board, "the link", e)


def _caught(board, where, err):
    if isinstance(err, MemoryError):
        gc.collect()
    try:
        board.fault(where, err)
    except Exception:  # noqa: BLE001 - saying so must not be what stops the board
        board.crashes += 1


class Millis:
    """Milliseconds since the loop started, never wrapping. The board's
    timers hold deadlines (`now + 8000`) and compare plain differences;
    time.ticks_ms() wraps at 2^30 ms on the RP2040 (12.4 days: a board
    left plugged in), after which `now - then` goes hugely negative and a
    record would wait days to be written. ticks_diff sees through the
    wrap; the sum is a small int for 12.4 days, then a long int, which
    MicroPython handles the same (a few bytes a pass)."""

    def __init__(self, ticks, diff):
        self.ticks = ticks
        self.diff = diff
        self.last = ticks()
        self.ms = 0

    def __call__(self):
        t = self.ticks()
        d = self.diff(t, self.last)
        if d > 0:  # ticks never go back; a negative diff is none
            self.ms += d
            self.last = t
        return self.ms

# While the PC downloads (a HELLO, LOGS, GET, FETCH or PULLED answered
# less than loop.HOT_MS ago) the loop keeps its turn for the link and
# ticks the board at least every loop.TICK_AT_LEAST_MS. A forced tick that
# falls due while a request of the download waits, or less than
# loop.ANSWER_MS after an answer (the host reading it), comes after that
# request; once the sensors have waited loop.LATE_MS it comes first.
# Driven as the board's loop drives it (loop.step). Plain functions: also
# run under MicroPython at 96 wK.
from smartboard import loop, proto
from test_link_sim import sim_link


def counted(r):
    """r.tick, counted: [ticks so far], the tick."""
    n = [0]

    def tick():
        n[0] += 1
        return r.tick()

    return n, tick


def answered(port, seq):
    return any(f.startswith("=%d OK apixagon" % seq) for f in port.frames)


def hot(name):
    """A board whose link has just answered a HELLO (a download begun) at
    1000 ms, its forced tick due: the last one 120 ms before."""
    r, lk, port = sim_link(name)
    n, tick = counted(r)
    lk.handle("@2 HELLO 5")
    assert answered(port, 2)
    lk.ticked = 1000 - loop.TICK_AT_LEAST_MS - 20
    return r, lk, port, n, tick


def test_a_waiting_request_of_a_download_comes_before_a_forced_tick():
    r, lk, port, n, tick = hot("dl-first")
    loop.step(r.board, lk, 1000, tick)  # the answer's pass: hot from here
    port.inp += proto.frame("@3 HELLO 5")
    loop.step(r.board, lk, 1002, tick)
    assert answered(port, 3) and n[0] == 0


def test_the_forced_tick_waits_for_the_host_to_read_an_answer_then_comes():
    r, lk, port, n, tick = hot("dl-answer")
    loop.step(r.board, lk, 1000, tick)  # the answer's pass: hot from here
    t = 1000
    while t < 1000 + loop.ANSWER_MS:
        loop.step(r.board, lk, t, tick)
        t += 1
    assert n[0] == 0  # no request yet: the host may be reading the answer
    loop.step(r.board, lk, t, tick)
    assert n[0] == 1  # none came: the sensors' turn
    loop.step(r.board, lk, t + 1, tick)
    assert n[0] == 1  # ticked: not forced again for TICK_AT_LEAST_MS


def test_sensors_that_waited_too_long_are_read_first_the_request_still_answered():
    r, lk, port, n, tick = hot("dl-late")
    loop.step(r.board, lk, 1000, tick)  # the answer's pass: hot from here
    lk.ticked = 1002 - loop.LATE_MS
    port.inp += proto.frame("@3 HELLO 5")
    loop.step(r.board, lk, 1002, tick)
    assert n[0] == 1 and answered(port, 3)


def test_without_a_download_the_board_ticks_every_pass():
    r, lk, port = sim_link("dl-none")
    n, tick = counted(r)
    for t in range(1000, 1010):
        loop.step(r.board, lk, t, tick)
    assert n[0] == 10


# The chip sleeps a millisecond after a pass only when it found nothing to
# do (boards/start.py): never with a request's bytes in, a card that just
# moved, or a download under way.
def test_a_quiet_pass_may_sleep_and_a_busy_one_may_not():
    from boardkit import rig
    from smartboard.sim import serial_main
    from test_link_sim import InPort

    r = rig("dl-sleep", "B")
    port = InPort()
    lk = serial_main.SimLink(port, r, None, "B")
    r.board.listener = lk
    t = 2000
    for _ in range(20):
        t += 1
        quiet = loop.step(r.board, lk, t, r.tick)
    assert quiet  # the setup screen, nothing on the board: asleep between passes
    port.inp += proto.frame("@4 STATUS")
    assert not loop.step(r.board, lk, t + 1, r.tick)  # bytes came: awake
    assert loop.step(r.board, lk, t + 2, r.tick)
    lk.handle("@5 HELLO 5")  # a download begins: the loop stays the host's
    assert not loop.step(r.board, lk, t + 3, r.tick)
    assert not loop.step(r.board, lk, t + 4, r.tick)
    t += loop.HOT_MS + 10
    loop.step(r.board, lk, t, r.tick)
    assert loop.step(r.board, lk, t + 1, r.tick)
    r.put("E5", 0x21)  # a card put: that pass is awake
    assert not loop.step(r.board, lk, t + 2, r.tick)
    t += 50
    loop.step(r.board, lk, t, r.tick)
    assert loop.step(r.board, lk, t + 1, r.tick)
    r.board.settings.due = lambda now: True  # a flash write this pass: awake
    assert not loop.step(r.board, lk, t + 2, r.tick)

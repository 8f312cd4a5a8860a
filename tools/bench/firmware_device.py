# Firmware benchmark run *under MicroPython* by tools/bench/firmware.py:
#   micropython -X heapsize=NwK -c "<path setup>; import firmware_device" WHAT ARGS...
# WHAT: game PROFILE   the whole firmware plays tests/data/beehive_full.apx
#                      from hands on the simulated board, hint mode on;
#                      prints RESULT ok/MISMATCH, and the placement
#                      latencies of the sensor time model
#       event K P      K placement + take-back sensor events at move P
#                      (inference, rules, hint layer, sensor priorities)
#       frame K P      K LED frames at move P (palette, gamma, current
#                      limit, write), each timed alone: on the board to its
#                      strip through the start-up code's PIO driver, the
#                      wire left to finish between frames (as between loop
#                      ticks); on the unix port to the simulated strip
#       litframe K P   the same for the dearest frame: every cell lit
#                      white at full brightness (the current limit scales
#                      each), half of them blinking, the alarm on the
#                      corners, some cells dark
#       idle K P       K loop ticks with nothing happening (profile B)
#       setup K P      the position alone (the callgrind baseline)
#       scan PROFILE K F
#                      every position of the record in turn, as the moves
#                      are applied: K events and F frames (profile A) or K
#                      idle ticks (B) at each; prints POS moves occupied
#                      event_us frame_us idle_us (0 where not measured)
import gc
import os
import sys
import time

if not hasattr(time, "ticks_us"):  # CPython, for profiling this file
    time.ticks_us = lambda: int(time.perf_counter() * 1e6)
    time.ticks_diff = lambda a, b: a - b

from apixagon import record
from apixagon.geometry import NCELLS
from smartboard import referee, scan
from smartboard.sim import replay
from smartboard.sim.rig import Rig

RECORD = "tests/data/beehive_full.apx"
args = sys.argv[1:]
if args and args[0] == "-c":
    args = args[1:]
WHAT = args[0]
SETTINGS = "build/bench-settings.bin"


class ToPosition(record.Visitor):
    """Applies the first P moves of the record straight to the board's
    game (no sensing: a fast set-up), as if they had been played."""

    def __init__(self, board, p):
        self.board = board
        self.left = p

    def move(self, lineno, letter, seat, kind, card, cells):
        if self.left > 0:
            record.apply_move(self.board.ref.game, letter, seat, kind, card, cells)
            self.left -= 1


def fresh_rig(profile):
    # The same start on every run: the loop's timing follows the settings
    # (button presses to reach them), and the latencies follow the timing.
    for f in (SETTINGS, SETTINGS + ".deck"):
        try:
            os.remove(f)
        except OSError:
            pass
    return Rig(profile, SETTINGS)


def position(p, profile="A"):
    rig = fresh_rig(profile)
    b = rig.board
    st = b.settings
    st.set(2, 2, 0)  # settings.GAME_MODE: beehive, as the record
    st.set(3, 1, 0)  # settings.START: team B
    st.set(0, 1, 0)  # settings.DISPLAY: hint mode
    b.start()
    with open(RECORD) as f:
        record.read(f, ToPosition(b, p))
    placed(b)
    return rig


def placed(b):
    """The board senses what the game has (after moves applied straight
    to the game), then draws it."""
    g = b.ref.game
    for x in range(NCELLS):
        v = referee._code_of(g.board[x]) if g.board[x] else 0
        b.ref.phys[x] = v
        b.sensed[x] = v
    b._refresh()


def legal_placement(g):
    t = g.side_to_play()
    for c in range(31):
        if g.where(t, c) == 255:
            for x in range(NCELLS):
                if g.check_place(t, c, x, g.seat_to_play()) == 0:
                    return 1 + (t << 7 | c), x
    raise RuntimeError("no legal placement at this position")


def measure(rig, what, k):
    """Microseconds for k rounds of `what` at the rig's position, and the
    number of events, frames or ticks they were."""
    b = rig.board
    state, x = legal_placement(b.ref.game)
    gc.collect()
    t0 = time.ticks_us()
    if what == "event":
        for i in range(k):
            b.cell_changed(x, state)  # the card is put down: a move
            b._refresh()
            b.cell_changed(x, scan.EMPTY)  # and lifted: taken back
            b._refresh()
    elif what in ("frame", "litframe"):
        dt = frames(rig, k, what == "litframe")
        return dt, k
    elif what == "idle":
        for i in range(k):
            rig.tick()
    dt = time.ticks_diff(time.ticks_us(), t0)
    return dt, 2 * k if what == "event" else k


_STRIP = []


def board_strip(n):
    """The board's own strip (the start-up code's driver, made once: it
    claims a DMA channel), or None off the board (the unix port has no
    rp2)."""
    if not _STRIP:
        try:
            from boards import build
            from boards.rev_a import pins

            _STRIP.append(build.led_strip(pins, n))
        except ImportError:
            _STRIP.append(None)
    return _STRIP[0]


def frames(rig, k, lit):
    """Microseconds for k frames, each timed alone (the blink phases in
    turn); lit: the dearest layer (litframe)."""
    from smartboard import view as V

    b = rig.board
    v = b.view
    p = b.hw.painter
    strip = board_strip(p.strip.n)
    if strip is not None:
        p.strip = strip
    if lit:
        p.brightness = 255
        for x in range(NCELLS):
            v.layer[x] = V.CLEAR | (V.FAST if x & 1 else 0)
            v.dark[x] = x % 10 == 0
        v.ndark = 7
        v.alarm_until = 1 << 29
    gc.collect()
    dt = 0
    for i in range(k):
        v.dirty = True
        t0 = time.ticks_us()
        v.frame(i << 7)
        dt += time.ticks_diff(time.ticks_us(), t0)
        if strip is not None:
            time.sleep_ms(3)  # the frame's 1.8 ms on the wire and the latch
    if lit and p.scaled < k // 2:
        raise RuntimeError("the lit frames were not current-limited")
    return dt


class Walk(record.Visitor):
    """scan: applies the record's moves one by one and measures at each
    position still in play."""

    def __init__(self, rig, k, f):
        self.rig = rig
        self.k = k
        self.f = f
        self.moves = 0

    def move(self, lineno, letter, seat, kind, card, cells):
        b = self.rig.board
        g = b.ref.game
        record.apply_move(g, letter, seat, kind, card, cells)
        self.moves += 1
        if g.over():
            return
        placed(b)
        try:
            legal_placement(g)
        except RuntimeError:
            return  # none for the side to play (a declaration is due)
        us = [0, 0, 0]
        if self.rig.profile == "A":
            dt, n = measure(self.rig, "event", self.k)
            us[0] = dt // n
            dt, n = measure(self.rig, "frame", self.f)
            us[1] = dt // n
        else:
            dt, n = measure(self.rig, "idle", self.k)
            us[2] = dt // n
        occupied = 0
        for y in range(NCELLS):
            occupied += g.board[y] != 0
        print("POS", self.moves, occupied, us[0], us[1], us[2])


if WHAT == "game":
    rig = fresh_rig(args[1])
    rig.board.settings.set(0, 1, 0)  # hint mode on
    with open(RECORD) as f:
        p = replay.play(rig, f)
    g = rig.board.ref.game
    expected = None
    with open(RECORD) as f:
        for line in f:
            if line.startswith("[Result"):
                expected = line.split('"')[1]
    got = record.result(g)[3]
    gc.collect()
    lat = sorted(p.latency)
    n = len(lat)
    print("RESULT", "ok" if got == expected else "MISMATCH", got, "| free", gc.mem_free())
    print("LATENCY", n, sum(lat) // n, lat[n // 2], lat[(n * 95) // 100], lat[-1])
elif WHAT == "scan":
    rig = position(0, args[1])
    with open(RECORD) as f:
        record.read(f, Walk(rig, int(args[2]), int(args[3])))
else:
    K = int(args[1])
    P = int(args[2])
    rig = position(P, "B" if WHAT == "idle" else "A")
    b = rig.board
    g = b.ref.game
    dt, n = measure(rig, WHAT, K)
    occupied = 0
    for y in range(NCELLS):
        occupied += g.board[y] != 0
    print("TIME", WHAT, n, dt, "occupied", occupied, "moves", g.ply(), "ok", b.ref.moves)

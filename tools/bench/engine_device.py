# Benchmark script of the computer player, run under MicroPython: on the
# emulated RP2040 (tools/bench/target.py --part engine, the engine frozen
# in the product image) and on the unix port (the worst positions found by
# its clock). Replays a record; at a position the engine of a level
# chooses for the side to play with a hand of 4 of its cards not on the
# board (a seeded deal, the same on every interpreter: engine.Rng).
#   ... engine_device WHAT RECORD LEVELS POSITIONS
# WHAT: scan  every position (POSITIONS "-"), each level: POS p level us
#       time  the given positions: TIME p level us alloc, alloc the bytes
#             the search allocated (the collector held off, so nothing of
#             it is freed before it ends: its peak), and ENGINE the bytes
#             the engine's objects take (made once a match)
import gc
import sys
import time

from apixagon import engine as E
from apixagon import record
from apixagon.game import Game

args = sys.argv[1:]
if args and args[0] == "-c":
    args = args[1:]
WHAT, PATH = args[0], args[1]
LEVELS = [int(x) for x in args[2].split(",")]
WANT = None if args[3] == "-" else [int(x) for x in args[3].split(",")]


def ticks():
    try:
        return time.ticks_us()
    except AttributeError:
        return int(time.perf_counter() * 1000000)


def diff(a, b):
    try:
        return time.ticks_diff(a, b)
    except AttributeError:
        return a - b


class Lines(record.Visitor):
    def __init__(self):
        self.moves = []
        self.head = []

    def header(self, lineno, key, value):
        self.head.append((key, value))

    def move(self, lineno, letter, seat, kind, card, cells):
        self.moves.append((letter, seat, kind, card, cells))


def game_at(v, p):
    c = record.Checker(Game)
    for key, value in v.head:
        c.header(0, key, value)
    c._start_game()
    g = c.game
    for m in v.moves[:p]:
        record.apply_move(g, *m)
    return g


def hand_of(g, p):
    t = g.side_to_play()
    left = [c for c in range(31) if not g.loc[t * 31 + c]]
    rng = E.Rng(1000 + p)
    h = []
    while left and len(h) < 4:
        h.append(left.pop(rng.below(len(left))))
    return h


def main():
    with open(PATH) as f:
        v = Lines()
        record.read(f, v)
    gc.collect()
    free0 = gc.mem_free() if hasattr(gc, "mem_free") else 0
    engines = {lv: E.Engine(lv, 1) for lv in LEVELS}
    gc.collect()
    if hasattr(gc, "mem_free"):
        print("ENGINE", (free0 - gc.mem_free()) // len(LEVELS))
        from apixagon import dealer

        g0 = Game(0, 0)
        gc.collect()
        free0 = gc.mem_free()
        keep = [dealer.Table(g0, [(1, 1)], 1)]  # the computer's hand and pile
        gc.collect()
        print("TABLE", free0 - gc.mem_free())
        keep.pop()
    positions = WANT if WANT is not None else range(len(v.moves))
    for p in positions:
        g = game_at(v, p)
        if g.over() or g.reserve_due():
            continue
        h = hand_of(g, p)
        for lv in LEVELS:
            e = engines[lv]
            e.rng.seed(p)
            gc.collect()
            if WHAT == "time" and hasattr(gc, "mem_free"):
                gc.disable()
                f0 = gc.mem_free()
            t0 = ticks()
            m = e.choose(g, h, 4, True)
            us = diff(ticks(), t0)
            if WHAT == "time" and hasattr(gc, "mem_free"):
                alloc = f0 - gc.mem_free()
                gc.enable()
                print("TIME", p, lv, us, alloc, m)
            else:
                print("POS", p, lv, us)
        g = None
        gc.collect()
    print("DONE")


main()

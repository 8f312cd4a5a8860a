# Benchmark script run *under MicroPython* by tools/bench/core.py:
#   micropython -X heapsize=NwK -c "<path setup>; import core_device" WHAT RECORD [K]
# WHAT: game   replay RECORD with the card query for every card in hand (the
#              heaviest hint load) after every move; check
#              the result against the record's [Result] tag
#       scan   K hint queries at every position: prints the cost of each
#       hint   K full hint queries at position P (moves kept; default: the
#              last position still in play)
#       cards  K card queries for every card in hand at P
#       check  K placement checks at P (the sensor layer's question)
#       push   K place + undo pairs at P
#       setup  the replay alone, to P (the callgrind baseline)
# P comes as a 4th argument.
import gc
import sys
import time

from apixagon import record
from apixagon.game import Game
from apixagon.geometry import NCELLS, NONE

args = sys.argv[1:]
if args and args[0] == "-c":
    args = args[1:]
WHAT, PATH = args[0], args[1]
K = int(args[2]) if len(args) > 2 else 0
P = int(args[3]) if len(args) > 3 else -1
OUT = bytearray(NCELLS)
BUF = bytearray(NCELLS)


def full_hint(g):
    """One LED refresh in hint mode: the three hint queries — legal cells
    for the side to play, one card's cells split plain/extension/block (the
    card query), and the threats to block."""
    t = g.side_to_play()
    g.legal_cells(None, OUT)
    c = 0
    while c < 30 and g.where(t, c) != NONE:
        c += 1
    g.card_cells(c, BUF)
    g.threats(OUT)


def every_card(g):
    """Stress figure: the card query for every card the side still holds."""
    t = g.side_to_play()
    g.legal_cells(None, OUT)
    for c in range(31):
        if g.where(t, c) == NONE:
            g.card_cells(c, BUF)
    g.threats(OUT)


class Replay(record.Checker):
    """The record checker, with a full hint query after every legal move."""

    def __init__(self, hints):
        record.Checker.__init__(self, Game)
        self.hints = hints

    def move(self, lineno, letter, seat, kind, card, cells):
        record.Checker.move(self, lineno, letter, seat, kind, card, cells)
        if self.hints and self.verdicts[-1][1] == 0:
            every_card(self.game)


def replay(hints):
    v = Replay(hints)
    n = 0
    with open(PATH) as f:
        for line in f:
            n += 1
            record.parse_line(line, n, v)
    v.end()
    return v


v = replay(WHAT == "game")
g = v.game
if WHAT == "game":
    got = record.result(g)[3]
    expected = None
    for name, value in v.tags:
        if name == "Result":
            expected = value
    illegal = 0
    for lineno, r in v.verdicts:
        illegal += r != 0
    gc.collect()
    ok = got == expected and not illegal
    print("RESULT", "ok" if ok else "MISMATCH", got, "| free", gc.mem_free())
elif WHAT == "scan":
    moves = 0
    for kind, payload, ply in g.history():
        moves += 1
    while g.nlog:  # walk back through the game, timing each position
        if not g.over():
            t0 = time.ticks_us()
            for i in range(K):
                every_card(g)
            dt = time.ticks_diff(time.ticks_us(), t0)
            occupied = 0
            for x in range(NCELLS):
                occupied += g.board[x] != 0
            print("POS", moves, dt, occupied)
        g.undo()
        moves -= 1
else:
    moves = 0
    for kind, payload, ply in g.history():
        moves += 1
    while g.over() or (P >= 0 and moves > P):
        g.undo()
        moves -= 1
    occupied = 0
    for x in range(NCELLS):
        occupied += g.board[x] != 0
    t = g.side_to_play()
    t0 = time.ticks_us()
    if WHAT == "hint":
        for i in range(K):
            full_hint(g)
    elif WHAT == "cards":
        for i in range(K):
            every_card(g)
    elif WHAT == "check":
        for i in range(K):
            g.check_place(t, i % 31, i % NCELLS)
    elif WHAT == "push":
        c = 0
        while g.where(t, c) != NONE:
            c += 1
        x = 0
        for i in range(NCELLS):
            if g.check_place(t, c, i) == 0:
                x = i
                break
        for i in range(K):
            g.place(t, c, x)
            g.undo()
    dt = time.ticks_diff(time.ticks_us(), t0)
    print("TIME", WHAT, K, dt, "occupied", occupied, "position", moves)

# Helpers for the rule tests: build positions directly on the core's state.
# MicroPython-compatible (the rule tests run under tests/mp_run.py too).
from apixagon.deck import COMMON, HAS
from apixagon.game import Game
from apixagon.geometry import ROYAL, parse_cell


def c(name):
    """Cell index of a name, asserting it is on the board."""
    x = parse_cell(name)
    assert x != 255, name
    return x


def carrying(symbol, skip=()):
    """Cards that carry symbol, in order, leaving out skip."""
    return [k for k in range(31) if HAS[k * 31 + symbol] and k not in skip]


def not_carrying(symbol, skip=()):
    return [k for k in range(31) if not HAS[k * 31 + symbol] and k not in skip]


def shared(a, b):
    return COMMON[a * 31 + b]


def put(g, side, card, name):
    """Put a card on a cell without a move (card 31: a Rain)."""
    x = c(name)
    assert not g.board[x], name
    g.board[x] = 1 + side * 32 + card
    if card < 31:
        g.loc[side * 31 + card] = x + 1
    return x


def run(g, side, symbol, names, skip=()):
    """Put a run of side's cards carrying symbol on names; returns the cards."""
    cards = carrying(symbol, skip)[: len(names)]
    for k, name in zip(cards, names):
        put(g, side, k, name)
    return cards


def snap(g):
    return bytes(g.board) + bytes(g.loc) + bytes(g.s) + bytes(g.log[: g.nlog])


def set_ply(g, ply):
    g.s[0] = ply & 255
    g.s[1] = ply >> 8


def had_three(g, side):
    """Mark D-5's condition: side had a sequence of 3 at the end of a turn."""
    g.s[2] |= 2 << side


def unlock(g, side=0, card=30):
    """Occupy the Royal Cell directly: specials unlocked (§3.1)."""
    g.board[ROYAL] = 1 + side * 32 + card
    g.loc[side * 31 + card] = ROYAL + 1


def game(mode=0, start=0, players=0, stp=False):
    return Game(mode, start, players, stp)

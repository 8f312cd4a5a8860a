# Shared helpers for the rule-by-rule tests (RULES.md). The same files run
# under CPython (pytest) and the MicroPython unix port (tests/mp_run.py), so
# only plain functions, bytes and lists are used here.
from apixagon.codes import OK
from apixagon.deck import COMMON, HAS
from apixagon.game import Game
from apixagon.geometry import NCELLS, NONE, ROYAL, parse_cell


def cell(name):
    """Cell index of a name such as 'E5', asserting it is on the board."""
    x = parse_cell(name)
    assert x != NONE, name
    return x


def cells(*names):
    """The cells of names, as the bytes that Game.reserve takes."""
    return bytes([cell(n) for n in names])


def new(mode=0, start=0, players=0, stp=False):
    return Game(mode, start, players, stp)


def state(g):
    """Everything a move may change (board, card locations, scalars)."""
    return bytes(g.board) + bytes(g.loc) + bytes(g.s)


def with_sym(sym, skip=()):
    """Cards carrying symbol sym, lowest first, leaving out skip."""
    return [k for k in range(31) if HAS[k * 31 + sym] and k not in skip]


def without_sym(sym, skip=()):
    return [k for k in range(31) if not HAS[k * 31 + sym] and k not in skip]


def common(a, b):
    """The one symbol cards a and b share."""
    return COMMON[a * 31 + b]


def _x(where):
    return cell(where) if isinstance(where, str) else where


def put(g, side, card, where):
    """Put side's card (31: a Rain) on a cell directly, without a move."""
    x = _x(where)
    assert not g.board[x], where
    g.board[x] = 1 + side * 32 + card
    if card < 31:
        assert not g.loc[side * 31 + card], card
        g.loc[side * 31 + card] = x + 1
    return x


def put_run(g, side, sym, names, skip=()):
    """Put side's cards carrying sym on names (a run when the cells are in
    line); returns the cards used."""
    cards = with_sym(sym, skip)[: len(names)]
    assert len(cards) == len(names)
    for i in range(len(names)):
        put(g, side, cards[i], names[i])
    return cards


def set_ply(g, p):
    """Set the number of turns completed (whose turn it is follows)."""
    g.s[0] = p & 255
    g.s[1] = p >> 8


def seat_order(g, n):
    """(team, seat) of the first n turns; leaves the turn count at 0."""
    out = []
    for p in range(n):
        set_ply(g, p)
        out.append((g.side_to_play(), g.seat_to_play()))
    set_ply(g, 0)
    return out


def mark_had3(g, side):
    """D-5's flag: side had a sequence of 3 at the end of an own turn."""
    g.s[2] |= 2 << side


def occupy_royal(g, side=1, card=30):
    """Occupy the Royal Cell directly: the specials are unlocked (§3.1)."""
    put(g, side, card, ROYAL)


def play(g, side, card, where, seat=0):
    """A legal placement, asserted."""
    r = g.place(side, card, _x(where), seat)
    assert r == OK, r


def refused(g, want, move, *args):
    """Call move(*args): it must return the reason code want and leave the
    position exactly as it was (NOTATION.md: an illegal line changes
    nothing)."""
    before = state(g)
    nlog = g.nlog
    r = move(*args)
    assert r == want, (r, want)
    assert state(g) == before
    assert g.nlog == nlog


def legal_set(g, side, card):
    """Cells where check_place says the card may go."""
    return [x for x in range(NCELLS) if g.check_place(side, card, x) == OK]

# A seeded random player over the rules core, for property tests and the
# benchmark. MicroPython-compatible (runs under tests/mp_run.py).
import random

from apixagon.codes import OK
from apixagon.game import Game
from apixagon.geometry import NCELLS, NONE

SPECIAL_CHANCE = 3  # one turn in this many tries a special once unlocked


def snapshot(g):
    """Everything a move may change, as one bytes value."""
    return bytes(g.board) + bytes(g.loc) + bytes(g.s)


def _try_special(g, t, out):
    kinds = [0, 1, 2]
    for i in range(2, 0, -1):  # shuffle (no random.shuffle on MicroPython)
        j = random.randrange(i + 1)
        kinds[i], kinds[j] = kinds[j], kinds[i]
    for k in kinds:
        start = random.randrange(NCELLS)
        for i in range(NCELLS):
            x = (start + i) % NCELLS
            if k == 0 and g.check_rain(t, x) == OK:
                return g.rain(t, x)
            if k == 1 and g.check_smoker(t, x) == OK:
                return g.smoker(t, x)
            if k == 2 and g.board[x]:
                y0 = random.randrange(NCELLS)
                for j in range(NCELLS):
                    y = (y0 + j) % NCELLS
                    if g.check_beekeeper(t, x, y) == OK:
                        return g.beekeeper(t, x, y)
    return None


def _try_reserve(g, t):
    """The keeper's reserve (§4): a random choice of the cards it may take
    back, or the empty reserve when none may be (D-14)."""
    cells = bytearray()
    for x in range(NCELLS):
        if g.owner(x) == t and random.randrange(3):
            if g.check_reserve(t, bytes(cells) + bytes((x,))) == OK:
                cells.append(x)
    if not cells:
        for x in range(NCELLS):  # D-14: empty only when nothing may be taken
            if g.check_reserve(t, bytes((x,))) == OK:
                cells.append(x)
                break
    return g.reserve(t, bytes(cells))


def play_turn(g, out):
    """Play one random legal action for the side to play. Returns the kind
    of action ('place', 'special', 'reserve', 'declare', 'pass') or None if
    the side has no move at all (the game should then be over)."""
    t = g.side_to_play() if g.mode != 5 else NONE
    side = 0 if t == NONE else t
    if g.mode != 5:
        left = 0
        for c in range(31):
            left += g.where(side, c) == NONE
        if left < 5 and random.randrange(6) == 0:
            if g.deck_empty(side) == OK:
                return "declare"
        if g.reserve_due():  # D-14: the keeper's turn is the reserve
            assert _try_reserve(g, side) == OK
            return "reserve"
        # D-9: a team of three may pass in its tactical void at will
        if random.randrange(4) == 0 and g.check_pass(side) == OK:
            assert g.pass_turn(side) == OK
            return "pass"
        if g.specials_unlocked() and not g.placement_pending():
            if random.randrange(SPECIAL_CHANCE) == 0 and _try_special(g, side, out) == OK:
                return "special"
    start = random.randrange(31)
    for i in range(31):
        c = (start + i) % 31
        if g.mode == 5:
            if g.where(0, c) != NONE:
                continue
            x0 = random.randrange(NCELLS)
            for j in range(NCELLS):
                x = (x0 + j) % NCELLS
                if g.check_place(NONE, c, x) == OK:
                    g.place(NONE, c, x)
                    return "place"
            continue
        n = g.card_cells(c, out)
        if n:
            k = random.randrange(n)
            for x in range(NCELLS):
                if out[x]:
                    if not k:
                        assert g.place(t, c, x) == OK
                        return "place"
                    k -= 1
    if g.mode != 5 and g.specials_unlocked() and not g.placement_pending():
        if _try_special(g, side, out) == OK:
            return "special"
    # Stuck before the reserve (D-10): the players declare the deck empty,
    # then the seat passes (D-9) or the keeper builds (D-14).
    if g.silent and not g.reserve_used(side):
        if not g.deck_declared_empty(side):
            assert g.deck_empty(side) == OK
            return "declare"
        if g.check_pass(side) == OK:
            assert g.pass_turn(side) == OK
            return "pass"
    return None


def new_game(mode, seed, players=0, stp=False):
    random.seed(seed)
    return Game(mode, random.randrange(2), players, stp)


def play_game(mode, seed, players=0, stp=False, each=None, limit=400):
    """Play a whole random game; each(g) is called after every action."""
    g = new_game(mode, seed, players, stp)
    out = bytearray(NCELLS)
    n = 0
    while not g.over() and n < limit:
        if play_turn(g, out) is None:
            break
        n += 1
        if each is not None:
            each(g)
    return g

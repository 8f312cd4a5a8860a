# The cards in the hands of the seats a program plays (RULES §3-§6): the
# computer's seats on the board, or every seat in a self-play match. The
# board cannot see hands (§8): the computer's hand is the board's own draw
# from its side's cards not yet seen, a seeded pile it keeps for its seats
# (draw 3, hand limit 4; 2v1's single player 2 and 3, §5). In a team game
# the people of that team draw from the same deck: the pile holds the
# cards the board has not seen placed, so a card it names may be one a
# teammate holds (the players then swap it; docs/guide/computer.md).
#
# A turn (turn()): a special instead of the draw and the placement (D-2,
# judged on the hand held, before any draw), else a draw to the hand
# limit, then a placement; the declarations the players would make when
# the deck runs out (§3.3, §4: deck-empty; D-9's pass; D-14's reserve).
from . import engine as E
from .codes import (
    DECK_EMPTY,
    JUNIOR,
    OK,
    PASS,
    PLACE,
    RESERVE,
    TWO_VS_ONE,
)
from .geometry import NONE

_NC = 31


def hand_limit(g, side):
    """§3, §4: 4 cards; §5: the single player of 2v1 holds 3."""
    return 3 if g.mode == TWO_VS_ONE and side == 1 else 4


class Table:
    """Hands and draw piles for the seats held (side, seat) pairs; a
    Junior seat is (0, player). rng: an engine.Rng (the shuffles)."""

    def __init__(self, g, held, seed=1):
        self.g = g
        self.rng = E.Rng(seed)
        self.held = held
        self.hands = {}
        self.piles = [[], []]  # lists: pop() and remove(), which bytearray lacks on MicroPython
        if g.mode == JUNIOR:
            self._deal_junior()
            return
        for t in (0, 1):
            if not any(s == t for s, _ in held):
                continue
            p = self.piles[t]
            for c in range(_NC):
                if not g.loc[t * _NC + c]:
                    p.append(c)
            self.shuffle(p)
        for s, seat in held:
            h = []
            self.hands[(s, seat)] = h
            for _ in range(hand_limit(g, s) - 1):
                self.draw(s, seat)

    def _deal_junior(self):
        # §6: the first card on the Royal Cell, the 30 others dealt out
        # equally, the excess discarded. The first card is the table's too.
        g = self.g
        p = list(range(_NC))
        self.shuffle(p)
        self.first = p[0]
        k = 1
        for s, n in self.held:
            self.hands[(s, n)] = p[k : k + g.share]
            k += g.share

    def shuffle(self, p):
        rng = self.rng
        for i in range(len(p) - 1, 0, -1):
            j = rng.below(i + 1)
            p[i], p[j] = p[j], p[i]

    def hand(self, side, seat):
        return self.hands.get((side, seat))

    def draw(self, side, seat):
        """One card from the side's pile into the seat's hand, up to the
        hand limit: the card, or NONE (no card, or the hand is full)."""
        h = self.hands[(side, seat)]
        p = self.piles[side]
        if not p or len(h) >= hand_limit(self.g, side):
            return NONE
        c = p.pop()
        h.append(c)
        return c

    def played(self, side, seat, card):
        """The card left the hand (placed on the board)."""
        h = self.hands[(side, seat)]
        if card in h:
            h.remove(card)

    def sync(self, side):
        """Drop from the side's pile and hands the cards now on the board
        (in a team game a person of that side may have placed one of them:
        the board's pile is the cards it has not seen, §8)."""
        g = self.g
        for h in [self.piles[side]] + [v for k, v in self.hands.items() if k[0] == side]:
            for c in list(h):
                if g.loc[side * _NC + c]:
                    h.remove(c)

    def returned(self, side, cards):
        """§4: the reserve deck, shuffled by the opponents, is the side's
        pile again."""
        p = self.piles[side]
        for c in cards:
            p.append(c)
        self.shuffle(p)


def choose(g, table, eng, side, seat):
    """The move of a held seat whose turn it is, drawing as the turn
    allows (a special first, on the hand held: D-2); 0 when it has none.
    A RESERVE's cells are in eng.reserve_cells[:eng.nres]."""
    h = table.hand(side, seat)
    opp = hand_limit(g, side ^ 1)
    if g.reserve_due():
        return eng.choose(g, h, opp)
    if g.specials_unlocked() and not g.placement_pending() and _has_special(g, side):
        m = eng.choose(g, h, opp, True)
        if m and E.kind_of(m) != PLACE and E.kind_of(m) != PASS:
            return m  # a special instead of the draw and the placement
    if not g.placement_pending():
        table.draw(side, seat)
    return eng.choose(g, h, opp, False)


def _has_special(g, t):
    r, b, s = g.specials_left(t)
    return r or b or s or g.penalty_special(t)


def carry_out(g, table, eng, m, side, seat):
    """Play move m (from choose()) for the seat, and keep its hand: the
    core's reason code."""
    k = E.kind_of(m)
    if k == RESERVE:
        cells = bytes(eng.reserve_cells[: eng.nres])
        cards = bytearray()
        for x in cells:
            cards.append(g.card_at(x))
        r = g.reserve(side, cells, seat)
        if r == OK:
            table.returned(side, cards)
        return r
    r = E.play(g, m, side, seat)
    if r == OK and k == PLACE:
        table.played(side, seat, E.arg_a(m))
    return r


def step(g, table, engines):
    """One action of the seat to play in a self-play match where the
    table holds every seat: engines[side] plays side. Returns the move
    kind carried out (DECK_EMPTY for a declaration), or 0 when the seat
    can do nothing at all (the match is stuck: the caller ends it)."""
    if g.mode == JUNIOR:
        return _junior_step(g, table, engines)
    t = g.side_to_play()
    seat = g.seat_to_play()
    h = table.hand(t, seat)
    empty = not table.piles[t]
    if g.silent and empty and not g.deck_declared_empty(t):
        # §4: the team's deck ran out: declared; once the reserve was
        # built, a second declaration ends the match by the count
        if not g.reserve_used(t) or not len(h):
            if g.deck_empty(t) == OK:
                return DECK_EMPTY
    if not g.silent and empty and not len(h) and not g.placement_pending():
        # §3.3: out of cards, deck and hand: the count
        if g.deck_empty(t) == OK:
            return DECK_EMPTY
    eng = engines[t]
    m = choose(g, table, eng, t, seat)
    if not m:
        if g.check_pass(t, seat) == OK:
            m = E.move(PASS)
        elif not g.deck_declared_empty(t) and not g.reserve_used(t) and g.deck_empty(t) == OK:
            return DECK_EMPTY  # §3.3: stuck with a hand that fits nowhere
        else:
            return 0
    r = carry_out(g, table, eng, m, t, seat)
    if r != OK:
        raise AssertionError("illegal engine move %x: reason %d" % (m, r))
    return E.kind_of(m)


def _junior_step(g, table, engines):
    # §6: whoever names the symbol first places their top card; here the
    # players take it in turn (a race has no turns: the engine chooses
    # only where).
    n = g.players
    p = 1 + (g.nmoves() - 1) % n if g.nmoves() else 0
    if not p:
        return PLACE if g.place(NONE, table.first, 30) == OK else 0
    h = table.hand(0, p)
    if not len(h):
        return 0
    m = engines[p % 2].choose(g, h)
    if not m:
        return 0
    r = g.place(NONE, E.arg_a(m), E.arg_b(m), p)
    if r != OK:
        raise AssertionError("illegal engine move %x: reason %d" % (m, r))
    h.pop(0)
    return PLACE


def new_table(g, seed):
    """A Table holding every seat of g (self-play)."""
    if g.mode == JUNIOR:
        held = [(0, p) for p in range(1, g.players + 1)]
    else:
        held = [(t, s) for t in (0, 1) for s in range(1, g.seats[t] + 1)]
    return Table(g, held, seed)

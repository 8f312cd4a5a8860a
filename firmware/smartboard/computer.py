# The seats the computer plays on the board. Imported only when a match
# names one (settings.COMPUTER): a board of people alone never loads the
# engine.
#
# A seat played from elsewhere: its move is not sensed first but known
# first; the board waits to see it carried out (Referee.expect: the target
# pulses in the seat's colour, the companion names the card, the board
# accepts only that card on that cell). The computer is one source of such
# moves; a remote player on another board is another (smartboard.remote;
# the seats' common part is smartboard.seats, without the engine).
#
# The computer's hand is the board's own draw (the board cannot see hands,
# RULES §8): apixagon.dealer keeps a seeded pile of its side's cards not
# yet seen and draws 3, then one a turn to the hand limit of 4 (§3, §4; 3
# for 2v1's single player, §5). The engine reads the board, the record and
# that hand, never another seat's (apixagon.engine).
import gc

from apixagon import dealer, record
from apixagon import engine as E
from apixagon.codes import BEEKEEPER, DECK_EMPTY, OK, PLACE, RAIN_MOVE, RESERVE, SMOKER

# the seats played from elsewhere, shared with smartboard.remote (here
# under their old names: the board and the tests call them computer.*)
from .seats import (  # noqa: F401
    WAITING,
    Remote,
    carried_by_board,
    declare,
    mask_of,
    names,
    seats_of,
)

# The levels the board offers (apixagon.engine has 1 to 6): each answers
# within 2 s of the chip's time at its worst position of the scripted
# 2-player game on the emulated RP2040 (tools/bench/budgets.py); level 6
# takes ~5 s there and is the PC's (apixagon play --level 6).
BOARD_LEVELS = (1, 2, 3, 4, 5)


def level_of(tags):
    for name, value in tags:
        if name == "Level" and value in ("1", "2", "3", "4", "5", "6"):
            return int(value)
    return 1


def seed_of(tags):
    """The [Seed] tag's number (1 for a log from before it was written)."""
    for name, value in tags:
        if name == "Seed" and value.isdigit() and 0 < len(value) < 6:
            return int(value)
    return 1


def tags(g, held, level, seed):
    """The match log's tags naming the computer's seats, its level and its
    seed (a resumed match deals and chooses from it again)."""
    return (("Computer", names(g, held)), ("Level", "%d" % level), ("Seed", "%d" % seed))


class Computer(Remote):
    def __init__(self, g, held, level, seed):
        Remote.__init__(self, held)
        self.level = level
        self.seed = seed
        self.table = dealer.Table(g, held, seed)
        self.eng = E.Engine(level, seed)
        # The heap free at the end of its searches, the lowest this match
        # (STATUS searchheap=; -1: none yet or not MicroPython)
        self.heap_low = -1

    def move(self, g):
        """The computer's move, its search run with the collector held off
        (MicroPython): what it allocates is then all still held when it
        ends, so the heap free then is the search's lowest (a figure the
        benchmarks read in a real match; the search allocates ~80 bytes,
        docs/figures.md: all of it, not a peak, is what a collection could
        have freed meanwhile)."""
        if not hasattr(gc, "mem_free"):
            return self._move(g)
        gc.collect()
        gc.disable()
        try:
            m = self._move(g)
        finally:
            f = gc.mem_free()
            gc.enable()
        if self.heap_low < 0 or f < self.heap_low:
            self.heap_low = f
        return m

    def _move(self, g):
        """The computer's move for the seat to play (drawing as the turn
        allows), or its declaration: DECK_EMPTY when it is out of cards or
        nothing in its hand fits (§3.3, §4); 0 when it has nothing at all
        to do (the players declare for it)."""
        t, seat = g.side_to_play(), g.seat_to_play()
        # its chance a function of the match, the seed and how far the
        # record has come, not of the searches before (a position seen
        # again after a take-back or a restart gets the same choice)
        self.eng.rng.seed(self.seed + 1009 * g.nmoves())
        tab = self.table
        tab.sync(t)  # a teammate's card from its pile placed (team games)
        h = tab.hand(t, seat)
        if g.reserve_due():
            return dealer.choose(g, tab, self.eng, t, seat)
        out = not tab.piles[t] and not len(h)
        if out and not g.placement_pending() and not g.deck_declared_empty(t):
            # out of cards, deck and hand: §3.3 ends the match by the count;
            # §4 opens the reserve (or, after it, ends by the count)
            return E.move(DECK_EMPTY)
        m = dealer.choose(g, tab, self.eng, t, seat)
        if not m and not g.deck_declared_empty(t) and g.check_pass(t, seat) != OK:
            return E.move(DECK_EMPTY)
        return m

    def done(self, m, t, seat, g=None):
        """The move was carried out: its card left the hand; a reserve's
        cards are its pile again (§4: the opponents shuffle it)."""
        k = E.kind_of(m)
        if k == PLACE:
            self.table.played(t, seat, E.arg_a(m))
        elif k == RESERVE and g is not None:
            kind, p = g.last_move()  # side, then (cell, occupant) pairs
            cards = []
            for i in range(2, len(p), 2):
                cards.append((p[i] - 1) & 31)
            self.table.returned(t, cards)

    def taken_back(self, m, t, seat):
        """A take-back of its placement: the card is in its hand again."""
        if E.kind_of(m) == PLACE:
            h = self.table.hand(t, seat)
            if h is not None and E.arg_a(m) not in h:
                h.append(E.arg_a(m))

    def reserve_cells(self):
        return bytes(self.eng.reserve_cells[: self.eng.nres])

    # ---- a resumed match: its record replayed from the start ------------------
    def apply_move(self, g, letter, seat, kind, card, cells):
        """record.apply_move for a line of the record replayed at a resume,
        the hands kept as the match kept them: the seat to play, if it is
        the computer's, drew before its move as _move does (unless it
        played a special instead, D-2), and its move left the hand as
        done() says."""
        t, s = g.side_to_play(), g.seat_to_play()
        mine = (t, s) in self.held
        if mine:
            tab = self.table
            tab.sync(t)
            if not g.reserve_due() and not g.placement_pending():
                if kind != RAIN_MOVE and kind != BEEKEEPER and kind != SMOKER:
                    tab.draw(t, s)
        r = record.apply_move(g, letter, seat, kind, card, cells)
        if r == OK and mine:
            self.done(E.move(kind, card or 0), t, s, g)
        return r

# The seats the computer plays on the board. Imported only when a match
# names one (settings.COMPUTER): a board of people alone never loads the
# engine.
#
# A seat played from elsewhere: its move is not sensed first but known
# first; the board waits to see it carried out (Referee.expect: the target
# pulses in the seat's colour, the companion names the card, the board
# accepts only that card on that cell). The computer is one source of such
# moves; a remote player can be another (Remote, below, takes the move
# from the link).
#
# The computer's hand is the board's own draw (the board cannot see hands,
# RULES §8): apixagon.dealer keeps a seeded pile of its side's cards not
# yet seen and draws 3, then one a turn to the hand limit of 4 (§3, §4; 3
# for 2v1's single player, §5). The engine reads the board, the record and
# that hand, never another seat's (apixagon.engine).
from apixagon import dealer, record
from apixagon import engine as E
from apixagon.codes import DECK_EMPTY, JUNIOR, OK, PASS, PLACE, RESERVE

# The levels the board offers (apixagon.engine has 1 to 6): each answers
# within 2 s of the chip's time at its worst position of the scripted
# 2-player game on the emulated RP2040 (tools/bench/budgets.py); level 6
# takes ~3 s there and is the PC's (apixagon play --level 6).
BOARD_LEVELS = (1, 2, 3, 4, 5)


def seats_of(g, mask):
    """The (side, seat) pairs of the setting's mask (bit side*3 + seat-1)
    that g has."""
    out = []
    if g.mode == JUNIOR:
        return out  # §6 is a race of hands: no computer seat
    for t in (0, 1):
        for s in range(1, g.seats[t] + 1):
            if mask >> (t * 3 + s - 1) & 1:
                out.append((t, s))
    return out


def names(g, held):
    """The seats as the record names them: `G` (two players), `A2 B1`."""
    letters = record.side_letters(g)
    return " ".join(letters[t] + ("%d" % s if g.teams else "") for t, s in held)


def mask_of(g, text):
    """The mask of seats a [Computer] tag names (names())."""
    letters = record.side_letters(g)
    m = 0
    for w in text.split():
        if w and w[0] in letters:
            t = letters.index(w[0])
            s = int(w[1:]) if len(w) > 1 and w[1:].isdigit() else 1
            if 1 <= s <= 3:
                m |= 1 << (t * 3 + s - 1)
    return m


def level_of(tags):
    for name, value in tags:
        if name == "Level" and value in ("1", "2", "3", "4", "5", "6"):
            return int(value)
    return 1


def tags(g, held, level):
    """The match log's tags naming the computer's seats and its level."""
    return (("Computer", names(g, held)), ("Level", "%d" % level))


class Remote:
    """A seat played from elsewhere: move(g) says its next move (0: none
    known yet), done() when the board saw it carried out, taken_back()
    when the players took it back."""

    def __init__(self, held):
        self.held = held

    def plays(self, g):
        return (g.side_to_play(), g.seat_to_play()) in self.held

    def move(self, g):
        return 0

    def done(self, m, t, seat, g=None):
        pass

    def taken_back(self, m, t, seat):
        pass

    def reserve_cells(self):
        return b""


class Computer(Remote):
    def __init__(self, g, held, level, seed):
        Remote.__init__(self, held)
        self.level = level
        self.table = dealer.Table(g, held, seed)
        self.eng = E.Engine(level, seed)

    def move(self, g):
        """The computer's move for the seat to play (drawing as the turn
        allows), or its declaration: DECK_EMPTY when it is out of cards or
        nothing in its hand fits (§3.3, §4); 0 when it has nothing at all
        to do (the players declare for it)."""
        t, seat = g.side_to_play(), g.seat_to_play()
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


def carried_by_board(m):
    """A move with no card to carry: the board makes it itself (a pass,
    a declaration)."""
    k = E.kind_of(m)
    return k == PASS or k == DECK_EMPTY


def declare(g, m):
    """The computer's pass or deck-empty declaration, made by the board:
    the core's reason."""
    t = g.side_to_play()
    if E.kind_of(m) == PASS:
        return g.pass_turn(t, g.seat_to_play())
    return g.deck_empty(t)

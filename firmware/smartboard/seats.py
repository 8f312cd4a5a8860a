# Seats played from elsewhere: the part the computer's seats
# (smartboard.computer) and the far seats of an online match
# (smartboard.remote) share. Its own module without the engine: a board
# playing online never loads apixagon.engine or its dealer.
from apixagon import record
from apixagon.codes import DECK_EMPTY, JUNIOR, PASS
from apixagon.compat import const

# The referee's expect while a seat played from elsewhere has no move known
# yet (smartboard.remote): a kind no card or special matches, so whatever
# that side puts down is refused (wrong-move) and no cell pulses.
WAITING = const(0xFF0000)


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


def carried_by_board(m):
    """A move with no card to carry: the board makes it itself (a pass,
    a declaration)."""
    k = m >> 16
    return k == PASS or k == DECK_EMPTY


def declare(g, m):
    """The computer's pass or deck-empty declaration, made by the board:
    the core's reason."""
    t = g.side_to_play()
    if m >> 16 == PASS:
        return g.pass_turn(t, g.seat_to_play())
    return g.deck_empty(t)

# Move inference for profile A (a card identity per cell): the referee
# compares the stable sensed board with the game and turns the difference
# into a move, or into an error the LEDs show, never into a guess.
#
#   one card more, on a free cell   a placement (or a Rain); illegal: RED
#                                   on that cell until it is lifted
#   the last card placed, lifted    a take-back: undo (issue 3: before the
#                                   next player acts); put back = replayed
#   a card lifted, Smoker declared  the Smoker's removal (§3.2)
#   lifted + put down elsewhere,    the Beekeeper's move (§3.2)
#   Beekeeper declared
#   any other lift                  AMBER on that cell until put back
#   foreign, unreadable, or the     UNKNOWN on the cell: no move
#   same card on two cells
# Everything else that differs (two cards at once, ...) is marked and
# waits: the logical game always matches the cards once errors are fixed.
from apixagon.codes import BAD_TARGET, BEEKEEPER, NOT_YOUR_TURN, OK, PLACE, RAIN_MOVE, SMOKER
from apixagon.compat import const
from apixagon.geometry import NCELLS, NONE

from . import scan, tag

# err[x] values, for the LED layer
RED = const(1)  # an illegal placement: lift it
AMBER = const(2)  # a card lifted where no move allows it: put it back
UNKNOWN = const(3)  # not a card of this game, a damaged tag, or a duplicate

# What the action pad armed (§3.2: a special is declared before it is used)
ARM_NONE = const(0)
ARM_BEEKEEPER = const(1)
ARM_SMOKER = const(2)


class Referee:
    def __init__(self, game):
        self.game = game
        self.phys = bytearray(NCELLS)  # stable sensed state per cell (scan.*)
        self.err = bytearray(NCELLS)
        self.reason = 0  # reason code of the last refused placement
        self.armed = ARM_NONE
        self.src = NONE  # Beekeeper: the cell the card was lifted from
        self.moves = 0  # moves applied (for the log and the tests)

    # ---- inputs -----------------------------------------------------------
    def sensed(self, x, state):
        """A cell's stable state changed (from a scanner, via the layout)."""
        self.phys[x] = state
        self.settle()

    def pad(self, state):
        """A card tapped on the action pad (scan.* state). A Beekeeper or a
        Smoker of the side to play arms it; returns the reason code (OK)."""
        if state in (scan.EMPTY, scan.UNREADABLE, scan.FOREIGN):
            return OK
        c = state - 1
        g = self.game
        t = g.side_to_play()
        if tag.side_of(c) != t:
            return NOT_YOUR_TURN
        k = tag.kind_of(c)
        if k == tag.BEEKEEPER or k == tag.SMOKER:
            r = g.check_special(t, BEEKEEPER if k == tag.BEEKEEPER else SMOKER)
            if r:
                return r
            self.armed = ARM_BEEKEEPER if k == tag.BEEKEEPER else ARM_SMOKER
        return OK

    # ---- the comparison -----------------------------------------------------
    def _matches(self, x):
        p = self.phys[x]
        o = self.game.board[x]
        if not o or not p or p >= scan.FOREIGN:
            return not o and not p
        c = p - 1
        side = (o - 1) >> 5
        card = (o - 1) & 31
        if tag.side_of(c) != side:
            return False
        if card == 31:
            return tag.kind_of(c) == tag.RAIN
        return tag.kind_of(c) == tag.NORMAL and tag.index_of(c) == card

    def settle(self):
        """Re-read the difference and act on it; repeat while moves apply."""
        while self._step():
            pass

    def _step(self):
        g = self.game
        err = self.err
        phys = self.phys
        extra = missing = NONE
        nextra = nmissing = 0
        for x in range(NCELLS):
            err[x] = 0
        # A card seen on two cells is an error on both, whatever else.
        dup = False
        for x in range(NCELLS):
            p = phys[x]
            if p and p < scan.FOREIGN:
                for y in range(x + 1, NCELLS):
                    if phys[y] == p:
                        err[x] = err[y] = UNKNOWN
                        dup = True
        for x in range(NCELLS):
            if self._matches(x):
                continue
            p = phys[x]
            if p >= scan.FOREIGN:
                err[x] = UNKNOWN
            elif p and not g.board[x]:
                nextra += 1
                extra = x
            elif g.board[x] and not p:
                nmissing += 1
                missing = x
            else:
                err[x] = UNKNOWN  # another card on an occupied cell
        if dup:
            return False
        if nextra == 1 and nmissing == 0:
            return self._placed(extra)
        if nmissing == 1 and nextra == 0:
            return self._lifted(missing)
        if nmissing == 1 and nextra == 1 and self.armed == ARM_BEEKEEPER:
            r = g.beekeeper(g.side_to_play(), missing, extra)
            if r == OK:
                self._done()
                return True
            self.reason = r
            err[extra] = RED
            return False
        if nmissing == 1 and nextra == 1 and self._last_placed() == missing:
            g.undo()  # a correction of the last move: take back, then judge
            self.moves -= 1
            return True
        for x in range(NCELLS):
            if not self._matches(x) and not err[x]:
                err[x] = RED if phys[x] else AMBER
        return False

    def _placed(self, x):
        g = self.game
        c = self.phys[x] - 1
        t = g.side_to_play()
        if tag.side_of(c) != t:
            r = NOT_YOUR_TURN
        elif tag.kind_of(c) == tag.NORMAL:
            r = g.place(t, tag.index_of(c), x)
        elif tag.kind_of(c) == tag.RAIN:
            r = g.rain(t, x)
        else:
            r = BAD_TARGET  # a Beekeeper or Smoker is declared on the pad, not placed
        if r == OK:
            self._done()
            return True
        self.reason = r
        self.err[x] = RED
        return False

    def _lifted(self, x):
        g = self.game
        t = g.side_to_play()
        if self.armed == ARM_SMOKER:
            r = g.smoker(t, x)
            if r == OK:
                self._done()
                return True
        elif self.armed == ARM_BEEKEEPER and g._movable(x) == OK:
            self.src = x  # carried: the move completes where it is put down
            return False
        if self._last_placed() == x:
            g.undo()  # take-back
            self.moves -= 1
            return True
        self.err[x] = AMBER
        return False

    def _last_placed(self):
        kind, payload = self.game.last_move()
        if kind == PLACE:
            return payload[2]
        if kind == RAIN_MOVE:
            return payload[1]
        return NONE

    def _done(self):
        self.moves += 1
        self.armed = ARM_NONE
        self.src = NONE
        self.reason = 0

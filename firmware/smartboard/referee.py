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
#   own cards lifted by the keeper  the reserve deck (§4), committed by the
#   after a deck-empty declaration  confirm button; shown as RESERVE
#   Junior (§6): one deck, the      a placement that names no player (the
#   Black deck's normal cards       board cannot tell whose hand: D-13);
#                                   any other card: not-allowed-in-mode
#   any other lift                  AMBER on that cell until put back
#   foreign, unreadable, or the     UNKNOWN on the cell: no move
#   same card on two cells
# Everything else that differs (two cards at once, ...) is marked and
# waits: the logical game always matches the cards once errors are fixed.
#
# Profile B (paired=True) senses occupancy only. A card tapped on the action
# pad lends its identity to the next card put down on a free cell; a card
# put down without a tap takes the identity of the one card missing from
# the board (a Beekeeper carry, a slid correction) or of the card just taken
# back; otherwise the cell shows TAP until that card is tapped. From then on
# the comparison is the same as profile A's.
from apixagon.codes import (
    BAD_TARGET,
    BEEKEEPER,
    DECK_EMPTY,
    FORCED_REMOVAL,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    OUT,
    PASS,
    PLACE,
    RAIN_MOVE,
    SMOKER,
)
from apixagon.codes import RESERVE as RESERVE_MOVE  # RESERVE below: the LED mark
from apixagon.compat import const
from apixagon.geometry import NCELLS, NONE

from . import compare, scan, tag

# err[x] values, for the LED layer
RED = const(1)  # an illegal placement: lift it
AMBER = const(2)  # a card lifted where no move allows it: put it back
UNKNOWN = const(3)  # not a card of this game, a damaged tag, or a duplicate
TAP = const(4)  # profile B: a card put down unidentified: tap it on the pad
RESERVE = const(5)  # not an error: lifted into the reserve deck (§4)

UNPAIRED = const(0xFC)  # profile B phys[x]: occupied, identity not known yet
# A refusal of the referee's own, beyond NOTATION.md's codes: not the move
# the board waits for (a seat played from elsewhere: Referee.expect)
WRONG_MOVE = const(32)
_MAX_STEPS = const(8)  # settle(): each step applies or undoes one move

# What the action pad armed (§3.2: a special is declared before it is used)
ARM_NONE = const(0)
ARM_BEEKEEPER = const(1)
ARM_SMOKER = const(2)


class Referee:
    def __init__(self, game, paired=False):
        self.game = game
        self.paired = paired  # profile B: identities come from the pad
        self.phys = bytearray(NCELLS)  # stable sensed state per cell (scan.*)
        self.err = bytearray(NCELLS)
        self.reason = 0  # reason code of the last refused placement
        # The refusal the players have to hear of (a `refused` event, STATUS
        # refused=): (reason, move kind, payload as Game.history has it,
        # the cell whose card, lifted, ends it, or NONE); None when there is
        # none. A new tuple each time: the board tells a new one by `is`.
        self.refusal = None
        self.armed = ARM_NONE
        self.src = NONE  # Beekeeper: the cell the card was lifted from
        self.moves = 0  # moves applied (for the log and the tests)
        self.pending = 0  # profile B: 1 + code of the card tapped, to pair
        self.carried = 0  # profile B: 1 + code of the card just taken back
        self.query = 0  # 1 + code of the last normal/Rain card on the pad
        self.res = bytearray(12)  # cells lifted into the reserve deck (§4)
        self.nres = 0
        self.changed = 0  # bumped on every move, undo or error change (LEDs)
        self._before = bytearray(NCELLS)  # scratch: err before settle()
        # The move the board waits to see carried out for a seat played
        # from elsewhere (smartboard.computer), as apixagon.engine encodes
        # it (kind << 16 | a << 8 | b), 0 none; a reserve's cells in
        # expect_cells. Only that move is taken for that seat's side: any
        # other card or cell is refused (WRONG_MOVE), the target still lit.
        self.expect = 0
        self.expect_cells = b""
        self.fulfilled = 0  # the expected move, once carried out (the board takes it)

    # ---- inputs -----------------------------------------------------------
    def sensed(self, x, state):
        """A cell's stable state changed (from a scanner, via the layout)."""
        if self.paired:
            old = self.phys[x]
            if not state and old and old < UNPAIRED and not self.game.board[x]:
                self.carried = old  # a refused card lifted: it keeps its name
            state = self._identify(x, state)
        self.phys[x] = state
        self.settle()

    def _identify(self, x, state):
        if state != scan.OCCUPIED:
            return state  # EMPTY (a reed cannot read a tag)
        o = self.game.board[x]
        if o:
            return self.code_on(x, o)  # put back where the game has a card
        if self.pending:
            state, self.pending = self.pending, 0
            return state
        g = self.game
        missing = NONE
        for y in range(NCELLS):
            if g.board[y] and not self.phys[y] and not self._reserved(y):
                if missing != NONE:
                    missing = NONE  # two cards off the board: cannot tell
                    break
                missing = y
        if missing != NONE:
            return self.code_on(missing, g.board[missing])
        if self.carried:
            state, self.carried = self.carried, 0
            return state
        return UNPAIRED

    def code_on(self, x, o):
        """The identity of the card the game has on x. A side's two Rains
        are one kind in the game (RULES.md §1): the one not already down
        on another cell, or the board would see one card on two cells."""
        c = _code_of(o)
        if (o - 1) & 31 == 31:
            phys = self.phys
            for y in range(NCELLS):
                if y != x and phys[y] == c:
                    return c + 1  # that side's other Rain (tag index 1)
        return c

    def pad(self, state):
        """A card tapped on the action pad (scan.* state). A Beekeeper or a
        Smoker of the side to play arms it; returns the reason code (OK)."""
        if state in (scan.EMPTY, scan.UNREADABLE, scan.FOREIGN):
            return OK
        c = state - 1
        g = self.game
        t = g.side_to_play()
        k = tag.kind_of(c)
        if k == tag.NORMAL or k == tag.RAIN:
            self.query = state  # card query (any side: a child may ask)
            self.changed += 1
            if self.paired:
                self._pair(state)
            return OK
        kind = k + 1  # BEEKEEPER or SMOKER (the move kind: the tag kind + 1)
        if g.mode == JUNIOR:  # §6: no specials
            return self._refuse(NOT_ALLOWED_IN_MODE, kind, bytes((tag.side_of(c),)))
        if tag.side_of(c) != t:
            return self._refuse(NOT_YOUR_TURN, kind, bytes((tag.side_of(c),)))
        if k == tag.BEEKEEPER or k == tag.SMOKER:
            r = g.check_special(t, kind)
            if r:
                return self._refuse(r, kind, bytes((t,)))
            if self.expect and self.expect >> 16 != kind:
                return self._refuse(WRONG_MOVE, kind, bytes((t,)))
            self.armed = ARM_BEEKEEPER if k == tag.BEEKEEPER else ARM_SMOKER
            self.changed += 1
        return OK

    def _pair(self, state):
        # A tap after the card was put down names the one unidentified card.
        x = NONE
        for y in range(NCELLS):
            if self.phys[y] == UNPAIRED:
                if x != NONE:
                    self.pending = state  # several: wait for a placement
                    return
                x = y
        if x == NONE:
            self.pending = state
            return
        self.phys[x] = state
        self.settle()

    def declare_deck_empty(self, side):
        """The deck-empty declaration of side (a button, §3.3, §4)."""
        return self._after(self.game.deck_empty(side), DECK_EMPTY, bytes((side,)))

    def declare_forced_removal(self, side):
        """The §4 penalty for talking, for side (a button)."""
        return self._after(self.game.forced_removal(side), FORCED_REMOVAL, bytes((side,)))

    def declare_pass(self):
        """The seat to play passes its turn (§4 D-9, a button)."""
        g = self.game
        t = g.side_to_play()
        r = g.pass_turn(t, g.seat_to_play())
        if r == OK:
            self._done()  # a turn: what was armed for it goes
            self.settle()
        return self._after(r, PASS, bytes((t,)))

    def declare_out(self, n):
        """Junior: player n has run out of cards and wins (§6 D-13)."""
        return self._after(self.game.out(NONE, n), OUT, bytes((n,)))

    def confirm_reserve(self):
        """Commit the cards lifted into the reserve deck (§4, D-7); none
        lifted: the empty reserve (D-14, the core judges it)."""
        g = self.game
        t = g.side_to_play()
        if self.expect and not self._same_cells():
            return self._refuse(WRONG_MOVE, RESERVE_MOVE, bytes((t,)))
        r = g.reserve(t, self.res[: self.nres], g.seat_to_play())
        if r == OK:
            self.nres = 0
            self._done()
            self.settle()
        # refused: the cells are res[:nres] still (smartboard.report)
        return self._after(r, RESERVE_MOVE, bytes((t,)))

    def _same_cells(self):
        # the cells lifted into the reserve are those the board waits for
        want = self.expect_cells
        if len(want) != self.nres:
            return False
        for i in range(self.nres):
            if self.res[i] not in want:
                return False
        return True

    def _after(self, r, kind, payload):
        if r == OK:
            self.changed += 1
            return r
        return self._refuse(r, kind, payload)

    def _refuse(self, r, kind, payload, x=NONE):
        self.reason = r
        self.refusal = (r, kind, payload, x)
        self.changed += 1
        return r

    def _reserved(self, x):
        for i in range(self.nres):
            if self.res[i] == x:
                return True
        return False

    # ---- the comparison -----------------------------------------------------
    def settle(self):
        """Re-read the difference and act on it; repeat while moves apply
        (a bounded number of times: every physical state ends in a defined
        response, never in a loop)."""
        before = self._before
        before[:] = self.err
        for _ in range(_MAX_STEPS):
            if not self._step():
                break
        rf = self.refusal
        if rf is not None and rf[3] != NONE and self.err[rf[3]] != RED:
            self.refusal = None  # the refused card lifted
        if self.err != before:
            self.changed += 1

    def _step(self):
        g = self.game
        err = self.err
        # The whole comparison (a duplicate tag is an error on both cells,
        # whatever else) in one pass of machine code: smartboard.compare.
        r = compare.compare(self.phys, g.board, err, self.res, self.nres, 0)
        if r & compare.RES_BACK:
            # cells put back (compare set their entries to NONE): out of
            # the reserve deck after all
            res = self.res
            n = self.nres
            for i in range(n - 1, -1, -1):
                if res[i] == NONE:
                    n -= 1
                    res[i] = res[n]
            self.nres = n
        dup = r & compare.DUP
        nextra = (r >> compare.NEXTRA_SHIFT) & 63
        extra = (r >> compare.EXTRA_SHIFT) & 255
        nmissing = (r >> compare.NMISSING_SHIFT) & 63
        missing = (r >> compare.MISSING_SHIFT) & 255
        if dup:
            return False
        e = self.expect
        if e and nextra > 1 and (e >> 16 == PLACE or e >> 16 == RAIN_MOVE):
            # The awaited card and a reply put down before the board saw
            # it: the awaited one first (its target is known), then the
            # reply, on the next step.
            x = e & 255
            if self.phys[x] and not g.board[x] and self.phys[x] < UNPAIRED:
                return self._placed(x)
        if nextra == 1 and nmissing == 0:
            return self._placed(extra)
        if nmissing == 1 and nextra == 0:
            return self._lifted(missing)
        if nmissing == 1 and nextra == 1 and self.armed == ARM_BEEKEEPER:
            t = g.side_to_play()
            e = self.expect
            if e and ((e >> 8) & 255 != missing or e & 255 != extra):
                r = WRONG_MOVE
            else:
                r = g.beekeeper(t, missing, extra)
            if r == OK:
                self._done()
                return True
            if self._before[extra] != RED:  # said once, not at every settle
                self._refuse(r, BEEKEEPER, bytes((t, missing, extra)), extra)
            err[extra] = RED
            return False
        if nmissing == 1 and nextra == 1 and self._last_placed() == missing:
            g.undo()  # a correction of the last move: take back, then judge
            self.moves -= 1
            self.refusal = None
            self.changed += 1
            return True
        compare.compare(self.phys, g.board, err, self.res, self.nres, 1)  # the rest: RED/AMBER
        return False

    def _placed(self, x):
        g = self.game
        c = self.phys[x] - 1
        t = g.side_to_play()
        side = tag.side_of(c)
        k = tag.kind_of(c)
        if g.mode == JUNIOR:
            # §6: one deck, the Black one (the tags of side 0, the cards the
            # companion calls J0..J30); a placement names no player (D-13).
            if side or k != tag.NORMAL:
                r = NOT_ALLOWED_IN_MODE
            else:
                r = g.place(NONE, tag.index_of(c), x)
        elif side != t:
            r = NOT_YOUR_TURN
        elif self.expect and not self._expected(k, tag.index_of(c), x):
            r = WRONG_MOVE  # the seat's move is known: that card, that cell
        elif k == tag.NORMAL:
            r = g.place(t, tag.index_of(c), x)
        elif k == tag.RAIN:
            r = g.rain(t, x)
        else:
            r = BAD_TARGET  # a Beekeeper or Smoker is declared on the pad, not placed
        if r == OK:
            self._done()
            return True
        if self._before[x] != RED:  # said once, not at every settle
            # the move kind is the tag kind + 1 (PLACE, RAIN_MOVE, BEEKEEPER,
            # SMOKER); its payload as Game.history's, a special's cell-less
            p = (
                (side, tag.index_of(c), x)
                if k == tag.NORMAL
                else (side, x)
                if k == tag.RAIN
                else (side,)
            )
            self._refuse(r, k + 1, bytes(p), x)
        self.err[x] = RED
        return False

    def _expected(self, k, i, x):
        # a card of the expected seat's side put down: the expected one?
        e = self.expect
        kind = e >> 16
        if kind == PLACE:
            return k == tag.NORMAL and i == (e >> 8) & 255 and x == e & 255
        if kind == RAIN_MOVE:
            return k == tag.RAIN and x == e & 255
        return False

    def _lifted(self, x):
        g = self.game
        t = g.side_to_play()
        if self.armed == ARM_SMOKER and self.expect and x != self.expect & 255:
            if self._last_placed() != x:  # a take-back is one still
                self.err[x] = AMBER  # put it back (the refusal stands till a move)
                self._refuse(WRONG_MOVE, SMOKER, bytes((t, x, g.board[x])))
                return False
        if self.armed == ARM_SMOKER:
            r = g.smoker(t, x)
            if r == OK:
                self._done()
                return True
        elif self.armed == ARM_BEEKEEPER and g._movable(x) == OK:
            self.src = x  # carried: the move completes where it is put down
            self.changed += 1  # its cells are where it may go (Board._prioritise)
            return False
        if self._reserve_lift(t, x):
            return False
        if self._last_placed() == x:
            self.carried = self.code_on(x, g.board[x])  # a Rain: which of two
            g.undo()  # take-back
            self.moves -= 1
            self.refusal = None
            self.changed += 1
            return True
        self.err[x] = AMBER
        return False

    def _reserve_lift(self, t, x):
        # §4: after the deck-empty declaration the keeper takes back own
        # cards; each lift is judged with the ones before it (D-7: on the
        # board as it stood when the recovery began — the game still has
        # them all until the confirm button commits the reserve).
        g = self.game
        if not g.deck_declared_empty(t) or g.owner(x) != t or self.nres >= len(self.res):
            return False
        self.res[self.nres] = x
        self.nres += 1
        if g.check_reserve(t, self.res[: self.nres], g.seat_to_play()) != OK:
            self.nres -= 1
            return False
        self.err[x] = RESERVE
        return True

    def _last_placed(self):
        kind, payload = self.game.last_move()
        if kind == PLACE:
            return payload[2]
        if kind == RAIN_MOVE:
            return payload[1]
        return NONE

    def _done(self):
        if self.expect:
            self.fulfilled = self.expect  # the board hands it to its seat
            self.expect = 0
        self.moves += 1
        self.changed += 1
        self.armed = ARM_NONE
        self.src = NONE
        self.reason = 0
        self.refusal = None
        self.query = 0


def _code_of(o):
    """scan state (1 + tag code) of the card a game board byte holds."""
    side = (o - 1) >> 5
    card = (o - 1) & 31
    if card == 31:
        return 1 + tag.code(side, tag.RAIN, 0)
    return 1 + tag.code(side, tag.NORMAL, card)

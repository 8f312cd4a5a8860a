# Junior (RULES.md §6, D-8, D-13): one deck, 2 to 6 players, no turns, no
# specials; loaded only for this mode (game.Game).
#
# The board cannot tell whose hand a card came from (D-13): a record line
# may name its player (`J2 12 E4`). When every line after the first does,
# the first player to place all their cards wins at once; otherwise the
# players declare it (`J2 out`). The first card, on the Royal Cell, is
# turned up before the deal and belongs to nobody.
from .base import BKS, OVER, RAINS, SMS, BaseGame
from .codes import (
    ALL_PLACED,
    BAD_CELL,
    BAD_SYNTAX,
    BAD_TARGET,
    CARD_ALREADY_PLAYED,
    GAME_OVER,
    NOT_ALLOWED_IN_MODE,
    OCCUPIED,
    OK,
    OUT,
    OUT_DECLARED,
    PLACE,
    RAN_OUT,
    UNKNOWN_CARD,
)
from .compat import const
from .geometry import NB, NCELLS, NONE, ROYAL

# Scalars after the base game's (BaseGame.s)
# (const() takes literals only: base.NS is 11, checked by test_rules_board)
_ANON = const(11)  # 1 once a line after the first named no player
_COUNT = const(12)  # +player-1: cards each named player has placed
_JNS = const(18)


class JuniorGame(BaseGame):
    nscalars = _JNS

    def __init__(self, mode, start=0, players=0, special_then_place=False):
        BaseGame.__init__(self, mode, 0, 0, False)
        n = players or 2
        if not 2 <= n <= 6:
            raise ValueError("junior is for 2 to 6 players")
        self.players = n
        # §6: the 30 cards after the first are dealt out equally, "le
        # eccedenze si scartano".
        self.share = 30 // n
        s = self.s
        for t in (0, 1):
            s[RAINS + t] = s[BKS + t] = s[SMS + t] = 0  # no specials (§6)

    def seat_count(self, side):
        return self.players

    def placed(self, player):
        """Cards a named player has placed (D-13)."""
        return self.s[_COUNT + player - 1]

    def named(self):
        """Has every line after the first named its player (D-13)?"""
        return not self.s[_ANON]

    def _turn_reason(self, side, seat, special):
        # No turns: anyone places. Only `J` lines (side NONE), no specials.
        if self.s[OVER]:
            return GAME_OVER
        if side != NONE or special:
            return NOT_ALLOWED_IN_MODE
        if seat > self.players:
            return BAD_SYNTAX  # no such player (the record's seat field)
        return OK

    def _declaration_reason(self, side):
        return GAME_OVER if self.s[OVER] else NOT_ALLOWED_IN_MODE

    def _no_placement(self, t):
        return True  # no hints in Junior: the children race

    def check_pass(self, side, seat=0):
        return self._declaration_reason(side)

    def check_place(self, side, card, x, seat=0):
        if not 0 <= x < NCELLS:
            return BAD_CELL
        r = self._turn_reason(side, seat, False)
        if r:
            return r
        if not 0 <= card < 31:
            return UNKNOWN_CARD
        if self.loc[card]:
            return CARD_ALREADY_PLAYED
        if self.board[x]:
            return OCCUPIED
        # §6: the first card on the Royal Cell, each next one beside the
        # last card; D-8 when the last card has no free neighbour.
        ref = self._reference()
        if ref == NONE:
            return OK if x == ROYAL else BAD_TARGET
        for d in range(6):
            if NB[ref * 6 + d] == x:
                return OK
        return BAD_TARGET

    def _reference(self):
        # Most recent card that still has a free neighbour (D-8).
        p = self.nlog
        log = self.log
        while p:
            kind = log[p - 1]
            p -= 6 + log[p - 2] + 2 * log[p - 3]
            x = log[p + 5]  # payload: player, card, cell
            if kind == PLACE and self._has_free_neighbour(x):
                return x
        return NONE

    def _has_free_neighbour(self, x):
        for d in range(6):
            n = NB[x * 6 + d]
            if n != NONE and not self.board[n]:
                return True
        return False

    def place(self, side, card, x, seat=0):
        """Place a card; seat names its player (1..players) or 0 (nobody
        said whose). The payload keeps the player where a side would be."""
        r = self.check_place(side, card, x, seat)
        if r:
            return r
        first = not self.nlog
        self._begin3(PLACE, seat, card, x)
        self.board[x] = 1 + card
        self.loc[card] = x + 1
        s = self.s
        if not first:
            if seat:
                s[_COUNT + seat - 1] += 1
                if not s[_ANON] and s[_COUNT + seat - 1] >= self.share:
                    self._finish(RAN_OUT, seat)  # D-13: the first to place them all
            else:
                s[_ANON] = 1
            if not s[OVER]:
                n = 0
                for c in range(31):
                    n += self.loc[c] != 0
                if n > self.players * self.share:
                    # every card dealt is down: someone ran out first, who
                    # the unnamed lines cannot tell (D-13)
                    self._finish(ALL_PLACED, 0)
        self._commit()
        return OK

    def check_out(self, side, seat=0):
        r = self._turn_reason(side, seat, False)
        if r:
            return r
        if not seat:
            return BAD_SYNTAX  # `J out` declares nobody
        # D-13: player n has placed at least their own named cards and at
        # most those plus every unnamed one; fewer than their share, and
        # the board knows cards are still in that hand.
        s = self.s
        n = 0
        for c in range(31):
            n += self.loc[c] != 0
        unnamed = n - 1
        for i in range(self.players):
            unnamed -= s[_COUNT + i]
        if s[_COUNT + seat - 1] + unnamed < self.share:
            return BAD_TARGET
        return OK

    def out(self, side, seat=0):
        """`Jn out` (D-13): player n has run out of cards and wins."""
        r = self.check_out(side, seat)
        if r:
            return r
        self._begin(OUT, 1)
        self._put(seat)
        self._finish(OUT_DECLARED, seat)
        self._commit()
        return OK

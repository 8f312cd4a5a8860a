# The team modes with a reserve deck and the code of silence (RULES.md §4,
# §5): silent-swarm (2 v 2), beehive (3 v 3), 2v1 and 3v2. Loaded only for
# them (game.Game); two players and Teen never carry this code.
#
# What the base game lacks here: the reserve deck a team's keeper builds
# once its deck is declared empty (§4, D-7, D-12, D-14), the excess penalty
# (§4, D-11), the tactical void's pass (§4, D-9), the count that waits for
# the reserve (D-10), forced removal, and the smaller team's arsenal (§5).
from .base import (
    BKS,
    EMPTY,
    FLAGS,
    OVER,
    PENDING,
    RAINS,
    RESUSED,
    SMS,
    BaseGame,
)
from .codes import (
    BAD_CELL,
    BAD_TARGET,
    CANNOT_PASS,
    DECK_EMPTY,
    FORCED_REMOVAL,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    PASS,
    RESERVE,
    SPECIAL_USED,
)
from .compat import const
from .geometry import NB, NCELLS, NONE, ROYAL

# Scalars after the base game's (BaseGame.s)
# (const() takes literals only: base.NS is 11, checked by test_rules_board)
_BONUS = const(11)  # +side: excess-penalty special: 0 none, 1 usable, 2..4 waiting
_BKIND = const(13)  # +side: the kinds it may be: 1 Rain, 2 Beekeeper, 4 Smoker
_FORCED = const(15)  # +side: forced removals recorded (§4)
_TNS = const(17)


class TeamGame(BaseGame):
    silent = True
    nscalars = _TNS

    def __init__(self, mode, start=0, players=0, special_then_place=False):
        BaseGame.__init__(self, mode, start, players, special_then_place)
        if self._small(1):
            # §5: the smaller team (B in 2v1 and 3v2) starts with 1 Rain and
            # 1 Smoker; its other Rain and its Beekeeper leave the game.
            self.s[RAINS + 1] = 1
            self.s[BKS + 1] = 0

    def _small(self, t):
        return t == 1 and self.seats[1] < self.seats[0]

    def forced_removals(self, side):
        return self.s[_FORCED + side]

    def penalty_special(self, side):
        # held from the penalty until used, waiting or usable (D-11)
        s = self.s
        return s[_BKIND + side] if s[_BONUS + side] else 0

    def reserve_due(self):
        # D-14: once its team's deck is declared empty, the keeper's turn is
        # the reserve (the manual: only the keeper builds it and "non può
        # fare alcuna mossa" meanwhile). EMPTY is cleared when it is built.
        # A turn the keeper began with a special (special_then_place) before
        # the declaration ends with the placement it owes; the next is the
        # reserve.
        t = self.side_to_play()
        f = self.s[FLAGS]
        return bool(f & (EMPTY << t)) and not f & PENDING and self.seat_to_play() == self.keeper(t)

    def _move_reason(self, side, seat, special):
        r = self._turn_reason(side, seat, special)
        if r == OK and self.reserve_due():
            return NOT_YOUR_TURN  # D-14: the turn belongs to the reserve
        return r

    def _no_placement(self, t):
        return self.s[OVER] or (t == self.side_to_play() and self.reserve_due())

    def _count_may_end(self, t):
        # D-10: the count ends a team game only "nonostante il mazzo di
        # riserva": once the team to play has built its reserve. Before,
        # the players declare the deck empty, stuck seats pass (D-9) and
        # the keeper builds.
        return bool(self.s[FLAGS] & (RESUSED << t))

    def can_move(self, t):
        # The keeper in its reserve turn always has one move: the reserve,
        # empty when no card may be taken back (D-14).
        if t == self.side_to_play() and self.reserve_due():
            return True
        return BaseGame.can_move(self, t)

    # ---- the tactical void (D-9) ----------------------------------------
    def check_pass(self, side, seat=0):
        r = self._turn_reason(side, seat, False)
        if r:
            return r
        f = self.s[FLAGS]
        if not f & (EMPTY << side) or self.seat_to_play() == self.keeper(side) or f & PENDING:
            # outside the void; the keeper builds instead; a turn begun with
            # a special (special_then_place) owes its placement
            return CANNOT_PASS
        if self.seats[side] == 3:
            return OK  # 6 players, 3v2's larger team: "o passare il turno"
        # A team of two: "costretto ad attingere alla/e carte speciali ...
        # o posizionare": only when nothing of the team's can be played.
        return CANNOT_PASS if BaseGame.can_move(self, side) else OK

    def pass_turn(self, side, seat=0):
        r = self.check_pass(side, seat)
        if r:
            return r
        self._begin(PASS, 1)
        self._put(side)
        self.s[FLAGS] &= ~PENDING
        self._end_turn()
        self._commit()
        return OK

    # ---- the reserve deck (§4, D-7, D-12, D-14) ---------------------------
    def check_reserve(self, side, cells, seat=0):
        """§4 reserve deck: the keeper takes back own normal cards that are
        isolated or in a group of at most 2, judged on the board as it stood
        when the recovery began (D-7). No cells: the empty reserve (D-14)."""
        n = len(cells)
        for i in range(n):
            if not 0 <= cells[i] < NCELLS:
                return BAD_CELL
        r = self._turn_reason(side, seat, False)
        if r:
            return r
        if self.seat_to_play() != self.keeper(side):
            return NOT_YOUR_TURN
        f = self.s[FLAGS]
        if f & (RESUSED << side):
            return SPECIAL_USED  # once per game
        if not f & (EMPTY << side):
            return NOT_ALLOWED_IN_MODE  # the deck has not been declared empty
        if f & PENDING:
            return SPECIAL_USED  # a special began this turn (special_then_place)
        b = self.board
        if not n:
            # D-14: empty only when no own card on the board may be taken back.
            for x in range(NCELLS):
                o = b[x]
                if o and (o - 1) >> 5 == side and (o - 1) & 31 != 31 and x != ROYAL:
                    if self._group_size(x, 3) <= 2:
                        return BAD_TARGET
            return OK
        # NOTATION.md's order: bad-target on every cell before sealed or
        # royal-immovable, then the group rule.
        for i in range(n):
            x = cells[i]
            o = b[x]
            if not o or (o - 1) >> 5 != side or (o - 1) & 31 == 31:
                return BAD_TARGET  # free, the opponent's, or a Rain (D-12)
            for j in range(i):
                if cells[j] == x:
                    return BAD_TARGET
        for i in range(n):
            r = self._movable(cells[i])
            if r:
                return r
        for i in range(n):
            if self._group_size(cells[i], 3) > 2:
                return BAD_TARGET
        return OK

    def _group_size(self, x, limit):
        """Size of the connected group of own cards around x, up to limit.
        A Rain is its owner's card: it links and counts (D-12)."""
        b = self.board
        side = (b[x] - 1) >> 5
        seen = self._tmp
        seen[0] = x
        n = 1
        i = 0
        while i < n and n < limit:
            y = seen[i]
            i += 1
            for d in range(6):
                z = NB[y * 6 + d]
                if z == NONE or not b[z] or (b[z] - 1) >> 5 != side:
                    continue
                k = 0
                while k < n and seen[k] != z:
                    k += 1
                if k == n:
                    seen[n] = z
                    n += 1
                    if n >= limit:
                        break
        return n

    def reserve(self, side, cells, seat=0):
        r = self.check_reserve(side, cells, seat)
        if r:
            return r
        n = len(cells)
        self._begin(RESERVE, 1 + 2 * n)
        self._put(side)
        for i in range(n):
            x = cells[i]
            o = self.board[x]
            self._put(x)
            self._put(o)
            self.board[x] = 0
            self.loc[side * 31 + ((o - 1) & 31)] = 0
        s = self.s
        s[FLAGS] = (s[FLAGS] | (RESUSED << side)) & ~(EMPTY << side)
        if n > 6:
            self._penalty(side ^ 1)
        self._end_turn()
        self._commit()
        return OK

    def _undo_move(self, kind, q, plen):
        if kind == RESERVE:
            log = self.log
            b = self.board
            side = log[q]
            for i in range(q + 1, q + plen, 2):
                x, o = log[i], log[i + 1]
                b[x] = o
                self.loc[side * 31 + ((o - 1) & 31)] = x + 1

    # ---- the excess penalty (§4, §5, D-11) --------------------------------
    def _penalty(self, o):
        # A reserve of more than 6 cards: the opponents o take back one
        # special "tra quelle già giocate", fixed now; a kind they play
        # later never comes back. §5: the smaller team may take its
        # Beekeeper or second Rain, removed at the start, instead.
        s = self.s
        small = self._small(o)
        kinds = 3 if small else 0
        if s[RAINS + o] < (1 if small else 2):
            kinds |= 1
        if not small and not s[BKS + o]:
            kinds |= 2
        if not s[SMS + o]:
            kinds |= 4
        if kinds:
            # usable after the builders' next turn: "dopo la loro prima
            # occasione di pescare dal mazzo di riserva"
            s[_BONUS + o] = 4
            s[_BKIND + o] = kinds

    def _bonus_allows(self, side, slot):
        s = self.s
        bit = 1 if slot == RAINS else (2 if slot == BKS else 4)
        return s[_BONUS + side] == 1 and bool(s[_BKIND + side] & bit)

    def _use_bonus(self, side):
        self.s[_BONUS + side] = 0  # one extra use in all (D-11)

    def _turn_ended(self):
        s = self.s
        for u in (0, 1):
            if s[_BONUS + u] > 1:
                s[_BONUS + u] -= 1

    # ---- declarations ---------------------------------------------------
    def deck_empty(self, side):
        """The team's deck has run out (§4): the first declaration opens the
        reserve deck; once it was built, the count ends the game (§3.3,
        D-10). Declared again before the reserve: bad-target."""
        r = self._declaration_reason(side)
        if r:
            return r
        f = self.s[FLAGS]
        if f & (EMPTY << side):
            # declared already, the reserve still to build: the count waits
            # for it (D-10), a second declaration ends nothing
            return BAD_TARGET
        if f & (RESUSED << side):
            return BaseGame.deck_empty(self, side)  # the reserve ran out: the count
        self._begin(DECK_EMPTY, 1)
        self._put(side)
        self.s[FLAGS] = f | (EMPTY << side)
        self._commit()
        return OK

    def forced_removal(self, side):
        """§4 penalty for talking, recorded when told (the board cannot see
        which card is locked away)."""
        r = self._declaration_reason(side)
        if r:
            return r
        self._begin(FORCED_REMOVAL, 1)
        self._put(side)
        if self.s[_FORCED + side] < 255:
            self.s[_FORCED + side] += 1
        self._commit()
        return OK

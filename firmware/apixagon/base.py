# The APIXAGON rules (RULES.md) as one compact state and an undo log: the
# base game of §3 (two players) and Teen (§7), which every variant extends.
# The team modes with a reserve deck (§4, §5) live in team.py and Junior
# (§6) in junior.py: a board imports only the module of the mode in play
# (game.Game() chooses, as python-chess's variants do).
#
# State, a few hundred bytes, no objects per move:
#   board[x]  0 = free, else 1 + side*32 + card (card 31 = a Rain, §3.2)
#   loc[side*31 + card]  0 = not on the board, 1+x = on cell x, REMOVED
#   s[...]    the scalars below (turn count, flags, specials, result); a
#             variant appends its own after NS
#   log       bytearray undo log; each record holds the scalars as they were,
#             then the move, so push/pop (python-chess style) restore exactly.
from . import loops
from .codes import (
    ADJACENT_OPPONENT,
    BAD_CELL,
    BAD_TARGET,
    BEEKEEPER,
    CANNOT_PASS,
    CARD_ALREADY_PLAYED,
    CARDS_OUT,
    DECK_EMPTY,
    DRAW,
    EXHAUSTED,
    GAME_OVER,
    NOT_ALLOWED_IN_MODE,
    NOT_OPEN_END,
    NOT_YOUR_TURN,
    OCCUPIED,
    OK,
    PLACE,
    RAIN_MOVE,
    ROYAL_CELL,
    ROYAL_IMMOVABLE,
    ROYAL_LOCKED,
    SEALED,
    SMOKER,
    SPECIAL_USED,
    SPECIALS_LOCKED,
    TWO_SEQUENCES,
    UNKNOWN_CARD,
    seats_of,
)
from .compat import const
from .deck import COMMON, HAS
from .geometry import NB, NCELLS, NONE, ROYAL

REMOVED = const(255)  # loc value of a card taken out by a Smoker (§3.2)
_NC = const(31)
_RAIN = const(31)

# Scalar offsets in Game.s (a variant's own start at NS)
_PLY_LO = const(0)  # turns completed; the side to play follows from it
_PLY_HI = const(1)
FLAGS = const(2)
RAINS = const(3)  # +side: Rain cards left
BKS = const(5)  # +side: Beekeeper left
SMS = const(7)  # +side: Smoker left
OVER = const(9)  # how the game ended (codes.IN_PROGRESS ...)
_WINNER = const(10)  # side, or DRAW (Junior: the player)
NS = const(11)

# FLAGS bits
PENDING = const(1)  # special_then_place: the placement after a special is due
_HAD3 = const(2)  # << side: had a sequence of 3 at the end of an own turn (D-5)
EMPTY = const(8)  # << side: deck declared empty, reserve not built yet (§4)
RESUSED = const(32)  # << side: reserve deck already built (§4: once per game)

# A log record: [kind][plen][np] payload(plen) pairs(2*np) [np][plen][kind].
# The pairs are (offset, old value) of the scalars the move changed, usually
# just the turn counter: about 11 bytes a placement instead of a snapshot.


# Scratch for the hint queries and the hint cache, made once for every
# game: the cache is keyed on the board's bytes (Game._prepare), so a game
# can never read another's, and nothing here outlives one query. A board
# holds a match that waits for flash beside the one in play (smartboard.logstore), and
# each game's own copy was 0.6 KB of a small heap.
#   avail[symbol]   cards of a side not yet played, per symbol (_fill_avail)
#   tmp[x]          a query's scratch (can_move's legal cells, threat levels)
#   ends[x*6+d]     the run end beyond free cell x in direction d (loops)
#   adj[x]          which sides have a card beside x
#   cboard          the board the cache was made for (255: none is)
_SHARED = (
    bytearray(_NC),
    bytearray(NCELLS),
    bytearray(NCELLS * 6),
    bytearray(NCELLS),
    bytearray(b"\xff" * NCELLS),
)


class BaseGame:
    """The base game: two players (§3) and Teen (§7), whose seats rotate
    within each side but keep no reserve deck. Variants override the hooks
    marked below; everything else is shared."""

    silent = False  # the code of silence and the reserve deck (§4, §5): team.py
    nscalars = NS  # scalars in s: a variant appends its own

    def __init__(self, mode=0, start=0, players=0, special_then_place=False):
        seats = seats_of(mode, players)  # §3-§7
        self.mode = mode
        self.start = start
        self.seats = seats
        self.players = seats[0] + seats[1]
        self.teams = seats[0] > 1 or seats[1] > 1
        self.special_then_place = bool(special_then_place)
        self.board = bytearray(NCELLS)
        self.loc = bytearray(2 * _NC)
        self.s = bytearray(self.nscalars)
        # Room for about 90 moves from the start, while the heap is still
        # whole: growing later needs one contiguous block, which a
        # fragmented 48 KB heap may refuse (seen in the benchmark).
        self.log = bytearray(1024)
        self._pre = bytearray(self.nscalars)  # scalars before the move being logged
        self._w = 0  # write position in the log record being built
        self.nlog = 0
        # The scratch and the hint cache, shared by every game (_SHARED).
        self._avail, self._tmp, self._ends, self._adj, self._cboard = _SHARED
        for t in (0, 1):
            self.s[RAINS + t] = 2
            self.s[BKS + t] = 1
            self.s[SMS + t] = 1

    # ---- turn order ---------------------------------------------------
    def ply(self):
        return self.s[_PLY_LO] | self.s[_PLY_HI] << 8

    def side_to_play(self):
        """Side (2 players) or team (A=0, B=1) whose turn it is."""
        return self.start ^ (self.ply() & 1)

    def seat_to_play(self):
        """Seat 1..n of the team to play: each team rotates its own seats, so
        2v1 goes A1 B1 A2 B1 and 3v2 A1 B1 A2 B2 A3 B1 (NOTATION.md)."""
        p = self.ply()
        return (p >> 1) % self.seats[self.start ^ (p & 1)] + 1

    def seat_count(self, side):
        """How many seats a record line of side may name (NOTATION.md)."""
        return self.seats[side] if 0 <= side <= 1 else 0

    def keeper(self, t):
        """Seat that builds team t's reserve deck (§4, §5): player 3 in a
        team of three, player 1 otherwise."""
        return 3 if self.seats[t] == 3 else 1

    # ---- board queries -------------------------------------------------
    def owner(self, x):
        """Side of the card on cell x, or NONE if free."""
        o = self.board[x]
        return NONE if not o else (o - 1) >> 5

    def card_at(self, x):
        """Card number on cell x (RAIN for a Rain), or NONE if free."""
        o = self.board[x]
        return NONE if not o else (o - 1) & 31

    def where(self, side, card):
        """Cell of a card, NONE if not on the board, REMOVED if smoked out."""
        v = self.loc[side * _NC + card]
        return NONE if not v else (REMOVED if v == REMOVED else v - 1)

    def over(self):
        return self.s[OVER]

    def winner(self):
        return self.s[_WINNER]

    def specials_left(self, side):
        """(rains, beekeepers, smokers) still in hand for side."""
        s = self.s
        return s[RAINS + side], s[BKS + side], s[SMS + side]

    def forced_removals(self, side):
        return 0  # recorded in the silent modes only (team.py)

    def penalty_special(self, side):
        """The excess penalty's extra special side holds (§4, D-11): the
        kinds it may be (1 Rain, 2 Beekeeper, 4 Smoker; learned when
        played), 0 for none. A team mode's (team.py)."""
        return 0

    def had_three(self, side):
        return bool(self.s[FLAGS] & (_HAD3 << side))

    def deck_declared_empty(self, side):
        return bool(self.s[FLAGS] & (EMPTY << side))

    def reserve_used(self, side):
        return bool(self.s[FLAGS] & (RESUSED << side))

    def reserve_due(self):
        """Is the turn in play a keeper's reserve turn (§4, D-14)? Never
        in a mode without a reserve deck."""
        return False

    def placement_pending(self):
        return bool(self.s[FLAGS] & PENDING)

    def specials_unlocked(self):
        # §3.1: occupying the Royal Cell unlocks the specials for both sides.
        return self.board[ROYAL] != 0

    def end_symbol(self, x, d):
        """For a free cell x: if x is the open end of a run lying from x in
        direction d, symbol | owner << 5; else NONE. Read from the hint
        cache (loops.prepare), which the LED layer fills after every move
        anyway."""
        self._prepare()
        return self._ends[x * 6 + d]

    def run_from(self, x, d, sym):
        """How many cards carrying sym, of the side of the card on x, follow
        x in direction d without a gap."""
        b = self.board
        side = (b[x] - 1) & 32
        k = 0
        while True:
            x = NB[x * 6 + d]
            if x == NONE or not b[x]:
                return k
            o = b[x] - 1
            if (o & 32) != side or (o & 31) == _RAIN or not HAS[(o & 31) * _NC + sym]:
                return k
            k += 1

    def run_length_through(self, x):
        """Longest run containing the card on x (0 for none, Rain, free)."""
        b = self.board
        if not b[x] or (b[x] - 1) & 31 == _RAIN:
            return 0
        best = 0
        for d in range(6):
            n = NB[x * 6 + d]
            if n == NONE or not b[n]:
                continue
            o = b[x] - 1
            p = b[n] - 1
            if (o ^ p) & 32 or (p & 31) == _RAIN:
                continue
            sym = COMMON[(o & 31) * _NC + (p & 31)]
            k = 1 + self.run_from(x, d, sym) + self.run_from(x, (d + 3) % 6, sym)
            if k > best:
                best = k
        return best

    def is_sealed(self, x):
        # §2: a card in a sequence of 4 is sealed for good. Sealed cards
        # never move, so their run always stays on the board: sealing can be
        # derived from the board instead of being stored.
        return self.run_length_through(x) >= 4

    def sealed_cells(self, out):
        """out[x] = 1 for every card in a sequence of 4 or more (§2), 0
        elsewhere; the count. One pass over the 27 lines instead of a run
        search per card: the LED view asks this after every move."""
        return loops.sealed(self.board, out)

    def count_runs(self, side):
        """(sequences of 3, sequences of 4) of side: maximal runs of length
        >= 3 and >= 4 along the 27 lines (D-6; distinct per D-1)."""
        r = loops.runs(self.board, side)
        return r & 255, r >> 8

    def _adjacent_opponent(self, side, x):
        b = self.board
        for d in range(6):
            n = NB[x * 6 + d]
            if n != NONE and b[n] and (b[n] - 1) >> 5 != side:
                return True
        return False

    def royal_allowed(self, side):
        # §3.1 / D-5: a sequence of 3 at the end of an earlier own turn, and
        # still a sequence of 3 now.
        return bool(self.s[FLAGS] & (_HAD3 << side)) and self.count_runs(side)[0] > 0

    def _place_reason(self, side, card, x):
        """Board legality of a normal card on cell x (§3 rules 1-4, §3.1)."""
        if self.board[x]:
            return OCCUPIED
        if x == ROYAL:
            return OK if self.royal_allowed(side) else ROYAL_LOCKED
        if not self._adjacent_opponent(side, x):
            return OK  # rules 2-3, D-3
        for d in range(6):  # rule 4, D-4: a block or an extension
            e = self.end_symbol(x, d)
            if e != NONE and HAS[card * _NC + (e & 31)]:
                return OK
        return ADJACENT_OPPONENT

    def _rain_reason(self, side, x):
        # §3.2: a free open end of an opponent run.
        if self.board[x]:
            return OCCUPIED
        for d in range(6):
            e = self.end_symbol(x, d)
            if e != NONE and (e >> 5) != side:
                return OK
        return NOT_OPEN_END

    def _movable(self, x):
        # §3.2: neither the Royal card nor a sealed card moves or leaves.
        if not self.board[x]:
            return BAD_TARGET
        if x == ROYAL:
            return ROYAL_IMMOVABLE
        if self.is_sealed(x):
            return SEALED
        return OK

    # ---- turn and mode checks -------------------------------------------
    def _turn_reason(self, side, seat, special):
        """Whose turn (NOTATION.md's order: game-over, not-allowed-in-mode,
        not-your-turn). side NONE is a Junior line: not in this mode."""
        s = self.s
        if s[OVER]:
            return GAME_OVER
        if side == NONE:
            return NOT_ALLOWED_IN_MODE
        if side != self.side_to_play():
            return NOT_YOUR_TURN
        if seat and seat != self.seat_to_play():
            return NOT_YOUR_TURN
        if special and s[FLAGS] & PENDING:
            return SPECIAL_USED  # one special per turn (setting special_then_place)
        return OK

    def _move_reason(self, side, seat, special):
        """_turn_reason for a placement or a special (hook: a keeper's
        reserve turn allows neither, team.py)."""
        return self._turn_reason(side, seat, special)

    def _special_reason(self, side, slot):
        if not self.specials_unlocked():
            return SPECIALS_LOCKED
        if self.s[slot + side]:
            return OK
        return OK if self._bonus_allows(side, slot) else SPECIAL_USED

    def _bonus_allows(self, side, slot):
        return False  # the excess penalty (§4) is a team mode's: team.py

    # ---- move checks (no change) ----------------------------------------
    def check_place(self, side, card, x, seat=0):
        """Reason code for placing a normal card."""
        if not 0 <= x < NCELLS:
            return BAD_CELL  # bad input is a reason code, never an IndexError
        r = self._move_reason(side, seat, False)
        if r:
            return r
        if not 0 <= card < _NC:
            return UNKNOWN_CARD
        if self.loc[side * _NC + card]:
            return CARD_ALREADY_PLAYED
        return self._place_reason(side, card, x)

    def check_special(self, side, kind, seat=0):
        """Could side declare a special of this kind (RAIN_MOVE, BEEKEEPER,
        SMOKER) now? For the action pad, before any target is chosen."""
        slot = RAINS if kind == RAIN_MOVE else (BKS if kind == BEEKEEPER else SMS)
        return self._move_reason(side, seat, True) or self._special_reason(side, slot)

    def check_rain(self, side, x, seat=0):
        if not 0 <= x < NCELLS:
            return BAD_CELL
        r = self._move_reason(side, seat, True) or self._special_reason(side, RAINS)
        return r or self._rain_reason(side, x)

    def check_beekeeper(self, side, src, dst, seat=0):
        if not (0 <= src < NCELLS and 0 <= dst < NCELLS):
            return BAD_CELL
        r = self._move_reason(side, seat, True) or self._special_reason(side, BKS)
        r = r or self._movable(src)
        if r:
            return r
        if self.board[dst]:
            return OCCUPIED
        # The card goes where its owner could legally place it (§3.2),
        # judged with the card already lifted.
        b = self.board
        o = b[src]
        b[src] = 0
        owner = (o - 1) >> 5
        card = (o - 1) & 31
        if card == _RAIN:
            r = self._rain_reason(owner, dst)
        else:
            r = self._place_reason(owner, card, dst)
        b[src] = o
        return r

    def check_smoker(self, side, x, seat=0):
        if not 0 <= x < NCELLS:
            return BAD_CELL
        r = self._move_reason(side, seat, True) or self._special_reason(side, SMS)
        if r:
            return r
        if not self.board[x] or (self.board[x] - 1) >> 5 == side:
            return BAD_TARGET  # §3.2: an opponent card
        return self._movable(x)

    def check_reserve(self, side, cells, seat=0):
        """§4 reserve deck: only the team modes have one (team.py)."""
        for i in range(len(cells)):
            if not 0 <= cells[i] < NCELLS:
                return BAD_CELL
        return GAME_OVER if self.s[OVER] else NOT_ALLOWED_IN_MODE

    def check_pass(self, side, seat=0):
        """§4 D-9: a pass is a team mode's tactical void (team.py); anywhere
        else it is illegal (NOTATION.md)."""
        return self._turn_reason(side, seat, False) or CANNOT_PASS

    def check_out(self, side, seat=0):
        """§6 D-13: only a Junior player declares they have run out."""
        return GAME_OVER if self.s[OVER] else NOT_ALLOWED_IN_MODE

    # ---- moves (check, then push) -----------------------------------------
    def place(self, side, card, x, seat=0):
        """Place a normal card. Returns the reason code; OK means done."""
        r = self.check_place(side, card, x, seat)
        if r:
            return r
        self._begin3(PLACE, side, card, x)
        self.board[x] = 1 + (side << 5) + card
        self.loc[side * _NC + card] = x + 1
        self.s[FLAGS] &= ~PENDING
        self._after_move(side, True)
        self._commit()
        return OK

    def rain(self, side, x, seat=0):
        r = self.check_rain(side, x, seat)
        if r:
            return r
        self._begin(RAIN_MOVE, 2)
        self._put(side)
        self._put(x)
        self._use(side, RAINS)
        self.board[x] = 1 + (side << 5) + _RAIN
        self._after_special(side)
        self._commit()
        return OK

    def beekeeper(self, side, src, dst, seat=0):
        r = self.check_beekeeper(side, src, dst, seat)
        if r:
            return r
        self._begin3(BEEKEEPER, side, src, dst)
        self._use(side, BKS)
        o = self.board[src]
        self.board[src] = 0
        self.board[dst] = o
        self._set_loc(o, dst + 1)
        self._after_special((o - 1) >> 5)
        self._commit()
        return OK

    def smoker(self, side, x, seat=0):
        r = self.check_smoker(side, x, seat)
        if r:
            return r
        o = self.board[x]
        self._begin3(SMOKER, side, x, o)
        self._use(side, SMS)
        self.board[x] = 0
        self._set_loc(o, REMOVED)
        self._after_special(side)
        self._commit()
        return OK

    def reserve(self, side, cells, seat=0):
        return self.check_reserve(side, cells, seat)  # never OK here (team.py)

    def pass_turn(self, side, seat=0):
        return self.check_pass(side, seat)  # never OK here (team.py)

    def out(self, side, seat=0):
        return self.check_out(side, seat)  # never OK here (junior.py)

    def deck_empty(self, side):
        """Declaration (button/host): side's deck has run out. Here (two
        players, Teen) it ends the game by the count (§3.3, §7); the team
        modes open the reserve deck first (team.py)."""
        r = self._declaration_reason(side)
        if r:
            return r
        self._begin(DECK_EMPTY, 1)
        self._put(side)
        self._finish_by_count(CARDS_OUT)
        self._commit()
        return OK

    def forced_removal(self, side):
        """§4 penalty for talking: the silent modes only (team.py)."""
        return self._declaration_reason(side) or NOT_ALLOWED_IN_MODE

    def _declaration_reason(self, side):
        if self.s[OVER]:
            return GAME_OVER
        if not 0 <= side <= 1:
            return NOT_ALLOWED_IN_MODE  # no such side (side indexes the scalars)
        return OK

    def _use(self, side, slot):
        if self.s[slot + side]:
            self.s[slot + side] -= 1
        else:
            self._use_bonus(side)

    def _use_bonus(self, side):
        pass  # the excess-penalty special (team.py)

    def _after_special(self, owner):
        # Setting special_then_place (D-2): a placement follows, when there
        # is one to make; when no card of the side can be placed, the turn
        # ends with the special, as in the default reading (it would wait
        # for ever otherwise: a keeper could neither place nor build).
        if self.special_then_place and self.legal_cells(self.side_to_play(), None):
            self.s[FLAGS] |= PENDING
            self._after_move(owner, False)
        else:
            self._after_move(owner, True)

    def _after_move(self, owner, end_turn):
        # §3.3: two distinct sequences of 4 end the game at once. Only the
        # owner of the card that moved can have gained a sequence.
        if self.count_runs(owner)[1] >= 2:
            self._finish(TWO_SEQUENCES, owner)
            return
        if end_turn:
            self._end_turn()
        else:
            self._check_exhausted()

    def _end_turn(self):
        s = self.s
        t = self.side_to_play()
        if self.count_runs(t)[0]:
            s[FLAGS] |= _HAD3 << t  # D-5
        p = self.ply() + 1
        s[_PLY_LO] = p & 255
        s[_PLY_HI] = p >> 8
        self._turn_ended()
        self._check_exhausted()

    def _turn_ended(self):
        pass  # hook: the excess penalty's count of turns (team.py)

    def _check_exhausted(self):
        # §3.3: the side to play that cannot move ends the game by the
        # count; a team mode first waits for its reserve (D-10, team.py).
        t = self.side_to_play()
        if not self.can_move(t) and self._count_may_end(t):
            self._finish_by_count(EXHAUSTED)

    def _count_may_end(self, t):
        return True

    def _finish(self, how, winner):
        self.s[OVER] = how
        self.s[_WINNER] = winner

    def _finish_by_count(self, how):
        # D-6: more sequences of 3, then more sequences of 4, else a draw.
        a3, a4 = self.count_runs(0)
        b3, b4 = self.count_runs(1)
        if a3 != b3:
            w = 0 if a3 > b3 else 1
        elif a4 != b4:
            w = 0 if a4 > b4 else 1
        else:
            w = DRAW
        self._finish(how, w)

    # ---- can the side move at all (§3.3) ------------------------------------
    def can_move(self, t):
        """Has side t a placement or a usable special (§3.3)? Judged over
        every card of t not on the board: the board cannot see hands."""
        if self.legal_cells(t, None):
            return True
        if self.s[FLAGS] & PENDING:
            return False
        if self.specials_unlocked():
            b = self.board
            for x in range(NCELLS):
                if not b[x]:
                    if self._special_reason(t, RAINS) == OK and self._rain_reason(t, x) == OK:
                        return True
                    continue
                if self._movable(x):
                    continue
                if (b[x] - 1) >> 5 != t and self._special_reason(t, SMS) == OK:
                    return True
                if self._special_reason(t, BKS) == OK:
                    for y in range(NCELLS):
                        if not b[y] and self.check_beekeeper(t, x, y, 0) == OK:
                            return True
        return False

    # ---- hint queries (for the LED layer) ---------------------------------
    def _fill_avail(self, t):
        """Per-symbol count of t's normal cards not yet on the board."""
        return loops.avail(self.loc, self._avail, t * _NC)

    def _prepare(self):
        """Fill the hint cache for the board as it is now (once per
        position: a card query asks it for each card in hand). Keyed on the
        board's bytes, so it cannot go stale whoever changed the board."""
        b = self.board
        if self._cboard == b:
            return
        loops.prepare(b, self._ends, self._adj)
        self._cboard[:] = b

    def _no_placement(self, t):
        """Can side t place nothing at all now (the game is over)? A variant
        adds its own cases (a keeper's reserve turn, Junior)."""
        return self.s[OVER]

    def legal_cells(self, t=None, out=None):
        """Cells where some card side t (default: the side to play) has not
        yet placed could legally go; marks out[x] = 1 when out is given.
        Returns the count."""
        if t is None:
            t = self.side_to_play()
        if out is None:
            out = self._tmp  # can_move after every move: only the count
        if self._no_placement(t) or not self._fill_avail(t):
            for x in range(NCELLS):
                out[x] = 0
            return 0
        self._prepare()
        count = loops.legal(self.board, self._ends, self._adj, self._avail, out, t)
        if not self.board[ROYAL] and self.royal_allowed(t):  # §3.1
            out[ROYAL] = 1
            count += 1
        return count

    def card_cells(self, card, out, t=None):
        """Legal cells of one card of side t, each marked with why in out[x]:
        PLAIN, EXTENSION (open end of an own run), BLOCK (open end of an
        opponent run), ROYAL_CELL. card may be RAIN. Returns the count."""
        if t is None:
            t = self.side_to_play()
        if self._no_placement(t) or (card != _RAIN and self.loc[t * _NC + card]):
            for x in range(NCELLS):
                out[x] = 0
            return 0
        self._prepare()
        count = loops.card_cells(self.board, self._ends, self._adj, out, t, card)
        # §3.1: the Royal Cell takes a normal card once the side may.
        if card != _RAIN and not self.board[ROYAL] and self.royal_allowed(t):
            out[ROYAL] = ROYAL_CELL
            count += 1
        return count

    def threats(self, out, level=None, t=None):
        """Free open ends of the opponent's runs, most urgent first: cells
        written to out[0:n], n returned; level[x] (if given) is the length of
        the longest opponent run ending there (3+ before 2, §3 block)."""
        if t is None:
            t = self.side_to_play()
        self._prepare()
        lv = self._tmp if level is None else level
        return loops.threats(self.board, self._ends, self._adj, lv, out, t)

    # ---- undo log ---------------------------------------------------------
    def _begin(self, kind, plen):
        ns = self.nscalars
        need = self.nlog + 6 + plen + 2 * ns
        if need > len(self.log):
            grown = bytearray(len(self.log) + (len(self.log) >> 1) + need - self.nlog)
            grown[: self.nlog] = self.log[: self.nlog]
            self.log = grown
        p = self.nlog
        self.log[p] = kind
        self.log[p + 1] = plen
        self._w = p + 3
        self._pre[:] = self.s

    def _begin3(self, kind, a, b, c):
        self._begin(kind, 3)
        log = self.log
        w = self._w
        log[w] = a
        log[w + 1] = b
        log[w + 2] = c
        self._w = w + 3

    def _set_loc(self, o, v):
        """loc of the card in occupant code o (a Rain has no loc entry)."""
        if (o - 1) & 31 != _RAIN:
            self.loc[((o - 1) >> 5) * _NC + ((o - 1) & 31)] = v

    def _put(self, v):
        self.log[self._w] = v
        self._w += 1

    def _commit(self):
        log = self.log
        w = self._w
        p = self.nlog
        s = self.s
        pre = self._pre
        n = 0
        for i in range(self.nscalars):
            if s[i] != pre[i]:
                log[w] = i
                log[w + 1] = pre[i]
                w += 2
                n += 1
        log[p + 2] = n
        log[w] = n
        log[w + 1] = log[p + 1]
        log[w + 2] = log[p]
        self.nlog = w + 3

    def undo(self):
        """Take back the last move or declaration (a take-back on the board).
        Returns its kind, or 0 when there is nothing to undo."""
        p = self.nlog
        if not p:
            return 0
        log = self.log
        kind = log[p - 1]
        plen = log[p - 2]
        n = log[p - 3]
        p -= 6 + plen + 2 * n
        q = p + 3
        b = self.board
        if kind == PLACE:
            x = log[q + 2]
            self._set_loc(b[x], 0)  # the side from the board: Junior's payload names a player
            b[x] = 0
        elif kind == RAIN_MOVE:
            b[log[q + 1]] = 0
        elif kind == BEEKEEPER:
            src, dst = log[q + 1], log[q + 2]
            o = b[dst]
            b[dst] = 0
            b[src] = o
            self._set_loc(o, src + 1)
        elif kind == SMOKER:
            x, o = log[q + 1], log[q + 2]
            b[x] = o
            self._set_loc(o, x + 1)
        else:
            self._undo_move(kind, q, plen)
        s = self.s
        for i in range(q + plen, q + plen + 2 * n, 2):
            s[log[i]] = log[i + 1]
        self.nlog = p
        return kind

    def _undo_move(self, kind, q, plen):
        pass  # declarations and passes change scalars only; a variant's moves

    def history(self):
        """Iterate the moves played, oldest first: (kind, payload bytes, ply
        before the move). A move changes the turn counter by one at most,
        so the ply follows from whether its record holds a _PLY_LO pair.
        For records and tools, not the hot path."""
        log = self.log
        p = 0
        ply = 0
        while p < self.nlog:
            kind = log[p]
            plen = log[p + 1]
            n = log[p + 2]
            yield kind, bytes(log[p + 3 : p + 3 + plen]), ply
            for i in range(p + 3 + plen, p + 3 + plen + 2 * n, 2):
                if log[i] == _PLY_LO:
                    ply += 1
            p += 6 + plen + 2 * n

    def nmoves(self):
        """How many moves (record lines: placements, specials, reserves,
        declarations) the undo log holds: what a board reports as its move
        count. nlog is the log's size in bytes, not a count. Walks the log
        without allocating; for status, not the hot path."""
        log = self.log
        p = 0
        n = 0
        while p < self.nlog:
            p += 6 + log[p + 1] + 2 * log[p + 2]
            n += 1
        return n

    def last_move(self):
        """(kind, payload) of the last move, or (0, b'')."""
        p = self.nlog
        if not p:
            return 0, b""
        log = self.log
        plen = log[p - 2]
        q = p - 6 - plen - 2 * log[p - 3] + 3
        return log[p - 1], bytes(log[q : q + plen])

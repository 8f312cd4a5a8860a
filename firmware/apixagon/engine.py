# A computer player for any seat of any mode, levels 1 to 6, one source
# for the board (MicroPython) and the PC (CPython). Loaded only when a
# computer seat plays: a board of people alone never carries it.
#
# What it reads: the game (the board, which cards are on it or smoked out,
# the specials left: all public, RULES §8), its own hand, and the hand
# limit of the seats (§3, §4, §5). Never another seat's hand: the caller
# does not give it one. Where a hidden hand matters (what the opponent can
# answer), it searches over deals of the opponent's unseen cards, the
# determinizations of Information Set search (Cowling, Powley and
# Whitehouse, IEEE TCIAIG 2012), sampled from its own seeded generator.
#
# The search (levels, LEVELS below), each level a step of at least +100
# Elo over the one below (make ladder, docs/guide/computer.md):
#   1  looks at the card it drew last and its own runs only, loosely (a
#      beginner who plays what they just drew and sees only big runs);
#   2  the same, more closely;
#   3  the same, closely;
#   4  looks at the two cards it drew last;
#   5  at its whole hand, and counts the room each cell has to grow into
#      a sequence of 4 (the board's top);
#   6  weighs both sides, the cards left in its hand and the specials
#      (§3.2), and looks one reply deep: for each of its 8 best moves, the
#      opponent's best answer with each of 16 sampled hands (its cards
#      unseen by this seat), averaged, the opponent's specials, and its
#      own best move after each answer (half its worth: the opponent moves
#      again). The PC's level (about 5 s on the board's chip).
# Looking one reply deep with fewer moves and deals (2 and 4, 3 and 6)
# measured only +40 to +80 Elo over level 5's search without the noise:
# no step of their own, nor level 6 one above them.
# A weaker level is a player who sees less or looks less closely: its
# noise is how much less than its best a move may be worth and still be
# the one it plays (100, 60, 24, 24 and 48 points for levels 1-5; a
# sequence of 4 is worth 120, so every level still seals its own).
#
# The worth of a position is a sum over the 27 lines (§2): each maximal run
# by its length and its open ends, an open end counting only while the
# owner still has a card of the run's symbol to put there; a placement
# changes only the three lines through its cell, so a candidate costs three
# line scans, not a board's. The scans are machine code on the board
# (@micropython.viper, as loops.py), plain Python on the PC.
from . import loops
from .base import RAINS, SMS
from .codes import (
    BEEKEEPER,
    JUNIOR,
    OK,
    PASS,
    PLACE,
    RAIN_MOVE,
    RESERVE,
    SMOKER,
)
from .compat import const, micropython, ptr8
from .deck import COMMON, HAS, SYMS
from .geometry import LINE_START, LINES, NB, NCELLS, NONE, ROYAL

_NC = const(31)
_RAIN = const(31)
_NLINES = const(27)
WIN = const(100000)  # two distinct sequences of 4 (§3.3)
_MAXC = const(400)  # candidates of one decision at most

# Move encoding: one small int, kind << 16 | a << 8 | b (no object per
# move). PLACE: a card, b cell; RAIN_MOVE: b cell; BEEKEEPER: a from, b
# to; SMOKER: b cell; PASS; RESERVE: the cells in Engine.reserve_cells.


def move(kind, a=0, b=0):
    return kind << 16 | a << 8 | b


def kind_of(m):
    return m >> 16


def arg_a(m):
    return (m >> 8) & 255


def arg_b(m):
    return m & 255


# Per level: (sees the opponent: 0 no, 1 half, 2 whole; noise, the
# largest random nudge added to a move's worth; specials; counts the
# cards left in its hand (what it can extend next turn); candidates
# looked at one reply deep (0: none); sampled deals of the opponent's
# hand; the opponent's specials in that look; room: how many stretches of
# 4 a cell lies in counts (ROOM); the cards of its hand it looks at, the
# last drawn first (0: all)).
LEVELS = (
    None,
    (0, 100, 0, 0, 0, 0, 0, 0, 1),
    (0, 60, 0, 0, 0, 0, 0, 0, 1),
    (0, 24, 0, 0, 0, 0, 0, 0, 1),
    (0, 24, 0, 0, 0, 0, 0, 0, 2),
    (0, 48, 0, 0, 0, 0, 0, 1, 0),
    (2, 1, 1, 1, 8, 16, 1, 1, 0),
)
NLEVELS = const(6)

# What a special in hand is worth, kept for later (Rain, Beekeeper, Smoker)
_KEEP = (24, 32, 32)


def _cell_lines():
    # The three lines (one per axis) through each cell: a placement
    # changes only those.
    out = bytearray(NCELLS * 3)
    for li in range(_NLINES):
        for j in range(LINE_START[li], LINE_START[li + 1]):
            out[LINES[j] * 3 + li // 9] = li
    return bytes(out)


CELL_LINES = _cell_lines()


def _room():
    # How many stretches of 4 cells along a line hold each cell, over the
    # three axes (§2: a sequence of 4): a card near the centre can grow
    # into more of them than one on an edge. The tie-break between quiet
    # placements, which change no run.
    out = bytearray(NCELLS)
    for li in range(_NLINES):
        a, z = LINE_START[li], LINE_START[li + 1]
        n = z - a
        for p in range(n):
            out[LINES[a + p]] += min(p + 1, n - p, 4, n - 3) if n >= 4 else 0
    return bytes(out)


ROOM = _room()
assert LINE_START[9] == 61 and LINE_START[18] == 122  # 9 lines per axis


@micropython.viper
def line_value(b: ptr8, li: int, av: ptr8) -> int:
    """The worth of line li for each side, packed: side 0's in bits 0-10,
    side 1's in 11-21, their sequences of 4 in 22-24 and 25-27. Each
    maximal run (§2): length 4 or more 120; 3: 20 + 4 per open end and
    card of its symbol the owner has not placed (up to 4), + 45 when one is
    in the hand of the seat choosing; 2: 3 + 1 per open end and card, + 6.
    av[side*31 + symbol]: the side's cards of that symbol not on the board
    (bits 0-3) and in the hand of the seat choosing (bits 4-7).
    Its walk of the runs is loops.sealed's, a copy: shared through loops,
    it cost every match 0.5 to 1.1 KB of the board's heap on the update
    path (.mpy in the littlefs), 96.1 KB of its 96 KB budget already
    (docs/development/notes.md)."""
    lines = ptr8(LINES)
    start = ptr8(LINE_START)
    common = ptr8(COMMON)
    has = ptr8(HAS)
    j0 = int(start[li])
    hi = int(start[li + 1])
    s0 = 0
    s1 = 0
    n0 = 0
    n1 = 0
    j = j0
    while j < hi - 1:
        o = int(b[int(lines[j])])
        p = int(b[int(lines[j + 1])])
        if not o or not p or (o ^ p) & 32 or ((o - 1) & 31) == _RAIN or ((p - 1) & 31) == _RAIN:
            j += 1
            continue
        sym = int(common[((o - 1) & 31) * _NC + ((p - 1) & 31)])
        k = j + 2
        while k < hi:
            q = int(b[int(lines[k])])
            if not q or (q ^ o) & 32 or ((q - 1) & 31) == _RAIN:
                break
            if not has[((q - 1) & 31) * _NC + sym]:
                break
            k += 1
        n = k - j
        side = (o - 1) >> 5
        e = 0  # free open ends
        a = int(av[side * _NC + sym])  # in hand << 4 | not on the board
        u = a & 15
        if u > 4:
            u = 4
        if u:
            if j > j0 and not b[int(lines[j - 1])]:
                e += 1
            if k < hi and not b[int(lines[k])]:
                e += 1
        if n >= 4:
            v = 120
            if side:
                n1 += 1
            else:
                n0 += 1
        elif n == 3:
            v = 20 + e * u * 4
            if e and a >> 4:
                v += 45  # a card in hand seals it next turn
        else:
            v = 3 + e * u
            if e and a >> 4:
                v += 6
        if side:
            s1 += v
        else:
            s0 += v
        j = k - 1  # the last card may start a run of another symbol
    return s0 | (s1 << 11) | (n0 << 22) | (n1 << 25)


class Rng:
    """L'Ecuyer's combined generator of three 16-bit Lehmer generators
    (CACM 1988): small ints only (no heap object on the board's 31-bit
    ints), the same stream on every interpreter, seeded."""

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        seed &= 0x3FFFFFFF
        self.a = 1 + seed % 32362
        self.b = 1 + (seed // 32362) % 31726
        self.c = 1 + (seed // 7) % 31656

    def next(self):
        """An int in 0..32361."""
        self.a = 157 * self.a % 32363
        self.b = 146 * self.b % 31727
        self.c = 142 * self.c % 31657
        z = (self.a - self.b + self.c) % 32362
        return z

    def below(self, n):
        """An int in 0..n-1 (n <= 32362)."""
        return self.next() % n if n > 1 else 0


class Engine:
    """Chooses a move for one seat. level 1..6; seed: the same seed, game
    and hand give the same move on every interpreter."""

    def __init__(self, level=3, seed=1):
        if not 1 <= level <= NLEVELS:
            raise ValueError("level is 1 to 6")
        self.level = level
        self.rng = Rng(seed)
        self.lv = bytearray(_NLINES * 4)  # line worths, 4 bytes each (_setup)
        self._av1 = bytearray(_NC)
        self.av = bytearray(2 * _NC)  # cards not on the board per side and symbol
        self.out = bytearray(NCELLS)
        self.cm = [0] * _MAXC  # candidates: moves
        self.cv = [0] * _MAXC  # and their worth
        self.nc = 0
        self.reserve_cells = bytearray(12)  # the last RESERVE chosen
        self.nres = 0
        self._deal = bytearray(32 * 5)  # sampled opponent hands
        self._uns = bytearray(_NC)
        self._best = [0] * _NC  # the opponent's best answer per card
        self._bx = bytearray(_NC)  # and its cell
        self._fu = [0] * (_NC + 1)  # the seat's follow-up after each answer (-1: not yet)
        self._gx = NONE  # _gain's cell
        self._hand = ()
        self._mine = NONE
        self.lines = [0] * _NLINES  # each line's worth (line_value) in the position
        self.s0 = self.s1 = self.n0 = self.n1 = 0
        self.thought = 0  # candidates scored in the last choice (benchmarks)

    # ---- the worth of a position -------------------------------------------
    def _setup(self, g):
        """Line worths and the cards each side has not placed (§2 open
        ends): public, from the board and loc."""
        loops.avail(g.loc, self.av, 0)
        loops.avail(g.loc, self._av1, _NC)  # viper takes no offset into av
        self.av[_NC:] = self._av1
        self._setup_lines(g.board)

    def _setup_lines(self, b):
        s0 = s1 = n0 = n1 = 0
        lines = self.lines
        av = self.av
        for li in range(_NLINES):
            v = line_value(b, li, av)
            lines[li] = v
            s0 += v & 2047
            s1 += (v >> 11) & 2047
            n0 += (v >> 22) & 7
            n1 += (v >> 25) & 7
        # (one by one: MicroPython builds a tuple for four at once, and
        # these run thousands of times a search: no object per candidate)
        self.s0 = s0
        self.s1 = s1
        self.n0 = n0
        self.n1 = n1

    def _worth(self, b, t, x, y, see):
        """The worth for side t of board b, which differs from the set-up
        position on cells x and y (y NONE: x only): own runs minus the
        opponent's (see: 0 ignores them, 1 at half, 2 whole), WIN for two
        sequences of 4."""
        s0 = self.s0
        s1 = self.s1
        n0 = self.n0
        n1 = self.n1
        lines = self.lines
        av = self.av
        cl = CELL_LINES
        for i in range(3):
            li = cl[x * 3 + i]
            nv = line_value(b, li, av)
            ov = lines[li]
            if nv != ov:
                s0 += (nv & 2047) - (ov & 2047)
                s1 += ((nv >> 11) & 2047) - ((ov >> 11) & 2047)
                n0 += ((nv >> 22) & 7) - ((ov >> 22) & 7)
                n1 += ((nv >> 25) & 7) - ((ov >> 25) & 7)
            if y != NONE and cl[y * 3 + i] != li:
                li = cl[y * 3 + i]  # y's line of this axis, another one
                nv = line_value(b, li, av)
                ov = lines[li]
                if nv != ov:
                    s0 += (nv & 2047) - (ov & 2047)
                    s1 += ((nv >> 11) & 2047) - ((ov >> 11) & 2047)
                    n0 += ((nv >> 22) & 7) - ((ov >> 22) & 7)
                    n1 += ((nv >> 25) & 7) - ((ov >> 25) & 7)
        if t:  # two swaps of two: no tuple made
            s0, s1 = s1, s0
            n0, n1 = n1, n0
        if n0 >= 2:
            return WIN
        if see == 0:
            return s0
        if n1 >= 2:
            return -WIN
        return s0 - (s1 >> 1 if see == 1 else s1)

    def worth(self, g, t):
        """The worth of the game's position for side t (tests, tools)."""
        self._setup(g)
        s0 = self.s0
        s1 = self.s1
        n0 = self.n0
        n1 = self.n1
        if t:
            s0, s1 = s1, s0
            n0, n1 = n1, n0
        if n0 >= 2:
            return WIN
        if n1 >= 2:
            return -WIN
        return s0 - s1

    # ---- the choice ------------------------------------------------------
    def choose(self, g, hand, limit=4, specials=True):
        """The move of the seat to play, holding the cards in hand (a
        bytes-like of card numbers), or 0 when it has none (no card it
        holds can go anywhere, no special, no pass: the caller declares,
        §3.3, §4). limit: the opponent's hand limit (§3: 4; §5: the single
        player of 2v1 holds 3). specials: may the seat play one instead of
        a placement (the caller knows whether it has drawn this turn)."""
        if g.over():
            return 0
        if g.mode == JUNIOR:
            return self._junior(g, hand)
        t = g.side_to_play()
        if g.reserve_due():
            return self._reserve(g, t)
        self._setup(g)
        self._hand = hand
        P = LEVELS[self.level]
        see = P[0]
        noise = P[1]
        hw = P[3]
        rw = P[7]
        self.nc = 0
        self.thought = 0
        b = g.board
        if hw:
            for i in range(len(hand)):
                self._card_av(t, hand[i], 16)
            self._setup_lines(b)
        base = self._worth_now(t, see)
        out = self.out
        one = P[8]
        n = len(hand)
        looked = 0
        for k in range(n):
            # the low levels look at their last drawn cards only, those
            # that fit somewhere (a player who plays what they just drew)
            if one and looked >= one:
                break
            c = hand[n - 1 - k]
            if g.loc[t * _NC + c]:
                continue  # played already (a caller's stale hand)
            if not g.card_cells(c, out, t):
                continue
            if hw:
                # worth with the cards left in hand once c is down
                self._card_av(t, c, -16)
                self._setup_lines(b)
            code = 1 + (t << 5) + c
            for x in range(NCELLS):
                if out[x]:
                    b[x] = code
                    v = self._worth(b, t, x, NONE, see) - base + ROOM[x] * rw
                    b[x] = 0
                    self._add(move(PLACE, c, x), v, noise)
            if hw:
                self._card_av(t, c, 16)
            looked += 1
        if hw:
            self._setup_lines(b)
        if specials and P[2] and not g.placement_pending() and g.specials_unlocked():
            self._specials(g, t, see, noise, base)
        if P[4] and self.nc > 1:
            self._look_ahead(g, t, P, limit)
        if not self.nc:
            if g.check_pass(t, g.seat_to_play()) == OK:
                return move(PASS)
            return 0
        best = 0
        for i in range(1, self.nc):
            if self.cv[i] > self.cv[best]:
                best = i
        m = self.cm[best]
        if kind_of(m) != PLACE and g.check_pass(t, g.seat_to_play()) == OK and self.cv[best] < 0:
            return move(PASS)
        return m

    def _card_av(self, t, c, d):
        # card c of side t in hand (d 16) or out of it (d -16): av's bits 4-7
        av = self.av
        for k in range(c * 6, c * 6 + 6):
            av[t * _NC + SYMS[k]] += d

    def _worth_now(self, t, see):
        s0 = self.s1 if t else self.s0
        s1 = self.s0 if t else self.s1
        if see == 0:
            return s0
        return s0 - (s1 >> 1 if see == 1 else s1)

    def _add(self, m, v, noise):
        n = self.nc
        self.thought += 1
        if v < WIN // 2 and v > -WIN // 2 and noise:
            v = v * 4 + self.rng.below(noise * 4 + 1)  # quarter points: ties split
        else:
            v = v * 4
        if n < _MAXC:
            self.cm[n] = m
            self.cv[n] = v
            self.nc = n + 1

    def _specials(self, g, t, see, noise, base):
        # §3.2, each special instead of the turn's placement (D-2): worth
        # what it changes less what keeping it is worth.
        b = g.board
        out = self.out
        if g.check_special(t, RAIN_MOVE) == OK and g.card_cells(_RAIN, out, t):
            code = 1 + (t << 5) + _RAIN
            for x in range(NCELLS):
                if out[x]:
                    b[x] = code
                    v = self._worth(b, t, x, NONE, see) - base - _KEEP[0]
                    b[x] = 0
                    self._add(move(RAIN_MOVE, 0, x), v, noise)
        smoke = g.check_special(t, SMOKER) == OK
        bee = g.check_special(t, BEEKEEPER) == OK
        if not (smoke or bee):
            return
        for x in range(NCELLS):
            o = b[x]
            if not o or g._movable(x) != OK:
                continue
            b[x] = 0
            v = self._worth(b, t, x, NONE, see) - base
            b[x] = o
            if smoke and (o - 1) >> 5 != t:
                self._add(move(SMOKER, 0, x), v - _KEEP[2], noise)
            if bee and v > 0 and (o - 1) >> 5 != t:
                # the opponent's card carried where it does least (§3.2:
                # where its owner could place it)
                self._bee_from(g, t, x, o, see, noise, base)

    def _bee_from(self, g, t, x, o, see, noise, base):
        b = g.board
        best = -WIN
        to = NONE
        for y in range(NCELLS):
            if b[y] or g.check_beekeeper(t, x, y) != OK:
                continue
            b[x] = 0
            b[y] = o
            v = self._worth(b, t, x, y, see) - base
            b[y] = 0
            b[x] = o
            if v > best:
                best = v
                to = y
        if to != NONE:
            self._add(move(BEEKEEPER, x, to), best - _KEEP[1], noise)

    # ---- one reply deep (level 6) ----------------------------------------
    def _look_ahead(self, g, t, P, limit):
        """For the best P[4] candidates: the opponent's best answer with
        each of P[5] sampled hands (its cards this seat has not seen),
        averaged, taken from the candidate's worth."""
        k = P[4]
        o = t ^ 1
        # the opponent's cards not on the board: what it may hold
        uns = self._uns
        nu = 0
        for c in range(_NC):
            if not g.loc[o * _NC + c]:
                uns[nu] = c
                nu += 1
        h = limit if limit < nu else nu
        nd = P[5]
        deal = self._deal
        rng = self.rng
        for d in range(nd):  # the same deals for every candidate
            for i in range(h):
                j = i + rng.below(nu - i)
                uns[i], uns[j] = uns[j], uns[i]
                deal[d * 5 + i] = uns[i]
        # the candidates in order of worth, the best k kept
        cm, cv = self.cm, self.cv
        n = self.nc
        if k > n:
            k = n
        for i in range(k):
            m = i
            for j in range(i + 1, n):
                if cv[j] > cv[m]:
                    m = j
            cm[i], cm[m] = cm[m], cm[i]
            cv[i], cv[m] = cv[m], cv[i]
        self.nc = k
        b = g.board
        saved = bytearray(b)  # one per choice, restored after each candidate
        for i in range(k):
            m = cm[i]
            kd = kind_of(m)
            x = arg_b(m)
            y = NONE
            if kd == PLACE:
                b[x] = 1 + (t << 5) + arg_a(m)
            elif kd == RAIN_MOVE:
                b[x] = 1 + (t << 5) + _RAIN
            elif kd == SMOKER:
                b[x] = 0
            elif kd == BEEKEEPER:
                y = arg_a(m)
                b[x] = b[y]
                b[y] = 0
            if self._worth(b, t, x, y, 2) >= WIN:
                b[:] = saved
                cv[i] = WIN * 4  # it wins at once (§3.3): nothing to answer
                continue
            if kd == PLACE and P[3]:
                self._card_av(t, arg_a(m), -16)  # its hand without the card
            self._mine = arg_a(m) if kd == PLACE else NONE  # not in hand any more
            reply = self._replies(g, o, nu, h, nd, P[6], b)
            if kd == PLACE and P[3]:
                self._card_av(t, arg_a(m), 16)
            b[:] = saved
            self._setup_lines(b)  # _replies set the lines up for the candidate
            cv[i] = cv[i] - reply * 4 // nd

    def _replies(self, g, o, nu, h, nd, full, b):
        """Sum over the sampled deals of the opponent's best gain (its
        worth after its answer less before, at least 0: it can always
        place a card where it changes nothing, most of a game) on board
        b, which holds the candidate."""
        self._setup_lines(b)
        base = self._worth_now(o, 2)
        best = self._best
        bx = self._bx
        uns = self._uns
        for i in range(nu):
            c = uns[i]
            best[c] = self._gain(g, o, c, b, base)
            bx[c] = self._gx
        spec = 0
        if full and (g.specials_unlocked() or b[ROYAL]):
            spec = self._special_replies(g, o, b, base)
        total = 0
        deal = self._deal
        fu = self._fu
        if full:
            for c in range(_NC + 1):
                fu[c] = -1
        for d in range(nd):
            r = spec
            rc = _NC  # no answer that changes anything (or a special)
            for i in range(h):
                c = deal[d * 5 + i]
                v = best[c]
                if v > r:
                    r = v
                    rc = c
            total += r
            if full:
                # its own best move after that answer, with the cards left
                # in its hand (half its worth: the opponent moves again)
                if fu[rc] < 0:
                    fu[rc] = self._follow_up(g, o, b, rc, bx[rc] if rc < _NC else NONE)
                total -= fu[rc] >> 1
        return total

    def _follow_up(self, g, o, b, c, x):
        """The best gain of the seat's cards left in hand on board b, with
        the opponent's card c on x (NONE: no answer)."""
        t = o ^ 1
        if x != NONE:
            b[x] = 1 + (o << 5) + c
        self._setup_lines(b)
        base = self._worth_now(t, 2)
        hand = self._hand
        best = 0
        for i in range(len(hand)):
            c2 = hand[i]
            if c2 == self._mine or g.loc[t * _NC + c2]:
                continue
            v = self._gain(g, t, c2, b, base)
            if v > best:
                best = v
        if x != NONE:
            b[x] = 0
        return best

    def _gain(self, g, s, c, b, base):
        """The best gain of side s's card c on board b over base, at least
        0 (a quiet cell changes nothing), its cell in _gx (NONE: no gain):
        the one search of an answer and of a follow-up."""
        out = self.out
        best = 0
        self._gx = NONE
        if g.card_cells(c, out, s):
            code = 1 + (s << 5) + c
            for x in range(NCELLS):
                if out[x] and self._touches(b, x):
                    b[x] = code
                    v = self._worth(b, s, x, NONE, 2) - base
                    b[x] = 0
                    if v > best:
                        best = v
                        self._gx = x
        return best

    def _touches(self, b, x):
        # a card with no neighbour forms no run and closes no open end:
        # its worth is the position's (the quiet move)
        for d in range(6):
            n = NB[x * 6 + d]
            if n != NONE and b[n]:
                return True
        return False

    def _special_replies(self, g, o, b, base):
        # The opponent's Rain on an open end of ours, or its Smoker on one
        # of our cards (§3.2), when it has them; each less what keeping it
        # is worth.
        rains = g.s[RAINS + o]  # specials_left() would make a tuple
        sms = g.s[SMS + o]
        best = 0
        if rains:
            # a Rain's cells are blocks: each touches a card (§3.2)
            v = self._gain(g, o, _RAIN, b, base) - _KEEP[0]
            if v > best:
                best = v
        if sms:
            for x in range(NCELLS):
                c = b[x]
                if not c or (c - 1) >> 5 == o or x == ROYAL or g.is_sealed(x):
                    continue
                b[x] = 0
                v = self._worth(b, o, x, NONE, 2) - base - _KEEP[2]
                b[x] = c
                if v > best:
                    best = v
        return best

    # ---- the keeper's reserve (§4, D-7, D-12, D-14) ------------------------
    def _reserve(self, g, t):
        """The cards to take back: those whose leaving costs least (at most
        six: a larger reserve hands the opponents a special, §4), at least
        one while any may be taken (D-14)."""
        self._setup(g)
        b = g.board
        base = self._worth_now(t, 2)
        n = 0
        cm, cv = self.cm, self.cv
        for x in range(NCELLS):
            o = b[x]
            if not o or (o - 1) >> 5 != t or (o - 1) & 31 == _RAIN:
                continue
            if g.check_reserve(t, bytes((x,)), g.seat_to_play()) != OK:
                continue
            b[x] = 0
            v = base - self._worth(b, t, x, NONE, 2)
            b[x] = o
            cm[n] = x
            cv[n] = v
            n += 1
        res = self.reserve_cells
        k = 0
        for i in range(n):
            m = i
            for j in range(i + 1, n):
                if cv[j] < cv[m]:
                    m = j
            cm[i], cm[m] = cm[m], cm[i]
            cv[i], cv[m] = cv[m], cv[i]
            if k >= 6 or (k and cv[i] > 6):
                break
            res[k] = cm[i]
            if g.check_reserve(t, res[: k + 1], g.seat_to_play()) == OK:
                k += 1
        self.nres = k
        return move(RESERVE, k)

    # ---- Junior (§6) -----------------------------------------------------
    def _junior(self, g, hand):
        """Its top card (hand[0]) beside the reference card: level 1 the
        first cell it sees, higher levels the cell that leaves most free
        cells around (the race goes on where children can reach)."""
        if not len(hand):
            return 0
        c = hand[0]
        best = -1
        to = NONE
        for x in range(NCELLS):
            if g.check_place(NONE, c, x) != OK:
                continue
            v = 0
            if self.level > 1:
                for d in range(6):
                    n = NB[x * 6 + d]
                    if n != NONE and not g.board[n]:
                        v += 1
                v = v * 4 + self.rng.below(4)
            if v > best:
                best = v
                to = x
        return move(PLACE, c, to) if to != NONE else 0


def play(g, m, t, seat=0, cells=None):
    """Carry out move m for side t (seat: the record's seat, 0 implied):
    the core's reason code (OK: done)."""
    k = kind_of(m)
    if k == PLACE:
        return g.place(t, arg_a(m), arg_b(m), seat)
    if k == RAIN_MOVE:
        return g.rain(t, arg_b(m), seat)
    if k == BEEKEEPER:
        return g.beekeeper(t, arg_a(m), arg_b(m), seat)
    if k == SMOKER:
        return g.smoker(t, arg_b(m), seat)
    if k == PASS:
        return g.pass_turn(t, seat)
    if k == RESERVE:
        return g.reserve(t, cells if cells is not None else b"", seat)
    return 1  # BAD_SYNTAX: no such move


def cells_of(m):
    """The cells a move's card goes to or comes from, target last: what
    the board lights (a Beekeeper: from, to)."""
    k = kind_of(m)
    if k == BEEKEEPER:
        return (arg_a(m), arg_b(m))
    if k in (PLACE, RAIN_MOVE, SMOKER):
        return (arg_b(m),)
    return ()


# Graded hints (the board's assistance 2, the host's views): each legal
# cell of one card, by its worth to both sides with the room (§2).
POOR = const(1)
FAIR = const(2)
GOOD = const(3)
_grader = None  # one Engine for every query: its tables made once


def grade(g, card, t, out):
    """out[x] = GOOD, FAIR or POOR on each cell where card of side t may
    go, 0 elsewhere: good within a quarter of the spread (at least 4
    points) of the best cell, poor in the lowest quarter and 12 or more
    below the best; the count of legal cells."""
    global _grader
    if _grader is None:
        _grader = Engine(5, 1)  # its tables only: the worth below is both sides'
    e = _grader
    n = g.card_cells(card, out, t)
    if not n:
        return 0
    e._setup(g)
    base = e._worth_now(t, 2)
    b = g.board
    v = e.cv
    code = 1 + (t << 5) + card
    hi = -WIN
    lo = WIN
    for x in range(NCELLS):
        if out[x]:
            b[x] = code
            w = e._worth(b, t, x, NONE, 2) - base + ROOM[x]
            b[x] = 0
            v[x] = w
            if w > hi:
                hi = w
            if w < lo:
                lo = w
    q = (hi - lo) // 4
    for x in range(NCELLS):
        if out[x]:
            w = v[x]
            if w >= hi - (q if q > 4 else 4):
                out[x] = GOOD
            elif w <= lo + q and hi - w >= 12:
                out[x] = POOR
            else:
                out[x] = FAIR
    return n

# The computer's level 7, on the PC only: Information Set Monte Carlo Tree
# Search (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
# Search", IEEE TCIAIG 2012; single-observer ISMCTS). The board never
# loads it: it is a host module and only `apixagon play --level 7` (and the
# tools that measure it) import it.
#
# What it reads is what the engine reads (RULES §8): the game's public
# record and its own hand, never another seat's (the caller gives none).
# Each iteration deals the cards this seat has not seen again (a
# determinization): the opponent's hand from its cards not on the board,
# and this seat's own later draws from its own. It then descends one tree
# whose edges are moves, shared by every deal: at each node only the moves
# the deal allows are candidates, chosen by UCB whose visit counts are
# "availability" counts (how often the move could have been chosen, not how
# often its parent was visited), expands one new node, scores the leaf with
# the engine's evaluation (apixagon.engine, the lines of §2) and backs the
# score up. The moves are made and taken back on the rules core itself
# (place/undo), one game for the whole search.
#
# Outside the two-player game (teams, Junior, a keeper's reserve) it plays
# as level 6: the determinization of a shared team deck is not modelled.
import math
import time

from apixagon import engine as E
from apixagon.base import RAINS, SMS
from apixagon.codes import DRAW, JUNIOR, OK, PLACE, RAIN_MOVE, SMOKER
from apixagon.geometry import NCELLS, NONE

_NC = 31
_RAIN = 31
LEVEL = 7
# A leaf's worth (the engine's points, own runs less the opponent's) read
# as a chance of winning: 1 / (1 + e^(-v / _SCALE)). A sealed 3 with a card
# to place is worth about 90 points: about 0.75 at this scale.
_SCALE = 80.0
_KEEP = (24, 32, 32)  # a special kept for later (Rain, Beekeeper, Smoker): the engine's
_CELLS_PER_CARD = 4  # the best cells of each card a node keeps as candidates
# Few candidates and a small exploration constant: the leaf's scores lie
# close together (a sigmoid of the engine's points), and visits spread
# over many moves average a reply with its blunders. Against level 6,
# (10, 4, 0.2) measured no weaker than (16, 6, 0.6), with more iterations
# a second; both about its equal (docs/guide/computer.md).
_ROOT_K = 10  # candidates at the root (its hand is known: few)
_INNER_K = 4  # and below it, over the deal's hand
_MAX_DEPTH = 6  # plies below the root before the leaf is scored


class Ismcts:
    """Chooses a move for one seat, as engine.Engine does (the same
    choose() and move encoding, so apixagon.dealer drives it). seed:
    the same seed, game and hand give the same move when the search is
    bounded by iterations alone; seconds: the time a choice may take
    (None: no limit); iterations: the iterations a choice may run (None:
    no limit; one of the two must be given)."""

    def __init__(self, seed=1, seconds=1.0, iterations=None, c=0.2, bias=1.0):
        if seconds is None and iterations is None:
            raise ValueError("give seconds or iterations")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations is at least 1")
        self.level = LEVEL
        self.seed = seed
        self.seconds = seconds
        self.iterations = iterations
        self.c = c
        self.bias = bias
        self.root_k = _ROOT_K
        self.inner_k = _INNER_K
        self.rng = E.Rng(seed)
        self.ev = E.Engine(3, seed)  # its evaluation and tables, never its choice
        self.fallback = E.Engine(6, seed)
        self.reserve_cells = self.fallback.reserve_cells
        self.nres = 0
        self.out = bytearray(NCELLS)
        self.ran = 0  # iterations of the last choice (tests, tools)
        self._order = ([], [])  # per side: its hand first, then its later draws
        self._reset_tree()

    # ---- the tree: parallel lists, one entry per node -------------------
    def _reset_tree(self):
        self.n = [0]  # visits
        self.w = [0.0]  # score summed, for the side that made the move into it
        self.av = [0]  # availability: visits of the parent where the move was allowed
        self.kids = [{}]  # move -> node
        self.cache = [{}]  # card (or -1: the specials) -> [(prior, move), ...] at this node
        self.prior = [0.0]

    def _node(self, prior):
        self.n.append(0)
        self.w.append(0.0)
        self.av.append(0)
        self.kids.append({})
        self.cache.append({})
        self.prior.append(prior)
        return len(self.n) - 1

    # ---- the choice ----------------------------------------------------
    def choose(self, g, hand, limit=4, specials=True):
        self.ran = 0
        if g.over():
            return 0
        if g.mode == JUNIOR or g.teams or g.silent or g.reserve_due():
            m = self.fallback.choose(g, hand, limit, specials)
            self.nres = self.fallback.nres
            return m
        t = g.side_to_play()
        # seeded afresh from the seed and the position's number of moves:
        # a choice never depends on the searches before it
        self.rng.seed(self.seed * 7919 + g.nmoves())
        self._reset_tree()
        root_hand = [c for c in hand if not g.loc[t * _NC + c]]
        root = self._candidates(g, 0, t, root_hand, specials, self.root_k)
        if not root:
            return self.fallback.choose(g, hand, limit, specials)
        if len(root) == 1:
            return root[0][1]
        budget = self.iterations
        deadline = None
        if self.seconds is not None:
            # the call with the specials is the first of a turn that may
            # make a second: half the time (apixagon.dealer.choose)
            deadline = time.monotonic() + (self.seconds / 2 if specials else self.seconds)
        it = 0
        nlog = g.nlog
        while True:
            if budget is not None and it >= budget:
                break
            if deadline is not None and it & 7 == 0 and time.monotonic() >= deadline:
                break
            self._deal(g, t, root_hand, limit)
            self._iterate(g, t, root, specials)
            it += 1
            assert g.nlog == nlog  # every move taken back
        self.ran = it
        best = root[0][1]
        bn = -1
        kids = self.kids[0]
        for _p, m in root:
            i = kids.get(m)
            if i is not None and self.n[i] > bn:
                bn = self.n[i]
                best = m
        return best

    def _deal(self, g, t, hand, limit):
        """One determinization: per side, the cards it will hold in order
        (the first `limit` not on the board are its hand at any node). This
        seat's hand is known; the rest of its cards and all the
        opponent's unplaced cards are shuffled (what it cannot see)."""
        rng = self.rng
        for s in (0, 1):
            o = self._order[s]
            del o[:]
            for c in range(_NC):
                if not g.loc[s * _NC + c] and (s != t or c not in hand):
                    o.append(c)
            for i in range(len(o) - 1, 0, -1):
                j = rng.below(i + 1)
                o[i], o[j] = o[j], o[i]
        self._order[t][:0] = hand
        self._lim = [4, 4]
        self._lim[t ^ 1] = limit

    def _hand_of(self, g, s):
        out = []
        lim = self._lim[s]
        loc = g.loc
        for c in self._order[s]:
            if not loc[s * _NC + c]:
                out.append(c)
                if len(out) >= lim:
                    break
        return out

    def _iterate(self, g, t, root, specials):
        path = [0]
        movers = []
        node = 0
        depth = 0
        result = None
        cands = root
        while True:
            kids = self.kids[node]
            pick = None
            # the first move of this deal's candidates never tried here,
            # best prior first: one new node an iteration
            for p, m in cands:
                if m not in kids:
                    pick = m
                    break
            s = g.side_to_play()
            if pick is not None:
                child = self._node(_prior(self._p(cands, pick)))
                kids[pick] = child
                for _p, m in cands:
                    i = kids.get(m)
                    if i is not None:
                        self.av[i] += 1
                self._play(g, pick, s)
                path.append(child)
                movers.append(s)
                break
            # UCB over the allowed children, the availability count in place
            # of the parent's visits; a prior's bias fading with visits
            best = -1.0
            child = 0
            for p, m in cands:
                i = kids[m]
                self.av[i] += 1
            n, w, av, pr = self.n, self.w, self.av, self.prior
            c = self.c
            bias = self.bias
            for p, m in cands:
                i = kids[m]
                ni = n[i]
                u = w[i] / ni + c * math.sqrt(math.log(av[i]) / ni) + bias * pr[i] / (ni + 1)
                if u > best:
                    best = u
                    child = i
                    pick = m
            self._play(g, pick, s)
            path.append(child)
            movers.append(s)
            node = child
            depth += 1
            if g.over() or depth >= _MAX_DEPTH:
                break
            s = g.side_to_play()
            cands = self._candidates(g, node, s, self._hand_of(g, s), True, self.inner_k)
            if not cands:
                break
        if g.over():
            wnr = g.winner()
            result = 0.5 if wnr == DRAW else (1.0 if wnr == t else 0.0)
        else:
            result = self._leaf(g, t, path[-1])
        for _ in movers:
            g.undo()
        n, w = self.n, self.w
        n[0] += 1
        for k in range(1, len(path)):
            i = path[k]
            n[i] += 1
            w[i] += result if movers[k - 1] == t else 1.0 - result

    def _p(self, cands, m):
        for p, x in cands:
            if x == m:
                return p
        return 0.0

    def _play(self, g, m, s):
        r = E.play(g, m, s)
        if r != OK:
            raise AssertionError("illegal search move %x: reason %d" % (m, r))

    # ---- candidates: the engine's one-ply worth as the prior ---------------
    def _candidates(self, g, node, s, hand, specials, k, set_up=False):
        """The best k moves of side s holding hand at this node, as
        (prior, move), best first. A card's cells are scored once per node
        (the board at a node is the same in every deal: only hands differ)."""
        cache = self.cache[node]
        pool = []
        ev = self.ev
        if set_up:
            base = ev._worth_now(s, 2)
        for c in hand:
            got = cache.get(c)
            if got is None:
                if not set_up:
                    ev._setup(g)
                    base = ev._worth_now(s, 2)
                    set_up = True
                got = self._score_card(g, s, c, base)
                cache[c] = got
            pool.extend(got)
        if specials and not g.placement_pending() and g.specials_unlocked():
            got = cache.get(-1)
            if got is None:
                if not set_up:
                    ev._setup(g)
                    base = ev._worth_now(s, 2)
                    set_up = True
                got = self._score_specials(g, s, base)
                cache[-1] = got
            pool.extend(got)
        pool.sort(reverse=True)
        return pool[:k]

    def _score_card(self, g, s, c, base):
        out = self.out
        ev = self.ev
        if not g.card_cells(c, out, s):
            return []
        b = g.board
        code = 1 + (s << 5) + c
        got = []
        room = E.ROOM
        for x in range(NCELLS):
            if out[x]:
                if ev._touches(b, x):
                    b[x] = code
                    v = ev._worth(b, s, x, NONE, 2) - base + room[x]
                    b[x] = 0
                else:
                    v = room[x]  # no neighbour: no run made or closed (§2)
                got.append((v, E.move(PLACE, c, x)))
        got.sort(reverse=True)
        return got[:_CELLS_PER_CARD]

    def _score_specials(self, g, s, base):
        # §3.2: the Rain on an open end and the Smoker on an opponent's
        # card, each less what keeping it is worth (the engine's reading);
        # the Beekeeper's 61 x 61 moves are left to level 6's reading.
        out = self.out
        ev = self.ev
        b = g.board
        got = []
        if g.s[RAINS + s] and g.check_special(s, RAIN_MOVE) == OK and g.card_cells(_RAIN, out, s):
            code = 1 + (s << 5) + _RAIN
            rains = []
            for x in range(NCELLS):
                if out[x]:
                    b[x] = code
                    v = ev._worth(b, s, x, NONE, 2) - base - _KEEP[0]
                    b[x] = 0
                    rains.append((v, E.move(RAIN_MOVE, 0, x)))
            rains.sort(reverse=True)
            got.extend(rains[:2])
        if g.s[SMS + s] and g.check_special(s, SMOKER) == OK:
            smokes = []
            for x in range(NCELLS):
                o = b[x]
                if not o or (o - 1) >> 5 == s or g.check_smoker(s, x) != OK:
                    continue
                b[x] = 0
                v = ev._worth(b, s, x, NONE, 2) - base - _KEEP[2]
                b[x] = o
                smokes.append((v, E.move(SMOKER, 0, x)))
            smokes.sort(reverse=True)
            got.extend(smokes[:2])
        return got

    # ---- the leaf -----------------------------------------------------
    def _leaf(self, g, t, node):
        """The engine's worth of the position for side t after the side to
        move makes its best placement of this deal's hand (its gain over
        one ply, the node's own candidates: a threat left open is seen as
        lost), read as a chance of winning."""
        s = g.side_to_play()
        ev = self.ev
        ev._setup(g)
        cands = self._candidates(g, node, s, self._hand_of(g, s), False, 1, True)
        v = ev._worth_now(t, 2)
        if ev.n0 >= 2 or ev.n1 >= 2:
            mine = ev.n1 if t else ev.n0
            return 1.0 if mine >= 2 else 0.0
        gain = cands[0][0] if cands else 0
        if gain >= E.WIN // 2:
            return 1.0 if s == t else 0.0
        if gain > 0:
            v = v + gain if s == t else v - gain
        return _prior(v)


def _prior(v):
    if v >= E.WIN // 2:
        return 1.0
    if v <= -E.WIN // 2:
        return 0.0
    x = v / _SCALE
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))

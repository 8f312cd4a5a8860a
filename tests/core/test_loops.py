# The board-wide loops compiled to machine code on the board
# (apixagon.loops, smartboard.compare) against plain references written
# here from the rules (RULES.md §2 runs and seals, §3 rules 1-4 with D-3 /
# D-4 for legal cells, §3 blocks for threats), on random boards: any bytes a
# board can hold, not only positions a game reaches. Under the MicroPython
# unix port these run the viper code (test_micropython.py); under CPython
# the same source as Python.
import random

from apixagon import loops
from apixagon.deck import COMMON, HAS, SYMS
from apixagon.geometry import LINE_START, LINES, NB, NCELLS, NONE, ROYAL
from smartboard import compare, referee, tag

ROUNDS = 60


def random_board(fill):
    """Cards of both sides on about fill/100 of the cells, each card once
    (a side's Rains are card 31, at most two of them)."""
    b = bytearray(NCELLS)
    used = bytearray(64)
    for x in range(NCELLS):
        if random.randrange(100) < fill:
            for _ in range(8):
                o = 1 + random.randrange(64)
                if not used[o - 1] or (o - 1) & 31 == 31:
                    used[o - 1] = 1
                    b[x] = o
                    break
    return b


def normal(o):
    return o and (o - 1) & 31 != 31


def ref_end(b, x, d):
    n1 = NB[x * 6 + d]
    if n1 == NONE or not b[n1]:
        return NONE
    n2 = NB[n1 * 6 + d]
    if n2 == NONE or not normal(b[n1]) or not normal(b[n2]):
        return NONE
    o1, o2 = b[n1] - 1, b[n2] - 1
    if (o1 ^ o2) & 32:
        return NONE
    return COMMON[(o1 & 31) * 31 + (o2 & 31)] | (o1 & 32)


def ref_runs(b, side):
    """Maximal runs per line: split each line into stretches of the side's
    normal cards, and each stretch where the shared symbol changes."""
    n3 = n4 = 0
    for li in range(27):
        cells = [LINES[j] for j in range(LINE_START[li], LINE_START[li + 1])]
        k, sym = 0, NONE
        for i in range(len(cells) + 1):
            o = b[cells[i]] if i < len(cells) else 0
            p = b[cells[i - 1]] if i else 0
            if normal(o) and (o - 1) >> 5 == side and normal(p) and (p - 1) >> 5 == side:
                s = COMMON[((p - 1) & 31) * 31 + ((o - 1) & 31)]
                if s == sym:
                    k += 1
                    continue
                n3 += k >= 3
                n4 += k >= 4
                k, sym = 2, s
            else:
                n3 += k >= 3
                n4 += k >= 4
                k, sym = 0, NONE
    return n3, n4


def ref_run_beyond(b, y, d, sym):
    side = (b[y] - 1) >> 5
    k = 0
    while True:
        y = NB[y * 6 + d]
        if y == NONE or not normal(b[y]) or (b[y] - 1) >> 5 != side:
            return k
        if not HAS[((b[y] - 1) & 31) * 31 + sym]:
            return k
        k += 1


def ref_sealed(b):
    """A card is sealed when a run of 4+ on some axis passes through it."""
    out = bytearray(NCELLS)
    for x in range(NCELLS):
        if not normal(b[x]):
            continue
        for d in range(3):
            for e in (d, d + 3):
                n = NB[x * 6 + e]
                if n == NONE or not normal(b[n]) or (b[n] ^ b[x]) & 32:
                    continue
                sym = COMMON[((b[x] - 1) & 31) * 31 + ((b[n] - 1) & 31)]
                k = 1 + ref_run_beyond(b, x, d, sym) + ref_run_beyond(b, x, d + 3, sym)
                if k >= 4:
                    out[x] = 1
    return out


def prepared(b):
    ends = bytearray(NCELLS * 6)
    adj = bytearray(NCELLS)
    loops.prepare(b, ends, adj)
    return ends, adj


def test_runs_and_seals_match_the_references():
    random.seed(12)
    out = bytearray(NCELLS)
    for r in range(ROUNDS):
        b = random_board(30 + r)
        for side in (0, 1):
            got = loops.runs(b, side)
            assert (got & 255, got >> 8) == ref_runs(b, side), (r, side)
        n = loops.sealed(b, out)
        want = ref_sealed(b)
        assert out == want, r
        assert n == sum(want)


def test_the_hint_cache_matches_the_run_ends_and_neighbours():
    random.seed(13)
    for r in range(ROUNDS):
        b = random_board(20 + r)
        ends, adj = prepared(b)
        for x in range(NCELLS):
            if b[x]:
                continue
            a = 0
            for d in range(6):
                n = NB[x * 6 + d]
                if n != NONE and b[n]:
                    a |= 1 << ((b[n] - 1) >> 5)
                assert ends[x * 6 + d] == ref_end(b, x, d)
            assert adj[x] == a


def test_legal_card_cells_and_threats_match_the_references():
    random.seed(14)
    out = bytearray(NCELLS)
    lv = bytearray(NCELLS)
    cells = bytearray(NCELLS)
    threats = bytearray(NCELLS)
    av = bytearray(31)
    for r in range(ROUNDS):
        b = random_board(15 + r)
        ends, adj = prepared(b)
        t = r & 1
        card = random.randrange(32)  # 31: a Rain
        for i in range(31):
            av[i] = random.randrange(3)
        n = loops.legal(b, ends, adj, av, out, t)
        f = loops.card_cells(b, ends, adj, cells, t, card)
        nthreats = loops.threats(b, ends, adj, lv, threats, t)
        for x in range(NCELLS):
            touch = [NB[x * 6 + d] for d in range(6) if NB[x * 6 + d] != NONE]
            opp = [y for y in touch if b[y] and (b[y] - 1) >> 5 != t]
            es = [ref_end(b, x, d) for d in range(6)]
            es = [e for e in es if e != NONE]
            free = not b[x] and x != ROYAL
            # §3 rules 2-4: away from the opponent, or a block / extension
            # with a symbol some card in hand carries.
            ok = free and (not opp or any(av[e & 31] for e in es))
            assert out[x] == ok, (r, x)
            want = 0
            if free:
                for e in es:
                    if card == 31:
                        want |= 4 if e >> 5 != t else 0
                    elif HAS[card * 31 + (e & 31)]:
                        want |= 2 if e >> 5 == t else 4
                if not want and card != 31 and not opp:
                    want = 1
            assert cells[x] == want, (r, x, card)
            best = 0
            if not b[x]:
                for d in range(6):
                    e = ref_end(b, x, d)
                    if e != NONE and e >> 5 != t:
                        best = max(best, 1 + ref_run_beyond(b, NB[x * 6 + d], d, e & 31))
            assert lv[x] == best, (r, x)
        assert n == sum(out) and f == sum(1 for v in cells if v)
        order = [x for k in (6, 5, 4, 3, 2) for x in range(NCELLS) if lv[x] == k]
        assert list(threats[:nthreats]) == order


def test_cards_in_hand_per_symbol():
    random.seed(15)
    loc = bytearray(62)
    av = bytearray(31)
    for r in range(ROUNDS):
        for i in range(62):
            loc[i] = random.randrange(2)
        side = r & 1
        n = loops.avail(loc, av, side * 31)
        hand = [c for c in range(31) if not loc[side * 31 + c]]
        assert n == len(hand)
        for s in range(31):
            assert av[s] == sum(1 for c in hand if s in SYMS[c * 6 : c * 6 + 6]), (r, s)


# ---- the referee's comparison ---------------------------------------------------------
def matched(p, o):
    """Does scan state p show the card of board byte o? Either of a side's
    two Rains shows its Rain (RULES.md §1)."""
    if p == 0 or o == 0 or p >= referee.UNPAIRED:
        return p == 0 and o == 0
    c = p - 1
    card = (o - 1) & 31
    kind = tag.RAIN if card == 31 else tag.NORMAL
    ok = tag.side_of(c) == (o - 1) >> 5 and tag.kind_of(c) == kind
    return ok and (kind == tag.RAIN or tag.index_of(c) == card)


def ref_compare(phys, board, res):
    """The comparison as the referee's rules state it (smartboard.referee):
    (err, dup, back, nextra, extra, nmissing, missing)."""
    err = bytearray(NCELLS)
    seen = {}
    dup = False
    for x in range(NCELLS):
        p = phys[x]
        if p and p < referee.UNPAIRED:
            if p in seen:
                dup = True
                err[x] = err[seen[p]] = referee.UNKNOWN
            seen.setdefault(p, x)
    if dup:  # every cell holding a duplicated tag, not only pairs found first
        for x in range(NCELLS):
            for y in range(NCELLS):
                if x != y and phys[x] and phys[x] < referee.UNPAIRED and phys[x] == phys[y]:
                    err[x] = referee.UNKNOWN
    back = nextra = nmissing = 0
    extra = missing = NONE
    for x in range(NCELLS):
        p, o = phys[x], board[x]
        ok = matched(p, o)
        if ok:
            back |= x in res
        elif p == referee.UNPAIRED:
            err[x] = referee.TAP
        elif p >= 0xFD:
            err[x] = referee.UNKNOWN
        elif not p and x in res:
            err[x] = referee.RESERVE
        elif p and not o:
            nextra, extra = nextra + 1, x
        elif o and not p:
            nmissing, missing = nmissing + 1, x
        else:
            err[x] = referee.UNKNOWN
    return err, dup, back, nextra, extra, nmissing, missing


def test_the_comparison_matches_the_referees_rules():
    random.seed(16)
    err = bytearray(NCELLS)
    res = bytearray(12)
    odd = (0, referee.UNPAIRED, 0xFD, 0xFE)
    # the tags a reader can decode (smartboard.tag): 31 normal cards, 2
    # Rains, a Beekeeper and a Smoker per side
    codes = [tag.code(s, tag.NORMAL, i) for s in (0, 1) for i in range(31)]
    codes += [tag.code(s, k, i) for s in (0, 1) for k, i in ((1, 0), (1, 1), (2, 0), (3, 0))]
    for r in range(ROUNDS * 3):
        board = random_board(10 + r % 60)
        phys = bytearray(NCELLS)
        for x in range(NCELLS):
            o = board[x]
            k = random.randrange(10)
            if o and k < 7:
                phys[x] = referee._code_of(o) + ((o - 1) & 31 == 31 and k == 0)
            elif k == 7:
                phys[x] = 1 + codes[random.randrange(len(codes))]  # any card, maybe twice
            elif k == 8:
                phys[x] = odd[random.randrange(4)]
        nres = random.randrange(4)
        for i in range(nres):
            res[i] = random.randrange(NCELLS)
        cells = list(res[:nres])
        got = compare.compare(phys, board, err, res, nres, 0)
        want = ref_compare(phys, board, cells)
        # a reserved cell that matches again is put back: its entry NONE
        assert list(res[:nres]) == [NONE if matched(phys[y], board[y]) else y for y in cells]
        assert err == want[0], r
        assert bool(got & compare.DUP) == want[1], r
        assert bool(got & compare.RES_BACK) == want[2], r
        assert (got >> compare.NEXTRA_SHIFT) & 63 == want[3]
        assert (got >> compare.EXTRA_SHIFT) & 255 == want[4]
        assert (got >> compare.NMISSING_SHIFT) & 63 == want[5]
        assert (got >> compare.MISSING_SHIFT) & 255 == want[6]
        compare.compare(phys, board, err, res, nres, 1)  # the rest: RED / AMBER
        for x in range(NCELLS):
            if matched(phys[x], board[x]) or want[0][x]:
                assert err[x] == want[0][x], (r, x)
            else:
                assert err[x] == (referee.RED if phys[x] else referee.AMBER), (r, x)

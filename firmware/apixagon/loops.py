# The rules' loops over the whole board, compiled to machine code on the
# board (@micropython.viper): each runs after every sensor event, and as
# bytecode they cost the board's chip milliseconds apiece where its
# budget for a whole event is 25 ms (docs/figures.md, on the target). On
# CPython (the host) they run as the plain Python they read as
# (apixagon.compat), so the board and the host run one source.
#
# Viper's rules, kept here: every value is a machine word (the tables hold
# bytes and the results fit 16 bits, so nothing overflows on either
# interpreter); a table is read through ptr8(); constants are this module's
# own const()s (an imported name would be a Python object at run time).
# Board bytes as in game.py: 0 free, else 1 + side*32 + card (31 a Rain).
from .compat import const, micropython, ptr8
from .deck import COMMON, HAS, SYMS
from .geometry import LINE_START, LINES, NB

_NONE = const(255)  # geometry.NONE
_NC = const(31)  # cards per side, and symbols
_RAIN = const(31)
_ROYAL = const(30)  # geometry.ROYAL: its rules (§3.1) stay with the caller
_NLINES = const(27)
_NCELLS = const(61)
_PLAIN = const(1)  # codes.PLAIN, EXTENSION, BLOCK
_EXTENSION = const(2)
_BLOCK = const(4)


@micropython.viper
def runs(b: ptr8, side: int) -> int:
    """Sequences of side along the 27 lines (D-6; distinct per D-1): the
    count of maximal runs of length >= 3, plus 256 times those >= 4."""
    lines = ptr8(LINES)
    start = ptr8(LINE_START)
    common = ptr8(COMMON)
    want = side << 5
    n3 = 0
    n4 = 0
    li = 0
    while li < _NLINES:
        k = 0
        sym = _NONE
        prev = 0
        j = int(start[li])
        hi = int(start[li + 1])
        while j <= hi:
            o = 0
            if j < hi:
                o = int(b[int(lines[j])])
            if o and ((o - 1) & 32) == want and ((o - 1) & 31) != _RAIN:
                if prev:
                    s2 = int(common[((prev - 1) & 31) * _NC + ((o - 1) & 31)])
                    if s2 == sym:
                        k += 1
                    else:
                        if k >= 3:
                            n3 += 1
                            if k >= 4:
                                n4 += 1
                        sym = s2
                        k = 2
                prev = o
            else:  # a gap, or the end of the line (j == hi)
                if k >= 3:
                    n3 += 1
                    if k >= 4:
                        n4 += 1
                k = 0
                sym = _NONE
                prev = 0
            j += 1
        li += 1
    return n3 | (n4 << 8)


@micropython.viper
def sealed(b: ptr8, out: ptr8) -> int:
    """out[x] = 1 for every card in a sequence of 4 or more (§2), else 0;
    the count."""
    lines = ptr8(LINES)
    start = ptr8(LINE_START)
    common = ptr8(COMMON)
    has = ptr8(HAS)
    x = 0
    while x < _NCELLS:
        out[x] = 0
        x += 1
    n = 0
    li = 0
    while li < _NLINES:
        j = int(start[li])
        hi = int(start[li + 1])
        while j < hi - 1:
            o = int(b[int(lines[j])])
            p = int(b[int(lines[j + 1])])
            if not o or not p or (o ^ p) & 32 or ((o - 1) & 31) == _RAIN or ((p - 1) & 31) == _RAIN:
                j += 1
                continue
            sym = int(common[((o - 1) & 31) * _NC + ((p - 1) & 31)])
            k = j + 2  # the run is lines[j:k]; extend while sym is shared
            while k < hi:
                q = int(b[int(lines[k])])
                if not q or (q ^ o) & 32 or ((q - 1) & 31) == _RAIN:
                    break
                if not has[((q - 1) & 31) * _NC + sym]:
                    break
                k += 1
            if k - j >= 4:
                i = j
                while i < k:
                    y = int(lines[i])
                    if not out[y]:
                        out[y] = 1
                        n += 1
                    i += 1
            j = k - 1  # the last card may start a run of another symbol
        li += 1
    return n


@micropython.viper
def prepare(b: ptr8, ends: ptr8, adj: ptr8):
    """The hint cache for board b: for every free cell x and direction d,
    ends[x*6+d] is symbol | owner << 5 when x is the open end of a run
    lying from x in direction d, else NONE (a run is >= 2 same-side normal
    cards sharing a symbol, §2, and two adjacent cards share exactly one,
    so the first two cards beyond x decide it); adj[x] has bit 1 << side
    for each side with a card beside x. Occupied cells' ends are left as
    they were."""
    nb = ptr8(NB)
    common = ptr8(COMMON)
    x = 0
    while x < _NCELLS:
        base = x * 6
        a = 0
        if not b[x]:
            d = 0
            while d < 6:
                e = _NONE
                n1 = int(nb[base + d])
                if n1 != _NONE and b[n1]:
                    o1 = int(b[n1]) - 1
                    a |= 1 << (o1 >> 5)
                    n2 = int(nb[n1 * 6 + d])
                    if n2 != _NONE and b[n2]:
                        o2 = int(b[n2]) - 1
                        if not ((o1 ^ o2) & 32) and (o1 & 31) != _RAIN and (o2 & 31) != _RAIN:
                            e = int(common[(o1 & 31) * _NC + (o2 & 31)]) | (o1 & 32)
                ends[base + d] = e
                d += 1
        adj[x] = a
        x += 1


@micropython.viper
def legal(b: ptr8, ends: ptr8, adj: ptr8, av: ptr8, out: ptr8, t: int) -> int:
    """out[x] = 1 on every free cell but the Royal Cell where some card of
    t with av[symbol] > 0 may go (rules 2-4, D-3, D-4); the count. Needs
    prepare()'s cache for b."""
    opp = 2 >> t  # adj bit of the opponent
    count = 0
    x = 0
    while x < _NCELLS:
        out[x] = 0
        if not b[x] and x != _ROYAL:
            ok = 0
            if not adj[x] & opp:
                ok = 1  # rules 2-3, D-3
            else:
                k = x * 6
                while k < x * 6 + 6:  # rule 4: a block or an extension
                    e = int(ends[k])
                    if e != _NONE and av[e & 31]:
                        ok = 1
                        break
                    k += 1
            if ok:
                out[x] = 1
                count += 1
        x += 1
    return count


@micropython.viper
def card_cells(b: ptr8, ends: ptr8, adj: ptr8, out: ptr8, t: int, card: int) -> int:
    """out[x] = why card (of side t; _RAIN: a Rain) may go on free cell x
    (PLAIN, EXTENSION, BLOCK; 0 where it may not), the Royal Cell aside;
    the count. Needs prepare()'s cache for b."""
    has = ptr8(HAS)
    opp = 2 >> t
    hc = card * _NC
    rain = card == _RAIN
    count = 0
    x = 0
    while x < _NCELLS:
        f = 0
        if not b[x] and x != _ROYAL:
            if not adj[x]:
                if not rain:
                    f = _PLAIN  # touches no card at all
            else:
                k = x * 6
                while k < x * 6 + 6:
                    e = int(ends[k])
                    if e != _NONE:
                        if rain:
                            if (e >> 5) != t:
                                f |= _BLOCK
                        elif has[hc + (e & 31)]:
                            if (e >> 5) == t:
                                f |= _EXTENSION
                            else:
                                f |= _BLOCK
                    k += 1
                if not f and not rain and not adj[x] & opp:
                    f = _PLAIN
        out[x] = f
        if f:
            count += 1
        x += 1
    return count


@micropython.viper
def threats(b: ptr8, ends: ptr8, adj: ptr8, lv: ptr8, out: ptr8, t: int) -> int:
    """lv[x] = the length of the longest run of t's opponent that has its
    open end on free cell x, 0 where none; the cells with lv 6, then 5 ...
    then 2 (§3: the longest runs are the first to block) into out[0:n]; n.
    Needs prepare()'s cache."""
    nb = ptr8(NB)
    has = ptr8(HAS)
    x = 0
    while x < _NCELLS:
        best = 0
        if not b[x] and adj[x]:
            d = 0
            while d < 6:
                e = int(ends[x * 6 + d])
                if e != _NONE and (e >> 5) != t:
                    sym = e & 31
                    y = int(nb[x * 6 + d])  # the run's first card
                    side = (int(b[y]) - 1) & 32
                    k = 1
                    while True:  # how many more cards carry sym beyond it
                        y = int(nb[y * 6 + d])
                        if y == _NONE or not b[y]:
                            break
                        o = int(b[y]) - 1
                        if (o & 32) != side or (o & 31) == _RAIN or not has[(o & 31) * _NC + sym]:
                            break
                        k += 1
                    if k > best:
                        best = k
                d += 1
        lv[x] = best
        x += 1
    n = 0
    k = 6
    while k > 1:
        x = 0
        while x < _NCELLS:
            if int(lv[x]) == k:
                out[n] = x
                n += 1
            x += 1
        k -= 1
    return n


@micropython.viper
def avail(loc: ptr8, av: ptr8, base: int) -> int:
    """av[s] = how many of the side's normal cards not yet on the board
    carry symbol s (loc[base:base+31]: the side's cards); their count."""
    syms = ptr8(SYMS)
    i = 0
    while i < _NC:
        av[i] = 0
        i += 1
    n = 0
    c = 0
    while c < _NC:
        if not loc[base + c]:
            n += 1
            k = c * 6
            while k < c * 6 + 6:
                s = int(syms[k])
                av[s] = int(av[s]) + 1
                k += 1
        c += 1
    return n

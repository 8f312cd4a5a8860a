# The canonical deck of RULES.md §1: the projective plane of order 5.
# 31 cards of 6 symbols; any two cards share exactly one symbol. Tables:
#   SYMS[c*6 + k]   the 6 symbols of card c
#   HAS[c*31 + s]   1 if card c carries symbol s
#   COMMON[a*31+b]  the one symbol cards a and b share (a != b)
from .compat import const

NCARDS = const(31)
RAIN = const(31)  # card slot of a Rain on the board (no symbols, §1)


def _card_symbols(c):
    if c < 25:
        m, b = c // 5, c % 5
        return [5 * x + (m * x + b) % 5 for x in range(5)] + [25 + m]
    if c < 30:
        return [5 * (c - 25) + y for y in range(5)] + [30]
    return [25, 26, 27, 28, 29, 30]


def _build():
    syms = bytearray(NCARDS * 6)
    has = bytearray(NCARDS * NCARDS)
    for c in range(NCARDS):
        k = 0
        for s in _card_symbols(c):
            syms[c * 6 + k] = s
            has[c * NCARDS + s] = 1
            k += 1
    common = bytearray(NCARDS * NCARDS)
    for a in range(NCARDS):
        for b in range(NCARDS):
            for k in range(6):
                s = syms[a * 6 + k]
                if has[b * NCARDS + s]:
                    common[a * NCARDS + b] = s
                    break
    return bytes(syms), bytes(has), bytes(common)


SYMS, HAS, COMMON = _build()


def symbols(c):
    """The six symbols of card c, as bytes."""
    return SYMS[c * 6 : c * 6 + 6]

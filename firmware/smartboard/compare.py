# The referee's comparison of the sensed cells with the game, compiled to
# machine code on the board (@micropython.viper; plain Python on CPython:
# apixagon.compat). It runs once or twice on every sensor event, and as
# bytecode one pass over the 61 cells cost the board's chip 9 ms of the
# event's 25 ms budget (docs/figures.md, on the target).
#
# phys[x]: the stable sensed state (scan: 0 empty, 1 + tag code, UNPAIRED,
# FOREIGN, UNREADABLE); board[x]: the game's byte (0 free, else 1 + side*32
# + card, card 31 a Rain). A cell matches when both are empty, or when the
# tag is the card the game has there (either of the side's two Rains, which
# the game does not tell apart: RULES.md §1).
from apixagon.compat import const, micropython, ptr8

_UNPAIRED = const(0xFC)  # referee.UNPAIRED
_FOREIGN = const(0xFD)  # scan.FOREIGN (UNREADABLE, 0xFE, is above it)
_UNKNOWN = const(3)  # referee.UNKNOWN, TAP, RESERVE, RED, AMBER
_TAP = const(4)
_RESERVE = const(5)
_RED = const(1)
_AMBER = const(2)
_NCELLS = const(61)
_NONE = const(255)

# compare()'s result, packed in one small int (< 2^30)
DUP = const(1)  # a tag seen on two cells (both marked UNKNOWN)
RES_BACK = const(2)  # a reserved cell matches again: its res entry is NONE
NEXTRA_SHIFT = const(2)  # cards on free cells, 6 bits
EXTRA_SHIFT = const(8)  # the last such cell, 8 bits
NMISSING_SHIFT = const(16)  # cards the game has where nothing is sensed
MISSING_SHIFT = const(22)


@micropython.viper
def compare(phys: ptr8, board: ptr8, err: ptr8, res: ptr8, nres: int, rest: int) -> int:
    """rest 0: fill err (UNKNOWN on duplicates, TAP, foreign tags, another
    card on an occupied cell; RESERVE on the empty cells of res[0:nres]),
    set res[i] to NONE where a reserved cell matches again (put back: not
    in the reserve after all) and return the packed summary above. rest 1:
    mark every other cell that does not match (RED where a card is sensed,
    AMBER where one is missing); returns 0."""
    dup = 0
    if not rest:
        # Duplicates in one pass: a bit per scan state seen, kept in err's
        # first 32 bytes (no buffer of its own: the unix-port suites' heap
        # is tight), then err is cleared for the marks.
        i = 0
        while i < 32:
            err[i] = 0
            i += 1
        x = 0
        while x < _NCELLS:
            p = int(phys[x])
            if p and p < _UNPAIRED:
                bit = 1 << (p & 7)
                if int(err[p >> 3]) & bit:
                    dup = 1
                err[p >> 3] = int(err[p >> 3]) | bit
            x += 1
        x = 0
        while x < _NCELLS:
            err[x] = 0
            x += 1
        if dup:
            x = 0
            while x < _NCELLS:
                p = int(phys[x])
                if p and p < _UNPAIRED:
                    y = x + 1
                    while y < _NCELLS:
                        if int(phys[y]) == p:
                            err[x] = _UNKNOWN
                            err[y] = _UNKNOWN
                        y += 1
                x += 1
    back = 0
    nextra = 0
    extra = _NONE
    nmissing = 0
    missing = _NONE
    x = 0
    while x < _NCELLS:
        p = int(phys[x])
        o = int(board[x])
        ok = p == 0 and o == 0
        if o and p and p < _UNPAIRED:
            # the tag code of the card o holds, plus one (smartboard.tag:
            # side << 7 | kind << 5 | index, kind 1 for a Rain)
            c = (o - 1) & 31
            w = 1 + (((o - 1) >> 5) << 7) + (32 if c == 31 else c)
            ok = p == w or (c == 31 and p == w + 1)
        if rest:
            if not ok and not err[x]:
                err[x] = _RED if p else _AMBER
            x += 1
            continue
        reserved = 0  # x among the reserve deck's cells
        i = 0
        while i < nres:
            if int(res[i]) == x:
                reserved = 1
                if ok:
                    res[i] = _NONE  # put back: not in the reserve after all
                    back = RES_BACK
            i += 1
        if ok:
            x += 1
            continue
        if p == _UNPAIRED:
            err[x] = _TAP
        elif p >= _FOREIGN:
            err[x] = _UNKNOWN
        elif not p and reserved:
            err[x] = _RESERVE
        elif p and not o:
            nextra += 1
            extra = x
        elif o and not p:
            nmissing += 1
            missing = x
        else:
            err[x] = _UNKNOWN  # another card on an occupied cell
        x += 1
    if rest:
        return 0
    return (
        dup
        | back
        | (nextra << NEXTRA_SHIFT)
        | (extra << EXTRA_SHIFT)
        | (nmissing << NMISSING_SHIFT)
        | (missing << MISSING_SHIFT)
    )

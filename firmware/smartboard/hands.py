# HANDS (docs/protocol.md): what each side has still to play, from the
# game. Its own module, imported at the first HANDS: a board that is never
# asked keeps it out of its heap.
from apixagon import record
from apixagon.codes import JUNIOR

from . import proto


def reply(ref, args):
    """HANDS: each side's normal cards not yet played (bit i: card i, in
    hex) and its specials left (r b s, a letter a card; - for none);
    "none" outside a match."""
    if args:
        return proto.E_ARGS
    if ref is None:
        return "none"
    g = ref.game
    letters = record.side_letters(g)
    sides = (0,) if g.mode == JUNIOR else (0, 1)
    out = []
    for t in sides:
        m = 0
        for i in range(31):
            if not g.loc[t * 31 + i]:
                m |= 1 << i
        out.append("%s=%x" % (letters[t], m))
    if g.mode != JUNIOR:
        for t in sides:
            r, bk, sm = g.specials_left(t)
            out.append("%ss=%s" % (letters[t], "r" * r + "b" * bk + "s" * sm or "-"))
    return " ".join(out)

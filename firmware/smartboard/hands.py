# HANDS (docs/protocol.md): what each side has still to play, from the
# game. Its own module, imported at the first HANDS: a board that is never
# asked keeps it out of its heap.
from apixagon import record
from apixagon.codes import JUNIOR

from . import proto


def reply(ref, args):
    """HANDS: each side's normal cards not yet played (bit i: card i, in
    hex), its specials left (r b s, a letter a card; - for none) and the
    excess penalty's extra special while it holds one (the kinds it may
    be); "none" outside a match."""
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
        for t in sides:
            # §4 D-11: the excess penalty's one extra special, of one of
            # these kinds (the board learns which when it is played; then
            # it is gone from here, the counts above unchanged)
            k = g.penalty_special(t)
            if k:
                out.append("%sps=%s" % (letters[t], _KINDS[k]))
    return " ".join(out)


# the kinds bits (1 Rain, 2 Beekeeper, 4 Smoker) as HANDS's letters
_KINDS = ("", "r", "b", "rb", "s", "rs", "bs", "rbs")

# DECLARE (docs/protocol.md): the declarations the buttons make, from a
# host — a deck empty or a forced removal of a side (§3.3, §4), the pass of
# the seat to play (§4 D-9), "player n is out" (§6 D-13), the reserve the
# keeper lifted or the empty one (§4 D-14). Each goes through
# Board.declare, as CONFIRM's do: the same verdicts, the same `move` and
# `refused` events. Its own module, imported at the first DECLARE: a board
# never asked keeps it out of its heap.
from apixagon import record
from apixagon.codes import DECK_EMPTY, FORCED_REMOVAL, JUNIOR, OK, OUT, PASS, RESERVE

from . import proto
from .board import PLAY

_WORDS = ("deck-empty", "forced-removal", "pass", "out", "reserve")
_KINDS = (DECK_EMPTY, FORCED_REMOVAL, PASS, OUT, RESERVE)
_ARGS = (1, 1, 0, 1, 0)  # words after the declaration's own


def reply(board, args):
    """DECLARE what [side|n]: `<moves> <record line>` when the board took
    it (the `move` event's text), `refused <reason> <record line>` when the
    rules refused it (the `refused` event's); E_ARGS for a form or a value
    the match cannot have, E_STATE with no match in play. A bad request
    changes nothing."""
    k = _WORDS.index(args[0]) if args and args[0] in _WORDS else -1
    if k < 0 or len(args) != 1 + _ARGS[k]:
        return proto.E_ARGS
    if board.ref is None or board.phase != PLAY:
        return proto.E_STATE  # set-up, a resume waiting for its cards, or over
    g = board.ref.game
    kind = _KINDS[k]
    arg = 0
    if kind == OUT:
        arg = proto.number(args[1], 1, g.players if g.mode == JUNIOR else 6)  # ValueError: ERR 6
    elif _ARGS[k]:
        arg = _side(args[1], record.side_letters(g))
    if board.declare(kind, arg) != OK:
        from . import report

        return "refused " + report.refused_text(board.ref)
    return "%d %s" % (g.nmoves(), record.last_move(g)[2])


def _side(word, letters):
    # A side as the match's record letters name it (B/G, or the teams A/B)
    # or by its deck, black or gold; else ValueError (bad arguments).
    w = word.lower()
    if w == "black" or w == "gold":
        return 0 if w == "black" else 1
    u = word.upper()
    if len(u) == 1 and u in letters and letters != "JJ":
        return letters.index(u)
    raise ValueError(word[:16])

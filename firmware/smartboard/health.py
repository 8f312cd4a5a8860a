# What the board says about a part that fails on its own (smartboard.board,
# "parts that fail on their own"): imported only when a part goes down or
# comes back, so a healthy board keeps none of these words in its heap.
# A part is a tuple (kind, ok, k, cells, err) made by board.part(); its
# kind indexes these tables in board's PART_ order (0 a cell reader). The
# board imports this module, so it does not import the board back.
_READER = 0  # board.PART_READER

_NAMES = ("reader%d", "pad", "strip", "cells", "supply")
_DOWN = (
    "cell reader %d does not answer: the cells it reads blink",
    "the action pad does not answer: specials and card queries cannot be read",
    "the LED strip is not connected",
    "",
    "this USB port gives too little power for the lights: use a USB-C charger of 1.5 A or more",
)
_BACK = (
    "cell reader %d answers again",
    "the action pad answers again",
    "the LED strip is back",
    "",
    "the lights have power again",
)


# A bus-hang recovery that gave up (smartboard.recover, by its kind): the
# parts down stay in STATUS hw= and blink; this says resets did not help.
_STUCK = (
    "the cell readers were reset %d times and a reader still does not answer: it needs repair",
    "the action pad was reset %d times and still does not answer: it needs repair",
)


def stuck(kind, tries):
    return _STUCK[kind] % tries


def _fill(p, text):
    return text % (p[2] + 1) if p[0] == _READER else text


def name(p):
    """Short, no spaces: STATUS hw=."""
    return _fill(p, _NAMES[p[0]])


def down(p):
    if p[4] is not None:
        return "%s failed to start: %s" % (name(p), p[4])
    return _fill(p, _DOWN[p[0]])


def back(p):
    return _fill(p, _BACK[p[0]])

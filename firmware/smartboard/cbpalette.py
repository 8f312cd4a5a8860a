# The LED palette for colour-blind eyes (setting `palette` 1): the entries
# of smartboard.view.PALETTE in the Okabe-Ito colours (blue, orange,
# bluish green, sky blue, vermillion, yellow, reddish purple), which stay
# apart for every common colour vision deficiency. Where seven colours are
# too few, an entry shares one with another that never shows in the same
# place, or blinks unlike it. Its own module, loaded only by a board that
# uses it: the standard palette's boards keep the heap it would take.
from . import view

PALETTE_CB = (  # a bytes literal: no tuple of 75 ints built at import
    b"\x00\x00\x00\x00\x72\xb2\xe6\x9f\x00\x00\x9e\x73\x56\xb4\xe9"
    b"\xd5\x5e\x00\xf0\xe4\x42\x3c\x3c\x3c\xcc\x79\xa7\x00\x72\xb2"
    b"\xaa\xaa\xaa\xd5\x5e\x00\xf0\xe4\x42\xcc\x79\xa7\xff\xff\xff"
    b"\x56\xb4\xe9\xff\xff\xff\x5a\x5a\x5a\x00\x72\xb2\x56\xb4\xe9"
    b"\x00\x9e\x73\xe6\x9f\x00\xd5\x5e\x00\xf0\xe4\x42\xf0\xe4\x42"
)


def use(board, setting):
    """The board's LEDs in the palette of the `palette` setting's value,
    from the next frame."""
    board.view.pal = PALETTE_CB if setting else view.PALETTE
    board.view.dirty = True


assert len(PALETTE_CB) == len(view.PALETTE)

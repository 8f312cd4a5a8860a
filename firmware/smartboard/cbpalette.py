# The LED palette for colour-blind eyes (setting `palette` 1): the entries
# of smartboard.view.PALETTE in the Okabe-Ito colours (blue, orange,
# bluish green, sky blue, vermillion, yellow, reddish purple), which stay
# apart for every common colour vision deficiency. Where seven colours are
# too few, an entry shares one with another that never shows in the same
# place, or blinks unlike it. Its own module, loaded by the start-up code
# (follow), never by the board loop's modules.
from . import settings, view

PALETTE_CB = (  # a bytes literal: no tuple of 81 ints built at import
    b"\x00\x00\x00\x00\x72\xb2\xe6\x9f\x00\x00\x9e\x73\x56\xb4\xe9"
    b"\xd5\x5e\x00\xf0\xe4\x42\x3c\x3c\x3c\xcc\x79\xa7\x00\x72\xb2"
    b"\xaa\xaa\xaa\xd5\x5e\x00\xf0\xe4\x42\xcc\x79\xa7\xff\xff\xff"
    b"\x56\xb4\xe9\xff\xff\xff\x5a\x5a\x5a\x00\x72\xb2\x56\xb4\xe9"
    b"\x00\x9e\x73\xe6\x9f\x00\xd5\x5e\x00\xf0\xe4\x42\xf0\xe4\x42"
    b"\x00\x9e\x73\xd5\x5e\x00"
)
# The standard entries, to put back (view.PALETTE is written over).
_STANDARD = bytes(view.PALETTE)


def use(board, setting):
    """The board's LEDs in the palette of the `palette` setting's value,
    from the next frame: its entries written over view.PALETTE (the one
    palette every frame renders) and the painter's rendered copy made
    again."""
    view.PALETTE[:] = PALETTE_CB if setting else _STANDARD
    board.hw.painter._pal = None
    board.view.dirty = True


def follow(lk):
    """The start-up code's (boards/start.py, the simulator's serial_main):
    the LEDs in the kept palette, and a SET palette on the link lk changes
    them at once. Here rather than in smartboard.link: the board suites'
    96 wK heap has no byte to spare there."""
    board = lk.board
    use(board, board.settings.get(settings.PALETTE))
    plain = lk.cmd_set

    def cmd_set(args):
        reply = plain(args)
        if args and args[0] == "palette":
            use(board, board.settings.get(settings.PALETTE))
        return reply

    lk.cmd_set = cmd_set


assert len(PALETTE_CB) == len(view.PALETTE)

# The LED palette for colour-blind eyes (setting `palette` 1): each entry
# of smartboard.view.PALETTE in a colour of its own that stays apart from
# every other for protanopia and deuteranopia as well as for normal
# vision (ΔE00 10 and 15 at least: apixagon_host.colours says why,
# tests/host/test_colours.py measures it). Okabe-Ito's eight colours are
# too few for 25 meanings: the sides keep their blue and orange, a legal
# cell its bluish green, the storage sign its yellow and an illegal card
# its vermillion; the rest were searched for to stay apart, lightness
# doing much of the work a dichromat's eye cannot do with hue.
#   OFF 0,0,0  SIDE0 0,100,220  SIDE1 220,130,0  LEGAL 0,220,160
#   EXTEND 150,120,255  BLOCKS 140,50,20  THREAT 160,220,255
#   ROYAL_LOCKED 130,80,80  ROYAL_OPEN 150,170,110  SEALED_RUN 120,10,150
#   LAST 240,240,250  ERR_RED 220,50,0  ERR_AMBER 150,170,230
#   ERR_UNKNOWN 180,120,120  ERR_TAP 210,250,160  RESERVED 80,170,160
#   CLEAR 230,250,230  SETTING 90,90,130  seats A1 40,140,180
#   A2 110,120,130  A3 220,190,90  B1 200,180,200  B2 130,30,80
#   B3 130,120,70  STORAGE 240,240,20
# Its own module, loaded by the start-up code (follow), never by the board
# loop's modules.
from . import settings, view

PALETTE_CB = (  # a bytes literal: no tuple of 75 ints built at import
    b"\x00\x00\x00\x00\x64\xdc\xdc\x82\x00\x00\xdc\xa0\x96\x78\xff"
    b"\x8c\x32\x14\xa0\xdc\xff\x82\x50\x50\x96\xaa\x6e\x78\x0a\x96"
    b"\xf0\xf0\xfa\xdc\x32\x00\x96\xaa\xe6\xb4\x78\x78\xd2\xfa\xa0"
    b"\x50\xaa\xa0\xe6\xfa\xe6\x5a\x5a\x82\x28\x8c\xb4\x6e\x78\x82"
    b"\xdc\xbe\x5a\xc8\xb4\xc8\x82\x1e\x50\x82\x78\x46\xf0\xf0\x14"
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

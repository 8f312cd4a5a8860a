# Playing against the board's computer on the simulated board: the hands
# that carry out a move (the computer's, as the board names it, or a
# person's), card by card on the cells and specials on the pad. Plain
# functions: runs under CPython and MicroPython.
from apixagon import engine as E
from apixagon.codes import BEEKEEPER, PLACE, RAIN_MOVE, RESERVE, SMOKER
from apixagon.geometry import cell_name
from smartboard import buttons, tag


def carry_out(r, m, t, cells=b""):
    """Hands on the board make move m (engine encoding) of side t."""
    k = E.kind_of(m)
    a, b = E.arg_a(m), E.arg_b(m)
    if k == PLACE:
        r.put(cell_name(b), tag.code(t, tag.NORMAL, a))
    elif k == RAIN_MOVE:
        r.put(cell_name(b), tag.code(t, tag.RAIN, free_rain(r, t)))
    elif k == SMOKER:
        r.tap(tag.code(t, tag.SMOKER, 0))
        r.settle(300)
        r.lift(cell_name(b))
    elif k == BEEKEEPER:
        code = r.board.ref.phys[a] - 1
        r.tap(tag.code(t, tag.BEEKEEPER, 0))
        r.settle(300)
        r.lift(cell_name(a))
        r.settle()
        r.put(cell_name(b), code)
    elif k == RESERVE:
        for x in cells:
            r.lift(cell_name(x))
            r.settle()
        r.press(buttons.CONFIRM)
    r.settle()


def free_rain(r, t):
    # a side's two Rain cards (tag index 0 and 1): one not on the board
    phys = r.board.ref.phys
    for i in (0, 1):
        if (1 + tag.code(t, tag.RAIN, i)) not in phys:
            return i
    return 0

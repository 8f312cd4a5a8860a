# A side's two Rain cards are one kind in the game (RULES.md §1: 2 × Rain):
# a Rain lifted and put back must take the identity of the Rain that is not
# already down elsewhere, or the board sees one card on two cells and stops
# (profile B: reeds sense occupancy only, the referee names the card).
# Plain functions: also run under the MicroPython unix port at 96 wK.
from apixagon.geometry import parse_cell
from boardkit import rig
from smartboard import tag
from smartboard.sim import replay

RECORD = "tests/data/beehive_full.apx"


def _upto(line_no):
    with open(RECORD) as f:
        n = 0
        for line in f:
            n += 1
            if n > line_no:
                return
            yield line


def _clear(r):
    err = r.board.ref.err
    for x in range(len(err)):
        assert not err[x], "cell %d in error" % x


def test_a_rain_lifted_and_put_back_beside_its_twin_is_not_an_error():
    for profile in ("B", "A"):
        r = rig("rain-" + profile, profile)
        replay.play(r, _upto(66))  # B2 rain I8 (line 62), B1 rain C5 (line 66)
        r.settle()
        ref = r.board.ref
        c5, i8 = parse_cell("C5"), parse_cell("I8")
        assert ref.phys[c5] and ref.phys[i8] and ref.phys[c5] != ref.phys[i8]
        _clear(r)
        before = bytes(ref.game.board)
        for cell, x in (("C5", c5), ("I8", i8)):
            code = ref.phys[x] - 1
            assert tag.kind_of(code) == tag.RAIN
            r.lift(cell)
            r.settle()
            r.put(cell, code)
            r.settle()
            _clear(r)
            assert ref.phys[c5] != ref.phys[i8], profile
        assert bytes(ref.game.board) == before  # no move made
        r = None

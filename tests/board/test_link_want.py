# After a power cut the board names the card each blinking cell wants back
# (docs/protocol.md: the `want` event, STATUS want=). Plain functions: also
# run under MicroPython at 96 wK.
import gc

from boardkit import card, special
from eventkit import evs
from smartboard import board as B
from smartboard import report, tag
from smartboard.sim.flash import SimFlash
from storekit import Board

assert report  # made before any board (eventkit)


def cut_off(name, moves):
    """The flash of a board that played `moves` moves of the record, then
    lost its power (the board gone with this function's frame)."""
    flash = SimFlash()
    bd = Board(name, flash)
    bd.play(moves)
    bd.log.flush_all()
    bd = None
    # collected here, before the next board is built: MicroPython's GC is
    # conservative (tests/mp_run.py), and without this the 96 wK heap
    # sometimes still held this board when the next one was made
    gc.collect()
    return flash


def test_a_resume_names_the_card_each_cell_wants_back():
    flash = cut_off("ev-want", 3)  # B1 8 H5, A1 23 G3, B2 25 E3 (beehive)
    bd = Board("ev-want", flash, fresh=False)
    assert bd.r.board.phase == B.RESUME
    assert "want" in bd.says.texts
    assert bd.status()["want"] == "E3:B25,G3:A23,H5:B8"
    assert bd.ask("WATCH 1") == (True, "watch=1")
    bd.r.put("G3", card(0, 23))  # team A's 23 (tag side 0)
    bd.r.settle()
    assert evs(bd) == [("want", "E3:B25 H5:B8")]
    assert bd.status()["want"] == "E3:B25,H5:B8"
    bd.r.put("I5", card(0, 3))  # a card where none goes: the list is the same
    bd.r.settle()
    assert evs(bd) == []
    bd.r.lift("I5")
    bd.r.put("E3", card(1, 25))
    bd.r.put("H5", card(1, 8))
    bd.r.settle()
    assert evs(bd)[-2:] == [("want", ""), ("phase", "resumed")]
    assert "want" not in bd.status()


def test_want_tokens_read_back_as_the_cards():
    from smartboard.report import card_token
    from smartboard.sim.console import card_code

    for side in (0, 1):
        for c in (card(side, 0), card(side, 30), special(side, tag.RAIN)):
            assert card_code(card_token(c, "BG"), False) == c
            assert card_code(card_token(c, "AB"), True) == c

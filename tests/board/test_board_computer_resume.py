# The computer's move after the board restarts: a match resumed from its
# log names the same move the board named before the restart, for the
# same position (its choice is a function of the match: the seed its log
# keeps and the record). The board restarts as boards/start.py starts it:
# a new board on the same flash and settings, the match log resumed, the
# cards put back as the LEDs ask. Plain functions: also run under the
# MicroPython unix port.
import gc

from apixagon.geometry import NCELLS, cell_name, neighbours
from boardkit import card
from computerkit import carry_out
from smartboard import buttons, settings
from smartboard.board import PLAY
from smartboard.sim.flash import SimFlash
from storekit import Board


def _free_cell(g, avoid=()):
    # a cell away from every card: any side may place there (§3 rule 4)
    for z in range(NCELLS):
        if g.board[z] or z in avoid:
            continue
        if not [n for n in neighbours(z) if g.board[n] or n in avoid]:
            return z
    raise AssertionError("no free cell")


def _black_plays(r, k):
    g = r.board.ref.game
    r.put(cell_name(_free_cell(g)), card(0, k))
    r.settle()


def _played(flash):
    # Black's cards and the computer's (Gold, level 1: the most chance in
    # its choice), to the computer's 4th move: the move the board names
    bd = Board("cmp-resume", flash)
    r = bd.r
    st = r.board.settings
    st.set(settings.COMPUTER, 8, 0)  # Gold, seat 1
    st.set(settings.LEVEL, 0, 0)
    r.press(buttons.CONFIRM)
    assert r.board.phase == PLAY, r.board.message
    for k in (12, 3, 20):
        _black_plays(r, k)
        m = r.board.ref.expect
        assert m, r.board.message
        carry_out(r, m, 1)
    _black_plays(r, 7)
    g = r.board.ref.game
    assert g.nmoves() == 7 and g.side_to_play() == 1
    return r.board.ref.expect


def test_a_restarted_board_names_the_same_computer_move():
    flash = SimFlash()
    before = _played(flash)
    assert before
    gc.collect()  # (that board is gone: the restarted one alone in the heap)
    # the board restarts mid-match: a new board, the same flash and settings
    bd = Board("cmp-resume", flash, fresh=False)
    bd.cards_back()
    b = bd.r.board
    assert b.phase == PLAY and b.ref.game.nmoves() == 7, b.message
    assert b.ref.expect == before, (b.ref.expect, before)
    # and on: the match goes on as it would have
    carry_out(bd.r, before, 1)
    assert b.ref.game.nmoves() == 8

# The match in play always has room, and a power cut never loses a match
# silently (issue 25, item 1). Before, a full flash let a match start with
# "moves kept in memory"; a power cut then lost the whole match, and after
# the reboot nothing said so (phase=setup, no event). Now:
#   - in set-up, when the longest match does not fit (the room rule,
#     logstore.writer.MatchLog.room: what is free, and what packing would
#     free), the board says so and row I blinks fast; STATUS room=0;
#   - CONFIRM is refused with the question (STATUS unlogged=ask); a second
#     CONFIRM, or the host's NOLOG, plays the match unsaved (unlogged=1);
#     any other button takes the question back;
#   - what a cut would lose is on flash (UNSAVED) while it would be lost:
#     the boot after the cut says it (a `say` event) and STATUS lost= holds
#     it until the next match starts: a match played unsaved ("unlogged"),
#     or the moves a log's match kept in memory ("0001.alog:3": the log
#     holds 3 moves, the match resumes from there).
# Plain functions: also run under the MicroPython unix port.
from logkit import ROOT, collect
from packkit import fill
from smartboard import board as B
from smartboard import buttons, view
from smartboard.logstore import lfs, writer
from smartboard.logstore.names import UNSAVED
from smartboard.sim.flash import SimFlash
from storekit import Board, record_moves, verified

ROW_I = view.SIGN_FIRST


def fast_sign(bd):
    n = 0
    for x in range(ROW_I, 61):
        if bd.r.board.view.layer[x] == view.STORAGE | view.FAST:
            n += 1
    return n


def test_a_full_flash_asks_before_the_first_card_and_plays_unsaved_only_when_confirmed():
    flash = SimFlash()
    flash.set_free(writer.ROOM_BYTES - 1)
    bd = Board("room-ask", flash)
    b = bd.r.board
    st = bd.status()
    assert st["room"] == "0" and b.phase == B.SETUP
    assert bd.says.said("storage full: the next match cannot be saved")
    assert fast_sign(bd) == 5  # row I blinks fast: before the first card
    bd.r.press(buttons.CONFIRM)
    assert b.phase == B.SETUP and bd.status()["unlogged"] == "ask"
    assert bd.says.said("storage full: this match would not be saved; press CONFIRM again")
    bd.r.press(buttons.MODE)  # another button: the question is off
    assert "unlogged" not in bd.status() and b.phase == B.SETUP
    bd.r.press(buttons.MODE)
    bd.r.press(buttons.CONFIRM)
    bd.r.press(buttons.CONFIRM)  # the players say so
    assert b.phase == B.PLAY and bd.status()["unlogged"] == "1"
    assert fast_sign(bd) == 3  # until the first card (I5 and I9: whose turn)
    bd.r.put("E4", 12)
    bd.r.settle()
    assert b.ref.game.nmoves() == 1 and fast_sign(bd) == 0
    bd.log.flush_all()
    assert bd.log.names() == []  # nothing logged: it is unsaved
    assert bytes(flash.contents(ROOT + "/" + UNSAVED)) == b"unlogged"


def test_a_power_cut_in_an_unsaved_match_is_said_after_the_reboot():
    flash = SimFlash()
    flash.set_free(writer.ROOM_BYTES - 1)
    bd = Board("room-cut", flash)
    bd.r.press(buttons.CONFIRM)
    bd.r.press(buttons.CONFIRM)
    bd.r.put("E4", 12)
    bd.r.settle()
    bd.log.flush_all()
    bd = None
    collect()  # the power goes: the board is gone
    bd = Board("room-cut", flash, fresh=False)
    b = bd.r.board
    assert b.phase == B.SETUP
    assert bd.says.said("power cut: the match played unsaved was lost")
    st = bd.status()
    assert st["lost"] == "unlogged", st
    # said until the next match starts (space back: a logged one)
    flash.set_free(1 << 20)
    bd = None
    collect()
    bd = Board("room-cut", flash, fresh=False)
    assert bd.status()["lost"] == "unlogged"
    bd.play(1)
    assert "lost" not in bd.status()
    bd.log.flush_all()
    assert not flash.exists(ROOT + "/" + UNSAVED)


class NoBlocks(SimFlash):
    """A flash with no block free (full: True): a log's append is refused,
    while a few bytes still go into a folder's metadata, as littlefs keeps
    a small file there (UNSAVED: logstore.lfs)."""

    full = False

    def append(self, path, data):
        if self.full:
            raise OSError(28)
        SimFlash.append(self, path, data)

    def write(self, path, data):
        if self.full and len(data) > 64:
            raise OSError(28)
        SimFlash.write(self, path, data)


def test_moves_kept_in_memory_at_a_power_cut_are_said_lost_after_the_reboot():
    flash = NoBlocks()
    bd = Board("room-mem", flash)
    bd.play(3)
    bd.log.flush_all()
    flash.full = True  # then the flash fills up
    bd.play(6)
    assert bd.log.failing
    assert bytes(flash.contents(ROOT + "/" + UNSAVED)) == b"0001.alog:3"
    st = bd.status()  # what a cut would lose, for the host to show at once
    assert st["unsaved"] == "0001.alog:3" and "unsafe" not in st, st
    table = bytes(bd.r.cells.cells)
    bd = None
    collect()  # the power goes
    flash.full = False
    bd = Board("room-mem", flash, fresh=False)
    bd.r.cells.cells[:] = table
    b = bd.r.board
    assert b.phase == B.RESUME and b.ref.game.nmoves() == 3  # what the log holds
    assert bd.says.said(
        "power cut: log 0001.alog lost its moves after move 3, kept in memory (the flash was full)"
    )
    assert bd.status()["lost"] == "0001.alog:3"
    assert verified(flash, "0001.alog")[0] == record_moves(3)


def test_moves_written_after_all_leave_nothing_to_say():
    flash = NoBlocks()
    bd = Board("room-back", flash)
    bd.play(2)
    flash.full = True
    bd.play(4)
    assert flash.exists(ROOT + "/" + UNSAVED)
    flash.full = False
    bd.r.run(2500)  # the retry: the moves written, UNSAVED gone
    bd.log.flush_all()
    assert not bd.log.failing and not flash.exists(ROOT + "/" + UNSAVED)
    assert verified(flash, "0001.alog")[0] == record_moves(4)


def test_nolog_from_the_host_answers_the_question():
    flash = SimFlash()
    flash.set_free(writer.ROOM_BYTES - 1)
    bd = Board("room-nolog", flash)
    assert bd.ask("NOLOG")[1].startswith("8")  # nothing asked yet: ERR 8
    bd.r.press(buttons.CONFIRM)
    assert bd.ask("NOLOG x")[1].startswith("6")
    assert bd.ask("NOLOG") == (True, "unsaved")
    assert bd.r.board.phase == B.PLAY and bd.status()["unlogged"] == "1"
    assert bd.ask("NOLOG")[1].startswith("8")  # in play: ERR 8


def test_the_room_counts_what_packing_would_free():
    # real-length logs, each in a block of its own, the flash nearly full:
    # packing them frees enough, so the match starts logged, no question
    flash = SimFlash(lfs=True)
    log = fill(flash, 12)
    flash.set_free(writer.ROOM_BYTES - lfs.BLOCK)
    assert log.free_bytes() < writer.ROOM_BYTES
    assert log.gain() > 7 * lfs.BLOCK and log.room()
    log = None
    collect()
    bd = Board("room-gain", flash)
    assert bd.status()["room"] == "1"
    bd.play(1)
    assert bd.r.board.phase == B.PLAY and "unlogged" not in bd.status()


class Dead(SimFlash):
    """A flash that takes no write at all once dead (a worn-out part): not
    UNSAVED either, whatever SPARE frees."""

    dead = False

    def _store(self, path, data, append, n=0):
        if self.dead:
            raise OSError(28)
        return SimFlash._store(self, path, data, append, n)


def test_a_flash_that_refuses_unsaved_too_is_said_at_once():
    # nothing on flash could tell after a cut that moves were lost: the
    # board says it while the players can still keep the board on
    flash = Dead()
    bd = Board("room-dead", flash)
    bd.play(2)
    bd.log.flush_all()
    assert flash.exists(ROOT + "/SPARE")  # made before the log's header
    flash.dead = True
    bd.play(4)
    assert bd.log.failing and bd.log.unsafe
    assert not flash.exists(ROOT + "/SPARE")  # given up for UNSAVED, in vain
    assert bd.says.said("storage full: a power cut now would lose this match without a word")
    st = bd.status()
    assert st["unsaved"] == "0001.alog:2" and st["unsafe"] == "1", st
    flash.dead = False
    bd.r.run(2500)  # the flash takes writes again: SPARE, then the moves
    bd.log.flush_all()
    assert not bd.log.failing and not bd.log.unsafe
    assert flash.exists(ROOT + "/SPARE") and not flash.exists(ROOT + "/" + UNSAVED)
    assert verified(flash, "0001.alog")[0] == record_moves(4)

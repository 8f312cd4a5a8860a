# Match-log storage (issue 4): when flash runs low the board warns — STATUS
# low=1, a message (the serial link forwards it as a `say` event) and row I
# blinking yellow in set-up and at a match's start; on a full flash the
# match goes on, its moves wait in the game (no queue of their own), the
# board warns, never crashes and never deletes a log; when space comes back
# (the host pulled and deleted a log) the moves are written and the log
# verifies. The flash is the simulated twin (smartboard.sim.flash), which
# reports a chosen free space (helpers: storekit.py).
from apixagon import record
from apixagon.geometry import parse_cell
from logkit import ROOT, collect, digest
from smartboard import board as B
from smartboard import buttons, view
from smartboard.logstore import folder, records, unsaved
from smartboard.sim.flash import SimFlash
from storekit import ROW_I, Board, record_moves, verified


def finished_log(name):
    """A flash holding one finished match (20 moves, abandoned: ~400 bytes,
    room enough for the next match's moves once it is deleted)."""
    flash = SimFlash()
    bd = Board(name, flash)
    bd.play(20)
    bd.abandon()
    bd.log.flush_all()
    assert bd.log.over
    bd = None
    collect()  # that board is gone: the heap under MicroPython is small
    return flash


def test_plenty_of_space_no_warning():
    bd = Board("store-ok", SimFlash())
    st = bd.status()
    assert st["low"] == "0" and int(st["free"]) > folder.LOW_BYTES
    assert bd.r.board.storage == B.STORE_OK and bd.sign() == 0
    assert not bd.says.said("storage")


def test_low_storage_warns_in_set_up_and_at_the_start_of_a_match():
    flash = SimFlash()
    flash.set_free(30000)
    bd = Board("store-low", flash)
    st = bd.status()
    assert st["low"] == "1" and st["free"] == "30000"
    b = bd.r.board
    assert b.storage == B.STORE_LOW
    assert bd.says.said("storage low: 29 KB free; download the match logs")
    assert bd.sign() == 5  # the whole of row I, in set-up
    # A match starts: said again, and the sign until the first card.
    bd.says.texts = []
    bd.r.press(buttons.CONFIRM)
    assert b.phase == B.PLAY
    assert bd.says.said("storage low")
    assert bd.sign() == 3  # I5 and I9 are corners: whose turn it is
    bd.r.put("D4", 0)  # black's card 0
    bd.r.settle()
    g = b.ref.game
    assert g.nlog and bd.sign() == 0
    assert bd.status()["low"] == "1"
    # The log is written all the same: low is a warning, not a refusal.
    bd.log.flush_all()
    moves, result = verified(flash, "0001.alog")
    assert moves == [record.write(g)[-1]] and result is None


def test_full_flash_keeps_the_match_playable_and_deletes_nothing():
    flash = finished_log("store-full")
    path = ROOT + "/0001.alog"
    size = flash.size(path)
    older = digest(flash, path, size)  # no copy of it held: a small heap
    bd = Board("store-full", flash, fresh=False)
    b = bd.r.board
    bd.play(2)  # a new match (the table was cleared), its header and moves on flash
    flash.set_free(5)  # then the flash fills up: a record is cut short
    bd.play(12)  # the match goes on from hands
    assert b.phase == B.PLAY and b.ref.game.nlog
    assert bd.log.failing and bd.log.due
    assert b.storage == B.STORE_FULL and bd.says.said("storage full")
    assert bd.sign() == bd.sign_room() > 0  # through the match while the flash is full
    st = bd.status()
    # what is free is SPARE's, taken for UNSAVED (logstore.writer): no move
    # goes there until SPARE is made anew
    assert st["low"] == "1" and int(st["free"]) < unsaved.SPARE_BYTES
    assert flash.exists(ROOT + "/UNSAVED") and not flash.exists(ROOT + "/SPARE")
    # Nothing deleted, the older log untouched; the new one holds its
    # first moves and at most a torn part of the next record.
    assert sorted(bd.log.names()) == ["0001.alog", "0002.alog"]
    assert flash.size(path) == size and digest(flash, path, size) == older
    v = records.read_log(flash.contents(ROOT + "/0002.alog"))[0]
    assert v == records.OK_LOG or v == records.TORN
    # The host pulls the older match and deletes it: PULLED cannot write
    # its marker on a full flash and is kept in memory, so DEL may go on.
    assert bd.ask("PULLED 0001.alog") == (True, "0001.alog")
    assert bd.ask("DEL 0001.alog") == (True, "0001.alog")
    bd.r.settle(300)  # quiet ticks: the waiting moves are written
    assert not bd.log.failing and not bd.log.due
    assert b.storage == B.STORE_LOW and bd.says.said("storage: the match log is saved again")
    assert bd.sign() == 0  # low, and the match has begun: no sign
    moves, result = verified(flash, "0002.alog")
    assert moves == record_moves(12) and result is None


def test_a_failed_write_is_tried_again_later_not_every_tick():
    flash = SimFlash()
    bd = Board("store-retry", flash)
    bd.play(1)
    flash.set_free(0)
    bd.play(2)
    errors = bd.log.errors
    bd.r.run(1000)  # hundreds of quiet ticks: one more attempt at most
    assert bd.log.errors <= errors + 1
    # space back without a DEL (the host removed a file): SPARE made anew
    # first (UNSAVED took it), then the moves
    flash.set_free(unsaved.SPARE_BYTES + 4096)
    bd.r.run(2500)
    assert not bd.log.failing
    assert verified(flash, "0001.alog")[0] == record_moves(2)


class Refusing(SimFlash):
    """A flash that says it has room and refuses writes all the same (a
    failing part, files a PC put there): the board's room rule lets a match
    start, and its moves wait as on a full flash."""

    def free(self, d):
        SimFlash.free(self, d)
        return 1 << 20


def test_matches_played_on_a_full_flash_are_written_when_space_comes_back():
    flash = Refusing()
    bd = Board("store-next", flash)
    flash.set_free(0)
    bd.play(3)
    b = bd.r.board
    bd.abandon()  # its log not even begun
    bd.play(2)  # a second match: it waits for the first one's log
    assert bd.log.game is not b.ref.game and bd.log.next is b.ref.game
    flash.set_free(unsaved.SPARE_BYTES + 8192)
    bd.log.flush_all()  # as LOGS does
    assert verified(flash, "0001.alog") == (record_moves(3), "abandoned")
    assert verified(flash, "0002.alog") == (record_moves(2), None)
    assert bd.log.dropped == 0


def test_a_third_match_on_a_full_flash_takes_the_waiting_ones_place():
    # Bounded memory: the log holds one match besides the one written to.
    flash = Refusing()
    bd = Board("store-third", flash)
    flash.set_free(0)
    for _ in range(3):
        bd.play(1)
        bd.abandon()
    assert bd.log.dropped == 1 and bd.says.said("storage full")
    flash.set_free(unsaved.SPARE_BYTES + 8192)
    bd.log.flush_all()
    assert bd.log.names() == ["0001.alog", "0002.alog"]
    assert verified(flash, "0002.alog") == (record_moves(1), "abandoned")


def test_a_power_cut_while_the_flash_is_full_resumes_from_what_is_on_it():
    flash = SimFlash()
    bd = Board("store-cut", flash)
    bd.play(3)
    flash.set_free(7)  # the fourth move's record cut short by a full flash
    bd.play(5)
    assert bd.log.failing
    table = bytes(bd.r.cells.cells)
    bd = None
    collect()  # the old board gone before the new one is built (a small heap)
    flash.set_free(4096)  # the power is back, and so is some space
    bd = Board("store-cut", flash, fresh=False)
    bd.r.cells.cells[:] = table
    b = bd.r.board
    assert b.phase == B.RESUME and b.ref.game.nlog  # the 3 logged moves
    assert verified(flash, "0001.alog")[0] == record_moves(3)  # torn tail cut


def test_the_storage_sign_is_in_the_palette():
    assert view.colour_of(view.STORAGE) == (255, 255, 0)
    assert parse_cell("I5") == ROW_I and view.SIGN_FIRST == ROW_I

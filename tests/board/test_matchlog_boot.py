# Bad states at boot (issue 4; "a bad state gets a clear error, changes
# nothing, loses nothing"): a newest log that does not verify, does not
# replay, is not text, or cannot be read is left exactly as it is, is not
# resumed, and the board says so and starts in set-up (helpers: storekit.py).
from logkit import ROOT
from smartboard import board as B
from smartboard.logstore import records
from smartboard.sim.flash import SimFlash
from storekit import Board


def test_a_damaged_newest_log_is_left_as_it_is_and_not_resumed():
    flash = SimFlash()
    bd = Board("store-bad", flash)
    bd.play(3)
    bd.log.flush_all()
    path = ROOT + "/0001.alog"
    block = flash.files[path][0]
    block[30] ^= 0x20  # a flipped bit in the second header record
    damaged = flash.contents(path)
    assert records.read_log(damaged)[0] == records.CORRUPT
    bd = None  # the old board goes before the new one is built: one board in 96 wK
    bd = Board("store-bad", flash, fresh=False)
    b = bd.r.board
    assert b.phase == B.SETUP and bd.log.damaged == "0001.alog"
    assert bd.says.said("log 0001.alog damaged or unreadable: kept as it is, not resumed")
    assert flash.contents(path) == damaged
    bd.play(1)  # a new match: a new log beside it
    bd.log.flush_all()
    assert bd.log.names() == ["0001.alog", "0002.alog"]
    assert flash.contents(path) == damaged


def test_a_log_that_does_not_replay_is_not_resumed_and_can_be_deleted():
    flash = SimFlash()
    flash.mkdir(ROOT)
    rec = bytearray()
    link = records.SEED
    for kind, text in ((records.HEADER, "mode queens-gambit"), (records.MOVE, "B 0 E5")):
        r, link = records.encode(link, kind, text.encode())  # the Royal Cell, first
        rec.extend(r)
    flash.write(ROOT + "/0001.alog", rec)
    before = flash.contents(ROOT + "/0001.alog")
    bd = Board("store-illegal", flash)
    assert bd.r.board.phase == B.SETUP
    assert bd.says.said("log unreadable at line 2: new match")
    assert bd.log.current() is None and bd.log.game is None
    assert flash.contents(ROOT + "/0001.alog") == before
    assert bd.ask("PULLED 0001.alog") == (True, "0001.alog")
    assert bd.ask("DEL 0001.alog") == (True, "0001.alog")


def test_a_log_edited_into_bytes_that_are_not_text_is_not_resumed():
    # The chain is a checksum, not a secret: an edit can keep it whole.
    flash = SimFlash()
    flash.mkdir(ROOT)
    rec = bytearray()
    link = records.SEED
    for kind, text in ((records.HEADER, b"mode queens-gambit"), (records.MOVE, b"B 0 D\xff")):
        r, link = records.encode(link, kind, text)
        rec.extend(r)
    flash.write(ROOT + "/0001.alog", rec)
    bd = Board("store-bytes", flash)
    assert bd.r.board.phase == B.SETUP and bd.says.said("log unreadable")
    assert flash.contents(ROOT + "/0001.alog") == rec


class BadReads(SimFlash):
    """A flash whose files cannot be read (a failing chip)."""

    def read(self, path):
        raise OSError(5)

    def read_into(self, path, offset, buf):
        raise OSError(5)


def test_a_flash_that_cannot_be_read_at_boot_does_not_stop_the_board():
    flash = BadReads()
    flash.mkdir(ROOT)
    flash.write(ROOT + "/0001.alog", b"\xa5")
    bd = Board("store-eio", flash)
    b = bd.r.board
    assert b.phase == B.SETUP and bd.log.damaged == "0001.alog"
    assert bd.says.said("log 0001.alog damaged or unreadable")
    assert bd.log.names() == ["0001.alog"]

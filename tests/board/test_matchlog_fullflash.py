# An acknowledged move is never lost without a word, whatever filled the
# flash (docs/firmware/storage.md). A season fills the flash with real
# logs, with packed archives, or some other program puts files there; the
# match is played on it and the power is cut at every move: after the boot
# every move the board took is on flash, or the board says which were lost
# (STATUS lost=, a message), having said at once while they were played
# that they were only in memory. Before, a flash full of real logs let a
# match start counting on packing that never ran in play, UNSAVED was
# refused with the moves, and a cut lost seven of them with nothing said
# (logstore.writer: SPARE, owed). Each case on the twin that counts
# littlefs's blocks and on littlefs itself (littlefs-python: fullkit.py).
# CPython only (the twins hold the 1.4 MB flash): under MicroPython each
# test returns at once.
from logkit import MICROPYTHON, ROOT
from smartboard.logstore import lfs, writer
from smartboard.logstore.names import SPARE, UNSAVED

if not MICROPYTHON:
    from fullkit import Cuts, archives, blocks_twin, foreign, littlefs_twin, real_logs, spare


def _room_by_packing(twin):
    flash = twin()
    # real logs, then as little free as the room rule takes when it counts
    # on packing (SPARE to make, and PACK_ROOM for the packing)
    n = real_logs(flash, writer.SPARE_ROOM + writer.PACK_ROOM + 4 * lfs.BLOCK)
    foreign(flash, writer.SPARE_ROOM + writer.PACK_ROOM)
    assert n > 300 and flash.free("") == writer.SPARE_ROOM + writer.PACK_ROOM, (n, flash.free(""))
    run = Cuts("full-real", flash)
    bd = run.play()
    log = bd.log
    assert log.packer is not None and log.packer.packed > 0  # packed in play
    assert run.cuts == 72 and run.lost == [], run.lost
    assert flash.exists(ROOT + "/" + SPARE) and not flash.exists(ROOT + "/" + UNSAVED)
    assert not any(t.startswith("storage full") for t in run.said), run.said


def test_real_logs_fill_the_flash_and_the_match_gets_its_room_by_packing_in_play():
    if not MICROPYTHON:
        _room_by_packing(blocks_twin)


def test_real_logs_fill_littlefs_and_the_match_gets_its_room_by_packing_in_play():
    if not MICROPYTHON:
        _room_by_packing(littlefs_twin)


def _no_room(twin, made_spare):
    flash = twin()
    real_logs(flash, writer.SPARE_ROOM * 2)
    if made_spare:
        spare(flash)  # the board logged a match here before
    foreign(flash, 0)  # packing itself has no block to begin with
    run = Cuts("full-none", flash, moves=12)
    bd = run.play(unsaved=True)
    assert bd.log.unlogged is not None
    assert any(t.startswith("storage full: the next match cannot be saved") for t in run.said)
    if made_spare:
        assert run.unlogged == 12, (run.unlogged, run.unsafe)
    else:
        # a flash filled before SPARE was made: UNSAVED in the folder's
        # metadata if it fits, else said at once
        assert run.unlogged + run.unsafe == 12, (run.unlogged, run.unsafe)


def test_no_room_the_players_play_unsaved_and_each_cut_says_so():
    if not MICROPYTHON:
        _no_room(blocks_twin, True)


def test_no_room_on_littlefs_the_players_play_unsaved_and_each_cut_says_so():
    if not MICROPYTHON:
        _no_room(littlefs_twin, True)


def test_no_room_and_no_spare_the_board_says_at_once_that_a_cut_would_lose_it():
    if not MICROPYTHON:
        _no_room(blocks_twin, False)


def test_no_room_and_no_spare_on_littlefs_the_board_says_it_at_once():
    if not MICROPYTHON:
        _no_room(littlefs_twin, False)


def _fill_at(at):
    def during(k, bd):
        if k == at:
            # some other program fills the flash while the match is played
            foreign(bd.flash, 0)

    return during


def _archives_then_foreign(twin):
    flash = twin()
    archives(flash, 40)
    run = Cuts("full-arc", flash, during=_fill_at(30))
    run.play()
    # from move 30 on the moves wait in memory: each cut says so
    assert run.lost and run.lost[0] == (30, "0041.alog:29"), run.lost
    assert all(k >= 30 and lost == "0041.alog:29" for k, lost in run.lost), run.lost
    assert any(t.startswith("storage full: moves kept in memory") for t in run.said)


def test_packed_archives_then_a_foreign_file_fills_the_flash_mid_match():
    if not MICROPYTHON:
        _archives_then_foreign(blocks_twin)


def test_packed_archives_then_a_foreign_file_fills_littlefs_mid_match():
    if not MICROPYTHON:
        _archives_then_foreign(littlefs_twin)


def _foreign_exact(twin):
    flash = twin()
    flash.mkdir(ROOT)
    foreign(flash, writer.ROOM_BYTES + writer.SPARE_ROOM)
    run = Cuts("full-foreign", flash, during=_fill_at(20))
    run.play()
    assert run.lost and all(k >= 20 for k, _ in run.lost), run.lost


def test_a_foreign_file_leaves_the_room_exactly_and_the_flash_fills_up_mid_match():
    if not MICROPYTHON:
        _foreign_exact(blocks_twin)


def test_a_foreign_file_leaves_littlefs_the_room_exactly_and_it_fills_up_mid_match():
    if not MICROPYTHON:
        _foreign_exact(littlefs_twin)


def test_unsaved_takes_the_spare_blocks_when_the_metadata_must_grow():
    # The reported case: the folder's metadata pair is full, so UNSAVED
    # needs a new pair (two blocks) on a flash with none free: SPARE's.
    if MICROPYTHON:
        return
    flash = blocks_twin()
    archives(flash, 12)

    def during(k, bd):
        if k == 10:
            # markers (PULLED) until one more small entry splits the pair,
            # then some other program takes every block
            fl = bd.flash
            meta = fl.use.meta
            flag = lfs.entry_bytes(len(UNSAVED) + 4, 16)  # and as UNSAVED.tmp
            n = 5000
            while lfs.folder_blocks(meta[ROOT] + flag) == lfs.folder_blocks(meta[ROOT]):
                fl.write(ROOT + "/%04d.pulled" % n, b"1")
                n += 1
            foreign(fl, 0)

    run = Cuts("full-meta", flash, moves=20, during=during)
    run.play()
    assert run.spare_used and run.lost and run.lost[0][0] >= 10, run.lost

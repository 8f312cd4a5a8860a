# Finished matches packed into archives (issue 25, item 3: three hundred
# matches is not a season). On the flash twin counting littlefs's blocks
# (SimFlash lfs=True: a real-length log takes a 4 KB block of its own), the
# board's packing (smartboard.logstore.pack, a step a quiet tick) moves
# finished logs into archives: the flash holds far more, every log is still
# listed, fetched byte for byte and deleted by its name, a log that does not
# verify and the newest stay their own files, and a fresh listing (a boot)
# finds them all where they are. Plain functions: also run under the
# MicroPython unix port. (The whole flash of real matches on the emulated
# RP2040: tests/rp2040/test_rp2040_pack.py; power cuts: test_matchlog_pack_cuts.py.)
import binascii
import hashlib

from logkit import MICROPYTHON, ROOT, collect
from packkit import fill, logs_of, pack_all
from pagekit import Host
from smartboard.logstore import archive, lfs, writer
from smartboard.sim.flash import SimFlash


def _packs(flash):
    return sorted(p for p in flash.files if p.endswith(".pack"))


def _alogs(flash):
    return sorted(p for p in flash.files if p.endswith(".alog"))


def test_packing_frees_the_blocks_and_keeps_every_log_byte_for_byte():
    flash = SimFlash(lfs=True)
    log = fill(flash, 24)
    before = logs_of(flash, log)
    free = log.free_bytes()
    assert len(before) == 24 and len(_alogs(flash)) == 24
    steps = pack_all(log)
    # every log but the newest packed, in archives of at most 64 KB
    assert _alogs(flash) == [ROOT + "/0024.alog"]
    packs = _packs(flash)
    assert packs and packs[0] == ROOT + "/0001.pack", packs
    for p in packs:
        assert flash.size(p) <= archive.MAX_BYTES
    assert log.packer.packed == 23 and steps > 23 * 4
    # the blocks of 23 logs given back, less what the archives hold
    assert log.free_bytes() - free >= 23 * lfs.BLOCK - 23 * 1500
    assert logs_of(flash, log) == before
    # a fresh listing (a boot) finds them where they are
    log = writer.MatchLog(ROOT, (), flash)
    assert logs_of(flash, log) == before
    assert log.counts() == (24, 24)


def test_a_packed_log_is_listed_fetched_pulled_and_deleted_by_its_name():
    flash = SimFlash(lfs=True)
    log = fill(flash, 10)
    data = logs_of(flash, log)
    pack_all(log)
    collect()
    h = Host(flash)
    assert h.log.packed(3) and not h.log.packed(10)
    names, more = h.page()
    assert names == ["%04d.alog" % i for i in range(1, 11)] and not more
    # GET in pieces, and FETCH of a range (protocol 4): each chunk's
    # frame checked (its CRC), the bytes those of the log as written
    ok, rest = h.ask("GET 0003.alog 100 200")
    assert ok and rest.split()[:2] == ["100", "200"], rest
    h.link.version = 4
    del h.port.out[:]
    h.link.handle("@2 FETCH 2+3")
    got = b"".join(h.port.out)
    for n in (2, 3, 4):
        # each a head frame and the log's bytes raw: the CRC-32 the head
        # says (the archive's own, not summed again) is the bytes'
        i = got.index(b"\n")
        head = got[:i].split()
        k = int(head[3])
        raw = got[i + 1 : i + 1 + k]
        got = got[i + 1 + k :]
        assert head[2:4] == [b"0", b"%d" % data[n][0]], (n, head)
        assert int(head[4], 16) == binascii.crc32(raw) & 0xFFFFFFFF, n
        assert hashlib.sha256(raw).digest() == data[n][1], n
    assert not got
    assert h.log.stored_crc(4, 0, data[4][0]) >= 0  # the last one's, kept
    assert h.log.stored_crc(4, 1, data[4][0] - 1) < 0  # not the whole log
    # PULLED, then DEL: a D entry in its archive; LOGS and the counts follow
    assert h.ask("PULLED 1+9") == (True, "1+9")
    for i in range(1, 10):
        assert h.ask("DEL %04d.alog" % i) == (True, "%04d.alog" % i), i
        if i < 9:
            assert _packs(flash), i  # the archive holds logs still
    assert not _packs(flash)  # all its logs deleted: the archive is gone
    assert h.log.counts() == (1, 1)
    assert h.page() == (["0010.alog"], 0)
    assert h.ask("GET 0003.alog 0 10")[1].startswith("7")  # ERR 7: gone
    # and numbers are never given twice: the next match is 0011
    h.match()
    assert h.log.current() == "0011.alog"


def test_a_log_that_does_not_verify_stays_as_it_is():
    flash = SimFlash(lfs=True)
    log = fill(flash, 6)
    path = ROOT + "/0003.alog"
    bad = bytearray(flash.contents(path))
    bad[200] ^= 0x40  # a record's byte changed: its CRC fails
    flash.write(path, bad)
    log = writer.MatchLog(ROOT, (), flash)
    pack_all(log)
    # 1, 2 packed; 3 left as it is; numbers are packed in order: 4, 5 too
    assert _alogs(flash) == [path, ROOT + "/0006.alog"]
    assert bytes(flash.contents(path)) == bytes(bad)
    assert log.packed(1) and log.packed(2) and log.packed(4) and log.packed(5)
    assert not log.packed(3)


def test_packing_waits_for_the_storage_to_run_low():
    # a board whose host pulls now and then never packs
    flash = SimFlash(lfs=True)
    log = fill(flash, 8)
    log.judge()
    assert not log.pack_wanted
    flash.set_free(writer.PACK_BELOW - lfs.BLOCK)
    log.judge()
    assert log.pack_wanted and log.pack_due()


def test_the_archives_take_a_thousand_real_matches_where_the_files_took_330():
    # Real-length logs written one after the other, packed as the board
    # packs them (each finished match once the next has begun): the
    # twin's blocks, as littlefs counts them (tests/host/test_flash_blocks.py).
    # CPython only: the twin holds the flash's 1.4 MB in memory, more than
    # the unix port's heap caps are for (the board itself does it:
    # tests/rp2040/test_rp2040_pack.py)
    if MICROPYTHON:
        return
    flash = SimFlash(lfs=True)
    log = writer.MatchLog(ROOT, (), flash)
    log.clock = lambda: 1790000000
    from packkit import games

    four = games()
    n = 0
    while log.room():
        log.make_room()
        log.begin(four[n % 4])
        log.flush_all()
        n += 1
        while log.pack_due() and log.pack_step():
            pass
        if n % 100 == 0:
            collect()
    assert n >= 1000, n
    assert log.counts()[0] == n


def test_the_board_packs_on_quiet_ticks_between_matches_only():
    from smartboard import board as B
    from smartboard import buttons
    from storekit import Board

    flash = SimFlash(lfs=True)
    fill(flash, 9)  # 8 finished logs of their own: packing is wanted
    collect()
    bd = Board("pack-ticks", flash)  # it boots in set-up: packing begins
    assert bd.log.pack_wanted
    bd.r.press(buttons.CONFIRM)  # a match starts: no packing in play
    assert bd.r.board.phase == B.PLAY
    loose = len(_alogs(flash))
    assert loose > 2
    bd.r.run(3000)
    assert len(_alogs(flash)) == loose and bd.log.pack_wanted
    bd.r.press(buttons.CONFIRM, True)  # abandoned: set-up
    bd.r.run(3000)
    assert bd.r.board.phase == B.SETUP
    assert _packs(flash) and _alogs(flash) == [ROOT + "/0010.alog"]
    assert not bd.log.pack_wanted
    assert bd.status()["logs"] == "10"


def test_no_packing_while_the_pc_downloads():
    # loop.step makes the board's forced ticks brief while a download's
    # requests come (a LOGS, FETCH or PULLED answered < 30 ms ago): the
    # logs the PC listed stay where they are and the download has the chip;
    # STATUS says packing=1 until the packing is done.
    from storekit import Board

    flash = SimFlash(lfs=True)
    fill(flash, 9)
    collect()
    bd = Board("pack-pull", flash)
    assert bd.log.pack_wanted and bd.status()["packing"] == "1"
    loose, packs = _alogs(flash), _packs(flash)
    sizes = [flash.size(p) for p in packs]
    bd.r.board.brief = True
    bd.r.run(3000)
    assert _alogs(flash) == loose and _packs(flash) == packs
    assert [flash.size(p) for p in packs] == sizes and bd.log.pack_wanted
    bd.r.board.brief = False
    bd.r.run(3000)
    assert _packs(flash) and not bd.log.pack_wanted
    assert "packing" not in bd.status()


def test_a_log_deleted_between_its_copy_and_its_removal_stays_deleted():
    # The packer appends a log's copy to its archive, checks it, then
    # removes the log's own file: a DEL (the host pulled it) in between
    # must mark the copy gone too, or the next listing (a boot) finds the
    # deleted log back in the archive (found by the soak: tools/soak.py).
    flash = SimFlash(lfs=True)
    log = fill(flash, 5)
    log.pack_wanted = True
    assert log.pack_due()
    p = None
    for _ in range(1000):
        log.pack_step()
        p = log.packer
        if p is not None and p.state == 3:  # pack._VERIFY: copied, not removed
            break
    n = p.n
    assert flash.exists(ROOT + "/%04d.alog" % n) and _packs(flash)
    log.delete("%04d.alog" % n)
    assert not log.has_number(n)
    pack_all(log)
    assert not log.has_number(n)
    again = writer.MatchLog(ROOT, (), flash)
    assert "%04d.alog" % n not in again.names() and not again.has_number(n)
    assert len(again.names()) == 4

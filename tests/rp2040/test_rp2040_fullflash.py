"""An acknowledged move is never lost without a word on the emulated RP2040
(rev A image, its littlefs, its own writer and packer), whatever filled
its flash (docs/firmware/storage.md, "A power cut never loses a match
silently").

The flash is filled from the PC as a season fills it: matches packed into
archives (by the firmware's own code on the board's littlefs), then real
logs of their own until the next would not fit, then another program's
file leaving only what the room rule takes when it counts on packing. The
scripted 6-player match is played from hands: the board packs while it is
played and every move lands on the flash. The power goes after move 32, a
PC fills the rest of the flash, and the board resumes and plays on: no
record goes through any more, the board says so at once, and UNSAVED says
what a cut would lose. The flash is read from the PC after every move (the
chip's flash saved, as a cut would leave it): every move the board took is
in the log, or UNSAVED names the log and the moves it holds. After the
last cut the board says it (STATUS lost=) and resumes from the log.
"""

import os
import shutil
import sys

import emukit
import flashfs
from apixagon_host import link as L

sys.path.insert(0, os.path.join(emukit.ROOT, "tools"))
import realmatches  # noqa: E402
from bench import emulated, memory  # noqa: E402
from smartboard.logstore import lfs, records, writer  # noqa: E402

REV = "rev_a"
PACKED = 40  # matches packed into archives from the PC
FIRST = 32  # moves before the power cut (the log has a block of its own)
THEN = 8  # moves on the flash filled up
RECORD = "beehive_full.apx"


def fill(path):
    ffs = flashfs.FlashFs.new(path, emukit.image(REV))
    bf = flashfs.BoardFlash(ffs)
    log = writer.MatchLog("logs", (), bf)
    log.unfinished()
    four = [d for _, d in realmatches.logs(REV)]
    for n in range(1, PACKED + 1):
        bf.write("logs/%04d.alog" % n, four[n % 4])
        log.new_log(n)
    log.pack_wanted = True
    while log.pack_due() and log.pack_step():
        pass
    n = PACKED
    while ffs.free() > 64 * 1024:
        n += 1
        bf.write("logs/%04d.alog" % n, four[n % 4])
    ffs.save()
    return n


def leave_for_packing(path):
    # another program's files take what the room rule leaves when it counts
    # on packing: more than SPARE and PACK_ROOM free, less than SPARE and
    # the match's room
    ffs = flashfs.FlashFs(path)
    least = writer.SPARE_ROOM + writer.PACK_ROOM
    foreign(ffs, least + lfs.BLOCK)
    assert least <= ffs.free() < writer.SPARE_ROOM + writer.ROOM_BYTES, ffs.free()
    ffs.save()


def foreign(ffs, leave):
    # another program's files outside logs/, a block each, until `leave`
    # bytes are free (or none: littlefs refuses the next)
    i = 0
    while ffs.free() > leave:
        path = "data/photo%03d.bin" % i
        try:
            ffs.write(path, bytes(lfs.BLOCK))
        except Exception:  # littlefs-python's NOSPC
            break
        if ffs.free() < leave:  # its folder's metadata took a block too
            ffs.remove(path)
            break
        i += 1


def on_flash(path, name):
    """(moves in the log's good records, UNSAVED's text) of a saved flash."""
    ffs = flashfs.FlashFs(path)
    lines = records.Lines()
    v = records.read_log(ffs.read("logs/" + name), lines)[0]
    assert v in (records.OK_LOG, records.TORN), records.verdict_name(v)
    unsaved = ffs.read("logs/UNSAVED").decode() if ffs.exists("logs/UNSAVED") else None
    return len(lines.moves), unsaved


class CutHands(memory.HeapHands):
    """Hands that save the chip's flash after each move, as a cut leaves it."""

    def __init__(self, board, link, profile, snaps):
        memory.HeapHands.__init__(self, board, link, profile, emulated.say_nothing, every=0)
        self.snaps = snaps
        self.k = 0

    def after(self, i, steps):
        self.k += 1
        self.b.wait_ms(300)  # the move's record, on the next quiet ticks
        self.b.request("save")
        snap = "%s.%03d" % (self.b.flash, self.k)
        shutil.copyfile(self.b.flash, snap)
        self.snaps.append((self.k, snap))


def _roomy(st, seen):
    seen.append(int(st["free"]))
    return st if st["room"] == "1" else None


def _playing(st):
    return st if st["phase"] == "play" else None


def test_a_full_flash_on_the_chip_loses_no_move_without_a_word(tmp_path):
    start = str(tmp_path / "filled.bin")
    n = fill(start)
    name = "%04d.alog" % (n + 1)
    setup, steps = emulated.record_script(emulated.data_path(RECORD))
    snaps = []
    b = emulated.Board(emukit.image(REV), REV, str(tmp_path / "board"), flash_from=start)
    try:
        # its first boot writes its own files (settings); then the power
        # goes and the PC fills the flash
        emulated.hello_after_boot(b)[0].close()
        b.cut()
        b.wait_for(lambda: not b.on, 60, "the power cut")
        leave_for_packing(b.flash)
        b.load()
        link = emulated.hello_after_boot(b)[0]
        hands = CutHands(b, link, "A", snaps)
        # it packs in set-up from its boot on: within a packing step its
        # free space dips (an archive's block taken before the log's is
        # given back), and the room grows
        seen = []
        st = hands.until(lambda: _roomy(hands.status(), seen), "the room", 20000, 200)
        assert int(min(seen)) < writer.ROOM_BYTES + writer.SPARE_ROOM, seen
        hands.setup(setup)
        hands.play(steps[:FIRST])
        st = hands.status()
        assert st["moves"] == str(FIRST) and "lost" not in st, st
        link.close()
        # the power goes; a PC fills the rest of the flash
        b.cut()
        b.wait_for(lambda: not b.on, 60, "the power cut")
        ffs = flashfs.FlashFs(b.flash)
        foreign(ffs, 0)
        ffs.save()
        b.load()
        link = emulated.hello_after_boot(b)[0]
        hands.link = link
        # the cards are still on the cells: the board resumes at once
        st = hands.until(lambda: _playing(hands.status()), "the resume")
        assert st["moves"] == str(FIRST), st
        hands.play(steps[FIRST : FIRST + THEN])
        st = hands.status()
        assert st["moves"] == str(FIRST + THEN), st
        link.close()
        b.cut()
        b.wait_for(lambda: not b.on, 60, "the power cut")
        lost = []
        for k, snap in snaps:
            held, unsaved = on_flash(snap, name)
            if held != k:
                assert held < k and unsaved == "%s:%d" % (name, held), (k, held, unsaved)
                lost.append(k)
        assert lost and min(lost) > FIRST, lost  # only once the flash was full
        held, _ = on_flash(b.flash, name)
        link = emulated.hello_after_boot(b)[0]
        st = L.fields(link.request("STATUS"))
        link.close()
        assert st["lost"] == "%s:%d" % (name, held), st
        assert st["phase"] == "resume" and st["moves"] == str(held), st
        print(
            "rp2040 full flash: %d logs (%d packed from the PC), %d moves, %d cuts judged, "
            "moves in memory from move %d, lost=%s"
            % (n, PACKED, FIRST + THEN, len(snaps), min(lost), st["lost"])
        )
    finally:
        b.close()

"""The heap of each mode's match on the emulated RP2040 (the memory part):
the scripted match of each mode played from hands on a fresh board, every
4th placement taken back, with the firmware frozen into the image,
deployed into its ROMFS partition by a real `apixagon deploy`, and as
.mpy in a slot of its littlefs; the heap free after boot and at the
lowest point of the match."""

import io
import json
import os
import time

import flashfs

from bench.emulated import (
    IMAGES,
    PROFILE,
    ROOT,
    Board,
    Hands,
    data_path,
    hello_after_boot,
    make_flash,
    read,
    record_script,
    say_nothing,
)

# The memory part: each mode's scripted match (tests/data, written by
# tools/make_scripted_game.py: junior with 6 players, set on the board's
# buttons) played from hands on a fresh board, with the
# firmware frozen in the image and deployed as .mpy into a slot of its
# littlefs (the update path), every TAKEBACK_EVERY-th placement taken back
# (lifted) and put down again.
MEMORY_MATCHES = (
    ("2p", "queens_gambit_full.apx"),
    ("beehive", "beehive_full.apx"),
    ("3v2", "3v2_full.apx"),
    ("junior", "junior_full.apx"),
)

# deployed: `apixagon deploy` onto the image's board (into its ROMFS
# partition, run in place); littlefs: the same firmware as .mpy in a slot of
# the littlefs (what a stock MicroPython board gets, and image boards got
# before the partition), written from the PC (deployed_files).
FIRMWARES = ("frozen", "deployed", "littlefs")

TAKEBACK_EVERY = 4


def image_id(images, rev):
    """The ID tools/build_firmware.py gave the image (its fwimage.py, in the
    build folder beside the UF2): a deploy's boot record names it."""
    ns = {}
    with open(os.path.join(images, "image-" + rev, "fwimage.py")) as f:
        exec(f.read(), ns)
    return ns["ID"]


def deployed_files(image_dir, rev, tmp, firmware=None):
    """[(path, bytes)]: what `apixagon deploy` of firmware (this checkout's
    by default) leaves on the littlefs of a board running the image: the
    slot fw/a as deploy builds it (fwbuild: mpy-cross for the board's
    Cortex-M0+, the manifest) and the boot record its switch writes, in
    state "new": the next boot is the slot's trial, as after deploy's
    restart, and its loop marks it good (tests/e2e/deploykit.stock_flash
    does the same for a stock board on the simulated one; heap_match plays
    its match after the boot that follows)."""

    from apixagon_host import fwbuild

    b = fwbuild.build(firmware or os.path.join(ROOT, "firmware"), os.path.join(tmp, "stage"))
    files = [("fw/a/" + p, read(b.local(p))) for p in sorted(b.files)]
    rec = {
        "cur": "a",
        "state": "new",
        "prev": None,
        "image": image_id(image_dir, rev),
        "sums": {"a": b.files[fwbuild.MANIFEST]},
    }
    files.append(("fw/BOOT", json.dumps(rec).encode()))
    return files


def update_path_blocks(image, rev, workdir, flash):
    """What the update path takes of the flash: the littlefs blocks a
    deploy left in use beyond a fresh board's (the ROMFS deploy: its fw/
    folder and record), those of the same firmware as a .mpy slot in the
    littlefs (deployed_files, fw/a), and the ROMFS image's bytes."""

    # against a fresh flash with the folder every board makes at its
    # first boot (logs/): the deployed board has it too
    fresh = os.path.join(workdir, "fresh.bin")
    make_flash(fresh, image, [("logs", None)])
    base = flashfs.FlashFs(fresh).free()
    after = flashfs.FlashFs(flash)
    slot = os.path.join(workdir, "slot.bin")
    make_flash(slot, image, [("logs", None)] + deployed_files(IMAGES, rev, workdir))
    rom = 0
    rec = json.loads(after.read("fw/BOOT")) if after.exists("fw/BOOT") else {}
    if rec.get("cur") == "rom":
        with open(flash, "rb") as f:
            data = f.read()[flashfs.ROMFS_OFFSET :]
        i, n = 3, 0  # the ROMFS header's length
        while True:
            n = (n << 7) | (data[i] & 0x7F)
            i += 1
            if not data[i - 1] & 0x80:
                break
        rom = n + i
    return {
        "lfs_blocks": (base - after.free()) // flashfs.BLOCK,
        "slot_blocks": (base - flashfs.FlashFs(slot).free()) // flashfs.BLOCK,
        "romfs_bytes": rom,
    }


def real_deploy(image, rev, workdir):
    """`apixagon deploy` of this checkout's firmware/ onto a board running
    the image (real mpremote, into its ROMFS partition; its restart boots
    it as a trial, which its loop marks good): (the flash file it leaves,
    the heap free after that restart, the deploy's wall seconds, the flash
    it takes: update_path_blocks)."""
    from apixagon_host import cli
    from apixagon_host import link as L

    b = Board(image, rev, workdir)
    try:
        hello_after_boot(b)[0].close()
        out = io.StringIO()
        t = time.monotonic()
        argv = ["deploy", "-p", b.port, "--firmware", os.path.join(ROOT, "firmware")]
        rc = cli.main(argv + ["--timeout", "120"], cli.State(out=out))
        took = time.monotonic() - t
        if rc != 0:
            raise RuntimeError("apixagon deploy failed (%s): %s" % (rc, out.getvalue()))
        with L.Link(b.port, timeout=60) as link:
            link.hello()
            heap = int(L.fields(link.request("STATUS"))["heap"])
    finally:
        b.close()  # the emulator writes its flash file as it quits
    check_slot_ran(b.flash)
    return b.flash, heap, took, update_path_blocks(image, rev, workdir, b.flash)


def boot_record(flash):
    """fw/BOOT on a flash file (the board's power off), or {}."""

    fs = flashfs.FlashFs(flash)
    return json.loads(fs.read("fw/BOOT")) if fs.exists("fw/BOOT") else {}


def check_slot_ran(flash):
    """The boot record a deployed board's run left: fw/a or the ROMFS
    partition, its loop ran (state "ok": only the slot's own first loop
    pass writes it after a trial), nothing set aside."""
    rec = boot_record(flash)
    if rec.get("cur") not in ("a", "rom") or rec.get("state") != "ok" or rec.get("bad"):
        raise RuntimeError("the deployed firmware did not run: fw/BOOT %r" % rec)


def heap_match(image, rev, workdir, record_name, files=(), flash_from=None, deployed=False):
    """The record's match played from hands (HeapHands) on a fresh board
    running the image (with files on its littlefs, or the flash another
    board left): the heap free (STATUS heap=, after a collection) after
    boot, once the match has begun, at its lowest (sampled after every
    move and take-back and on every STATUS between), at the end."""
    from apixagon_host import link as L

    setup, steps = record_script(data_path(record_name))
    b = Board(image, rev, workdir, files, flash_from)
    try:
        link = hello_after_boot(b)[0]
        if deployed and boot_record(b.flash).get("state") == "new":
            # The slot's first boot after the deploy is its trial (the
            # selector checks every file's sha256, the slot's loop marks it
            # good); the match is played after the next power-on, a boot
            # like every later one.
            link.close()
            b.cut()
            b.wait_for(lambda: not b.on, 60, "the power cut")
            b.power_on()
            b.wait_usb()
            link = L.Link(b.port, timeout=60)
            link.hello()
        hands = HeapHands(b, link, PROFILE[rev], say_nothing)
        st = hands.status()
        heap_boot = int(st["heap"])
        hands.setup(setup)
        st = hands.status()
        hands.at = (int(st["moves"]), int(st["ply"]))
        heap_start = int(st["heap"])
        hands.play(steps)
        st = hands.status()
        link.close()
    finally:
        b.close()
    if st["phase"] != "over" or int(st["moves"]) != steps[-1][6]:
        raise RuntimeError("%s: the match did not end as its record does: %r" % (record_name, st))
    if deployed:
        check_slot_ran(b.flash)
    elif boot_record(b.flash):
        raise RuntimeError("a deployed firmware on the frozen image's board")
    return {
        "record": record_name,
        "mode": st["mode"],
        "players": setup["players"] or None,
        "moves": len(steps),
        "takebacks": hands.takebacks,
        "samples": hands.samples,
        "heap_boot": heap_boot,
        "heap_start": heap_start,
        "heap_lowest": hands.heap_lowest,
        "lowest_at_moves": hands.lowest_moves,
        "heap_end": int(st["heap"]),
        "heap_by_move": hands.heap_by_move,
    }


class HeapHands(Hands):
    """Hands as quick as the board follows (no latency measured, no pause
    between moves): every TAKEBACK_EVERY-th placement but the last move is
    lifted again once the board has it (a take-back: the board undoes it)
    and put back (played again; profile B: no tap, the board gives it the
    identity of the card just taken back). The heap: every STATUS's heap=,
    at least one after each move and each take-back, between two passes of
    the board's loop (the move done, its record not yet on flash).

    No low-water mark kept by the board's own loop: gc.mem_free() walks
    the heap's whole allocation table, 8.9 ms of the chip's time on the
    emulated RP2040 (a collection before it, for a figure that means
    anything, 8-12 ms more): ~20 ms a move for a figure only a benchmark
    reads. STATUS makes the board pay it only when asked."""

    PAUSE_MS = 0
    REFUSE_EVERY = 0  # its own take-backs (after), no refusals: the heap's match
    TAKEBACK_EVERY = 0
    LOCKSTEP = False  # as quick as the board follows: no figure of time here
    POLL_MS = 50
    SENSE_MS = 20
    TAP_MS = 160

    def __init__(self, board, link, profile, say, every=None):
        Hands.__init__(self, board, link, profile, say)
        # (the module's TAKEBACK_EVERY: the class's own is Hands' kind)
        self.every = globals()["TAKEBACK_EVERY"] if every is None else every
        self.ply_at = (0, 0)  # moves and ply before the step at hand (not `at`: Hands.at())
        self.placed = 0
        self.takebacks = 0
        self.samples = 0
        self.lowest_moves = None
        self.heap_by_move = []

    def status(self):
        st = Hands.status(self)
        self.samples += 1
        if int(st["heap"]) == self.heap_lowest:
            self.lowest_moves = int(st.get("moves", 0))
        return st

    def special_lift(self, x):
        self.lift(x)

    def special_put(self, x, code):
        self.put(x, code)

    def place(self, x, code):
        self.b.put(x, code)
        self.table[x] = code
        self.sensed(x, True)

    def tap(self, code):
        # a card on the action pad for TAP_MS: the board reads the pad every
        # 40 ms (smartboard.board._PAD_MS)
        self.b.tap(code, hold_ms=self.TAP_MS)
        self.b.wait_ms(60)

    def sensed(self, x, on):
        """Until the board senses a card on cell x (on) or none: CELLS, a
        few bytes of the board's state, every SENSE_MS; STATUS and its
        collection (~20 ms of the chip's time) only once it has."""
        self.until(lambda: bool(self.cells()[x]) == on, "cell %d sensed" % x, poll=self.SENSE_MS)

    def after(self, i, steps):
        from apixagon.codes import PLACE

        lineno, kind, side, card, cells, t, nmoves, ply = steps[i]
        before, self.ply_at = self.ply_at, (nmoves, ply)
        self.heap_by_move.append(self.heap_end)
        if kind != PLACE or i + 1 == len(steps):
            return
        self.placed += 1
        if self.placed % self.every:
            return
        x = cells[0]
        code = self.table.pop(x)
        self.b.lift(x)
        self.sensed(x, False)
        self.until(lambda: self._moved(*before), "line %d: the take-back" % lineno)
        self.place(x, code)
        self.until(lambda: self._moved(nmoves, ply), "line %d: put back" % lineno)
        self.takebacks += 1

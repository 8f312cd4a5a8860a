"""`make bench` (fourth part): the firmware on its target, an emulated RP2040.

Every figure here is the chip's own time: the board's MicroPython images
(`make firmware`: the firmware frozen in) run in rp2040js
(tools/rp2040/emuboard.py), whose clock is the cycle count at 125 MHz, so
time.ticks_us() on the board and the cycles stamped on the emulator's
events read emulated time, whatever the PC's speed. Beside each figure,
where there is one, the same measure on the MicroPython unix port here
(the .mpy build, as tools/bench/core.py and tools/bench/firmware.py run it).

Prints:
  - the calibration loop (a pin toggled from Python) next to the figure
    reported for a real Pico;
  - the rules core (tools/core_device.py, run on the board over its raw
    REPL): the full hint query at the crowded position and at the worst
    one of tests/data/beehive_full.apx (found by scanning every position
    on the board), the card query for every card in hand, a placement
    check, a place + undo;
  - the firmware's costs (tools/firmware_device.py on the benchmark
    image, which also freezes the simulator: build/firmware/bench, built
    by tools/build_firmware.py --sim): one sensor event, one LED frame
    (painted and written to the strip through the start-up code's PIO
    driver; and the dearest frame: every cell lit, current-limited), an
    idle tick (profile B), at tools/bench/firmware.py's position and the worst of
    the game; the strip's write alone;
  - boot to the answer to a HELLO sent as soon as USB is up, per board
    revision, with an empty file system and with an unfinished match log
    on the flash (the scripted 6-player game, and a 100-move 2-player
    match with take-backs) and its cards on the modelled cells: to HELLO
    and to the end of the resume (the first frame of the match screen);
  - the free heap (STATUS heap=) after boot and with a match in play;
  - the heap of each mode (--part memory):
    the scripted match of each mode (MEMORY_MATCHES: 2 players, beehive,
    3v2, junior) played from hands on a fresh board, every 4th placement
    taken back and put down again, with the firmware frozen into the
    image and deployed as .mpy into a slot of its flash by a real
    `apixagon deploy` (the update path), per revision: the heap free
    (STATUS heap=, the board's gc.mem_free() after a collection) after
    boot and at the lowest point of the match, sampled after every move
    and take-back; against the budgets (tools/bench/budgets.py: frozen >= 150 KB,
    deployed >= 96 KB);
  - placement to LED, each profile: the scripted 6-player game played from
    hands on the emulated board, from the cycle a card goes down to the
    cycle the strip latches the first frame in which that cell's LED
    changed: mean, 95 %, worst;
  - the flash's capacity (--part capacity): real matches (tools/
    realmatches.py: each mode's scripted match as the board writes it, the
    four in turn) written on the frozen image's littlefs and packed by the
    firmware's own packer, each packing step timed by the chip, until the
    board's room rule says the next match would not fit; then the board
    booted as players power it (STATUS, LOGS, GET of the full flash);
  - `logs pull` of an archive of match logs over the board's USB CDC: KB
    per second of the chip's clock, from the first byte of the first
    request to the last byte of the last reply (the emulator stamps the
    traffic), for the whole command and for its GETs alone; then `mpremote
    cp` of the same files (the raw REPL), and the wall-time ratio of the
    two; beside it tools/bench/link.py's pull on the unix port.

Options: --quick (a shorter run: no position scans, a few moves of the
game, no memory or capacity part unless named), --json (figures as one JSON object),
--part NAME (only that part; repeatable). The emulator runs at about half real time here; the whole
run takes several minutes, --quick about a minute.
"""

import argparse
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
HERE = os.path.join(TOOLS, "bench")
for _p in ("tools", os.path.join("tools", "rp2040"), "firmware", "host"):
    _p = os.path.join(ROOT, _p)
    if _p not in sys.path:
        sys.path.insert(0, _p)

import build_mpy  # noqa: E402
import emuboard  # noqa: E402
import flashfs  # noqa: E402

from bench import budgets  # noqa: E402
from bench import core as unix_core  # noqa: E402
from bench import firmware as unix_firmware  # noqa: E402

HZ = emuboard.HZ
RECORD = os.path.join(ROOT, "tests", "data", "beehive_full.apx")
# the images measured: make firmware's, or $BENCH_IMAGES (a build of one's
# own: tools/build_firmware.py --out DIR, and --sim --out DIR/bench)
IMAGES = os.environ.get("BENCH_IMAGES") or os.path.join(ROOT, "build", "firmware")
BENCH_IMAGES = os.path.join(IMAGES, "bench")
REVS = ("rev_a", "rev_b")
PROFILE = {"rev_a": "A", "rev_b": "B"}
PARTS = (
    "calibration", "core", "firmware", "boot", "resume", "play", "pull", "memory", "capacity",
    "engine",
)  # fmt: skip
# the parts --quick leaves out unless named (minutes each)
LONG_PARTS = ("memory", "capacity")
# The computer player (apixagon.engine): its levels timed at the worst
# positions of the scripted 2-player game (found by the unix port's clock,
# the WORST_K dearest of each level then timed on the board)
ENGINE_RECORD = os.path.join(ROOT, "tests", "data", "queens_gambit_full.apx")
ENGINE_LEVELS = (1, 2, 3, 4, 5, 6)
WORST_K = 5
# The board's lowest heap free in a 2-player match without the computer,
# frozen rev A (README, "The board's heap, mode by mode", measured at
# ef3473b), when this run's memory part did not measure it
MATCH_LOWEST_FROZEN = 194848
MATCH_LOWEST_DEPLOYED = 125296
# The calibration loop on a real Pico: the figure the issue quotes (and
# ../shared/rp2040/README.md), "reported" without a source.
REAL_PICO_LOOP_US = 31
LOOP_PIN = 25  # the Pico's LED: free on both revisions
# Repetitions on the board (each a few hundred ms of chip time at most)
# and, for the unix port, tools/bench/core.py's and firmware.py's own.
K_CORE = {"hint": 20, "cards": 4, "check": 500, "push": 20}
K_FIRMWARE = {"event": 4, "frame": 20, "litframe": 20, "idle": 500}
TAKEBACK_LOG_RECORDS = 100  # "boot + resume of a 100-move match log <= 3 s"
# `logs pull`: an archive of long 2-player matches with take-backs (about
# 7 KB each: several GETs a log) and finished 6-player matches (1.4 KB:
# one GET a log), the long ones oldest (the newest log is finished: no
# resume at boot).
PULL_LONG = (4, 300)  # logs, move records each
PULL_SHORT = 32
SEED = 20261123
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


def say_nothing(text):
    pass


def say_out(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def ms(cycles):
    return cycles * 1000.0 / HZ


# ---- the emulated board ------------------------------------------------------------
def make_flash(path, image, files=()):
    """A flash image file: the UF2's blocks, and MicroPython's littlefs
    (formatted as the board formats it) holding files: (path, bytes), or
    (path, None) for an empty folder."""
    ffs = flashfs.FlashFs.new(path, image)
    for name, data in files:
        if data is None:
            ffs.fs.mkdir(name)
        else:
            ffs.write(name, data)
    ffs.save()


class Board(emuboard.EmuBoard):
    """An EmuBoard on a flash built here, powered on by power_on() (the
    power stays off until then, so that cards can lie on the cells before
    the first power-on); rp2040js's own messages go to a file."""

    def __init__(self, image, rev, workdir, files=(), flash_from=None):
        os.makedirs(workdir, exist_ok=True)
        flash = os.path.join(workdir, "flash-%s.bin" % rev)
        if flash_from is not None:  # a flash another board left (a deploy)
            shutil.copyfile(flash_from, flash)
        else:
            make_flash(flash, image, files)
        self.stderr_path = os.path.join(workdir, "board-%s.stderr" % rev)
        err = open(self.stderr_path, "ab")
        try:
            emuboard.EmuBoard.__init__(self, image, rev, flash, workdir, powered=False, stderr=err)
        finally:
            err.close()  # the emulator has its own copy

    def event(self, kind, after=0):
        """The first event of this kind at or after cycle `after`."""
        with self._cv:
            for ev in self.events:
                if ev.get("ev") == kind and ev.get("cycle", 0) >= after:
                    return ev
        return None

    def wait_event(self, kind, after=0, timeout=120.0):
        return self.wait_for(lambda: self.event(kind, after), timeout, "the %r event" % kind)

    def boot(self):
        """Power on; (on cycle, usb cycle) once the USB device is up."""
        self.request("on")
        on = self.wait_event("on")
        self.wait_usb()
        return on["cycle"], self.wait_event("usb", on["cycle"])["cycle"]

    def frames_since(self, cycle):
        with self._cv:
            return [f for f in self.frames if f[0] > cycle]

    def traffic(self, mark=True):
        """The USB traffic since the last mark: cycles of the first byte
        the chip was handed and of the last one it sent (-1: none), and
        the byte counts; mark: a new mark from now."""
        return self.request("usbstat", mark=mark)


class Repl:
    """The board's raw REPL (mpremote's transport): each run starts from a
    soft reset, so a clean heap and no main.py (MicroPython runs main.py
    only in the friendly REPL); the frozen modules import as the image has
    them."""

    def __init__(self, port):
        from mpremote.transport_serial import SerialTransport

        self.t = SerialTransport(port, timeout=1)

    def run(self, code, timeout=600):
        self.t.enter_raw_repl(soft_reset=True, timeout_overall=120)
        out, err = self.t.exec_raw(code, timeout=timeout)
        if err:
            raise RuntimeError(
                "on the board:\n%s\n%s" % (out.decode(errors="replace"), err.decode())
            )
        return out.decode(errors="replace")

    def close(self):
        try:
            self.t.exit_raw_repl()
        except Exception:
            pass
        self.t.close()


def script_call(module, *args):
    """Code that runs one of our device scripts with its command line."""
    argv = [module] + [str(a) for a in args]
    return "import sys\nsys.argv[:] = %r\nimport %s\n" % (argv, module)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# ---- capacity: real matches on the board's flash ---------------------------------------
CAPACITY_CHUNK = 250  # matches a raw-REPL run writes and packs
_CAPACITY = r"""
import gc, time
from smartboard.logstore import writer
gc.collect()
heap0 = gc.mem_free()
log = writer.MatchLog('logs', ())
log.window = memoryview(bytearray(2732))[684:]
t0 = time.ticks_us()
log.unfinished()
listed = time.ticks_diff(time.ticks_us(), t0)
L = %r
n = log._newest()
steps = {}
worst = 0
full = False
k = 0
gc.collect()
heap1 = gc.mem_free()
low = heap1
while k < %d:
    if not log.room():
        full = True
        break
    n += 1
    log.fs.write('logs/%%04d.alog' %% n, L[n %% 4])
    log.new_log(n)
    log._want_pack(False)
    while log.pack_due():
        st = log.packer.state if log.packer is not None else 0
        t = time.ticks_us()
        more = log.pack_step()
        d = time.ticks_diff(time.ticks_us(), t)
        s = steps.get(st)
        if s is None:
            s = steps[st] = [0, 0, 0]
        s[0] += 1
        s[1] += d
        if d > s[2]:
            s[2] = d
        if not more:
            break
    k += 1
    if k %% 50 == 0:
        gc.collect()
        low = min(low, gc.mem_free())
gc.collect()
low = min(low, gc.mem_free())
print('RESULT', repr((n, full, listed, steps, log.free_bytes(), heap0, heap1, low, log.counts())))
"""


def pc_filled_flash(path, image, rev, matches):
    """A flash image file at path holding `matches` real matches (the four
    in turn) written and packed from the PC by the firmware's own code
    (smartboard.logstore under CPython) on the board's littlefs itself
    (flashfs.BoardFlash: littlefs-python, MicroPython's configuration),
    as the board would have packed them: seconds, where the chip takes
    minutes. The newest log stays its own file. The number written (fewer
    if the room rule said full first)."""
    import realmatches
    from smartboard.logstore import writer

    four = [d for _, d in realmatches.logs(rev)]
    ffs = flashfs.FlashFs.new(path, image)
    bf = flashfs.BoardFlash(ffs)
    log = writer.MatchLog("logs", (), bf)
    log.unfinished()
    n = 0
    while n < matches and log.room():
        n += 1
        bf.write("logs/%04d.alog" % n, four[n % 4])
        log.new_log(n)
        log._want_pack(False)
        while log.pack_due() and log.pack_step():
            pass
    ffs.save()
    return n


def capacity_run(image, rev, workdir, say=say_nothing, limit=None, flash_from=None):
    """Real matches (tools/realmatches.py: each mode's scripted match, as the
    board writes it, the four in turn) written one after another on the
    emulated board's littlefs and packed by the firmware's own packer
    (smartboard.logstore, frozen in the image), each packing step timed
    by the chip, until the board's room rule says the next match would not
    fit (MatchLog.room): how many matches it holds. Through the raw REPL
    (the loop stopped; the packer's steps as the loop runs them), then the
    board booted as a player powers it: what STATUS, LOGS and GET say of
    the full flash. The emulator writes flash in no time and has no XIP
    cache misses: the chip's time, not a Pico's flash's. flash_from: a
    flash to go on from (pc_filled_flash)."""
    import realmatches
    from apixagon_host import link as L
    from smartboard.logstore import lfs

    four = tuple(d for _, d in realmatches.logs(rev))
    b = Board(image, rev, workdir, flash_from=flash_from)
    fig = {"log_bytes": [len(d) for d in four]}
    steps = {}
    try:
        b.boot()
        repl = Repl(b.port)
        try:
            full = False
            runs = []
            while not full:
                out = repl.run(_CAPACITY % (four, CAPACITY_CHUNK), timeout=3600)
                line = [x for x in out.splitlines() if x.startswith("RESULT")][-1]
                n, full, listed, st, free, heap0, heap1, low, counts = eval(line[7:])
                runs.append((n, listed, heap0 - heap1, heap1 - low))
                for k, v in st.items():
                    s = steps.setdefault(k, [0, 0, 0])
                    s[0] += v[0]
                    s[1] += v[1]
                    s[2] = max(s[2], v[2])
                say("  capacity: %d matches on the flash, %d bytes free\n" % (n, free))
                if limit is not None and n >= limit:
                    break
        finally:
            repl.close()
        fig["matches"] = n
        fig["full"] = full
        fig["free_at_full"] = free
        fig["counts"] = counts
        fig["listing_ms"] = [round(r[1] / 1000.0, 1) for r in runs]
        fig["log_heap"] = runs[-1][2]  # the MatchLog and its index, after the listing
        fig["pack_heap"] = max(r[3] for r in runs)  # what packing kept at most
        names = ("pick", "walk", "copy", "verify", "remove")
        fig["steps"] = {
            names[k]: {
                "n": v[0],
                "mean_ms": round(v[1] / v[0] / 1000.0, 2),
                "max_ms": round(v[2] / 1000.0, 1),
            }
            for k, v in sorted(steps.items())
        }
        # the board as players power it: the full flash read at boot
        b.cut()
        b.wait_for(lambda: not b.on, 30, "the power cut")
        c = b.cycle()
        b.power_on()
        on = b.wait_event("on", c)["cycle"]
        b.wait_usb()
        with L.connect(b.port, timeout=120) as link:
            link.hello()
            hello = b.cycle()
            link.timeout = 60
            st = L.fields(link.request("STATUS"))
            keys = ("logs", "unpulled", "free", "low", "room", "heap")
            fig["status"] = {k: st.get(k) for k in keys}
            fig["boot_hello_ms"] = round(ms(hello - on), 0)
            c0 = b.cycle()
            listed = link.logs()
            fig["logs_pages_ms"] = round(ms(b.cycle() - c0), 0)
            fig["listed"] = len(listed)
            for name, size, state in listed[:: max(1, len(listed) // 7)]:
                data = link.fetch(name, 0, size)
                if data != four[int(name[:4]) % 4]:
                    raise RuntimeError("GET %s: not the match written" % name)
    finally:
        b.close()
    # the same files in the simulated board's flash (its block model)
    ffs = flashfs.FlashFs(b.flash)
    use = lfs.Usage()
    for top in ffs.listdir("/"):
        _model_tree(ffs, use, top)
    fig["model_free"] = use.free()
    fig["files"] = {
        "archives": len([n for n in ffs.listdir("logs") if n.endswith(".pack")]),
        "logs": len([n for n in ffs.listdir("logs") if n.endswith(".alog")]),
    }
    return fig


def _model_tree(ffs, use, path):
    st = ffs.fs.stat(path)
    if st.type == 2:  # a folder
        use.folder(path)
        for name in ffs.listdir(path):
            _model_tree(ffs, use, path + "/" + name)
    else:
        use.file(path, -1, st.size)


# ---- the unix port, for the figures beside -------------------------------------------
class Unix:
    """tools/core_device.py and firmware_device.py under the unix port,
    at the positions the board was measured at (core.py's and
    firmware.py's repetitions)."""

    def __init__(self, tmp):
        core = os.path.join(tmp, "core")
        whole = os.path.join(tmp, "whole")
        build_mpy.build(core)
        build_mpy.build_all(whole)
        for lib, name in ((core, "core_device"), (whole, "firmware_device")):
            subprocess.run(
                [build_mpy.mpy_cross(), "-o", os.path.join(lib, name + ".mpy")]
                + [os.path.join(TOOLS, "bench", name + ".py")],
                check=True,
            )
        self.core = unix_core.Device(core)
        self.whole = unix_firmware.Device(whole)

    def positions(self):
        """(crowded, worst by the unix port's clock) of unix_core."""
        return unix_core.positions(self.core)

    def core_us(self, what, pos):
        return round(unix_core.timed(self.core, what, unix_core.K_TIME[what], pos)[0], 2)

    def sensing_ms(self, profile):
        """firmware.py's game: the simulator's placement latencies, its
        sensor time model alone (the processing costs no simulated time)."""
        out = self.whole.run(256, "game", profile)
        for line in out.splitlines():
            if line.startswith("LATENCY "):
                n, mean, p50, p95, worst = (int(v) for v in line.split()[1:])
                return {"n": n, "mean": mean, "p95": p95, "max": worst}
        raise RuntimeError("the game failed:\n" + out)

    def firmware_us(self, what, pos):
        k = unix_firmware.K_TIME.get(what, unix_firmware.K_TIME["frame"])  # litframe: as frame
        out = self.whole.run(256, what, str(k), str(pos))
        return round(parse_time(out, what)[0], 1)


def unix_engine_worst():
    """{level: the WORST_K positions of the scripted 2-player game where
    the level answers slowest on the unix port (its clock)}."""
    lib = os.path.join(ROOT, "build", "mpy")
    build_mpy.build_all(lib)
    out = subprocess.run(
        [unix_core.micropython(), "-X", "heapsize=4M", "-c"]
        + ["import sys; sys.path[:0]=[%r, %r]; import engine_device" % (lib, HERE)]
        + ["scan", ENGINE_RECORD, ",".join(str(x) for x in ENGINE_LEVELS), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    times = {}
    for line in out.splitlines():
        if line.startswith("POS "):
            p, lv, us = (int(v) for v in line.split()[1:4])
            times.setdefault(lv, []).append((us, p))
    return {lv: sorted(p for _, p in sorted(v)[-WORST_K:]) for lv, v in times.items()}


def parse_time(out, what):
    """(microseconds each, cards on the board) from a TIME line."""
    for line in out.splitlines():
        w = line.split()
        if len(w) >= 6 and w[0] == "TIME" and w[1] == what:
            return int(w[3]) / int(w[2]), int(w[5])
    raise RuntimeError("%s failed:\n%s" % (what, out))


# ---- match logs and what the board shows after them -------------------------------------
def record_script(path=RECORD):
    """A scripted game's set-up and steps (the record at path; the
    benchmark's 6-player game by default): (lineno, kind, side, card,
    cells, side to play before, moves and ply after)."""
    from apixagon import record
    from apixagon.game import Game

    class Script(record.Checker):
        def __init__(self):
            record.Checker.__init__(self, Game)
            self.steps = []

        def move(self, lineno, letter, seat, kind, card, cells):
            if self.game is None:
                self._start_game()
            g = self.game
            side = 0 if letter == "J" else record.side_letters(g).index(letter)
            t = g.side_to_play()
            r = record.apply_move(g, letter, seat, kind, card, cells)
            if r:
                raise RuntimeError("line %d of the record is illegal (%d)" % (lineno, r))
            self.steps.append((lineno, kind, side, card, list(cells), t, g.nmoves(), g.ply()))

    sc = Script()
    with open(path) as f:
        record.read(f, sc)
    g = sc.game
    setup = {"mode": g.mode, "start": 0, "option": 0, "players": 0}
    for _, key, value in sc._header_lines:
        if key == "start":
            setup["start"] = 1 if value in ("gold", "B") else 0
        elif key == "option" and value == "special_then_place":
            setup["option"] = 1
        elif key == "players":
            setup["players"] = int(value)
    return setup, sc.steps


def write_log(rev, play, tmp):
    """(name, bytes, game) of a match log written by the firmware's own
    smartboard.logstore.writer (CPython, files in tmp) while play(game, log)
    plays it; the board's tags in its header."""
    from smartboard.logstore import writer

    root = os.path.join(tmp, "logs")
    shutil.rmtree(root, ignore_errors=True)
    log = writer.MatchLog(root, (("Board", emuboard.pins_of(rev)["NAME"]),))
    g = play(log)
    name = log.current()
    return name, read(os.path.join(root, name)), g


def scripted_log(rev, tmp):
    """The scripted 6-player game, unfinished: every move but those that
    end it."""
    from apixagon import record
    from apixagon.game import Game

    def play(log):
        with open(RECORD) as f:
            g, verdicts = record.check(f, Game)
        while g.over():
            g.undo()
        log.begin(g)
        log.flush_all()
        return g

    return write_log(rev, play, tmp)


def random_move(g, rnd):
    """A legal placement (card, cell) for the side to play that does not
    end the match, or None."""
    from apixagon.geometry import NCELLS, NONE

    t = g.side_to_play()
    cards = [c for c in range(31) if g.where(t, c) == NONE]
    rnd.shuffle(cards)
    cells = list(range(NCELLS))
    rnd.shuffle(cells)
    for c in cards:
        for x in cells:
            if g.check_place(t, c, x) == 0:
                g.place(t, c, x)
                over = g.over()
                g.undo()
                if not over:
                    return c, x
    return None


def takeback_log(rev, tmp, records=TAKEBACK_LOG_RECORDS):
    """A long 2-player match (queens-gambit) of random legal placements
    with take-backs: `records` move records on the log (a move taken back
    is its M and a U), written as the board writes them, a record per
    move. Unfinished: where no move is left that does not end the match,
    the last one is taken back."""
    import random

    from apixagon.game import Game

    def play(log):
        rnd = random.Random(SEED)
        g = Game()
        log.begin(g)
        log.flush_all()
        moves = 0
        while moves < records:
            m = random_move(g, rnd)
            if m is not None:
                g.place(g.side_to_play(), m[0], m[1])
                log.sync(g)
                log.flush_all()
                moves += 1
            if m is None or moves < records and rnd.random() < 0.3 and g.nmoves() > 2:
                g.undo()  # taken back (and where no move is left that goes on)
                log.sync(g)
                log.flush_all()
        return g

    return write_log(rev, play, tmp)


def finished_log(rev, tmp):
    """The scripted 6-player game played to its end."""
    from apixagon import record
    from apixagon.game import Game

    def play(log):
        with open(RECORD) as f:
            g, verdicts = record.check(f, Game)
        log.begin(g)
        log.flush_all()
        return g

    return write_log(rev, play, tmp)


def pull_archive(rev, tmp):
    """[(name, bytes)] of the `logs pull` benchmark's archive."""
    n_long, records = PULL_LONG
    out = []
    data = takeback_log(rev, tmp, records)[1]
    for i in range(n_long):
        out.append(("%04d.alog" % (len(out) + 1), data))
    data = finished_log(rev, tmp)[1]
    for i in range(PULL_SHORT):
        out.append(("%04d.alog" % (len(out) + 1), data))
    return out


def log_lines(data):
    from smartboard.logstore import records

    lines = records.Lines()
    records.read_log(data, lines)
    return lines


def log_records(data):
    """{record type letter: how many} in a log ("M" moves, "U" take-backs)."""
    from smartboard.logstore import records

    out = {}

    def count(kind, payload):
        out[chr(kind)] = out.get(chr(kind), 0) + 1

    records.read_log(data, count)
    return out


def cards_of(game):
    """{cell: tag code} of the cards on the game's board."""
    from apixagon.geometry import NCELLS
    from smartboard import referee

    return {x: referee._code_of(game.board[x]) - 1 for x in range(NCELLS) if game.board[x]}


def match_frames(profile, lines, tmp):
    """The frames the strip can show once a resumed match is on the table
    again (the match screen, one per blink phase): the same log resumed on
    the CPython simulator with the cards found, painted by the real View
    and Painter."""
    from smartboard import board as B
    from smartboard import scan
    from smartboard.sim.rig import Rig
    from smartboard.sim.strip import phase_frames

    settings = os.path.join(tmp, "twin-settings.bin")
    for f in (settings, settings + ".deck"):
        if os.path.exists(f):
            os.remove(f)
    from smartboard.sim.supply import sim_supply

    # the emulated board's USB source, as its CC reading's twin: the same LED limit
    rev = "rev_a" if profile == "A" else "rev_b"
    supply = sim_supply(emuboard.wiring_of(rev), emuboard.CC_DEFAULT)
    rig = Rig(profile, settings, os.path.join(ROOT, "hardware", "layout.json"), supply=supply)
    b = rig.board
    if not b.resume(list(lines)):
        raise RuntimeError("the log does not resume on the simulator")
    for x in range(len(b.sensed)):
        w = b.want[x]
        b.sensed[x] = (scan.OCCUPIED if w else 0) if profile == "B" else w
    b._check_resume()
    if b.phase not in (B.PLAY, B.OVER):
        raise RuntimeError("the simulator did not leave the resume")
    lay = rig.layout
    p = b.hw.painter
    return set(phase_frames(b.view.layer, lay.led, lay.nleds, p.brightness, supply.led_budget_ma()))


# ---- the parts -------------------------------------------------------------------------
def hello_after_boot(b):
    """Power on, HELLO as soon as USB is up: (link, on, usb, tx cycles)."""
    from apixagon_host import link as L
    from smartboard import proto

    on, usb = b.boot()
    link = L.Link(b.port, timeout=60)
    text = link.request("HELLO", proto.VERSION)
    if not text.startswith("apixagon"):
        raise RuntimeError("not a HELLO reply: %r" % text)
    if link.noise:
        raise RuntimeError("the board printed before its HELLO reply: %r" % link.noise)
    tx = b.wait_event("tx", on)["cycle"]
    return link, on, usb, tx


def strip_write_us(repl, k=10):
    """The strip's write alone (the frames above include it): the start-up
    code's PIO driver, the frame handed to a DMA channel that feeds the
    state machine's FIFO at the WS2812 bit rate. The strip is left to
    finish between writes, as between loop ticks."""
    code = (
        "import time\n"
        "from boards import start\n"
        "from boards.rev_a import pins\n"
        "strip = start.led_strip(pins, 61)\n"
        "for i in range(len(strip.buf)):\n"
        "    strip.buf[i] = i\n"
        "t = 0\n"
        "for i in range(%d):\n"
        "    time.sleep_ms(5)\n"
        "    t0 = time.ticks_us()\n"
        "    strip.write()\n"
        "    t += time.ticks_diff(time.ticks_us(), t0)\n"
        "print('WRITE', t)\n"
    ) % k
    out = repl.run(code)
    for line in out.splitlines():
        if line.startswith("WRITE "):
            return round(int(line.split()[1]) / k, 1)
    raise RuntimeError("the strip write failed:\n" + out)


class Bench:
    def __init__(self, tmp, images, quick, say):
        self.tmp = tmp
        self.images = images
        self.quick = quick
        self.say = say
        self.fig = {}
        self.positions = None  # (crowded, worst by the unix port's clock)
        self._lock = threading.Lock()
        self._deploy_locks = {}
        self._deployed = {}  # rev: the flash file a real deploy left

    def put(self, key, value):
        with self._lock:
            self.fig[key] = value

    def workdir(self, name):
        d = os.path.join(self.tmp, name)
        os.makedirs(d, exist_ok=True)
        return d

    # ---- calibration --------------------------------------------------------------
    def calibration(self):
        """The pin loop at module level (as the issue states it) and inside
        a function (locals: the firmware's own style)."""
        b = Board(self.images["rev_a"], "rev_a", self.workdir("calibration"))
        n = 2000
        code = (
            "import time\n"
            "from machine import Pin\n"
            "p = Pin(%d, Pin.OUT)\n"
            "N = %d\n"
            "t0 = time.ticks_us()\n"
            "for i in range(N):\n"
            "    p.value(1)\n"
            "    p.value(0)\n"
            "print('LOOP', time.ticks_diff(time.ticks_us(), t0))\n"
            "def f(p, n):\n"
            "    t0 = time.ticks_us()\n"
            "    for i in range(n):\n"
            "        p.value(1)\n"
            "        p.value(0)\n"
            "    return time.ticks_diff(time.ticks_us(), t0)\n"
            "print('FUNC', f(p, N))\n"
            "import machine\n"
            "print('FREQ', machine.freq())\n"
        ) % (LOOP_PIN, n)
        try:
            b.boot()
            repl = Repl(b.port)
            out = repl.run(code)
            repl.close()
        finally:
            b.close()
        got = dict(line.split() for line in out.splitlines() if line.strip())
        if int(got["FREQ"]) != HZ:
            raise RuntimeError("the emulated chip runs at %s Hz" % got["FREQ"])
        fig = {
            "loop_us": round(int(got["LOOP"]) / n, 2),
            "loop_us_in_function": round(int(got["FUNC"]) / n, 2),
            "loop_us_real_pico_reported": REAL_PICO_LOOP_US,
        }
        self.put("calibration", fig)
        self.say("  calibration loop: %.1f us an iteration\n" % fig["loop_us"])

    # ---- the rules core ------------------------------------------------------------
    def core(self):
        """tools/core_device.py on the board, the core frozen in the image."""
        rec = "/bench/beehive_full.apx"
        files = (
            ("core_device.py", read(os.path.join(TOOLS, "bench", "core_device.py"))),
            (rec[1:], read(RECORD)),
        )
        b = Board(self.images["rev_a"], "rev_a", self.workdir("core"), files)
        crowded, unix_worst = self.positions
        fig = {"position": crowded}
        try:
            b.boot()
            repl = Repl(b.port)
            if self.quick:
                worst = unix_worst
                fig["worst_found_by"] = "the unix port's clock"
            else:
                self.say("  core: every position of the game, on the board ...\n")
                out = repl.run(script_call("core_device", "scan", rec, 1), timeout=900)
                rows = [
                    tuple(int(v) for v in line.split()[1:4])
                    for line in out.splitlines()
                    if line.startswith("POS ")
                ]
                if not rows:
                    raise RuntimeError("the scan failed:\n" + out)
                worst = max(rows, key=lambda r: r[1])[0]
                fig["worst_found_by"] = "cycles on the board"
                fig["positions_scanned"] = len(rows)
            fig["worst_position"] = worst
            for what in ("hint", "cards", "check", "push"):
                out = repl.run(script_call("core_device", what, rec, K_CORE[what], crowded))
                us, fig["occupied"] = parse_time(out, what)
                fig[what + "_us"] = round(us, 1)
            for what in ("hint", "cards"):
                out = repl.run(script_call("core_device", what, rec, K_CORE[what], worst))
                us, fig["worst_occupied"] = parse_time(out, what)
                fig["worst_%s_us" % what] = round(us, 1)
            repl.close()
        finally:
            b.close()
        self.put("core", fig)
        self.say(
            "  core: full hint query %.1f ms crowded, %.1f ms at the worst position\n"
            % (fig["hint_us"] / 1000, fig["worst_hint_us"] / 1000)
        )

    # ---- the computer player ----------------------------------------------------------
    def engine(self):
        """Each level's answer at its worst positions of the scripted
        2-player game, on the board's chip (the engine frozen in the
        product image, rev A), and what its search allocates: the worst
        positions are found on the unix port first (every position, every
        level), the WORST_K dearest of each level then timed on the board."""
        rec = "/bench/queens_gambit_full.apx"
        files = (
            ("engine_device.py", read(os.path.join(TOOLS, "bench", "engine_device.py"))),
            (rec[1:], read(ENGINE_RECORD)),
        )
        worst = unix_engine_worst()
        b = Board(self.images["rev_a"], "rev_a", self.workdir("engine"), files)
        fig = {"levels": {}, "record": os.path.basename(ENGINE_RECORD)}
        try:
            b.boot()
            repl = Repl(b.port)
            for lv in ENGINE_LEVELS:
                pos = ",".join(str(p) for p in worst[lv])
                out = repl.run(script_call("engine_device", "time", rec, lv, pos), timeout=3600)
                rows = [line.split() for line in out.splitlines() if line.startswith("TIME ")]
                if not rows:
                    raise RuntimeError("the engine's timing failed:\n" + out)
                for line in out.splitlines():
                    if line.startswith("ENGINE "):
                        fig["objects_bytes"] = max(
                            fig.get("objects_bytes", 0), int(line.split()[1])
                        )
                top = max(rows, key=lambda r: int(r[3]))
                fig["levels"][str(lv)] = {
                    "worst_ms": round(int(top[3]) / 1000.0, 1),
                    "position": int(top[1]),
                    "positions": worst[lv],
                    "alloc_bytes": max(int(r[4]) for r in rows),
                }
                self.say(
                    "  engine: level %d %.0f ms at position %s\n"
                    % (lv, int(top[3]) / 1000.0, top[1])
                )
            repl.close()
        finally:
            b.close()
        # the heap free during the search: the board's lowest in a 2-player
        # match, less the engine's objects (made when the match starts) and
        # what its dearest search allocates (the collector held off)
        mem = self.fig.get("memory", {})
        for kind, default in (("frozen", MATCH_LOWEST_FROZEN), ("deployed", MATCH_LOWEST_DEPLOYED)):
            got = mem.get(kind, {}).get("rev_a", {}).get("queens-gambit", {}).get("heap_lowest")
            base = got or default
            fig["match_lowest_%s" % kind] = base
            fig["match_lowest_%s_from" % kind] = "this run" if got else "README (ef3473b)"
        offered = list(budgets.BOARD_LEVELS)
        alloc = max(fig["levels"][str(lv)]["alloc_bytes"] for lv in offered)
        # one engine plays, a second grades the hints at assistance 2
        used = 2 * fig.get("objects_bytes", 0) + fig.get("table_bytes", 0) + alloc
        fig["offered"] = offered
        fig["search_bytes"] = used
        fig["heap_during_search_frozen"] = fig["match_lowest_frozen"] - used
        fig["heap_during_search_deployed"] = fig["match_lowest_deployed"] - used
        self.put("engine", fig)

    # ---- the firmware's costs -------------------------------------------------------
    def firmware(self):
        """tools/firmware_device.py on the benchmark image (the simulated
        parts frozen in beside the firmware: the board's loop, referee,
        view and painter run as on the board, fed by the simulator)."""
        files = (
            ("firmware_device.py", read(os.path.join(TOOLS, "bench", "firmware_device.py"))),
            ("tests/data/beehive_full.apx", read(RECORD)),
            ("hardware/layout.json", read(os.path.join(ROOT, "hardware", "layout.json"))),
            ("build", None),
        )
        b = Board(self.images["bench"], "rev_a", self.workdir("firmware"), files)
        pos = unix_firmware.POSITION
        fig = {"position": pos}
        try:
            b.boot()
            repl = Repl(b.port)

            def timed(what, p):
                out = repl.run(script_call("firmware_device", what, K_FIRMWARE[what], p))
                us, occupied = parse_time(out, what)
                return round(us, 1), occupied

            for what in ("event", "frame", "litframe", "idle"):
                fig[what + "_us"], fig["occupied"] = timed(what, pos)
            fig["strip_write_us"] = strip_write_us(repl)
            # the budget's figure: a frame with its write, the dearest one
            fig["frame_write_us"] = max(fig["frame_us"], fig["litframe_us"])
            if not self.quick:
                self.say("  firmware: every position of the game, on the board ...\n")
                rows = []
                for profile, k, f in (("A", 1, 2), ("B", 50, 0)):
                    out = repl.run(script_call("firmware_device", "scan", profile, k, f))
                    rows += [
                        tuple(int(v) for v in line.split()[1:6])
                        for line in out.splitlines()
                        if line.startswith("POS ")
                    ]
                if not rows:
                    raise RuntimeError("the scan failed")
                fig["positions_scanned"] = len(rows) // 2
                for i, what in ((2, "event"), (3, "frame"), (4, "idle")):
                    worst = max(rows, key=lambda r: r[i])
                    fig["worst_%s_position" % what] = worst[0]
                    us, occupied = timed(what, worst[0])
                    fig["worst_%s_us" % what] = us
                    fig["worst_%s_occupied" % what] = occupied
                fig["worst_frame_write_us"] = max(fig["worst_frame_us"], fig["litframe_us"])
            repl.close()
        finally:
            b.close()
        self.put("firmware", fig)
        self.say(
            "  firmware: sensor event %.1f ms, LED frame %.2f ms (all lit %.2f ms), "
            "idle tick %.2f ms\n"
            % (
                fig["event_us"] / 1000,
                fig["frame_us"] / 1000,
                fig["litframe_us"] / 1000,
                fig["idle_us"] / 1000,
            )
        )

    # ---- boot ------------------------------------------------------------------------
    def hello_after_boot(self, b):
        return hello_after_boot(b)

    def boot(self):
        """Each image on a flash with an empty file system."""
        from apixagon_host import link as L

        fig = {}
        for rev in REVS:
            b = Board(self.images[rev], rev, self.workdir("boot-" + rev))
            try:
                link, on, usb, tx = self.hello_after_boot(b)
                st = L.fields(link.request("STATUS"))
                link.close()
            finally:
                b.close()
            fig[rev] = {
                "usb_ms": round(ms(usb - on), 1),
                "hello_ms": round(ms(tx - on), 1),
                "heap_setup": int(st["heap"]),
            }
            self.say("  boot %s: HELLO answered %.0f ms after power-on\n" % (rev, ms(tx - on)))
        self.put("boot", fig)

    # ---- boot + resume -----------------------------------------------------------------
    def resume(self, rev):
        """Boot on a flash holding an unfinished match log, its cards on the
        modelled cells: to the HELLO reply (the log replayed: main.py
        resumes before its loop) and to the first frame of the match screen
        (every card sensed where the log has it)."""
        from apixagon_host import link as L

        profile = PROFILE[rev]
        tmp = self.workdir("resume-" + rev)
        logs = (("scripted", scripted_log), ("takebacks", takeback_log))
        fig = {}
        for what, make in logs:
            name, data, game = make(rev, tmp)
            lines = log_lines(data)
            want = match_frames(profile, lines.lines(), tmp)
            b = Board(self.images[rev], rev, os.path.join(tmp, what), (("logs/" + name, data),))
            try:
                for x, code in cards_of(game).items():
                    b.put(x, code)
                link, on, usb, tx = self.hello_after_boot(b)
                end = None
                deadline = time.monotonic() + 300
                while end is None and time.monotonic() < deadline:
                    b.wait_ms(200)
                    for cycle, grb in b.frames_since(on):
                        if grb in want:
                            end = cycle
                            break
                st = L.fields(link.request("STATUS"))
                link.close()
            finally:
                b.close()
            if end is None:
                raise RuntimeError("%s: the match screen never came (STATUS %r)" % (rev, st))
            if st["phase"] == "resume" or int(st["moves"]) != game.nmoves():
                raise RuntimeError("%s: the resume went wrong: %r" % (rev, st))
            fig[what] = {
                "records": log_records(data),
                "moves": game.nmoves(),
                "cards": len(cards_of(game)),
                "log_bytes": len(data),
                "hello_ms": round(ms(tx - on), 1),
                "resumed_ms": round(ms(end - on), 1),
                "heap": int(st["heap"]),
            }
            self.say(
                "  boot + resume %s, %s log (%d moves): HELLO %.0f ms, match screen %.0f ms\n"
                % (rev, what, game.nmoves(), ms(tx - on), ms(end - on))
            )
        self.put("resume_" + rev, fig)

    # ---- the scripted game from hands --------------------------------------------------
    def play(self, rev):
        from apixagon_host import link as L

        profile = PROFILE[rev]
        setup, steps = record_script()
        if self.quick:
            steps = steps[:8]
        b = Board(self.images[rev], rev, self.workdir("play-" + rev))
        try:
            on, usb = b.boot()
            link = L.Link(b.port, timeout=60)
            hands = Hands(b, link, profile, self.say)
            hands.hello(usb)
            heap_setup = int(L.fields(hands.ask("STATUS"))["heap"])
            hands.setup(setup)
            hands.play(steps)
            link.close()
        finally:
            b.close()
        lat = sorted(hands.latency)
        n = len(lat)
        fig = {
            "placements": n,
            "moves": len(steps),
            "undetected": hands.undetected,
            "landed_late": hands.unanchored,
            "latencies_ms": [round(v, 2) for v in hands.latency],
            "mean_ms": round(sum(lat) / n, 1),
            "p95_ms": round(lat[(n * 95) // 100], 1),
            "max_ms": round(lat[-1], 1),
            "heap_setup": heap_setup,
            "heap_move10": hands.heap_at.get(10),
            "heap_end": hands.heap_end,
            "heap_lowest": hands.heap_lowest,
        }
        self.put("play_" + rev, fig)
        self.say(
            "  placement to LED, profile %s: mean %.0f ms, 95%% %.0f ms, worst %.0f ms (%d)\n"
            % (profile, fig["mean_ms"], fig["p95_ms"], fig["max_ms"], n)
        )

    # ---- the heap of each mode's match ---------------------------------------------------
    def deployed_flash(self, rev):
        """The flash `apixagon deploy` left on a board running rev's image
        (real_deploy), once per revision; every deployed match boots a copy."""
        with self._lock:
            lock = self._deploy_locks.setdefault(rev, threading.Lock())
        with lock:
            if rev not in self._deployed:
                flash, heap, took, blocks = real_deploy(
                    self.images[rev], rev, self.workdir("deploy-" + rev)
                )
                self._deployed[rev] = flash
                self.put_memory(
                    ("deploy", rev),
                    dict(blocks, heap_after_restart=heap, wall_s=round(took, 1)),
                )
                self.say(
                    "  deploy %s: %.0f s, heap %d after its restart, littlefs blocks %d "
                    "(a .mpy slot: %d), ROMFS %d bytes\n"
                    % (
                        rev,
                        took,
                        heap,
                        blocks["lfs_blocks"],
                        blocks["slot_blocks"],
                        blocks["romfs_bytes"],
                    )
                )
            return self._deployed[rev]

    def put_memory(self, path, value):
        with self._lock:
            d = self.fig.setdefault("memory", {})
            for k in path[:-1]:
                d = d.setdefault(k, {})
            d[path[-1]] = value

    def memory(self, kind, rev, name):
        """One mode's scripted match on a fresh board (heap_match): the
        frozen image, or the firmware deployed into a slot of its flash."""
        record = dict(MEMORY_MATCHES)[name]
        work = self.workdir("memory-%s-%s-%s" % (kind, rev, name))
        if kind == "deployed":
            fig = heap_match(
                self.images[rev],
                rev,
                work,
                record,
                flash_from=self.deployed_flash(rev),
                deployed=True,
            )
        elif kind == "littlefs":
            files = deployed_files(IMAGES, rev, work)
            fig = heap_match(self.images[rev], rev, work, record, files=files, deployed=True)
        else:
            fig = heap_match(self.images[rev], rev, work, record)
        self.put_memory((kind, rev, name), fig)
        self.say(
            "  heap, %s %s, %s (%d moves, %d taken back): %d after boot, %d lowest\n"
            % (
                kind,
                rev,
                name,
                fig["moves"],
                fig["takebacks"],
                fig["heap_boot"],
                fig["heap_lowest"],
            )
        )

    # ---- capacity --------------------------------------------------------------------
    def capacity(self):
        """Real matches on the frozen image's flash, written and packed by
        the chip until the room rule says full (capacity_run)."""
        rev = "rev_a"
        fig = capacity_run(self.images[rev], rev, self.workdir("capacity"), self.say)
        self.put("capacity", fig)
        self.say(
            "  capacity: %d real matches (%d archives), a copy step %.1f ms on average\n"
            % (fig["matches"], fig["files"]["archives"], fig["steps"]["copy"]["mean_ms"])
        )

    # ---- logs pull -----------------------------------------------------------------------
    def pull(self):
        """`apixagon logs pull` of an archive (pull_archive) into a fresh
        database, its rate in the chip's clock: the log bytes over the
        cycles from the first byte of its first request (HELLO) to the
        last byte of its last reply (PULLED); the same for GETs alone
        (every chunk of every log, the host's window of 8); then mpremote
        cp of the same files over the raw REPL (it stops the firmware's
        loop; the board is reset after and answers HELLO again) and the
        wall-time ratio."""
        from apixagon_host import cli
        from apixagon_host import link as L

        rev = "rev_a"
        tmp = self.workdir("pull")
        archive = pull_archive(rev, tmp)
        total = sum(len(d) for _, d in archive)
        b = Board(self.images[rev], rev, tmp, [("logs/" + n, d) for n, d in archive])
        fig = {"logs": len(archive), "bytes": total}
        try:
            link, on, usb, tx = self.hello_after_boot(b)
            heap = int(L.fields(link.request("STATUS"))["heap"])
            link.close()
            b.wait_ms(500)  # the board's boot work done (its log index made)

            def rate(t):
                cycles = t["txLast"] - t["rxFirst"]
                return cycles, round(t["txBytes"] and total / 1024.0 / (cycles / HZ), 1)

            # the GETs alone, the host's own pipelining (link.fetch_many)
            with L.Link(b.port, timeout=30) as link:
                link.hello()
                reqs = [
                    (n, o, min(L.proto.MAX_CHUNK, len(d) - o))
                    for n, d in archive
                    for o in range(0, len(d), L.proto.MAX_CHUNK)
                ]
                b.traffic()
                t1 = time.monotonic()
                got = link.fetch_many(reqs)
                get_wall = time.monotonic() - t1
                t = b.traffic()
            for (n, o, k), d in zip(reqs, (dict(archive)[r[0]] for r in reqs)):
                if got[(n, o)] != d[o : o + k]:
                    raise RuntimeError("GET %s %d %d: not the bytes on the flash" % (n, o, k))
            fig["get_requests"] = len(reqs)
            fig["get_cycles"], fig["get_kb_s"] = rate(t)
            fig["get_wall_s"] = round(get_wall, 2)
            # the whole command, into a fresh database; the traffic read
            # again where it sends its PULLED marks (the logs are on the
            # PC by then): the download alone, and what marking them costs
            db = os.path.join(tmp, "pulled.sqlite")
            out = io.StringIO()
            fetched = []
            request_many = L.Link.request_many

            def stamped(link, verb, items):
                if verb == "PULLED" and not fetched:
                    fetched.append(b.traffic(mark=False))
                return request_many(link, verb, items)

            b.traffic()
            t1 = time.monotonic()
            L.Link.request_many = stamped
            try:
                rc = cli.main(["logs", "pull", "-p", b.port, "--db", db], cli.State(out=out))
            finally:
                L.Link.request_many = request_many
            pull_wall = time.monotonic() - t1
            t = b.traffic()
            if rc != 0 or "%d logs pulled" % len(archive) not in out.getvalue():
                raise RuntimeError("logs pull failed (%s): %s" % (rc, out.getvalue()))
            fig["pull_cycles"], fig["pull_kb_s"] = rate(t)
            fig["download_cycles"], fig["download_kb_s"] = rate(fetched[0])
            fig["pulled_ms_each"] = round(ms(t["txLast"] - fetched[0]["txLast"]) / len(archive), 1)
            fig["pull_wall_s"] = round(pull_wall, 2)
            # mpremote cp of the same files
            dest = os.path.join(tmp, "copied")
            os.makedirs(dest)
            mp = [sys.executable, "-m", "mpremote", "connect", b.port, "resume", "cp"]
            t1 = time.monotonic()
            r = subprocess.run(
                mp + [":logs/" + n for n, _ in archive] + [dest + "/"],
                capture_output=True,
                text=True,
                timeout=3600,
            )
            cp_wall = time.monotonic() - t1
            if r.returncode != 0:
                raise RuntimeError("mpremote cp failed: %s%s" % (r.stdout[-300:], r.stderr[-300:]))
            for n, d in archive:
                if read(os.path.join(dest, n)) != d:
                    raise RuntimeError("mpremote cp: %s is not the file on the flash" % n)
            fig["mpremote_wall_s"] = round(cp_wall, 2)
            fig["ratio"] = round(cp_wall / pull_wall, 1)
            # the board brought back: mpremote left it at its REPL
            b.cut()
            b.wait_for(lambda: not b.on, 30, "the power cut")
            b.power_on()
            b.wait_usb()
            with L.Link(b.port, timeout=30) as link:
                link.hello()
        finally:
            b.close()
        fig["heap_after_boot"] = heap
        self.put("pull", fig)
        self.say(
            "  logs pull: %.0f KB/s of chip time (GETs alone %.0f KB/s), %.1fx mpremote cp\n"
            % (fig["pull_kb_s"], fig["get_kb_s"], fig["ratio"])
        )


# ---- the heap of each mode's match -----------------------------------------------------
def data_path(name):
    return os.path.join(ROOT, "tests", "data", name)


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
    import json

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
    import json

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
    import json

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


class Hands:
    """The record's lines as hands on the emulated board, which is seen
    only from outside, as a player and a PC see it: the strip's frames,
    the control channel's acknowledgements (with their cycles) and the
    serial link (STATUS, CONF, CELLS). What smartboard/sim/replay.py does
    on the simulated board: set-up on the buttons, profile B taps each card
    on the pad before putting it, specials tapped, the reserve lifted and
    confirmed, declarations chosen and confirmed."""

    BLINK_MS = 1100  # a whole blink cycle (8 phases of 128 ms) and a little
    LED_TIMEOUT_MS = 5000
    MOVE_TIMEOUT_MS = 8000
    PAUSE_MS = 300  # between moves: the players are never that quick
    POLL_MS = 100  # between two STATUS while the board follows
    LAND_SPREAD_MS = 128  # a blink phase, several loop ticks
    LOCKSTEP = True  # every input and request at a cycle of the board's (ask)
    GAP_MS = 100  # from a reply to the hands' next input: more than the PC takes
    HELLO_AFTER_USB_MS = 500
    SETTLE_MS = 300  # from the LED's frame to the next request

    def __init__(self, board, link, profile, say):
        self.b = board
        self.link = link
        self.profile = profile
        self.say = say
        self.table = {}  # cell -> tag code of the card lying there
        self.rains = [0, 0]
        self.latency = []  # ms, a placement's
        self.undetected = 0
        self.heap_at = {}
        self.heap_end = None
        self.heap_lowest = None
        self.rnd = random.Random(SEED)
        self.unanchored = 0
        self.t = 0  # ms after the board's last reply, for the next input (at)
        self.hold_at = None

    # ---- the board's outside -------------------------------------------------------------
    def ask(self, verb, *args):
        """A request on the serial link. In lockstep (the placement
        figures) the chip is held at the hands' next cycle (at) while the
        request is written, so it reaches the chip at that cycle whatever
        the PC's speed: the board's state, and what it answers, are the
        same each run."""
        if not self.LOCKSTEP:
            return self.link.request(verb, *args)
        from smartboard import proto

        if self.b.request("hold", **self.at()).get("late"):
            self.unanchored += 1
        self.hold_at = None
        seq = self.link.send(verb, *args)
        self.b.request("go", bytes=len(proto.request(seq, verb, *args)))
        reply = self.link.wait(seq, what=verb)
        self.t = self.GAP_MS
        return reply

    def hello(self, usb):
        """HELLO at a fixed point after the USB device came up."""
        from smartboard import proto

        self.hold_at = usb + self.HELLO_AFTER_USB_MS * HZ // 1000
        text = self.ask("HELLO", proto.VERSION)
        if not text.startswith("apixagon"):
            raise RuntimeError("not a HELLO reply: %r" % text)

    def press(self, name, long=False):
        if not self.LOCKSTEP:
            return self.b.press(name, long)
        gpio = self.b.pins["BUTTONS"][emuboard.BUTTONS.index(name)]
        ms = emuboard.LONG_PRESS_MS if long else emuboard.PRESS_MS
        self.b.request("button", gpio=gpio, down=True, **self.at())
        self.b.request("button", gpio=gpio, down=False, **self.at(ms * HZ // 1000))
        self.t += ms + 60

    def lift(self, x):
        if not self.LOCKSTEP:
            return self.b.lift(x)
        self.b.lift(x, **self.at())
        self.t += 10

    def put(self, x, code):
        if not self.LOCKSTEP:
            return self.b.put(x, code)
        self.b.put(x, code, **self.at())
        self.t += 10

    def status(self):
        from apixagon_host import link as L

        st = L.fields(self.ask("STATUS"))
        heap = int(st["heap"])
        if self.heap_lowest is None or heap < self.heap_lowest:
            self.heap_lowest = heap
        return st

    def conf(self):
        from apixagon_host import link as L

        return {k: int(v) for k, v in L.fields(self.ask("CONF")).items()}

    def cells(self):
        return bytes.fromhex(self.ask("CELLS"))

    def until(self, cond, what, timeout_ms=MOVE_TIMEOUT_MS, poll=None):
        poll = poll or self.POLL_MS
        waited = 0
        while True:
            r = cond()
            if r:
                return r
            if waited > timeout_ms:
                raise RuntimeError("the board did not follow: %s (%r)" % (what, self.status()))
            if self.LOCKSTEP:
                self.t = poll  # the next request: poll ms after this reply
            else:
                self.b.wait_ms(poll)
            waited += poll

    def press_until(self, name, long, key, want):
        for _ in range(8):
            if self.conf()[key] == want:
                return
            self.press(name, long)
        raise RuntimeError("the buttons never set %s to %d" % (key, want))

    # ---- set-up and moves -------------------------------------------------------------------
    def setup(self, s):
        self.press_until("mode", False, "mode", s["mode"])
        self.press_until("declare", False, "start", s["start"])
        self.press_until("declare", True, "option", s["option"])
        if s["players"]:
            self.press_until("confirm", True, "players", s["players"])
        self.press("confirm")
        self.until(lambda: self.status()["phase"] == "play", "the match starts")

    def at(self, cycles=0):
        """The hands' next input: self.t ms of the chip's time, and cycles
        more, after the board's last reply on USB (Hands.landing); or at
        the cycle hold_at when set (after a placement, whose LED the PC
        waited for)."""
        if self.hold_at is not None:
            return {"at_cycle": self.hold_at + cycles}
        return {"after_tx": self.t * HZ // 1000 + cycles}

    def tap(self, code):
        if not self.LOCKSTEP:
            self.b.tap(code)
            self.b.wait_ms(100)  # the pad sees the card go
            return
        self.b.request(
            "pad", page=emuboard.payload(code).hex(), uid=emuboard.uid_of(code).hex(), **self.at()
        )
        self.b.request("pad", **self.at(emuboard.TAP_MS * HZ // 1000))
        self.t += emuboard.TAP_MS + 100  # the pad sees the card go

    def play(self, steps):
        from apixagon.codes import BEEKEEPER, DECK_EMPTY, PLACE, RAIN_MOVE, RESERVE, SMOKER
        from smartboard import tag

        for i, (lineno, kind, side, card, cells, t, nmoves, ply) in enumerate(steps):
            self.t = self.PAUSE_MS  # the players are never that quick
            if kind == PLACE or kind == RAIN_MOVE:
                if kind == PLACE:
                    code = tag.code(side, tag.NORMAL, card)
                else:
                    code = tag.code(side, tag.RAIN, self.rains[side] & 1)
                    self.rains[side] += 1
                if self.profile == "B":
                    self.tap(code)
                self.place(cells[0], code)
            elif kind == BEEKEEPER or kind == SMOKER:
                self.tap(tag.code(side, tag.BEEKEEPER if kind == BEEKEEPER else tag.SMOKER, 0))
                src = cells[0]
                code = self.table.pop(src)
                self.lift(src)
                if kind == BEEKEEPER:
                    self.until(lambda: self.cells()[src] == 0, "line %d: the lift" % lineno)
                    self.put(cells[1], code)
                    self.table[cells[1]] = code
            elif kind == RESERVE:
                for x in cells:
                    self.lift(x)
                    del self.table[x]
                self.until(
                    lambda: not any(self.cells()[x] for x in cells), "line %d: lifts" % lineno
                )
                self.press("confirm")
            else:
                # DECLARE until STATUS declare= names it: the cycle differs
                # by mode (the reserve modes offer the pass first, RULES D-9)
                word = "deck-empty" if kind == DECK_EMPTY else "forced-removal"
                for _ in range(8):
                    st = self.status()
                    if st.get("declare") == "%s:%s" % (word, st["sides"][side]):
                        break
                    self.press("declare")
                self.press("confirm")
            st = self.until(
                lambda: self._moved(nmoves, ply), "line %d: the move (%d)" % (lineno, kind)
            )
            if i + 1 == 10:
                self.heap_at[10] = int(st["heap"])
            self.heap_end = int(st["heap"])
            self.after(i, steps)

    def after(self, i, steps):
        """Once the board has followed steps[i] (HeapHands: a take-back)."""

    def _moved(self, nmoves, ply):
        st = self.status()
        if int(st.get("moves", -1)) == nmoves and int(st.get("ply", -1)) == ply:
            return st
        return None

    def landing(self):
        """When the next card lands: PAUSE_MS (and the tap before it, in
        profile B) after the board's reply to the hands' last STATUS, and
        up to LAND_SPREAD_MS more drawn from a seeded sequence. A card put
        down when the PC's request arrived landed at a cycle the PC's
        timing set, and the latencies moved from run to run; the reply is
        a point of the board's own loop after which nothing from outside
        touches the chip, so each placement lands at the same point of the
        board's time each run, and the spread still samples the loop's
        tick and the sensor sweep at every phase."""
        return self.at(self.rnd.randrange(self.LAND_SPREAD_MS * HZ // 1000))

    def place(self, x, code):
        """Put a card down; the latency to the first frame in which its
        cell's LED is not what it was in the blink cycle before."""
        ack = self.b.put(x, code, **self.landing())
        if ack.get("late"):
            self.unanchored += 1  # the PC was too slow for that cycle: landed at once
        self.table[x] = code
        c0 = ack["cycle"]
        with self.b._cv:
            frames = list(self.b.frames)
        led = self.b.layout.led[x]
        before = set()
        last = None
        for cycle, grb in frames:
            if cycle <= c0:
                last = grb
                if cycle >= c0 - self.BLINK_MS * HZ // 1000:
                    before.add(grb[3 * led : 3 * led + 3])
        if last is not None:
            before.add(last[3 * led : 3 * led + 3])
        waited = 0
        while waited <= self.LED_TIMEOUT_MS:
            for cycle, grb in self.b.frames_since(c0):
                if grb[3 * led : 3 * led + 3] not in before:
                    self.latency.append(ms(cycle - c0))
                    self.hold_at = cycle + self.SETTLE_MS * HZ // 1000
                    return
            self.b.wait_ms(20)
            waited += 20
        self.undetected += 1
        self.hold_at = c0 + (self.LED_TIMEOUT_MS + self.SETTLE_MS) * HZ // 1000


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
    LOCKSTEP = False  # as quick as the board follows: no figure of time here
    POLL_MS = 50
    SENSE_MS = 20
    TAP_MS = 160

    def __init__(self, board, link, profile, say, every=TAKEBACK_EVERY):
        Hands.__init__(self, board, link, profile, say)
        self.every = every
        self.at = (0, 0)  # moves and ply before the step at hand
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
        before, self.at = self.at, (nmoves, ply)
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


# ---- the unix port beside ---------------------------------------------------------------
def unix_figures(unix, fig):
    """The same measures on the unix port, at the positions the board was
    measured at; run when no emulator is running (they are wall-clock
    times)."""
    core = fig.get("core")
    if core:
        u = {
            w + "_us": unix.core_us(w, core["position"]) for w in ("hint", "cards", "check", "push")
        }
        u["worst_hint_us"] = unix.core_us("hint", core["worst_position"])
        u["worst_cards_us"] = unix.core_us("cards", core["worst_position"])
        core["unix"] = u
    fw = fig.get("firmware")
    if fw:
        u = {
            w + "_us": unix.firmware_us(w, fw["position"])
            for w in ("event", "frame", "litframe", "idle")
        }
        for w in ("event", "frame", "idle"):
            if "worst_%s_position" % w in fw:
                u["worst_%s_us" % w] = unix.firmware_us(w, fw["worst_%s_position" % w])
        fw["unix"] = u
    for rev in REVS:
        p = fig.get("play_" + rev)
        if p:
            p["unix_sensing_ms"] = unix.sensing_ms(PROFILE[rev])


def unix_pull(fig, say):
    """tools/bench/link.py: logs pull and mpremote cp over a pseudo-terminal
    to the unix port's simulated board (wall time), one round."""
    from bench import link as unix_link

    pull = fig.get("pull")
    if pull:
        say("  logs pull on the unix port (tools/bench/link.py) ...\n")
        pull["unix"] = unix_link.measure(rounds=1)


# ---- the report ----------------------------------------------------------------------------
def _ms(us):
    return "%.2f ms" % (us / 1000.0) if us < 10000 else "%.1f ms" % (us / 1000.0)


def _us(us):
    return "-" if us is None else ("%.1f us" % us if us < 1000 else "%.2f ms" % (us / 1000.0))


def engine_rows(fig):
    e = fig.get("engine")
    if not e:
        return []
    rows = []
    for lv in ENGINE_LEVELS:
        d = e["levels"].get(str(lv))
        if d:
            rows.append(
                (
                    "computer level %d: answer at its worst position (%s, move %d)%s"
                    % (lv, e["record"], d["position"], "" if lv in e["offered"] else ": PC only"),
                    "%.0f ms (search allocates %.1f KB)" % (d["worst_ms"], d["alloc_bytes"] / 1024),
                    "",
                )
            )
    rows.append(
        (
            "heap free during the search: a 2-player match's lowest (%s) less the engine"
            % e["match_lowest_frozen_from"],
            "frozen %.1f KB, deployed %.1f KB (engine %.1f KB)"
            % (
                e["heap_during_search_frozen"] / 1024,
                e["heap_during_search_deployed"] / 1024,
                e["search_bytes"] / 1024,
            ),
            "",
        )
    )
    return rows


def rows_of(fig):
    """(figure, emulated RP2040, unix port) rows for the terminal."""
    rows = engine_rows(fig)
    cal = fig.get("calibration")
    if cal:
        rows.append(
            (
                "pin loop p.value(1); p.value(0) (module level; in a function)",
                "%.1f us; %.1f us" % (cal["loop_us"], cal["loop_us_in_function"]),
                "real Pico: ~%d us (reported)" % cal["loop_us_real_pico_reported"],
            )
        )
    core = fig.get("core")
    if core:
        u = core.get("unix", {})
        where = "position %d, %d cards" % (core["position"], core["occupied"])
        worst = "position %d, %d cards, by %s" % (
            core["worst_position"],
            core["worst_occupied"],
            core["worst_found_by"],
        )
        rows += [
            ("full hint query, crowded (%s)" % where, _ms(core["hint_us"]), _us(u.get("hint_us"))),
            (
                "full hint query, worst (%s)" % worst,
                _ms(core["worst_hint_us"]),
                _us(u.get("worst_hint_us")),
            ),
            (
                "card query for every card in hand, crowded / worst",
                "%s / %s" % (_ms(core["cards_us"]), _ms(core["worst_cards_us"])),
                "%s / %s" % (_us(u.get("cards_us")), _us(u.get("worst_cards_us"))),
            ),
            ("placement check, crowded", _us(core["check_us"]), _us(u.get("check_us"))),
            ("place + undo, crowded", _us(core["push_us"]), _us(u.get("push_us"))),
        ]
    fw = fig.get("firmware")
    if fw:
        u = fw.get("unix", {})
        for w, label in (
            ("event", "one sensor event"),
            ("frame", "one LED frame, written to the strip (PIO, DMA)"),
            ("litframe", "one LED frame, every cell lit (current-limited)"),
            ("idle", "idle loop tick, profile B"),
        ):
            rows.append(
                (
                    "%s, move %d (%d cards)" % (label, fw["position"], fw["occupied"]),
                    _us(fw[w + "_us"]),
                    _us(u.get(w + "_us")),
                )
            )
            if "worst_%s_us" % w in fw:
                rows.append(
                    (
                        "  worst of the game (move %d, %d cards)"
                        % (fw["worst_%s_position" % w], fw["worst_%s_occupied" % w]),
                        _us(fw["worst_%s_us" % w]),
                        _us(u.get("worst_%s_us" % w)),
                    )
                )
    if fw and "strip_write_us" in fw:
        rows.append(("  of which the strip write (PIO, DMA)", _us(fw["strip_write_us"]), ""))
    boot = fig.get("boot")
    if boot:
        for rev in REVS:
            if rev in boot:
                rows.append(
                    (
                        "boot to HELLO answered, %s (USB up at %.0f ms)"
                        % (rev, boot[rev]["usb_ms"]),
                        "%.0f ms" % boot[rev]["hello_ms"],
                        "",
                    )
                )
    for rev in REVS:
        r = fig.get("resume_" + rev)
        if not r:
            continue
        for what, label in (("scripted", "6-player log"), ("takebacks", "2-player log")):
            x = r[what]
            rows.append(
                (
                    "boot + resume, %s, %s (%d moves, %d M + %d U records): HELLO / match screen"
                    % (rev, label, x["moves"], x["records"].get("M", 0), x["records"].get("U", 0)),
                    "%.0f / %.0f ms" % (x["hello_ms"], x["resumed_ms"]),
                    "",
                )
            )
    for rev in REVS:
        heap = []
        p = fig.get("play_" + rev)
        if rev in fig.get("boot", {}):
            heap.append("%d after boot" % fig["boot"][rev]["heap_setup"])
        elif p:
            heap.append("%d after boot" % p["heap_setup"])
        if p and p.get("heap_move10") is not None:
            heap.append("%d after 10 moves" % p["heap_move10"])
        if p:
            heap.append("%d lowest in play" % p["heap_lowest"])
        if heap:
            rows.append(("heap free (bytes), %s" % rev, ", ".join(heap), ""))
    pull = fig.get("pull")
    if pull:
        u = pull.get("unix")
        rows += [
            (
                "logs pull, %d logs, %.0f KB: KB/s of chip time (whole command; to the last GET; "
                "GETs alone)" % (pull["logs"], pull["bytes"] / 1024.0),
                "%.0f; %.0f; %.0f KB/s"
                % (pull["pull_kb_s"], pull.get("download_kb_s", 0), pull["get_kb_s"]),
                "%.0f KB/s wall (%d logs, %.0f KB)" % (u["kb"] / u["pull_s"], u["logs"], u["kb"])
                if u
                else "",
            ),
            (
                "  PULLED, each (its marker file written later, the host quiet)",
                "%.1f ms" % pull.get("pulled_ms_each", 0),
                "",
            ),
            (
                "logs pull vs mpremote cp of the same files (wall time)",
                "%.2f s vs %.1f s: %.1fx"
                % (pull["pull_wall_s"], pull["mpremote_wall_s"], pull["ratio"]),
                "%.2f s vs %.1f s: %.1fx" % (u["pull_s"], u["mpremote_s"], u["ratio"]) if u else "",
            ),
        ]
    for rev in REVS:
        p = fig.get("play_" + rev)
        if p:
            u = p.get("unix_sensing_ms")
            rows.append(
                (
                    "placement to LED, profile %s, %d placements: mean / 95 %% / worst"
                    % (PROFILE[rev], p["placements"]),
                    "%.0f / %.0f / %.0f ms" % (p["mean_ms"], p["p95_ms"], p["max_ms"]),
                    "sensing alone (simulator): %d / %d / %d ms" % (u["mean"], u["p95"], u["max"])
                    if u
                    else "",
                )
            )
    cap = fig.get("capacity")
    if cap:
        st = cap["status"]
        rows.append(
            (
                "real matches on the flash (the four scripted ones, %d-%d bytes), packed by "
                "the chip, until the room rule says full"
                % (min(cap["log_bytes"]), max(cap["log_bytes"])),
                "%d (%d archives, %s bytes free)"
                % (cap["matches"], cap["files"]["archives"], st["free"]),
                "simulated board's block model: %d bytes free" % cap["model_free"],
            )
        )
        for name, s in cap["steps"].items():
            rows.append(
                (
                    "  a packing step, %s (%d): mean / worst" % (name, s["n"]),
                    "%.1f / %.1f ms" % (s["mean_ms"], s["max_ms"]),
                    "",
                )
            )
        rows.append(
            (
                "  boot to HELLO with them; LOGS, all pages",
                "%.0f ms; %.0f ms" % (cap["boot_hello_ms"], cap["logs_pages_ms"]),
                "",
            )
        )
    return rows


def memory_rows(fig):
    """The memory part as rows: each mode's match, the heap free (bytes)
    after boot and at the lowest point, per firmware and revision; and
    what the mode takes beyond the 2-player match (its lowest against
    2p's, the same firmware and revision)."""
    mem = fig.get("memory")
    if not mem:
        return []
    cols = [(k, r) for k in FIRMWARES for r in REVS if r in mem.get(k, {})]
    head = ["heap free, bytes (KB)"] + ["%s %s" % (k, r.replace("_", " ")) for k, r in cols]
    rows = [head]
    for name, record in MEMORY_MATCHES:
        got = [mem[k][r].get(name) for k, r in cols]
        if not any(got):
            continue
        x = next(g for g in got if g)
        label = "%s (%s%s, %d moves, %d taken back)" % (
            name,
            x["mode"],
            ", %d players" % x["players"] if x["players"] else "",
            x["moves"],
            x["takebacks"],
        )
        rows.append(["%s: after boot" % label] + [g and str(g["heap_boot"]) or "-" for g in got])
        low = []
        for (k, r), g in zip(cols, got):
            if not g:
                low.append("-")
                continue
            text = "%d (%.1f)" % (g["heap_lowest"], g["heap_lowest"] / 1024.0)
            two = mem[k][r].get("2p")
            if name != "2p" and two:
                text += " %+d" % (g["heap_lowest"] - two["heap_lowest"])
            low.append(text)
        rows.append(["  lowest in play (KB; free vs 2p)"] + low)
    for r in REVS:
        d = mem.get("deploy", {}).get(r)
        if d:
            rows.append(
                ["apixagon deploy, %s: heap after its restart" % r.replace("_", " ")]
                + [str(d["heap_after_restart"]) if c == ("deployed", r) else "" for c in cols]
            )
            if "lfs_blocks" in d:
                rows.append(
                    ["  the update path's littlefs blocks (4 KB) at rest"]
                    + [
                        str(d["lfs_blocks"])
                        if c == ("deployed", r)
                        else str(d["slot_blocks"])
                        if c == ("littlefs", r)
                        else ""
                        for c in cols
                    ]
                )
    return rows


def print_report(fig):
    rows = [("figure", "emulated RP2040", "unix port")] + rows_of(fig)
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    print()
    print("The firmware on an emulated RP2040 (rp2040js, 125 MHz cycles; frozen images):")
    for r in rows:
        print("  %-*s  %-*s  %s" % (w0, r[0], w1, r[1], r[2]))
    mem = memory_rows(fig)
    if mem:
        w = [max(len(r[i]) for r in mem) for i in range(len(mem[0]))]
        print()
        print(
            "The heap of each mode's match (STATUS heap=, after a collection, after every move "
            "and take-back; the frozen image, the firmware deployed into the ROMFS partition, "
            "and as .mpy into a slot of the littlefs):"
        )
        for r in mem:
            print("  " + "  ".join("%-*s" % (w[i], c) for i, c in enumerate(r)))
    budgets.print_verdicts(fig)


# ---- main -----------------------------------------------------------------------------------
def images(say):
    """{rev_a, rev_b, bench: UF2}, copied: a rebuild during the run changes nothing."""
    want = {rev: os.path.join(IMAGES, "apixagon-%s.uf2" % rev) for rev in REVS}
    want["bench"] = os.path.join(BENCH_IMAGES, "apixagon-rev_a.uf2")
    missing = [p for p in want.values() if not os.path.exists(p)]
    return want, missing


def run(parts, quick=False, jobs=2, say=say_out):
    """The parts named, on the emulated RP2040: (figures, [(part, error)]),
    or (None, why) when the images or the emulator are missing."""
    if not unix_core.micropython():
        return None, "micropython not found (run through make bench)"
    paths, missing = images(say)
    if "firmware" not in parts:
        missing = [p for p in missing if not p.startswith(BENCH_IMAGES)]
    if missing:
        return None, (
            "no %s: `make firmware` builds the board's images, `make bench` "
            "also the benchmark's (tools/build_firmware.py --sim)" % ", ".join(missing)
        )
    try:
        emuboard.ensure_installed()
    except emuboard.EmuError as e:
        return None, str(e)
    if not os.path.exists(emuboard.BOOTROM):
        return None, (
            "no RP2040 bootrom at %s (set APIXAGON_RP2040_DIR to the folder "
            "that has it)" % emuboard.BOOTROM
        )
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-target-") as tmp:
        snap = {}
        for k, p in paths.items():
            if os.path.exists(p):
                snap[k] = os.path.join(tmp, k + ".uf2")
                shutil.copyfile(p, snap[k])
        bench = Bench(tmp, snap, quick, say)
        unix = None
        if set(parts) & {"core", "firmware", "play"}:
            unix = Unix(os.path.join(tmp, "unix"))
        if "core" in parts:
            bench.positions = unix.positions()
        tasks = []
        for part in ("play", "resume"):
            if part in parts:
                tasks += [(getattr(bench, part), (rev,), "%s %s" % (part, rev)) for rev in REVS]
        if "memory" in parts:
            tasks += [
                (bench.memory, (kind, rev, name), "memory %s %s %s" % (kind, rev, name))
                for kind in FIRMWARES
                for rev in REVS
                for name, _ in MEMORY_MATCHES
            ]
        tasks += [
            (getattr(bench, p), (), p)
            for p in PARTS
            if p in parts and p not in ("play", "resume", "memory")
        ]
        tasks.sort(key=lambda t: t[2].startswith("play"), reverse=True)  # the longest first
        errors = []
        say("On the emulated RP2040 (%d at once):\n" % jobs)

        def worker():
            while True:
                with bench._lock:
                    if not tasks:
                        return
                    fn, fargs, name = tasks.pop(0)
                t1 = time.monotonic()
                try:
                    fn(*fargs)
                except Exception as e:  # one part failing must not hide the others
                    errors.append((name, e))
                    say("  %s FAILED: %s\n" % (name, e))
                with bench._lock:
                    bench.fig.setdefault("wall_s", {})[name] = round(time.monotonic() - t1, 1)

        threads = [threading.Thread(target=worker) for _ in range(max(1, jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if unix is not None:
            say("On the unix port, at the same positions ...\n")
            unix_figures(unix, bench.fig)
        if "pull" in parts:
            try:
                unix_pull(bench.fig, say)
            except (Exception, SystemExit) as e:  # the chip's figures stand without it
                bench.fig.get("pull", {})["unix_failed"] = str(e)[:300]
                say("  pull on the unix port FAILED: %s\n" % e)
    fig = bench.fig
    fig.setdefault("wall_s", {})["total"] = round(time.monotonic() - t0, 1)
    return fig, errors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="no scans, a few moves of the game")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--part", action="append", choices=PARTS, help="only this part (repeatable)")
    ap.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="emulators at once"
    )
    args = ap.parse_args(argv)
    say = say_nothing if args.json else say_out
    parts = args.part or [p for p in PARTS if not (args.quick and p in LONG_PARTS)]
    fig, errors = run(parts, args.quick, args.jobs, say)
    if fig is None:
        print("bench: %s" % errors, file=sys.stderr)
        return 2
    fig["budgets"] = [list(v) for v in budgets.verdicts(fig)]
    if args.json:
        print(json.dumps(fig, indent=1, sort_keys=True))
    else:
        print_report(fig)
        print("  (%.0f s of wall time)" % fig["wall_s"]["total"])
    if errors:
        for name, e in errors:
            print("bench: %s failed: %s" % (name, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

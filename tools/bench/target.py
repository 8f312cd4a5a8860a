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

This module runs the parts (Bench) and holds the short ones; the board
and the hands they play with are bench/emulated.py, the match logs the
board boots from bench/matchlogs.py, the memory and capacity parts
bench/memory.py and bench/capacity.py, the unix port's column
bench/unixport.py, the printed report bench/report.py. The entry point
of the whole benchmark is `python -m bench` (bench/__main__.py).

Options: --quick (a shorter run: no position scans, a few moves of the
game, no memory or capacity part unless named), --json (figures as one JSON object),
--part NAME (only that part; repeatable). The emulator runs at about half real time here; the whole
run takes several minutes, --quick about a minute.
"""

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import build_mpy
import emuboard

from bench import budgets
from bench import core as unix_core
from bench import firmware as unix_firmware
from bench.capacity import capacity_run
from bench.computer_match import computer_match
from bench.emulated import (
    BENCH_IMAGES,
    HERE,
    HZ,
    IMAGES,
    PROFILE,
    RECORD,
    REVS,
    ROOT,
    TOOLS,
    WRONG,
    Board,
    Hands,
    Repl,
    core_timings,
    hello_after_boot,
    ms,
    parse_time,
    read,
    record_script,
    say_nothing,
    say_out,
    script_call,
    wait_packed,
)
from bench.matchlogs import (
    cards_of,
    log_lines,
    log_records,
    match_frames,
    pull_archive,
    scripted_log,
    takeback_log,
)
from bench.memory import FIRMWARES, MEMORY_MATCHES, deployed_files, heap_match, real_deploy
from bench.report import print_report
from bench.unixport import Unix, unix_figures, unix_pull

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

# mpremote cp of the pull's files, at most (seconds of the PC's; ~10-30 s)
MPREMOTE_CP_S = 300

# Repetitions on the board (each a few hundred ms of chip time at most)
# and, for the unix port, tools/bench/core.py's and firmware.py's own.
K_CORE = {"hint": 20, "cards": 4, "check": 500, "push": 20}

K_FIRMWARE = {"event": 4, "frame": 20, "litframe": 20, "idle": 500}


def _worst_flash(samples):
    """The flash's work the slowest sample's latency overlaps: {ms, erases,
    programs, stall_ms} (with the real chip's timing; none without it)."""
    if not samples:
        return None
    t, e, p, stall = max(samples)
    return {"ms": round(t, 1), "erases": e, "programs": p, "stall_ms": stall}


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


def strip_write_us(repl, k=10):
    """The strip's write alone (the frames above include it): the start-up
    code's PIO driver, the frame handed to a DMA channel that feeds the
    state machine's FIFO at the WS2812 bit rate. The strip is left to
    finish between writes, as between loop ticks."""
    code = (
        "import time\n"
        "from boards import build\n"
        "from boards.rev_a import pins\n"
        "strip = build.led_strip(pins, 61)\n"
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
        from bench import calibration

        b = Board(self.images["rev_a"], "rev_a", self.workdir("calibration"))
        try:
            b.boot()
            repl = Repl(b.port)
            fig = calibration.measure(repl)
            repl.close()
        finally:
            b.close()
        if fig["freq"] != HZ:
            raise RuntimeError("the emulated chip runs at %s Hz" % fig["freq"])
        self.put("calibration", fig)
        more = ", %d perf_bench" % len(fig["perf_bench"]) if "perf_bench" in fig else ""
        self.say(
            "  calibration loop: %.1f us an iteration; %d published programs%s\n"
            % (fig["loop_us"], len(fig["programs"]), more)
        )

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
            core_timings(repl, rec, K_CORE, crowded, worst, fig)
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
        # the heap free during the search, measured: real matches whose
        # every move is the computer's, at the dearest level the board
        # offers, from the set-up and late in a long game, the board saying
        # the heap free as each search ends (STATUS searchheap=, the
        # collector held off during it)
        offered = list(budgets.BOARD_LEVELS)
        fig["offered"] = offered
        fig["matches"] = []
        for late in (False, True):
            m = computer_match(
                self.images["rev_a"],
                "rev_a",
                self.workdir("engine-match-%s" % ("late" if late else "setup")),
                max(offered),
                self.say,
                late=late,
            )
            fig["matches"].append(m)
            self.say(
                "  engine: a match at level %d from move %d, %d searches: heap free %d at "
                "the end of a search (lowest)\n"
                % (m["level"], m["from_move"], m["searches"], m["search_heap_lowest"])
            )
        fig["heap_during_search_frozen"] = min(m["search_heap_lowest"] for m in fig["matches"])
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
            hands.wrong = WRONG.get(RECORD)
            hands.hello(usb)
            heap_setup = int(L.fields(hands.ask("STATUS"))["heap"])
            hands.setup(setup)
            hands.play(steps)
            link.close()
            with b._cv:
                flash_ops = sum(1 for ev in b.events if ev.get("ev") == "flash")
        finally:
            b.close()
        lat = sorted(hands.latency)
        n = len(lat)
        fig = {
            "placements": n,
            "moves": len(steps),
            "undetected": hands.undetected,
            # legal placements the board never showed (each a sample of
            # Hands.LED_TIMEOUT_MS in the latencies)
            "missed": hands.missed.get("legal", 0),
            "landed_late": hands.unanchored,
            "latencies_ms": [round(v, 2) for v in hands.latency],
            "mean_ms": round(sum(lat) / n, 1),
            "p95_ms": round(lat[(n * 95) // 100], 1),
            "max_ms": round(lat[-1], 1),
            "heap_setup": heap_setup,
            "heap_move10": hands.heap_at.get(10),
            "heap_end": hands.heap_end,
            "heap_lowest": hands.heap_lowest,
            "worst_flash": _worst_flash(hands.flash["legal"]),
            "flash_ops": flash_ops,  # stamped ones: the real chip's timing only
        }
        # every placement, legal or not (emulated.KINDS): its own summary
        for kind, got in hands.kinds.items():
            if got:
                k = sorted(got)
                fig[kind] = {
                    "n": len(k),
                    "mean_ms": round(sum(k) / len(k), 1),
                    "p95_ms": round(k[(len(k) * 95) // 100], 1),
                    "max_ms": round(k[-1], 1),
                    "worst_flash": _worst_flash(hands.flash[kind]),
                    "missed": hands.missed.get(kind, 0),
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
        (every chunk of every log, the host's window of 8); and, before
        them, mpremote cp of the same files over the raw REPL (it stops the
        firmware's loop; the board is powered off and on after and answers
        HELLO again): the wall-time ratio."""
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
            # the flash as a user's board has it: the board packs finished
            # matches into archives between matches (STATUS packing=1
            # meanwhile), so the pull reads the archives, not the files the
            # PC put there (the chip's time, a fixed amount a firmware)
            wait_packed(link, b)
            fig["packed_after_ms"] = round(ms(b.cycle() - on), 0)
            link.close()
            b.wait_ms(500)  # the board's boot work done (its log index made)
            # mpremote cp of the files that hold the same matches: the board
            # packs finished logs into archives of its own, so the files
            # are those its logs folder lists, not one a match
            dest = os.path.join(tmp, "copied")
            os.makedirs(dest)
            mp = [sys.executable, "-m", "mpremote", "connect", b.port, "resume"]
            r = subprocess.run(mp + ["ls", ":logs"], capture_output=True, text=True, timeout=600)
            names = [
                w.split()[-1] for w in r.stdout.splitlines() if w.strip() and w.split()[0].isdigit()
            ]
            if r.returncode != 0 or not names:
                raise RuntimeError("mpremote ls failed: %s%s" % (r.stdout[-300:], r.stderr[-300:]))
            # mpremote waits for the raw REPL's end marker with no limit of
            # its own: on a loaded PC it has waited for good (twice in a run
            # beside four other emulators). Given 300 s, then the board is
            # powered off and on and asked once more.
            for attempt in (1, 2):
                t1 = time.monotonic()
                try:
                    r = subprocess.run(
                        mp + ["cp"] + [":logs/" + n for n in names] + [dest + "/"],
                        capture_output=True,
                        text=True,
                        timeout=MPREMOTE_CP_S,
                    )
                    break
                except subprocess.TimeoutExpired:
                    if attempt == 2:
                        raise RuntimeError("mpremote cp hung twice (%d s each)" % MPREMOTE_CP_S)
                    self.say("  mpremote cp hung: the board powered off and on, asked again\n")
                    b.cut()
                    b.wait_for(lambda: not b.on, 30, "the power cut")
                    b.power_on()
                    b.wait_usb()
                    b.wait_ms(1500)  # its boot work done
            cp_wall = time.monotonic() - t1
            if r.returncode != 0:
                raise RuntimeError("mpremote cp failed: %s%s" % (r.stdout[-300:], r.stderr[-300:]))
            fig["mpremote_files"] = len(names)
            fig["mpremote_bytes"] = sum(os.path.getsize(os.path.join(dest, n)) for n in names)
            fig["mpremote_wall_s"] = round(cp_wall, 2)
            # the board brought back: mpremote left it at its REPL
            b.cut()
            b.wait_for(lambda: not b.on, 30, "the power cut")
            b.power_on()
            b.wait_usb()
            with L.Link(b.port, timeout=30) as link:
                link.hello()
            b.wait_ms(500)

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
            # the whole command, into a fresh database; the download alone
            # ends with the last byte the chip sent before the command's
            # last request (its PULLED marks: the logs are on the PC by
            # then) began, as the emulator noted it (board.js, turns: a
            # call to it amid the pull, to stamp it, had delayed the PULLED
            # by ms of the PC's that the chip ran on through)
            db = os.path.join(tmp, "pulled.sqlite")
            out = io.StringIO()
            b.traffic()
            t1 = time.monotonic()
            rc = cli.main(["logs", "pull", "-p", b.port, "--db", db], cli.State(out=out))
            pull_wall = time.monotonic() - t1
            t = b.traffic()
            fetched = [dict(t, txLast=t["turns"][-1][1])]
            if rc != 0 or "%d logs pulled" % len(archive) not in out.getvalue():
                raise RuntimeError("logs pull failed (%s): %s" % (rc, out.getvalue()))
            fig["pull_cycles"], fig["pull_kb_s"] = rate(t)
            fig["download_cycles"], fig["download_kb_s"] = rate(fetched[0])
            fig["pulled_ms_each"] = round(ms(t["txLast"] - fetched[0]["txLast"]) / len(archive), 1)
            fig["pull_wall_s"] = round(pull_wall, 2)
            fig["ratio"] = round(cp_wall / pull_wall, 1)
        finally:
            b.close()
        fig["heap_after_boot"] = heap
        self.put("pull", fig)
        self.say(
            "  logs pull: %.0f KB/s of chip time (GETs alone %.0f KB/s), %.1fx mpremote cp\n"
            % (fig["pull_kb_s"], fig["get_kb_s"], fig["ratio"])
        )


# ---- main -----------------------------------------------------------------------------------
def images(say):
    """{rev_a, rev_b, bench: UF2}, copied: a rebuild during the run changes nothing."""
    want = {rev: os.path.join(IMAGES, "apixagon-%s.uf2" % rev) for rev in REVS}
    want["bench"] = os.path.join(BENCH_IMAGES, "apixagon-rev_a.uf2")
    missing = [p for p in want.values() if not os.path.exists(p)]
    return want, missing


def run(parts, quick=False, jobs=2, say=say_out, timing="ideal"):
    """The parts on emulated boards in a timing profile (tools/rp2040/timing.js:
    every board this run starts takes it from APIXAGON_TIMING)."""
    old = os.environ.get("APIXAGON_TIMING")
    os.environ["APIXAGON_TIMING"] = timing
    try:
        return _run(parts, quick, jobs, say, timing == "ideal")
    finally:
        if old is None:
            os.environ.pop("APIXAGON_TIMING", None)
        else:
            os.environ["APIXAGON_TIMING"] = old


def _run(parts, quick=False, jobs=2, say=say_out, beside=True):
    """The parts named, on the emulated RP2040: (figures, [(part, error)]),
    or (None, why) when the images or the emulator are missing. beside: the
    unix port's figures beside them too (PC time: once, with the ideal
    profile's run)."""
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
        if not beside:
            unix = None
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
        if "pull" in parts and beside:
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

"""The emulated board the benchmark measures on, and the hands that play
on it: the board's images on rp2040js (tools/rp2040/emuboard.py) with a
flash built here, its raw REPL, the scripted game as hands (Hands: every
input and request at a cycle of the board's own time). The parts
(target.py, memory.py, capacity.py) are built on it."""

import os
import random
import shutil
import sys

import emuboard
import flashfs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
HERE = os.path.join(TOOLS, "bench")
HZ = emuboard.HZ
RECORD = os.path.join(ROOT, "tests", "data", "beehive_full.apx")

# the images measured: make firmware's, or $BENCH_IMAGES (a build of one's
# own: tools/build_firmware.py --out DIR, and --sim --out DIR/bench)
IMAGES = os.environ.get("BENCH_IMAGES") or os.path.join(ROOT, "build", "firmware")
BENCH_IMAGES = os.path.join(IMAGES, "bench")
REVS = ("rev_a", "rev_b")
PROFILE = {"rev_a": "A", "rev_b": "B"}
SEED = 20261123


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

    # the longest a flash operation stalls the chip (a 64 KB block erase at
    # the datasheet's maximum, 2 s): how far back one can still overlap
    FLASH_OP_MAX_CYCLES = 2 * HZ

    def flash_between(self, c0, c1):
        """(erases, programs, stall ms) of the chip's flash operations that
        overlap the two cycles (the 'flash' events board.js stamps, with the
        real chip's timing on, with their start and their stall)."""
        e = p = 0
        stall = 0
        with self._cv:
            for ev in reversed(self.events):
                c = ev.get("cycle", 0)
                if c < c0 - self.FLASH_OP_MAX_CYCLES:
                    break
                if ev.get("ev") != "flash" or c > c1 or c + ev["cycles"] < c0:
                    continue
                if ev["kind"] == "erase":
                    e += 1
                else:
                    p += 1
                stall += min(c1, c + ev["cycles"]) - max(c0, c)
        return e, p, round(ms(stall), 1)

    def traffic(self, mark=True):
        """The USB traffic since the last mark: cycles of the first byte
        the chip was handed and of the last one it sent (-1: none), and
        the byte counts; mark: a new mark from now."""
        return self.request("usbstat", mark=mark)


# Every reset's boot.py watches a host at the REPL (firmware/bootsel.py):
# silent for 30 s of the chip's time, it is taken for gone and the
# watchdog resets the board into its firmware, whose link then answers the
# next script's bytes ("could not exec command (response: b'=0')": the
# capacity part's second run of minutes). A benchmark's script keeps the
# board at its REPL, as a person typing at it does (bootsel.stay()).
_STAY = "try:\n import bootsel\n bootsel.stay()\nexcept ImportError:\n pass\n"


class Repl:
    """The board's raw REPL (mpremote's transport): each run starts from a
    soft reset, so a clean heap and no main.py (MicroPython runs main.py
    only in the friendly REPL); the frozen modules import as the image has
    them."""

    def __init__(self, port):
        from mpremote.transport_serial import SerialTransport

        # The plain raw REPL, not raw-paste: mpremote's raw-paste write
        # reads the chip's flow-control bytes one at a time and failed on a
        # busy PC, on a 1 s read timeout and then on a stray byte
        # ("unexpected read during raw paste: b''", "b'='": the capacity
        # part's second run). The emulated USB holds the host's bytes until
        # the chip reads them, as a real host's NAKs do, so the plain mode
        # needs no flow control; a read waits up to 30 s for the chip.
        self.t = SerialTransport(port, timeout=30)
        self.t.use_raw_paste = False

    def run(self, code, timeout=600):
        from mpremote.transport import TransportError

        # mpremote waits 10 s of the PC's time for each byte: the emulated
        # chip, ~10 times slower than a Pico and slower still on a busy PC,
        # can be longer in its soft reset (a part failed "could not enter
        # raw repl" with every core busy). Asked again, not a figure lost.
        for attempt in range(3):
            try:
                self.t.enter_raw_repl(soft_reset=True, timeout_overall=120)
                break
            except TransportError:
                if attempt == 2:
                    raise
        out, err = self.t.exec_raw(_STAY + code, timeout=timeout)
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


def core_timings(repl, record, k, crowded, worst, fig):
    """The rules core's queries timed on the board (core_device.py, k[what]
    repeats each) at the crowded and the worst positions, into fig: the
    emulated board's core part and a real Pico's (device.py) alike."""
    for what in ("hint", "cards", "check", "push"):
        out = repl.run(script_call("core_device", what, record, k[what], crowded))
        us, fig["occupied"] = parse_time(out, what)
        fig[what + "_us"] = round(us, 1)
    for what in ("hint", "cards"):
        out = repl.run(script_call("core_device", what, record, k[what], worst))
        us, fig["worst_occupied"] = parse_time(out, what)
        fig["worst_%s_us" % what] = round(us, 1)
    return fig


def script_call(module, *args):
    """Code that runs one of our device scripts with its command line."""
    argv = [module] + [str(a) for a in args]
    return "import sys\nsys.argv[:] = %r\nimport %s\n" % (argv, module)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def parse_time(out, what):
    """(microseconds each, cards on the board) from a TIME line."""
    for line in out.splitlines():
        w = line.split()
        if len(w) >= 6 and w[0] == "TIME" and w[1] == what:
            return int(w[3]) / int(w[2]), int(w[5])
    raise RuntimeError("%s failed:\n%s" % (what, out))


# ---- the scripted games as hands -------------------------------------------------------
# record_script's wrong cells, by record: for each step, an empty cell no
# card of the side to play may go to (None: none), drawn with the step's
# number as seed, the same each run
WRONG = {}


def wrong_cell(g, i):
    """An empty cell where no card of the side to play may go (a refusal),
    or None: one of them, drawn with seed i."""
    from apixagon.geometry import NCELLS

    out = bytearray(NCELLS)
    g.legal_cells(None, out)
    cells = [x for x in range(NCELLS) if not g.board[x] and not out[x]]
    return random.Random(i).choice(cells) if cells else None


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
            self.wrong.append(wrong_cell(g, len(self.steps)))
            r = record.apply_move(g, letter, seat, kind, card, cells)
            if r:
                raise RuntimeError("line %d of the record is illegal (%d)" % (lineno, r))
            self.steps.append((lineno, kind, side, card, list(cells), t, g.nmoves(), g.ply()))

    sc = Script()
    sc.wrong = []
    with open(path) as f:
        record.read(f, sc)
    WRONG[path] = sc.wrong
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


# ---- the link -------------------------------------------------------------------------
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


def wait_packed(link, b, every_ms=200, within_ms=120000):
    """Until the board has packed its finished matches (STATUS packing=
    gone: it packs between matches, on quiet ticks, never while a PC
    downloads), asked every `every_ms` of the board's time; RuntimeError
    after `within_ms`."""
    from apixagon_host import link as L

    for _ in range(within_ms // every_ms):
        if "packing" not in L.fields(link.request("STATUS")):
            return
        b.wait_ms(every_ms)
    raise RuntimeError("the board still packs its logs after %d s" % (within_ms // 1000))


def data_path(name):
    return os.path.join(ROOT, "tests", "data", name)


# What the play part times beside the legal placements (Hands.kinds): a
# card put where it may not go until shown refused, the last card taken
# back, put back, a special's move
KINDS = ("refused", "takeback", "put_back", "special")


class Hands:
    """The record's lines as hands on the emulated board, which is seen
    only from outside, as a player and a PC see it: the strip's frames,
    the control channel's acknowledgements (with their cycles) and the
    serial link (STATUS, CONF, CELLS). What smartboard/sim/replay.py does
    on the simulated board: set-up on the buttons, profile B taps each card
    on the pad before putting it, specials tapped, the reserve lifted and
    confirmed, declarations chosen and confirmed."""

    BLINK_MS = 1100  # a whole blink cycle (8 phases of 128 ms) and a little
    # Every REFUSE_EVERY-th placement is first put on a cell no card of its
    # side may go to (and lifted again), every TAKEBACK_EVERY-th is taken
    # back and put back once played (0: never; HeapHands keeps its own)
    REFUSE_EVERY = 4
    TAKEBACK_EVERY = 6
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
        self.heap_at = {}
        self.heap_end = None
        self.heap_lowest = None
        self.rnd = random.Random(SEED)
        self.unanchored = 0
        self.t = 0  # ms after the board's last reply, for the next input (at)
        self.hold_at = None
        # every placement, legal or not: ms until the board shows it, by kind
        self.kinds = {k: [] for k in KINDS}
        # (ms, erases, programs, stall ms) of each sample, by kind ("legal":
        # latency): the flash's work a latency overlaps, with the real
        # chip's timing (Board.flash_between)
        self.flash = {k: [] for k in ("legal",) + KINDS}
        self.wrong = None  # record_script's wrong cells (WRONG[path]): refusals
        # cell -> the cycle its last timed change was shown (shown): what
        # the cell showed before that is not its state any more
        self.shown_at = {}
        # samples the board never showed within LED_TIMEOUT_MS, by kind
        # ("legal": latency); each is in its list as LED_TIMEOUT_MS
        self.missed = {}

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
        self._later(ms + 60)

    def lift(self, x):
        if not self.LOCKSTEP:
            return self.b.lift(x)
        self.b.lift(x, **self.at())
        self._later(10)

    def put(self, x, code):
        if not self.LOCKSTEP:
            return self.b.put(x, code)
        self.b.put(x, code, **self.at())
        self._later(10)

    def _later(self, ms):
        """The hands' next input or request ms after the one just made:
        from the cycle that one was anchored at when it was (hold_at), else
        from the board's last reply (t). Added to t alone, an input anchored
        at hold_at left the request after it at that same cycle, which the
        chip had passed by the time the PC asked: it landed late, at a cycle
        the PC's speed set, and every sample after it moved from run to run
        (a refused card's lift, then CELLS: 14 a game)."""
        if self.hold_at is not None:
            self.hold_at += ms * HZ // 1000
        else:
            self.t += ms

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
        self._later(emuboard.TAP_MS + 100)  # the pad sees the card go

    def play(self, steps):
        from apixagon.codes import BEEKEEPER, DECK_EMPTY, PLACE, RAIN_MOVE, RESERVE, SMOKER
        from smartboard import tag

        placed = 0
        for i, (lineno, kind, side, card, cells, t, nmoves, ply) in enumerate(steps):
            self.t = self.PAUSE_MS  # the players are never that quick
            if kind == PLACE or kind == RAIN_MOVE:
                if kind == PLACE:
                    code = tag.code(side, tag.NORMAL, card)
                else:
                    code = tag.code(side, tag.RAIN, self.rains[side] & 1)
                    self.rains[side] += 1
                placed += 1
                if self.profile == "B":
                    self.tap(code)
                x = self.wrong[i] if self.wrong and i < len(self.wrong) else None
                if (
                    kind == PLACE
                    and self.REFUSE_EVERY
                    and placed % self.REFUSE_EVERY == 2
                    and x is not None
                ):
                    self.refused(x, code)
                self.place(cells[0], code)
            elif kind == BEEKEEPER or kind == SMOKER:
                self.tap(tag.code(side, tag.BEEKEEPER if kind == BEEKEEPER else tag.SMOKER, 0))
                src = cells[0]
                code = self.table.pop(src)
                if kind == SMOKER:
                    self.special_lift(src)
                else:
                    self.lift(src)
                    self.until(lambda: self.cells()[src] == 0, "line %d: the lift" % lineno)
                    self.special_put(cells[1], code)
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
            if (
                kind == PLACE
                and self.TAKEBACK_EVERY
                and placed % self.TAKEBACK_EVERY == 0
                and i + 1 < len(steps)
            ):
                self.take_back(cells[0], steps[i - 1] if i else None, nmoves, ply, lineno)
            self.after(i, steps)

    def refused(self, x, code):
        """The card put on a cell no card of its side may go to (self.wrong:
        record_script's): until the board shows it refused, then lifted
        again until the board shows the cell as it was."""
        ack = self.b.put(x, code, **self.landing())
        self.shown(x, ack, self.kinds["refused"])
        self.t = self.PAUSE_MS
        # (its lift is not timed here: the red blinks with dark phases, and
        # the cell goes dark; the sensor model times it, bench.sensing)
        self.b.lift(x, **self.at())
        self._later(10)
        self.until(lambda: self.cells()[x] == 0, "the refused card lifted")
        self.t = self.PAUSE_MS
        if self.profile == "B":
            self.tap(code)  # the card's name again, for its own cell

    def take_back(self, x, before, nmoves, ply, lineno):
        """The card just played lifted (a take-back: shown when its cell
        changes) and put back (played again; profile B: no tap, the board
        gives it the identity of the card just taken back)."""
        self.t = self.PAUSE_MS
        self.shown(x, self.b.lift(x, **self.at()), self.kinds["takeback"])
        self.until(lambda: int(self.status().get("moves", -1)) == nmoves - 1, "the take-back")
        self.t = self.PAUSE_MS
        code = self.table[x]
        self.shown(x, self.b.put(x, code, **self.landing()), self.kinds["put_back"])
        self.until(lambda: self._moved(nmoves, ply), "line %d: put back" % lineno)

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

    def special_lift(self, x):
        # the Smoker's move is the lift: shown when its cell changes
        self.shown(x, self.b.lift(x, **self.landing()), self.kinds["special"])

    def special_put(self, x, code):
        # the Beekeeper's card put down on its new cell, timed
        self.t = self.PAUSE_MS
        self.shown(x, self.b.put(x, code, **self.landing()), self.kinds["special"])

    def place(self, x, code):
        """Put a card down; the latency to the first frame in which its
        cell's LED is not what it was in the blink cycle before."""
        ack = self.b.put(x, code, **self.landing())
        self.table[x] = code
        self.shown(x, ack, self.latency)

    def _kind_of(self, into):
        # the kind of a list of samples shown() appends to ("legal": latency)
        for k, v in self.kinds.items():
            if v is into:
                return k
        return "legal"

    def shown(self, x, ack, into):
        """The latency from an action on cell x (its acknowledgement: the
        cycle it landed at) to the first frame in which the cell's LED is
        not what it was in the blink cycle before, appended to into. The
        blink cycle before stops at the cell's last change the hands timed:
        a card taken back leaves its cell as it was before the card came,
        which the cycle before can hold (a take-back would then be seen only
        when something else changed, or never). That change was shown at
        least SETTLE_MS + PAUSE_MS (600 ms) before, more than a phase of the
        slowest blink (512 ms), so both phases of a blinking cell are in
        the set. Not shown within LED_TIMEOUT_MS: a sample of that many ms,
        and counted (missed)."""
        if ack.get("late"):
            self.unanchored += 1  # the PC was too slow for that cycle: landed at once
        c0 = ack["cycle"]
        with self.b._cv:
            frames = list(self.b.frames)
        led = self.b.layout.led[x]
        since = max(c0 - self.BLINK_MS * HZ // 1000, self.shown_at.get(x, 0))
        before = set()
        last = None
        for cycle, grb in frames:
            if cycle <= c0:
                last = grb
                if cycle >= since:
                    before.add(grb[3 * led : 3 * led + 3])
        if last is not None:
            before.add(last[3 * led : 3 * led + 3])
        kind = self._kind_of(into)
        waited = 0
        while waited <= self.LED_TIMEOUT_MS:
            for cycle, grb in self.b.frames_since(c0):
                if grb[3 * led : 3 * led + 3] not in before:
                    self.shown_at[x] = cycle
                    self._sample(into, kind, c0, cycle)
                    return
            self.b.wait_ms(20)
            waited += 20
        self.missed[kind] = self.missed.get(kind, 0) + 1
        self._sample(into, kind, c0, c0 + self.LED_TIMEOUT_MS * HZ // 1000)

    def _sample(self, into, kind, c0, c1):
        # a latency from c0 to c1 into its list, with the flash's work it
        # overlaps; the hands' next input SETTLE_MS after c1
        t = ms(c1 - c0)
        into.append(t)
        self.flash[kind].append((t,) + self.b.flash_between(c0, c1))
        self.hold_at = c1 + self.SETTLE_MS * HZ // 1000

    @property
    def undetected(self):
        """Samples never shown, of every kind (missed)."""
        return sum(self.missed.values())

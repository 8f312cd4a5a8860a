# The board's first-boot self-test (docs/firmware/index.md, "First-boot
# self-test"): the supply and the strip, a walk of the LEDs in chain order,
# every part asked, the empty board read, the cells one by one and the
# buttons, then a summary kept in the settings (settings.SELFTEST) so the
# next boot plays. Loaded only when it runs (Board.boot_check, the link's
# SELFTEST): a board that plays keeps none of it in its heap. While it runs
# it owns the board's tick (Board.tick); the serial link still answers.
# Its words are in smartboard.selftext, loaded only to say something.
from apixagon.compat import const
from apixagon.geometry import NCELLS, ROW_START

from . import buttons, scan
from . import settings as S
from .view import ERR_RED, LEGAL, OFF, SETTING, SIDE0, SIDE1, SLOW

# The steps, in the order they run (selftext.STEPS names them)
SUPPLY = const(0)
LEDS = const(1)
PARTS = const(2)
IDLE = const(3)
CELLS = const(4)
KEYS = const(5)
NSTEPS = const(6)
# A step's verdict
NOT_RUN = const(0)
PASS = const(1)
FAIL = const(2)
SKIP = const(3)

# The scheduler's stages: each runs until its time in _MS is up (0: until
# the maker acts) or an event ends it.
_SUPPLY = const(0)  # the supply read, the strip's switch on and its rail's ramp
_WALK = const(1)  # one LED more lit each _MS
_ASK = const(2)  # did every LED light? CONFIRM yes, DECLARE no
_FIND = const(3)  # which one: LEDs lit up to a blue one, halving the range
_PARTS = const(4)  # the readers / shift registers read meanwhile, then asked
_IDLE = const(5)  # the empty board read: a cell that reads occupied is stuck
_CELLS = const(6)  # a card (a magnet) put and lifted on each cell in turn
_KEYS = const(7)  # each button pressed when asked
_END = const(8)  # the summary, until a button or its time is up
# The policy in one place: how long each stage runs, or waits for the
# maker at most. The supply stage outlasts paint.FOLLOW_MS + RAMP_MS (the
# strip switched on and its rail up); a walk step lets the eye follow a
# 61-LED walk (1.5 s a colour); the readers need a few sweeps to say they
# answer (the PN532 driver marks a reader down on failed transfers).
_MS = (100, 25, 20000, 20000, 1500, 2000, 0, 10000, 60000)
STAGES = ("supply", "leds", "leds", "leds", "parts", "idle", "cells", "buttons", "summary")

PART_SUPPLY = const(4)  # board.PART_SUPPLY (the board's module is not imported back)
_LEVEL = const(64)  # the walk's channel level: visible, and a white board within a USB port
NO_ANSWER = const(0xFF)  # dark: the maker never answered the LED question
# marks[x]: what the cell showed the self-test
_STUCK = const(1)  # read occupied on the empty board
_UNSENSED = const(2)  # the maker said its card was not seen
_SENSED = const(3)  # put and lifted
_ON = const(4)  # the cell check: the card is on it, waiting for the lift


class SelfTest:
    def __init__(self, board, now):
        self.board = board
        hw = board.hw
        self.verdict = bytearray(NSTEPS)
        self.marks = bytearray(NCELLS)
        self.dark = -1  # the first LED the maker saw dark (0-based), NO_ANSWER, or -1
        self.parts = 0  # bit i: hw.parts[i] did not answer
        self.keys = 0  # bit b: button b was not pressed when asked
        self.supply_ma = -1  # what the supply advertises (-1: not read on this board)
        self.done = False
        self._n = hw.painter.strip.n
        self._lo = 0  # _FIND's range, and the walk's colour and LED
        self._hi = 0
        self._mid = 0
        self._i = 0
        self._colour = 0
        self._cell = 0
        self._key = 0
        self.stage = -1
        self.due = -1
        board.view.dark_changed()  # (a reader down: its cells blink over the steps' colours)
        self._say(0)
        self._enter(_SUPPLY, now)

    # ---- the scheduler ------------------------------------------------------
    def _enter(self, stage, now):
        self.stage = stage
        ms = _MS[stage]
        self.due = now + ms if ms else -1
        if stage == _SUPPLY:
            self._fill(0, 0, 0, 0)  # the screen it interrupts goes dark
        elif stage == _WALK:
            self._colour = self._i = 0
            self._say(1)
        elif stage == _ASK:
            self._fill(self._n, 1, 1, 1)
            self._say(2)
        elif stage == _FIND:
            self._lo = 0
            self._hi = self._n - 1
            self._ask_half()
        elif stage == _PARTS:
            self._layer(SETTING)
            self._say(4)
        elif stage == _IDLE:
            self._say(5)
        elif stage == _CELLS:
            self._cell = -1
            self._say(6)
            self._next_cell()
        elif stage == _KEYS:
            self._key = -1
            self._next_key(now)
        elif stage == _END:
            self._end()

    def tick(self, now):
        """The board's tick while the self-test runs: the buttons, the
        cells, the supply, the stage's time, a frame. True (no card moved
        the match)."""
        b = self.board
        hw = b.hw
        b.quiet = False  # the walk and the reads want every pass
        ev = hw.keys.poll(now)
        if ev != buttons.NONE:
            self._key_event(ev & ~buttons.LONG, now)
        st = self.stage
        if _PARTS <= st <= _CELLS:
            self._scan()
        hw.painter.follow(now)
        if self.due >= 0 and now >= self.due:
            self._timed(now)
        if self.stage >= _PARTS:
            b.view.frame(now)
        return True

    def _timed(self, now):
        st = self.stage
        if st == _SUPPLY:
            p = self.board.hw.painter
            sup = p.supply
            self.supply_ma = -1 if sup is None else sup.ma
            self._verdict(SUPPLY, p.powered)
            self._enter(_WALK, now)
        elif st == _WALK:
            self.due = now + _MS[_WALK]
            if self._step_walk():
                self._enter(_ASK, now)
        elif st == _ASK or st == _FIND:
            self.dark = NO_ANSWER
            self._verdict(LEDS, False)
            self._enter(_PARTS, now)
        elif st == _PARTS:
            parts = self.board.hw.parts
            m = 0
            for i in range(len(parts)):
                p = parts[i]
                if p[0] != PART_SUPPLY and not p[1]():  # (the supply: step 1 said it)
                    m |= 1 << i
            self.parts = m
            self._verdict(PARTS, not m)
            self._enter(_IDLE, now)
        elif st == _IDLE:
            ok = True
            for v in self.marks:
                if v == _STUCK:
                    ok = False
            self._verdict(IDLE, ok)
            self._enter(_CELLS, now)
        elif st == _KEYS:
            self.keys |= 1 << self._key  # not pressed in time
            self._say(9, self._key)
            self._next_key(now)
        elif st == _END:
            self.finish()

    def _key_event(self, b, now):
        st = self.stage
        if st == _ASK:
            if b == buttons.CONFIRM:
                self._verdict(LEDS, True)
                self._enter(_PARTS, now)
            elif b == buttons.DECLARE:
                self._enter(_FIND, now)
        elif st == _FIND:
            if b == buttons.CONFIRM:  # lit up to the blue one: the dark one is further on
                self._lo = self._mid + 1
            elif b == buttons.DECLARE:
                self._hi = self._mid
            else:
                return
            self.due = now + _MS[_FIND]
            if self._lo >= self._hi:
                self.dark = self._lo
                self._verdict(LEDS, False)
                self._enter(_PARTS, now)
            else:
                self._ask_half()
        elif st == _CELLS:
            if b == buttons.CONFIRM:  # the rest skipped
                self._cells_done(now, True)
            elif b == buttons.DECLARE:  # not seen: next
                self.marks[self._cell] = _UNSENSED
                self._show(self._cell, ERR_RED)
                self._next_cell()
                if self._cell >= NCELLS:
                    self._cells_done(now, False)
        elif st == _KEYS:
            if b == self._key:
                self._next_key(now)
        elif st == _END:
            self.finish()

    # ---- the LEDs: the walk and the halving --------------------------------
    def _step_walk(self):
        """One LED more in the walk's colour (red, green, blue: the others
        dark first); True once the three colours have walked."""
        i = self._i
        if i >= self._n:
            self._colour += 1
            i = self._i = 0
            if self._colour >= 3:
                return True
        c = self._colour
        self._fill(i + 1, c == 0, c == 1, c == 2)
        self._i = i + 1
        return False

    def _ask_half(self):
        # LEDs 0..mid-1 green and LED mid blue: all of them lit (the blue
        # one too) says the first dark LED is past mid
        lo, hi = self._lo, self._hi
        mid = self._mid = (lo + hi) // 2
        self._fill(mid, 0, 1, 0)
        buf = self.board.hw.painter.strip.buf
        buf[3 * mid + 2] = _LEVEL
        self.board.hw.painter.show()
        self._say(3)

    def _fill(self, n, r, g, b, show=True):
        # LEDs 0..n-1 in one colour, the rest dark: GRB in chain order
        buf = self.board.hw.painter.strip.buf
        for i in range(len(buf) // 3):
            on = i < n
            buf[3 * i] = _LEVEL if on and g else 0
            buf[3 * i + 1] = _LEVEL if on and r else 0
            buf[3 * i + 2] = _LEVEL if on and b else 0
        if show:
            self.board.hw.painter.show()

    # ---- the cells ----------------------------------------------------------
    def _scan(self):
        # The board's own reading of the cells (its tick's, without the
        # match), and the pad's: a reader says it is down on failed transfers
        hw = self.board.hw
        if hw.pad is not None and self.stage <= _IDLE:
            hw.pad.step(False)
        cells = hw.cells
        if hasattr(cells, "slice_us"):
            cells.slice_us = scan.NO_WAIT
            sup = hw.painter.supply
            if sup is not None and sup.rf:
                cells.fields = sup.fields() - (1 if hw.pad is not None else 0)
        ch = cells.scan_for_changes()
        if ch < 0:
            return
        of = hw.layout.cell_of_channel
        x = of[ch] if ch < len(of) else 0xFF
        if x >= NCELLS:
            return
        on = cells.state[ch] != scan.EMPTY
        st = self.stage
        if st == _IDLE or st == _PARTS:
            if on:
                self.marks[x] = _STUCK
                self._show(x, ERR_RED)
        elif st == _CELLS and x == self._cell:
            if on:
                self.marks[x] = _ON
                self._show(x, SIDE1)  # seen: now lift it
            elif self.marks[x] == _ON:
                self.marks[x] = _SENSED
                self._show(x, LEGAL)
                self._next_cell()
                if self._cell >= NCELLS:
                    self._cells_done(self.board.now, False)

    def _next_cell(self):
        # the next cell to check: those stuck on the empty board are skipped
        # (they would read a card that is not there)
        x = self._cell + 1
        while x < NCELLS and self.marks[x] == _STUCK:
            x += 1
        self._cell = x
        if x < NCELLS:
            self._show(x, SIDE0 | SLOW)

    def _cells_done(self, now, skipped):
        bad = False
        for v in self.marks:
            if v == _UNSENSED:
                bad = True
        self.verdict[CELLS] = FAIL if bad else SKIP if skipped else PASS
        self._say(7, CELLS)
        self._enter(_KEYS, now)

    # ---- the buttons --------------------------------------------------------
    def _next_key(self, now):
        k = self._key + 1
        self._key = k
        v = self.board.view.layer
        for x in range(NCELLS):
            v[x] = OFF
        if k >= 3:
            self._verdict(KEYS, not self.keys)
            self._enter(_END, now)
            return
        self.due = now + _MS[_KEYS]
        for i in range(k + 1):  # one, two, three cells of row E: MODE, CONFIRM, DECLARE
            v[ROW_START[4] + i] = SIDE1 | SLOW
        self.board.view._changed()
        self._say(8, k)

    # ---- the end ------------------------------------------------------------
    def _end(self):
        """The summary: every cell green when all passed; else row B's
        first six cells a step each (green passed, red failed, grey
        skipped) and the cells that failed red. Kept in the settings at
        once (a flash write: nothing else runs now)."""
        v = self.board.view.layer
        m = self.failed()
        for x in range(NCELLS):
            v[x] = LEGAL if not m else ERR_RED if self.marks[x] in (_STUCK, _UNSENSED) else OFF
        if m:
            for k in range(NSTEPS):
                w = self.verdict[k]
                v[ROW_START[1] + k] = ERR_RED if w == FAIL else SETTING if w == SKIP else LEGAL
        self.board.view._changed()
        st = self.board.settings
        st.set(S.SELFTEST, 1 + m, self.board.now)
        try:
            st.save()
        except OSError:
            pass  # left dirty: the board's tick writes it on a quiet one
        self._say(10)

    def failed(self):
        """Bit k: step k failed."""
        m = 0
        for k in range(NSTEPS):
            if self.verdict[k] == FAIL:
                m |= 1 << k
        return m

    def finish(self):
        """Back to what the board was doing: its cells as they read now,
        its screen."""
        global last
        b = self.board
        self.done = True
        b.selftest = None
        last = self  # SELFTEST last: its report in words until the next run
        hw = b.hw
        state = hw.cells.state
        sensor = hw.layout.sensor
        for x in range(NCELLS):
            b.sensed[x] = state[sensor[x]]
        b.view.dark_changed()
        if b.want is not None:
            b._check_resume()
        elif b.ref is None:
            b._show_setup()
        else:
            b._refresh()
        b._event("changed")

    # ---- helpers ------------------------------------------------------------
    def _verdict(self, step, ok):
        self.verdict[step] = PASS if ok else FAIL
        self._say(7, step)

    def _layer(self, v):
        layer = self.board.view.layer
        for x in range(NCELLS):
            layer[x] = v
        self.board.view._changed()

    def _show(self, x, v):
        self.board.view.layer[x] = v
        self.board.view._changed()

    def _say(self, what, arg=0):
        from . import selftext  # the words, only when one is said

        self.board._say(selftext.say(self, what, arg))

    def report(self):
        from . import selftext

        return selftext.report(self)


last = None  # the run that ended this boot (finish())


def begin(board, now):
    """Start the self-test on the board (at boot: Board.boot_check; the
    link's SELFTEST); it runs in the board's tick until its summary is
    left."""
    board.selftest = SelfTest(board, now)
    return board.selftest

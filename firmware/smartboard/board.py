# The board's main loop: scanning, inference, rules, LEDs and settings as
# one cooperative tick (a small scheduler: every step is bounded, none
# waits on another). The hardware comes in from the start-up code —
# firmware/main.py on the RP2040, smartboard.sim on a PC — so this file
# never asks which platform it runs on.
#
#   board = Board(hw, settings)
#   while True:
#       board.tick(ticks_ms())
#
# Phases: SETUP (choose the match on the buttons, clear the board), PLAY,
# OVER. Buttons (issue 3; a long press is held 0.7 s):
#   SETUP  MODE: game mode   DECLARE: who starts   long DECLARE:
#          special_then_place   long CONFIRM: players (teen 2/4/6,
#          junior 2..6); in the other modes the computer: nobody, Gold at
#          levels 1..5, Black at 1..5 (row B: a cell a level in its colour)
#          CONFIRM: start (refused, cards blink red, while cards lie on
#          the board)
# The computer's seats and level, the hints' assistance and their limit per
# turn are set on the link (SET computer|level|assist|hintlimit) or by
# the companions; a match with a computer seat loads smartboard.computer.
#   PLAY   MODE: display mode (adult, hint, card query)   DECLARE: choose
#          a declaration (declaration(): in the modes with a reserve deck
#          the pass of the seat to play (§4 D-9), then deck empty of the
#          side to play, of the other side, forced removal of A, of B;
#          queens-gambit and teen deck empty of either side; junior
#          "player n is out" for each player (§6 D-13); the free cells
#          preview it), CONFIRM commits it; CONFIRM alone commits the
#          reserve deck the keeper lifted (§4), or in the keeper's reserve
#          turn with nothing lifted the empty reserve (D-14)
#          long CONFIRM: abandon
#   OVER   CONFIRM: back to SETUP
#   any    long MODE: brightness
#
# Match-log storage (issue 4, smartboard.logstore): below 64 KB free the
# board says so (a message, and row I blinking yellow in set-up and at the
# start of a match until the first card); on a full flash (writes failing)
# the match goes on, its moves wait in the game, the sign stays on through
# the match and the board says when the log is saved again. It never
# deletes a log: the host pulls and deletes them (docs/protocol.md).
# The match in play always has its room (issue 25): when the longest match
# does not fit (logstore.writer.MatchLog.room), the board says so in set-up
# (a message, row I blinking fast), a CONFIRM is refused with the question,
# and only a second CONFIRM (or the host's NOLOG) starts the match unsaved
# (the sign blinks fast until its first card). After a power cut that lost
# something (moves waiting in memory, a match played unsaved), the board
# says what at boot (STATUS lost=, until the next match starts).
from apixagon.codes import (
    BEEKEEPER,
    DECK_EMPTY,
    FORCED_REMOVAL,
    JUNIOR,
    OK,
    OUT,
    PASS,
    PLACE,
    RAIN_MOVE,
    RESERVE,
    SMOKER,
)
from apixagon.compat import const
from apixagon.game import Game
from apixagon.geometry import NB, NCELLS, NONE

from . import buttons, referee, scan, tag, uids
from . import settings as S
from .view import FAST, SIDE0, SLOW, View, matches, player_colour, turn_colour

SETUP = const(0)
PLAY = const(1)
OVER = const(2)
RESUME = const(3)  # after a power cut: the cards must match the log first

# self.storage
STORE_OK = const(0)
STORE_LOW = const(1)  # below logstore.folder.LOW_BYTES free
STORE_FULL = const(2)  # the last log write failed: moves wait in memory

_TEEN = const(6)
_QUERY_MS = const(15000)  # a card query lights for this long
_PAD_MS = const(40)  # the pad is read this often: a tap lasts far longer
_HEALTH_MS = const(1000)  # the parts are asked this often (check_parts)
_SAY_FAULT_MS = const(10000)  # a fault that repeats is said this often at most
_SIGN_MS = const(8000)  # the corners blink that long after a fault
# Parts that can fail on their own (check_parts): kinds of board.part()
PART_READER = const(0)  # a cell reader (lane k) and the cells only it senses
PART_PAD = const(1)
PART_STRIP = const(2)
PART_CELLS = const(3)  # the whole cell scanner (only ever failed(): it did not start)
PART_SUPPLY = const(4)  # the USB supply: too little for the strip's dark LEDs (paint.py)


def part(kind, ok, k=0, cells=b"", err=None):
    """A part the loop asks once a second: ok() is True while it works;
    cells: bytes, the cells only it senses (they blink while it is down);
    err: why it failed to start, if it did (then it stays down)."""
    return (kind, ok, k, cells, err)


def _never():
    return False


def failed(kind, err):
    """A part whose start-up raised: down for good, its reason kept."""
    return part(kind, _never, err=str(err))


class Hardware:
    """What the start-up code hands the loop: the cell scanner and the pad
    scanner (scan_for_changes()/state), the buttons, the painter over the
    strip, the layout, whether the cells sense occupancy only, and the
    parts that can fail on their own (part(): check_parts), and the
    bus-hang recoveries of the parts on reset lines (smartboard.recover,
    stepped every tick)."""

    def __init__(
        self, cells, pad, keys, painter, layout, paired=False, uids=None, parts=(), recover=()
    ):
        self.cells = cells
        self.uids = uids  # UidTable shared with the scanners (a learned deck)
        self.pad = pad
        self.keys = keys
        self.painter = painter
        self.layout = layout
        self.paired = paired
        self.parts = parts
        self.recover = recover


class Board:
    def __init__(self, hw, settings, listener=None):
        self.hw = hw
        self.settings = settings
        self.listener = listener  # on_event(board, text)
        self.log = None  # smartboard.logstore.writer.MatchLog: flushed on quiet ticks
        self.view = View(hw.painter)
        self.sensed = bytearray(NCELLS)  # stable state per cell, any phase
        self.phase = SETUP
        self.ref = None
        self.declaring = 0  # the DECLARE cycle's choice, 0 none (declaration())
        self.message = ""
        self.refused = False  # SETUP: CONFIRM refused, cards on the board
        self._refusal_seen = None  # the referee's refusal last said
        self.learning = False  # teaching a deck's UIDs on the pad (set-up)
        self._query_at = 0
        self._nlog = 0
        self._changed_seen = -1
        self._pad_at = -_PAD_MS
        self._pad_busy = False  # a pad read begun, its answer not collected
        self._hot = bytearray(hw.layout.nchannels)
        # A scanner that reads every cell each pass (the reed matrix) has
        # nothing to put first: the likely cells are not worked out for it
        # (~1 ms of each sensor event on the RP2040).
        self._likely = getattr(hw.cells, "PRIORITISED", True)
        # A scanner that reads on for a slice of time (scan.NfcLanes) is
        # told each tick how long it may (_slice)
        self._sliced = hasattr(hw.cells, "slice_us")
        self.brief = False  # the PC downloads: a tick as short as it can be (loop.step)
        # After a tick: nothing was done and nothing is due within a
        # millisecond (the cells' scanner quiet, no flash work, no tap
        # being confirmed): the loop may let the chip sleep (loop.step)
        self.quiet = False
        self.now = 0
        self.storage = STORE_OK
        self.room = True  # the longest match fits (the log's room rule)
        self.asking = False  # a CONFIRM refused for want of room: unsaved?
        self._space_seen = -1  # log.space when the storage was last judged
        self._unsafe_seen = False  # log.unsafe as last said
        self.want = None  # RESUME: the state each cell must sense
        self._wrong = 0  # RESUME: how many cells do not sense it yet
        self.faults = 0  # bit i: hw.parts[i] is down
        self.crashes = 0  # errors the loop caught and went on (STATUS faults=)
        self._crash_said = -_SAY_FAULT_MS
        self._parts_at = -_HEALTH_MS
        # Seats played from elsewhere (smartboard.computer), None: people
        # only. The move awaited was worked out at the game's nlog
        # _expect_at, for the seat _expect_seat; _undone: (nlog, move,
        # side, seat) of its move carried out last (a take-back of it asks
        # for the same move again).
        self.remote = None
        self._expect_at = -1
        self._expect_seat = (0, 0)
        self._undone = None
        self._hints = 0  # card queries this turn (settings.HINT_LIMIT)
        self._hint_ply = -1
        # smartboard.selftest's run while it runs: it owns the tick
        self.selftest = None
        hw.painter.brightness = S.BRIGHTNESS[settings.get(S.BRIGHT)]
        self._show_setup()

    # ---- the loop ---------------------------------------------------------
    def _slice(self, now):
        """How long the cells' lanes may go on reading this tick
        (scan.NfcLanes.slice_us): no waiting at all with no match in play
        or while the PC downloads (brief: its next request waits for the
        tick); one read while a card seen on the pad is being confirmed
        (the pad's channel is 0; a quick tap lasts ~150 ms and needs three
        agreeing reads: at a slice a read, the third came too late and a
        Beekeeper's or a Smoker's tap went unseen), and while a pad read
        is under way: begun on one tick and collected on the next, its
        answer there within a few ms, it was collected a whole slice later,
        each pad read took two slices (~55 ms on the chip) and a tap's
        first read came up to ~100 ms after it landed (the simulated
        board), leaving its two confirming reads too little of 150 ms."""
        if self.brief or (self.phase != PLAY and self.phase != RESUME):
            return scan.NO_WAIT
        pad = self.hw.pad
        if self._pad_busy or (pad is not None and pad.deb.pending(0)):
            return 0
        return scan.SLICE_US

    def tick(self, now):
        """One pass: a scanner step for the cells and for the pad, the
        buttons, then a frame if one is due, then settings to flash if due.
        True when no cell changed (a quiet tick, for flash writes)."""
        self.now = now
        if self.selftest is not None:
            return self.selftest.tick(now)
        hw = self.hw
        self.quiet = False
        # The reset lines first, while `now` is fresh: the cells' slice
        # below takes up to 25 ms, and a pulse timed from a stale `now`
        # came out that much shorter than LOW_MS (smartboard.recover).
        rec = hw.recover
        for i in range(len(rec)):
            if rec[i].step(now):  # resets did not bring a part back
                from . import health

                self._say(health.stuck(rec[i].kind, rec[i].tries))
        if self._sliced:
            hw.cells.slice_us = self._slice(now)
            sup = hw.painter.supply
            if sup is not None and sup.rf:
                # the RF fields the supply carries at once, the pad's first
                # (smartboard.power fields_allowed; the lanes take turns)
                hw.cells.fields = sup.fields() - (1 if hw.pad is not None else 0)
        ch = hw.cells.scan_for_changes()
        if ch >= 0:
            x = hw.layout.cell_of_channel[ch] if ch < len(hw.layout.cell_of_channel) else NONE
            if x != NONE:
                self.cell_changed(x, hw.cells.state[ch])
        pad = hw.pad
        # A card seen on the pad and not yet confirmed is read again at
        # once: a tap is three agreeing reads (scan.STABLE), and a quick
        # one lasts ~150 ms.
        if pad is not None and (
            self._pad_busy or now - self._pad_at >= _PAD_MS or pad.deb.pending(0)
        ):
            # Begun on one tick, collected on a later one: the loop never
            # waits the ~1-5 ms of the pad's RF work (profile B's 50 ms).
            if not self._pad_busy:
                self._pad_at = now
            pc = pad.step(False)
            self._pad_busy = pc == scan.BUSY
            if pc >= 0 and pad.state[pc] != scan.EMPTY:
                self.pad_tapped(pad.state[pc])
        ev = hw.keys.poll(now)
        if ev != buttons.NONE:
            self.button(ev)
        if now - self._parts_at >= _HEALTH_MS:
            self._parts_at = now
            self.check_parts()
        ref = self.ref
        seen = False
        if ref is not None and self.phase != RESUME:
            if ref.query and now - self._query_at > _QUERY_MS:
                ref.query = 0
                ref.changed += 1
            if ref.changed != self._changed_seen:
                self._refresh(False)
                seen = True
        hw.painter.follow(now)  # a lowered USB-C advertisement, on a static screen too
        self.view.frame(now)
        if seen:
            # The cells read first for the next change are chosen once this
            # one is shown: their legal cells and the lanes' lists (~3 ms of
            # the chip) were part of every placement's time to its LED.
            self._prioritise()
        if ch >= 0:
            return False
        # A quiet tick (no card just moved): at most one flash write, the
        # settings or one match-log record (issue 3/4: flash writes stall
        # the CPU, so they never share a tick with a card).
        log = self.log
        quiet = False
        if self.settings.due(now):
            self.settings.save()
        elif log is not None and log.pending(now):
            log.flush(now)
        elif (
            log is not None
            and not self.brief
            and (log.pack_in_play() if self.phase == PLAY else log.pack_due())
        ):
            # a bounded step (logstore/pack.py), between matches, or in play
            # while the match's room counts on it (its ticks are its cards'
            # otherwise); not while the PC downloads (brief): the chip is
            # the download's
            log.pack_step()
        else:
            pending = self._pad_busy or (pad is not None and pad.deb.pending(0))
            quiet = not pending and hw.cells.rest()
        if log is not None and log.space != self._space_seen:
            self._check_storage(self._space_seen < 0)
        self.quiet = quiet
        return True

    # ---- inputs -------------------------------------------------------------
    def cell_changed(self, x, state):
        if self.phase == RESUME:
            self._resume_cell(x, state)
            return
        self.sensed[x] = state
        if self.phase != SETUP:
            self.ref.sensed(x, state)
        elif self.phase == SETUP:
            if self.refused and not self._occupied():
                self.refused = False
            self._show_setup()

    def pad_tapped(self, state):
        if self.phase == RESUME:
            return  # the cards go back first
        if self.phase == SETUP:
            if state == scan.FOREIGN and self.hw.uids is not None:
                self._learn()
            elif self.learning:
                self._say("that card is already learned")
            return
        if self._hint_limited(state):
            return
        self.ref.pad(state)  # a refusal: the referee keeps it (_refresh says it)
        self._query_at = self.now

    def _hint_limited(self, state):
        # settings.HINT_LIMIT: card queries (a normal card or a Rain tapped
        # in the hint or query display) a turn at most; hints on request.
        s = self.settings
        limit = s.get(S.HINT_LIMIT)
        if not limit or s.get(S.DISPLAY) == 0 or self.hw.paired:
            return False  # profile B: a tap also names the card put down
        k = tag.kind_of(state - 1) if 0 < state < referee.UNPAIRED else tag.BEEKEEPER
        if k != tag.NORMAL and k != tag.RAIN:
            return False
        ply = self.ref.game.ply()
        if ply != self._hint_ply:
            self._hint_ply = ply
            self._hints = 0
        if self._hints >= limit:
            self._say("no more hints this turn (%d a turn)" % limit)
            return True
        self._hints += 1
        return False

    def setting_changed(self, i):
        """A setting changed from the host (SET): the LEDs show it at once,
        as when the buttons change it (a parent switching a child to the
        hint mode from the web page saw nothing until the next card)."""
        if i == S.BRIGHT:
            self.hw.painter.brightness = S.BRIGHTNESS[self.settings.get(S.BRIGHT)]
            self.view.dirty = True
        elif self.phase == SETUP:
            self._show_setup()
        elif self.phase == PLAY and (i == S.DISPLAY or i == S.ASSIST):
            self._refresh()
        else:
            return
        self._event("changed")

    def button(self, ev):
        s = self.settings
        now = self.now
        if ev == buttons.MODE | buttons.LONG:
            level = s.cycle(S.BRIGHT, now)
            self.hw.painter.brightness = S.BRIGHTNESS[level]
            self.view.dirty = True
            return
        if self.phase == SETUP:
            if self.asking and ev != buttons.CONFIRM:
                # the question is off: not played unsaved
                self.asking = False
                self._event("changed")
            if self.learning:
                if ev == buttons.MODE:  # cancel: keep the deck learned before
                    self.learning = False
                    self.hw.uids.load()
                    self._say("teaching cancelled")
                    self._show_setup()
                return
            if ev == buttons.MODE:
                s.cycle(S.GAME_MODE, now)
            elif ev == buttons.DECLARE:
                s.cycle(S.START, now)
            elif ev == buttons.DECLARE | buttons.LONG:
                s.cycle(S.STP, now)
            elif ev == buttons.CONFIRM | buttons.LONG:
                m = s.get(S.GAME_MODE)
                if m == JUNIOR:
                    p = s.get(S.JPLAYERS)  # §6: 2 to 6 players
                    s.set(S.JPLAYERS, 2 if p >= 6 else p + 1, now)
                elif m == _TEEN:
                    p = s.get(S.PLAYERS)  # §7: 2, 4 or 6
                    s.set(S.PLAYERS, 2 if p >= 6 else p + 2, now)
                else:
                    self._cycle_computer(now)
            elif ev == buttons.CONFIRM:
                self.start()
                return
            self._show_setup()
            self._event("changed")
        elif self.phase == RESUME:
            if ev == buttons.CONFIRM | buttons.LONG:
                self._say("match abandoned")
                self._event("abandoned")
                self.new_match()
        elif self.phase == PLAY:
            if ev == buttons.MODE:
                s.cycle(S.DISPLAY, now)
                self._refresh()
                self._event("changed")
            elif ev == buttons.DECLARE:
                self.declaring = (self.declaring + 1) % (self._choices() + 1)
                self._refresh()
                self._event("changed")
            elif ev == buttons.CONFIRM:
                self._confirm()
            elif ev == buttons.CONFIRM | buttons.LONG:
                self._say("match abandoned")
                self._event("abandoned")
                self.new_match()
        elif ev == buttons.CONFIRM:
            self.new_match()
            self._event("changed")  # OVER to SETUP: no phase event says it

    # ---- phases -------------------------------------------------------------
    def start(self, unsaved=False):
        """CONFIRM in SETUP: a match begins on a clear board, logged if the
        longest match fits on the flash; if not, the board asks first and
        a second CONFIRM (or unsaved: the host's NOLOG, while it asks)
        starts it unsaved."""
        if self._occupied():
            self.refused = True
            self._say("clear the board first")
            self._show_setup()
            return False
        log = self.log
        if log is not None:
            if self.asking or unsaved:
                log.unlog = True
            elif not log.room(start=True):
                self.asking = True
                self.room = False
                self._say(
                    "storage full: this match would not be saved; press CONFIRM again to "
                    "play it unsaved, or download the match logs first"
                )
                self._show_setup()
                self._event("changed")
                return False
        self.asking = False
        s = self.settings
        mode = s.get(S.GAME_MODE)
        # The last match's game goes first (unless its log still waits to
        # be written), and so does a match waiting for a full flash: the new
        # game's undo log wants one 1 KB block of the heap.
        self.ref = None
        if self.log is not None:
            self.log.make_room()
        g = Game(mode, s.get(S.START), self.players(), s.get(S.STP))
        self.ref = referee.Referee(g, self.hw.paired)
        self.phase = PLAY
        self.declaring = 0
        self._nlog = 0
        self._refusal_seen = None
        self._make_remote(g, s.get(S.COMPUTER), s.get(S.LEVEL) + 1)
        self._event("start")
        self._check_storage(True)
        self._refresh()
        return True

    def _cycle_computer(self, now):
        # The set-up's computer on the buttons: nobody, Gold (seat 1 of the
        # second side) at levels 1..5, Black (the first side's) at 1..5;
        # the host names any seat of a team game (SET computer).
        s = self.settings
        mask = s.get(S.COMPUTER)
        n = S.LIMITS[S.LEVEL]
        k = 0 if mask not in (1, 8) else 1 + s.get(S.LEVEL) + (n if mask == 1 else 0)
        k = (k + 1) % (2 * n + 1)
        s.set(S.COMPUTER, 0 if not k else (8 if k <= n else 1), now)
        if k:
            s.set(S.LEVEL, (k - 1) % n, now)

    def _make_remote(self, g, mask, level, seed=0):
        # The computer's seats of the set-up, if the mode has them; the
        # match log names them and the level ([Computer], [Level] tags).
        self.remote = None
        self._expect_at = -1
        self._undone = None
        if self.log is not None:
            self.log.match_tags = ()
        if not mask:
            return
        from . import computer

        held = computer.seats_of(g, mask)
        if not held:
            return
        seed = seed or 1 + (self.now & 0x3FFF)
        self.remote = computer.Computer(g, held, level, seed)
        if self.log is not None:
            self.log.match_tags = computer.tags(g, held, level, seed)

    def _resumed_remote(self, g, tags):
        # The computer of a match being resumed (its seats, [Level] and
        # [Seed] tags), made on its game before the first line is replayed:
        # dealt as when the match began, its hand the board's own draw
        # (RULES §8), then each line applied through it (Replay) so that its
        # hands and choices are what they were before the restart
        for name, value in tags:
            if name == "Computer":
                from . import computer

                mask = computer.mask_of(g, value)
                self._make_remote(g, mask, computer.level_of(tags), computer.seed_of(tags))
                return self.remote
        return None

    def _remote_turn(self):
        """A seat played from elsewhere: work out the move the board waits
        for when it is that seat's turn (the referee then takes only that
        one), carry out the declarations it makes (no card to carry), and
        hand it the moves carried out."""
        rem = self.remote
        ref = self.ref
        g = ref.game
        if ref.fulfilled:
            t, seat = self._expect_seat
            rem.done(ref.fulfilled, t, seat, g)
            self._undone = (self._expect_at, ref.fulfilled, t, seat)
            self._expect_at = -1
            ref.fulfilled = 0
        if g.over() or not rem.plays(g):
            ref.expect = 0
            ref.expect_cells = b""
            return
        if self._expect_at == g.nlog:
            return  # worked out for this position already (or none found)
        from . import seats  # (not computer: a far seat never loads the engine)

        for _ in range(4):  # its declarations, then its move
            u = self._undone
            if u is not None and u[0] == g.nlog:
                # its own move taken back: the same move, its card in hand
                m = u[1]
                rem.taken_back(m, u[2], u[3])
            else:
                m = rem.move(g)
            self._expect_seat = (g.side_to_play(), g.seat_to_play())
            if m and seats.carried_by_board(m):
                if seats.declare(g, m) == OK:
                    self._nlog = g.nlog
                    ref.changed += 1  # the next pass sees its end, if it ended the match
                    self._event("move")
                    if g.over() or not rem.plays(g):
                        ref.expect = 0
                        return
                    continue
                m = 0
            break
        self._expect_at = g.nlog
        ref.expect = m
        ref.expect_cells = rem.reserve_cells() if m and m >> 16 == RESERVE else b""
        if m == seats.WAITING:
            pass  # a far seat's move not known yet (smartboard.remote)
        elif m:
            self._event("expect")
        else:
            self._say("the computer has no move: declare for it")

    def resume_from(self, log):
        """At boot: go on with the log's unfinished match, if there is one.
        Whatever the flash holds, this never stops the boot: a log that
        cannot be read or replayed is left as it is, the board says so and
        starts in set-up."""
        try:
            found = log.unfinished()
            if found is not None:
                self.resume(found[1].lines(), log)
        except Exception as e:  # noqa: BLE001 - a board that boots, whatever the log
            log.release()
            self.new_match()
            self.fault("resume", e)

    def resume(self, lines, log=None):
        """Issue 4: a match cut off by a power cut goes on. lines: its .apx
        record from the log (smartboard.logstore). The LEDs show the
        missing and the extra cards until the board matches the log; then
        play continues where it stopped."""
        from apixagon import record

        c = _replayer(self)
        try:
            record.read(lines, c)
        except ValueError:  # not text (an edit that kept the chain whole)
            c.verdicts.append((0, 0))
        if c.verdicts:
            self.remote = None  # (made for the lines before the bad one)
            if log is not None:
                log.release()  # left as it is on flash
            self._say("log unreadable at line %d: new match" % c.verdicts[0][0])
            return False
        g = c.game
        self.ref = referee.Referee(g, self.hw.paired)
        if c.seats is None:
            # no line replayed: its seats dealt now, as when the match began
            self._resumed_remote(g, c.tags)
        if log is not None:
            log.adopt(g)
        self.want = bytearray(NCELLS)
        for x in range(NCELLS):
            o = g.board[x]
            self.want[x] = referee._code_of(o) if o else 0  # already 1 + tag code
        self.phase = RESUME
        self._refusal_seen = None
        self._say("resuming: put the cards back as they were")
        self._check_resume()
        if self.phase == RESUME:
            self._event("want")  # the cards the cells still want (the link's event)
        return True

    def _check_resume(self):
        paired = self.hw.paired
        want = self.want
        wrong = 0
        for x in range(NCELLS):
            if not matches(want[x], self.sensed[x], paired):
                wrong += 1
        self._wrong = wrong
        if wrong:
            self.view.resume(want, self.sensed, paired)
        else:
            self._resumed()

    def _resume_cell(self, x, state):
        # One cell sensed anew: the count of cells still wrong follows it,
        # and only its LED is worked out again (a resume senses every card
        # of the match one by one; boot + resume of 100 moves <= 3 s).
        paired = self.hw.paired
        w = self.want[x]
        was = matches(w, self.sensed[x], paired)
        self.sensed[x] = state
        now = matches(w, state, paired)
        self._wrong += was - now
        if self._wrong:
            self.view.resume(self.want, self.sensed, paired, x)
            if w and was != now:
                self._event("want")  # the list of cards to put back changed
        else:
            self._resumed()

    def _resumed(self):
        paired = self.hw.paired
        ref = self.ref
        if paired:
            # Profile B: identities from the log, named as the referee
            # names a card put back (a side's second Rain the other Rain's
            # tag, or it would see one card on two cells and wait for ever).
            board = ref.game.board
            for x in range(NCELLS):
                ref.phys[x] = ref.code_on(x, board[x]) if board[x] else 0
        else:
            # Profile A: the cards themselves (either Rain of a side matches
            # the log's, view.matches).
            for x in range(NCELLS):
                ref.phys[x] = self.sensed[x]
        self.want = None
        self.phase = PLAY
        self._nlog = ref.game.nlog
        self._event("want")  # nothing left to put back
        self._event("resumed")
        self._refresh()

    def new_match(self):
        self.ref = None
        self.remote = None
        self.phase = SETUP
        self.refused = False
        self._check_storage(True)
        self._show_setup()

    def _confirm(self):
        kind, arg = self.declaration()
        if not kind and (self.ref.nres or self.ref.game.reserve_due()):
            kind = RESERVE  # the lifted reserve, or in the keeper's turn the empty one (D-14)
        self.declare(kind, arg)

    def declare(self, kind, arg=0):
        """Commit a declaration (the buttons' CONFIRM, the link's DECLARE):
        kind DECK_EMPTY or FORCED_REMOVAL of side arg, PASS of the seat to
        play, OUT of player arg, RESERVE (the cards lifted, or none); 0
        nothing. The referee's verdict (OK or a reason code); a refusal is
        kept by the referee and said by _refresh, as a card's is."""
        ref = self.ref
        self.declaring = 0
        r = OK
        rem = self.remote
        if rem is not None and not rem.level and self._far_declaration(rem, kind, arg):
            # a seat played from elsewhere (smartboard.remote) declares at
            # its own board: its move comes from there, its deck is there
            who = arg if kind == DECK_EMPTY or kind == FORCED_REMOVAL else ref.game.side_to_play()
            ref._refuse(referee.WRONG_MOVE, kind, bytes((who,)))
            self._refresh()
            return referee.WRONG_MOVE
        if kind == DECK_EMPTY:
            r = ref.declare_deck_empty(arg)
        elif kind == FORCED_REMOVAL:
            r = ref.declare_forced_removal(arg)
        elif kind == PASS:
            r = ref.declare_pass()
        elif kind == OUT:
            r = ref.declare_out(arg)
        elif kind == RESERVE:
            r = ref.confirm_reserve()
        self._refresh()
        return r

    def _far_declaration(self, rem, kind, arg):
        g = self.ref.game
        if kind == PASS:
            return rem.plays(g)
        if kind == FORCED_REMOVAL and rem.plays(g):
            # on the far seat's turn its board may be placing this very
            # move: declared then, the two boards' records would cross
            return True
        if kind == DECK_EMPTY or kind == FORCED_REMOVAL:
            # the far team's deck is at its board (RULES.md §4): so is the
            # card a forced removal locks away
            for t, _ in rem.held:
                if t == arg:
                    return True
        return False

    def _refresh(self, hot=True):
        # hot: the cells read first chosen too (tick: after the frame)
        ref = self.ref
        g = ref.game
        self._changed_seen = ref.changed
        moved = g.nlog != self._nlog
        if moved:
            self._nlog = g.nlog  # a move, a declaration or a take-back
            self._event("move")
        rf = ref.refusal
        if rf is not self._refusal_seen:
            # a new refusal is said (its reason and the refused line: the
            # link's `refused` event); one that ended changes STATUS only
            self._refusal_seen = rf
            if rf is not None:
                self._event("refused")
            elif not moved:
                self._event("changed")
        # A take-back of the winning card reopens the match (D: the last
        # card may be taken back before anyone acts on it).
        phase = OVER if g.over() else PLAY
        if phase != self.phase:
            self.phase = phase
            self._event("over" if phase == OVER else "resumed")
        if self.remote is not None and self.phase == PLAY:
            self._remote_turn()
        # The storage sign: all through the match on a full flash; when
        # storage is low, from the start until the first move; fast when
        # the match is played unsaved, until its first move.
        st = self.storage
        w = 0
        if self.log is not None and self.log.unlogged is g and not g.nlog:
            w = FAST
        elif st == STORE_FULL or (st == STORE_LOW and not g.nlog):
            w = SLOW
        self.view.warn = w
        s = self.settings
        self.view.play(ref, s.get(S.DISPLAY), self._preview(), s.get(S.ASSIST))
        if hot:
            self._prioritise()

    def _choices(self):
        # How many declarations DECLARE cycles through (declaration()).
        g = self.ref.game
        if g.mode == JUNIOR:
            return g.players
        return 5 if g.silent else 2

    def declaration(self):
        """(kind, arg) chosen on DECLARE, as codes' move kinds: (0, 0)
        none; (PASS, side) the seat to play passes (§4 D-9, the modes with
        a reserve deck: first, the tactical void's everyday choice); then
        (DECK_EMPTY, side) for the side to play and for the other side
        (declarations are not turns: NOTATION.md); (FORCED_REMOVAL, side)
        for A, then B (§4, the silent modes); in Junior (OUT, n), player n
        is out (§6 D-13; Junior has no deck-empty nor penalty)."""
        d = self.declaring
        if not d:
            return 0, 0
        g = self.ref.game
        if g.mode == JUNIOR:
            return OUT, d
        t = g.side_to_play()
        if g.silent:
            if d == 1:
                return PASS, t
            d -= 1
        if d <= 2:
            return DECK_EMPTY, t if d == 1 else t ^ 1
        return FORCED_REMOVAL, d - 3

    def _preview(self):
        # The free cells' colour while a declaration waits for CONFIRM: a
        # deck empty slow and a penalty fast in that side's colour, a pass
        # steady in the seat's colour, "player n is out" slow in player n's.
        kind, arg = self.declaration()
        if kind == PASS:
            return turn_colour(self.ref.game)
        if kind == OUT:
            return player_colour(arg) | SLOW
        if kind:
            return (SIDE0 + arg) | (SLOW if kind == DECK_EMPTY else FAST)
        return 0

    def players(self):
        """The players the set-up names: Teen's 2/4/6 (§7), Junior's 2..6
        (§6); 0 for the modes that fix their own."""
        s = self.settings
        m = s.get(S.GAME_MODE)
        if m == JUNIOR:
            return max(2, s.get(S.JPLAYERS))
        return s.get(S.PLAYERS) if m == _TEEN else 0

    def _prioritise(self):
        # The scanner reads first where the next change is likely: the
        # legal cells of the side to play (or, a special armed, its cells:
        # _special_cells), the cells in error (to see them fixed) and the
        # last move's cell with its neighbours (take-backs, corrections).
        # Mapped to sensor channels.
        if not self._likely:
            return
        ref = self.ref
        g = ref.game
        hot = self._hot
        for i in range(len(hot)):
            hot[i] = 0
        out = self.view.scratch
        if ref.armed:
            _special_cells(g, ref.armed, ref.src, out)
        else:
            g.legal_cells(None, out)
        sensor = self.hw.layout.sensor
        err = ref.err
        for x in range(NCELLS):
            if out[x] or err[x]:
                hot[sensor[x]] = 1
        e = ref.expect
        if e:
            hot[sensor[e & 255]] = 1  # the card the board waits for (smartboard.computer)
        kind, p = g.last_move()
        x = NONE
        if kind == PLACE or kind == RAIN_MOVE or kind == BEEKEEPER:
            x = p[-1]
        elif kind == SMOKER:
            x = p[1]
        if x != NONE:
            hot[sensor[x]] = 1
            for d in range(6):
                y = NB[x * 6 + d]
                if y != NONE:
                    hot[sensor[y]] = 1
        self.hw.cells.prioritise(hot)

    def _learn(self):
        # Issue 3: a tag without our payload tapped in set-up starts the
        # teaching of a new deck; each further one is the next card of the
        # order in smartboard.uids (the LEDs count them).
        u = self.hw.uids
        pad = self.hw.pad
        if not self.learning:
            self.learning = True
            u.forget()
        if u.learn(pad.uid, pad.uid_len) < 0:
            self._say("that card is already learned")
        elif u.count == uids.DECK:
            u.save()
            self.learning = False
            self._say("deck learned: %d cards" % uids.DECK)
        self._show_setup()

    def _check_storage(self, announce=False):
        """Judge the match-log storage (on boot, at set-up, at a match's
        start, and when a write fails, succeeds again or a log is deleted)
        and tell the players: a message (the serial link forwards it as a
        `say` event) and the sign on the LEDs."""
        log = self.log
        if log is None:
            return
        if self._space_seen < 0 and log.damaged is not None:
            # left as it is: the host shows where it breaks (logs pull)
            self._say("log %s damaged or unreadable: kept as it is, not resumed" % log.damaged)
        if self._space_seen < 0 and log.lost is not None:
            # a power cut lost what UNSAVED says (logstore.writer)
            self._say(lost_text(log.lost))
        if log.note is not None:
            # what the log's listing put right (junk moved aside), once
            self._say(log.note)
            log.note = None
        self._space_seen = log.space
        old = self.storage
        free = log.judge()
        if log.failing:
            st = STORE_FULL
        else:
            st = STORE_LOW if log.low(free) else STORE_OK
        self.storage = st
        roomy = self.room
        if self.phase == SETUP or self.phase == OVER or announce:
            self.room = log.room(free)
        if self.phase == SETUP and roomy != self.room:
            if not self.room:
                self._say(
                    "storage full: the next match cannot be saved (%d KB free); download "
                    "the match logs, or press CONFIRM twice to play it unsaved" % (free // 1024)
                )
            else:
                self.asking = False
                self._say("storage: room for the next match again")
            self._event("changed")
        if log.unsafe != self._unsafe_seen:
            self._unsafe_seen = log.unsafe
            if log.unsafe:
                # UNSAVED could not be written (logstore.writer): after a
                # cut nothing would say what was lost, so it is said now
                self._say("storage full: a power cut now would lose this match without a word")
        if st == STORE_FULL:
            if old != STORE_FULL:
                self._say("storage full: moves kept in memory; download the match logs")
        elif old == STORE_FULL:
            self._say("storage: the match log is saved again")
        if st == STORE_LOW and (announce or old == STORE_OK):
            # The board deletes no match itself, ever (docs/protocol.md):
            # the PC frees space, after a pull (STATUS unpulled= says how
            # many wait for it).
            self._say(
                "storage low: %d KB free; download the match logs (the board deletes none)"
                % (log.free_bytes() // 1024)
            )
        if st != old:
            if self.phase == SETUP:
                self._show_setup()
            elif self.phase != RESUME:
                self._refresh()

    def _show_setup(self):
        if self.learning:
            self.view.learning(self.hw.uids.count)
            return
        self.view.warn = (
            FAST if not self.room or self.asking else SLOW if self.storage != STORE_OK else 0
        )
        s = self.settings
        self.view.setup(
            self.sensed,
            s.get(S.GAME_MODE),
            s.get(S.START),
            s.get(S.STP),
            self.players(),
            self.refused,
            s.get(S.COMPUTER),
            s.get(S.LEVEL) + 1,
        )

    def boot_check(self):
        """At start-up (boards/start.py): the first-boot self-test on a
        board that never ran it, or when CONFIRM is held down (MODE held is
        the safe mode). Its module loads only then."""
        if self.settings.get(S.SELFTEST) and not self.hw.keys.reader.read() >> buttons.CONFIRM & 1:
            return False
        from . import selftest

        selftest.begin(self, self.now)
        return True

    # ---- parts that fail on their own ---------------------------------------
    def check_parts(self):
        """Ask each part whether it works (a reader whose cable came loose,
        the pad, an unplugged strip: the board plays on with what it has);
        say what changed, and let the cells no reader can sense blink."""
        parts = self.hw.parts
        mask = 0
        for i in range(len(parts)):
            if not parts[i][1]():
                mask |= 1 << i
        old = self.faults
        if mask == old:
            return
        from . import health  # the words, only when something changed

        self.faults = mask
        dark = self.view.dark
        for x in range(NCELLS):
            dark[x] = 0
        for i in range(len(parts)):
            p = parts[i]
            bit = 1 << i
            if mask & bit:
                for x in p[3]:
                    dark[x] = 1
                if not old & bit:
                    self._say(health.down(p))
            elif old & bit and p[4] is None:
                self._say(health.back(p))
        self.view.dark_changed()

    def fault(self, where, err):
        """An error the loop (or the link) caught: counted, said (once in a
        while if it repeats), the corners blink; the board goes on."""
        self.crashes += 1
        now = self.now
        self.view.alarm(now + _SIGN_MS)
        if now - self._crash_said >= _SAY_FAULT_MS:
            self._crash_said = now
            self._say(
                "internal error in %s (%s %s): the board goes on" % (where, type(err).__name__, err)
            )

    def faults_text(self):
        """The parts down, by name ("reader2,pad"), or "ok"."""
        if not self.faults:
            return "ok"
        from . import health

        parts = self.hw.parts
        return ",".join(health.name(parts[i]) for i in range(len(parts)) if self.faults >> i & 1)

    def _occupied(self):
        for v in self.sensed:
            if v:
                return True
        return False

    def _say(self, text):
        self.message = text
        if self.listener is not None:
            self.listener.on_event(self, text)

    def _event(self, what):
        if self.listener is not None:
            self.listener.on_event(self, what)


def _replayer(board):
    # A record.Checker keeping only the lines that fail: a boot after a
    # power cut replays a whole match in a heap that a verdict per line (a
    # tuple each) would only crowd. Made here: the board imports the record
    # module only when it resumes. The computer's seats (board._resumed_remote)
    # are made on the game before its first line and told each line.
    from apixagon import record

    class Replay(record.Checker):
        seats = None

        def move(self, lineno, letter, seat, kind, card, cells):
            if self.game is None:
                self._start_game()
                self.seats = board._resumed_remote(self.game, self.tags)
            if not self.verdicts:
                s = self.seats or record
                r = s.apply_move(self.game, letter, seat, kind, card, cells)
                if r != OK:
                    self.verdicts.append((lineno, r))

    return Replay(Game)


def lost_text(lost):
    """What a power cut lost, in words: lost is UNSAVED's (logstore.writer),
    e.g. "0007.alog:12", "unlogged", "match", comma-separated."""
    out = []
    for w in lost.split(","):
        i = w.find(":")
        if w == "unlogged":
            out.append("the match played unsaved was lost")
        elif i > 0:
            out.append(
                "log %s lost its moves after move %s, kept in memory (the flash was full)"
                % (w[:i], w[i + 1 :])
            )
        else:
            out.append("a match whose log could not be made was lost (the flash was full)")
    return "power cut: " + "; ".join(out)


# Names for views and logs.
DISPLAY_NAMES = ("adult", "hint", "card query")
# record keywords of the declarations, by move kind (declaration())
DECLARATIONS = {
    DECK_EMPTY: "deck-empty",
    FORCED_REMOVAL: "forced-removal",
    PASS: "pass",
    OUT: "out",
}
PHASES = ("setup", "play", "over", "resume")


def _special_cells(g, armed, src, out):
    """out[x] = 1 where an armed special's next change comes (§3.2): a
    Smoker lifts an opponent card that is neither the Royal card nor
    sealed; a Beekeeper lifts a card that may move, then puts it where its
    owner could place it (or back). Only those: with every card read first,
    ~15 hot cells a lane, a Smoker's lift waited a round of them (~0.2 s
    on the chip) to be seen."""
    t = g.side_to_play()
    for x in range(NCELLS):
        if armed == referee.ARM_SMOKER:
            ok = g.check_smoker(t, x) == OK
        elif src == NONE:
            ok = g._movable(x) == OK
        else:
            ok = x == src or g.check_beekeeper(t, src, x) == OK
        out[x] = 1 if ok else 0

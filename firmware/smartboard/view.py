# LED rendering: one palette index per cell, computed when the game or the
# referee changes, then painted each frame with the blink phase applied.
# The rules are asked only on a change (a full hint query costs ~2 ms on
# the emulated RP2040, docs/figures.md); a frame is a palette entry copied per cell,
# and a frame is written only when something changed or something blinks
# (a frame costs ~0.5 ms, its write to the strip included).
#
# Display modes (issue 3, kept in the settings):
#   ADULT   the last move, errors and whose turn it is
#   HINT    for kids: also the legal cells of the player to move, the
#           threats to block (a run of 3 blinks), the Royal Cell locked or
#           open to them (§3.1, D-5) and the sealed sequences (§2)
#   QUERY   ADULT plus the card query: tap a card on the action pad and its
#           legal cells light, extensions and blocks in their own colours
#           (the query also works in HINT and replaces the legal cells)
# The hints' assistance (settings.ASSIST): 0 the legal cells alone; 1 also
# the cells to block; 2 also, for a card queried, the engine's good cells
# (GOOD: the legal colour blinking slowly, the cells worth a look) and
# poor ones (POOR: a rose of their own) among its legal cells. (Only one
# colour more fits the palette's measured differences, apixagon_host.colours.)
# A seat played from elsewhere (the computer: Referee.expect) shows the
# cells of the move the board waits for, pulsing in that seat's colour,
# instead of hints (it is not the players' turn).
from apixagon.codes import (
    BEEKEEPER,
    BLOCK,
    EXTENSION,
    JUNIOR,
    PLACE,
    PLAIN,
    RAIN_MOVE,
    ROYAL_CELL,
    SMOKER,
)
from apixagon.compat import const, micropython, ptr8
from apixagon.geometry import NB, NCELLS, NONE, ROW_START, ROYAL

from . import referee, tag

ADULT = const(0)
HINT = const(1)
QUERY = const(2)
NMODES = const(3)

# Palette indices (the colours are in PALETTE, eye-linear RGB)
OFF = const(0)
SIDE0 = const(1)  # black / team A: blue (an LED cannot show black)
SIDE1 = const(2)  # gold / team B
LEGAL = const(3)
EXTEND = const(4)
BLOCKS = const(5)  # an open end of an opponent run: block here
THREAT = const(6)  # the open end of an opponent run of 3 or more (blinks)
ROYAL_LOCKED = const(7)
ROYAL_OPEN = const(8)
SEALED_RUN = const(9)
LAST = const(10)
ERR_RED = const(11)
ERR_AMBER = const(12)
ERR_UNKNOWN = const(13)
ERR_TAP = const(14)
RESERVED = const(15)
CLEAR = const(16)  # set-up: a card still on the board
SETTING = const(17)  # set-up: indicator cells
SEAT = const(18)  # 18..20 seats A1..A3, 21..23 seats B1..B3
STORAGE = const(24)  # match-log storage low or full (row I, slow blink)
POOR = const(25)  # assistance 2: a poor cell for the queried card (the engine's)

SLOW = const(0x40)  # blinks at 1 Hz: look here
FAST = const(0x80)  # blinks at 4 Hz: an error, act now
GOOD = const(0x43)  # LEGAL | SLOW: a good cell for the queried card

# (a bytearray: the `palette` setting writes smartboard.cbpalette's
# colour-blind-safe entries over it, and the standard ones back.) Each
# meaning has a colour of its own, any two at least ΔE00 20 apart as the
# web page draws them (apixagon_host.colours says why and how it is
# measured; tests/host/test_colours.py holds both palettes to it): an
# error is red and a threat of 3 crimson, a legal cell green and the open
# Royal Cell a brighter one, the last move grey, set-up's settings a
# darker grey, a card left in set-up white; team A's seats blues, team
# B's warm colours. Blinking stays a second cue on top.
PALETTE = bytearray(
    (
        0, 0, 0,  # OFF
        30, 75, 255,  # SIDE0
        255, 180, 0,  # SIDE1
        45, 180, 90,  # LEGAL
        60, 255, 210,  # EXTEND
        165, 75, 0,  # BLOCKS
        225, 30, 105,  # THREAT
        135, 15, 30,  # ROYAL_LOCKED
        0, 255, 0,  # ROYAL_OPEN
        135, 60, 150,  # SEALED_RUN
        165, 180, 165,  # LAST
        255, 15, 30,  # ERR_RED
        255, 120, 0,  # ERR_AMBER
        255, 0, 225,  # ERR_UNKNOWN
        210, 195, 240,  # ERR_TAP
        0, 225, 255,  # RESERVED
        255, 255, 255,  # CLEAR
        135, 135, 150,  # SETTING
        135, 135, 255,  # seat A1
        0, 165, 255,  # seat A2
        15, 0, 150,  # seat A3
        255, 195, 165,  # seat B1
        150, 150, 15,  # seat B2
        165, 135, 105,  # seat B3
        255, 255, 0,  # STORAGE
        220, 144, 160,  # POOR
    )
)  # fmt: skip
NCOLOURS = const(26)

# referee.err value -> palette entry
_ERR = bytes((OFF, ERR_RED | FAST, ERR_AMBER | FAST, ERR_UNKNOWN | FAST, ERR_TAP | FAST, RESERVED))


_DARKS = const(0x100)  # _paint: some cells are dark (View.ndark)
_ALARM = const(0x200)  # _paint: the corners blink ERR_UNKNOWN (View.alarm)
_NX = const(61)  # NCELLS, folded in viper (an imported name is an object)


@micropython.viper
def _paint(buf: ptr8, led: ptr8, grb: ptr8, layer: ptr8, dark: ptr8, off: int):
    """Each cell's LED in buf: the entry of the rendered palette grb that
    the cell shows in this blink phase. off: the blink bits that are dark
    now, _DARKS when dark[] counts (a dark cell blinks ERR_UNKNOWN slowly
    over its layer), _ALARM when the corners blink ERR_UNKNOWN fast over
    everything."""
    x = 0
    while x < _NX:
        v = int(layer[x])
        if (off & _DARKS) and dark[x]:
            v = ERR_UNKNOWN | SLOW
        i = 3 * OFF  # a blink's dark phase
        if (v & off) == 0:
            i = 3 * (v & 0x3F)
        j = 3 * int(led[x])
        buf[j] = grb[i]
        buf[j + 1] = grb[i + 1]
        buf[j + 2] = grb[i + 2]
        x += 1
    if off & _ALARM:
        corners = ptr8(CORNERS)
        n = int(len(CORNERS))
        i = 3 * ERR_UNKNOWN
        if off & FAST:
            i = 3 * OFF
        x = 0
        while x < n:
            j = 3 * int(led[int(corners[x])])
            buf[j] = grb[i]
            buf[j + 1] = grb[i + 1]
            buf[j + 2] = grb[i + 2]
            x += 1


def _corners():
    # The six corners of the hexagon (3 neighbours): the turn indicator,
    # visible from every seat around the board.
    out = bytearray()
    for x in range(NCELLS):
        n = 0
        for d in range(6):
            if NB[x * 6 + d] != NONE:
                n += 1
        if n == 3:
            out.append(x)
    return bytes(out)


CORNERS = _corners()
# The storage sign: row I, the edge of the board away from the Royal Cell
# (hardware/README.md). In play its end cells stay the turn corners.
SIGN_FIRST = const(56)  # ROW_START[8]: I5..I9


_N = const(61)  # NCELLS, as a constant viper folds (an import is an object)


# The match screen is redrawn after every move: its passes over the 61 cells
# run as machine code on the board (viper; plain Python on CPython), which
# keeps the sensor event inside its 25 ms (docs/figures.md, on the target).
@micropython.viper
def _mark(layer: ptr8, where: ptr8, v: int):
    """layer[x] = v wherever where[x] is set."""
    x = 0
    while x < _N:
        if where[x]:
            layer[x] = v
        x += 1


@micropython.viper
def _overlay(layer: ptr8, err: ptr8, table: ptr8):
    """layer[x] = table[err[x]] wherever err[x] is set."""
    x = 0
    while x < _N:
        e = int(err[x])
        if e:
            layer[x] = table[e]
        x += 1


@micropython.viper
def _blinks(layer: ptr8) -> int:
    # 0: nothing blinks; else 1 + the cells blinking fast (the errors)
    x = 0
    n = 0
    b = 0
    while x < _N:
        v = int(layer[x])
        if v & (SLOW | FAST):
            b = 1
            if v & FAST:
                n += 1
        x += 1
    return n + b


def turn_colour(game):
    """Palette entry of the side (two players) or seat (teams) to move."""
    t = game.side_to_play()
    if game.teams:
        return SEAT + 3 * t + game.seat_to_play() - 1
    return SIDE0 + t


def player_colour(n):
    """Palette entry of Junior's player n (1..6, §6): the seat colours in
    the order seats play (A1 B1 A2 B2 A3 B3), blues and golds taking turns
    round the table so that neighbours never look alike."""
    n -= 1
    return SEAT + 3 * (n & 1) + (n >> 1)


class View:
    # MARK (smartboard.remote): a cell lit GOOD while the game is at nlog
    # good_at (a replay's review: the better cell of the move made). Class
    # defaults: a board never asked keeps its views' attributes as they were.
    good = 0
    good_at = -1

    def __init__(self, painter):
        self.painter = painter
        self.layer = bytearray(NCELLS)  # palette index | SLOW | FAST per cell
        self._out = bytearray(NCELLS)  # scratch for the rules' hint queries
        self.scratch = bytearray(NCELLS)  # the board's, for its own queries
        self._lv = bytearray(NCELLS)
        self.dirty = True
        self.blinking = 0  # _blinks(): 0, or 1 + the cells blinking fast
        self._fresh = False  # a new error: lit from the next frame (frame())
        self._lit_until = 0
        self._phase = -1
        self.frames = 0
        # the storage sign (set by the board): 0 none, else its blink, SLOW
        # (storage low or full) or FAST (the next match would not be saved)
        self.warn = 0
        # cells whose reader is down (Board.check_parts): they blink
        # ERR_UNKNOWN over whatever the layer says, in every phase
        self.dark = bytearray(NCELLS)
        self.ndark = 0
        self.alarm_until = -1  # ms: the corners blink ERR_UNKNOWN until then

    # ---- layers (on a change) ---------------------------------------------
    def setup(self, states, gmode, start, stp, players, refused=False, computer=0, level=1):
        """The set-up screen: cards still on the board blink (clear it:
        issue 3), row C shows the game mode (1..7 cells), the Royal Cell
        the side that starts, corner A1 the special_then_place option,
        row G the number of players (teen; junior a cell per player in
        that player's colour) and row B the computer: a cell a level in
        the colour of the side it plays (computer: settings.COMPUTER's
        mask; its first side's seats are A's, the second's B's)."""
        L = self.layer
        for x in range(NCELLS):
            L[x] = OFF
        junior = gmode == JUNIOR
        for x in range(7):
            if x <= gmode:
                L[ROW_START[2] + x] = SETTING
            if x < players:
                # Junior's players each in their own colour (the winner's
                # at the end: _over)
                L[ROW_START[6] + x] = player_colour(x + 1) if junior else SETTING
        L[ROYAL] = SIDE0 + start
        if stp:
            L[0] = LEGAL
        if computer and not junior:
            side = SIDE0 if computer & 7 else SIDE1
            for x in range(level):
                L[ROW_START[1] + x] = side
        if self.warn:
            for x in range(SIGN_FIRST, NCELLS):
                L[x] = STORAGE | self.warn
        for x in range(NCELLS):
            if states[x]:
                L[x] = (ERR_RED | FAST) if refused else (CLEAR | SLOW)
        self._changed()

    def resume(self, want, sensed, occupancy=False, cell=-1):
        """After a power cut (issue 4): want[x] the state the log says the
        cell must sense (0 none, else 1 + code; profile B compares
        occupancy only). A missing card blinks slowly in its side's colour,
        a card that must go (or the wrong one) blinks red; cells already
        right stay dark, so the players see what is left to do. cell: only
        that cell changed (a resume senses its cards one at a time: each
        works out one LED, not 61)."""
        L = self.layer
        for x in range(NCELLS) if cell < 0 else (cell,):
            w = want[x]
            got = sensed[x]
            if matches(w, got, occupancy):
                L[x] = OFF
            elif w and not got:
                L[x] = (SIDE0 + tag.side_of(w - 1)) | SLOW
            else:
                L[x] = ERR_RED | FAST
        self._changed()

    def learning(self, count):
        """Teaching a deck (smartboard.uids): one cell per card learned, in
        the side's colour (gold's 35 over black's), the next one blinking."""
        L = self.layer
        for x in range(NCELLS):
            L[x] = OFF
        for i in range(count if count < 35 else 35):
            L[i] = SIDE0
        for i in range(count - 35 if count > 35 else 0):
            L[i] = SIDE1
        nxt = count if count < 35 else count - 35
        if nxt < NCELLS:
            L[nxt] = (SIDE0 if count < 35 else SIDE1) | SLOW
        self._changed()

    def play(self, ref, dmode, preview=0, assist=1):
        """The match screen for the referee's game and errors. preview: a
        declaration chosen on the buttons and not confirmed yet, as the
        layer value the free cells show it in (Board._preview), 0 none.
        assist: the hints' assistance (settings.ASSIST)."""
        g = ref.game
        L = self.layer
        b = g.board
        _mark(L, L, OFF)  # every lit cell OFF: the layer cleared
        if g.over():
            self._over(g)
        elif ref.expect:
            self._expect(g, ref)
            self._last(g)
        else:
            t = g.side_to_play()
            if dmode == HINT and not ref.query:
                self._hints(g, t, assist)
            if ref.query and dmode != ADULT:
                self._query(g, ref.query - 1, assist)
            if preview:
                for x in range(NCELLS):
                    if not b[x]:
                        L[x] = preview
            if self.warn:
                for x in range(SIGN_FIRST, NCELLS):
                    if not b[x]:
                        L[x] = STORAGE | self.warn
            # Drawn over the hints: whose turn it is stays visible in
            # every mode.
            turn = turn_colour(g)
            for x in CORNERS:
                if not b[x]:
                    L[x] = turn
            self._last(g)
        if self.good_at == g.nlog:
            L[self.good] = GOOD
        _overlay(L, ref.err, _ERR)
        self._changed()

    def _expect(self, g, ref):
        # The move the board waits for (Referee.expect, apixagon.engine's
        # encoding): its cells pulse in the colour of the seat to play; a
        # Beekeeper's card lifted from the first, put down on the second;
        # a reserve's cards to lift.
        L = self.layer
        e = ref.expect
        v = turn_colour(g) | SLOW
        kind = e >> 16
        if kind == BEEKEEPER:
            L[(e >> 8) & 255] = v
        if kind == PLACE or kind == RAIN_MOVE or kind == SMOKER or kind == BEEKEEPER:
            L[e & 255] = v
        for x in ref.expect_cells:
            L[x] = v
        for x in CORNERS:
            if not g.board[x] and not L[x]:
                L[x] = turn_colour(g)

    def _query(self, g, c, assist=1):
        L = self.layer
        out = self._out
        card = 31 if tag.kind_of(c) == tag.RAIN else tag.index_of(c)
        if not g.card_cells(card, out, tag.side_of(c)):
            return
        if assist >= 2 and card != 31:
            self._graded(g, card, tag.side_of(c))
            return
        for x in range(NCELLS):
            f = out[x]
            if f & ROYAL_CELL:
                L[x] = ROYAL_OPEN
            elif f & BLOCK:
                L[x] = BLOCKS
            elif f & EXTENSION:
                L[x] = EXTEND
            elif f & PLAIN:
                L[x] = LEGAL

    def _graded(self, g, card, t):
        # Assistance 2: the engine's worth of each legal cell of the card
        # (apixagon.engine.grade, loaded only then): good green, poor red,
        # the rest the plain legal colour.
        from apixagon import engine

        out = self._out
        engine.grade(g, card, t, out)
        L = self.layer
        for x in range(NCELLS):
            f = out[x]
            if f == engine.GOOD:
                L[x] = GOOD
            elif f == engine.POOR:
                L[x] = POOR
            elif f:
                L[x] = LEGAL

    def _hints(self, g, t, assist=1):
        L = self.layer
        b = g.board
        out = self._out
        g.legal_cells(t, out)
        _mark(L, out, LEGAL)
        lv = self._lv
        n = g.threats(out, lv, t) if assist else 0
        for i in range(n):
            x = out[i]
            L[x] = THREAT | SLOW if lv[x] >= 3 else BLOCKS
        if not b[ROYAL]:
            L[ROYAL] = ROYAL_OPEN | SLOW if g.royal_allowed(t) else ROYAL_LOCKED
        if g.sealed_cells(out):
            _mark(L, out, SEALED_RUN)

    def _last(self, g):
        kind, p = g.last_move()
        # payloads (game.py): place side card x; rain side x; beekeeper
        # side src dst (dst lit); smoker side x (the emptied cell lit)
        if kind == PLACE or kind == BEEKEEPER:
            self.layer[p[2]] = LAST
        elif kind == RAIN_MOVE or kind == SMOKER:
            self.layer[p[1]] = LAST

    def _over(self, g):
        # Game over: the free cells in the winner's colour (a draw: both,
        # alternating; Junior: the winning player's, §6 D-13, and with no
        # winner named every player's in turn), the sealed sequences
        # blinking.
        L = self.layer
        b = g.board
        w = g.winner()
        g.sealed_cells(self._out)
        if g.mode == JUNIOR:
            n = g.players
            for x in range(NCELLS):
                if not b[x]:
                    L[x] = player_colour(w if w else x % n + 1) | SLOW
            return
        for x in range(NCELLS):
            if not b[x]:
                L[x] = (SIDE0 + (w if w < 2 else x & 1)) | SLOW
            elif self._out[x]:
                L[x] = SEALED_RUN | SLOW

    def _changed(self):
        self.dirty = True
        n = _blinks(self.layer)
        # A new error is shown lit at once, for a whole phase: left to the
        # blink's phase, a card put on the wrong cell in a dark phase showed
        # nothing for up to 128 ms (the reeds' refusal: 84 ms at the worst)
        if n > self.blinking:
            self._fresh = True
        self.blinking = n

    # ---- frames -------------------------------------------------------------
    def alarm(self, until):
        """The sign of an error the loop caught: the six corners blink."""
        self.alarm_until = until
        self.dirty = True

    def dark_changed(self):
        n = 0
        for v in self.dark:
            n += v
        self.ndark = n
        self.dirty = True

    def frame(self, now):
        """Paint and write a frame if anything changed or blinks into a new
        phase; True when one was written. now: milliseconds."""
        phase = (now >> 7) & 7  # 128 ms steps: FAST toggles each, SLOW each 4
        alarm = self.alarm_until >= 0
        if alarm and now > self.alarm_until:
            self.alarm_until = -1
            alarm = False
            self.dirty = True
        if not self.dirty and (not (self.blinking or self.ndark or alarm) or phase == self._phase):
            return False
        self.dirty = False
        self._phase = phase
        # the blink bits that are off in this phase, and the flags
        off = (FAST if phase & 1 else 0) | (SLOW if phase >= 4 else 0)
        if self._fresh:
            self._fresh = False
            self._lit_until = now + 128
        if now - self._lit_until < 0:
            off &= ~FAST
        p = self.painter
        grb = p.palette(PALETTE)
        off |= (_DARKS if self.ndark else 0) | (_ALARM if alarm else 0)
        _paint(p.strip.buf, p.led, grb, self.layer, self.dark, off)
        p.show()
        self.frames += 1
        return True


def matches(want, got, occupancy=False):
    """Does a cell sense what it should (profile B: occupancy only)? want
    and got: 0 or 1 + tag code. A side's two Rain cards are one card to
    the game (§3.2; a game board byte has no Rain index), so either will do
    where the log has a Rain, as for the referee."""
    if occupancy:
        return (want != 0) == (got != 0)
    if want == got:
        return True
    if not want or not got:
        return False
    w = want - 1
    g = got - 1
    return tag.kind_of(w) == tag.RAIN and tag.kind_of(g) == tag.RAIN and w >> 7 == g >> 7


def colour_of(v):
    """(r, g, b) of a layer value at full phase (for views and tests)."""
    i = 3 * (v & 0x3F)
    return PALETTE[i], PALETTE[i + 1], PALETTE[i + 2]


def err_entry(e):
    return _ERR[e]


assert len(PALETTE) == 3 * NCOLOURS
assert SIGN_FIRST == ROW_START[8] and NCELLS - SIGN_FIRST == 5
assert len(_ERR) == referee.RESERVE + 1

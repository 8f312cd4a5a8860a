# Plays a match record (.apx) on the simulated board the way people would:
# every line becomes hands on cards and buttons — put a card down, tap a
# special on the pad and lift or move a card, lift the reserve and press
# confirm, choose a declaration and confirm it — and the board's own loop
# must turn them back into exactly the recorded moves. Tests and the
# benchmark drive the whole firmware with it, noise included.
from apixagon import record
from apixagon.codes import (
    BEEKEEPER,
    JUNIOR,
    MODES,
    PLACE,
    RAIN_MOVE,
    RESERVE,
    SMOKER,
)
from apixagon.geometry import cell_name

from .. import buttons, tag
from .. import settings as S
from ..board import PLAY, SETUP

WAIT_MS = 6000  # the longest a physical change may take to be seen


class ReplayError(Exception):
    pass


class Player(record.Visitor):
    def __init__(self, rig, on_move=None, latency=True):
        self.rig = rig
        self.on_move = on_move
        self.mode = 0
        self.start = 0
        self.players = 0
        self.stp = 0
        self.started = False
        self.rains = bytearray(2)
        self.lines = 0
        self.skipped = 0  # lines already on the board (a resumed match)
        self.skip = 0
        # placements: ms from the card put down to the move (the benchmark's;
        # None for the serial link's PLAY: a list that grows a block at a
        # time ran the simulator's 96 wK heap out now and then)
        self.latency = [] if latency else None

    # ---- headers --------------------------------------------------------
    def header(self, lineno, key, value):
        if key == "mode":
            self.mode = MODES.index(value)
        elif key == "start":
            self.start = 1 if value in ("gold", "B") else 0
        elif key == "players":
            self.players = int(value)
        elif key == "option" and value == "special_then_place":
            self.stp = 1

    def bad(self, lineno, reason):
        raise ReplayError("line %d does not parse" % lineno)

    def _begin(self):
        # Set the match up on the buttons, as a family would.
        rig = self.rig
        st = rig.board.settings
        if rig.board.phase != SETUP:
            raise ReplayError("the board is not in set-up")
        self._press_until(buttons.MODE, False, lambda: st.get(S.GAME_MODE) == self.mode)
        self._press_until(buttons.DECLARE, False, lambda: st.get(S.START) == self.start)
        self._press_until(buttons.DECLARE, True, lambda: st.get(S.STP) == self.stp)
        if self.players:
            i = S.JPLAYERS if self.mode == JUNIOR else S.PLAYERS
            self._press_until(buttons.CONFIRM, True, lambda: st.get(i) == self.players)
        rig.press(buttons.CONFIRM)
        if rig.board.phase != PLAY:
            raise ReplayError("the match did not start: " + rig.board.message)
        self.started = True

    def _press_until(self, button, long, done):
        for _ in range(8):
            if done():
                return
            self.rig.press(button, long)
        raise ReplayError("the buttons never reached the wanted setting")

    # ---- moves ------------------------------------------------------------
    def move(self, lineno, letter, seat, kind, card, cells):
        rig = self.rig
        if not self.started:
            if rig.board.phase == PLAY:
                # A match resumed after a power cut: its moves so far are on
                # the board already; play goes on after them.
                self.started = True
                self.skipped = rig.board.ref.game.nmoves()
                self.skip = self.skipped
            else:
                self._begin()
        g = rig.board.ref.game
        letters = record.side_letters(g)
        side = 0 if letter == "J" else letters.index(letter)
        if self.skip:
            self.skip -= 1
            if kind == RAIN_MOVE:
                self.rains[side] += 1  # the next Rain is the other card
            return
        before = g.nlog
        paired = rig.profile == "B"
        if kind == PLACE or kind == RAIN_MOVE:
            if kind == PLACE:
                code = tag.code(side, tag.NORMAL, card)
            else:
                code = tag.code(side, tag.RAIN, self.rains[side] & 1)
                self.rains[side] += 1
            if paired:
                self._tap(code)
            rig.put(cell_name(cells[0]), code)
        elif kind == BEEKEEPER or kind == SMOKER:
            self._tap(tag.code(side, tag.BEEKEEPER if kind == BEEKEEPER else tag.SMOKER, 0))
            src = cells[0]
            code = rig.cells.cells[rig.layout.sensor[src]] - 1
            rig.lift(cell_name(src))
            if kind == BEEKEEPER:
                self._until(lambda: not rig.board.sensed[src], lineno)
                rig.put(cell_name(cells[1]), code)
        elif kind == RESERVE:
            # (no cells: the empty reserve, CONFIRM alone in the keeper's turn)
            for x in cells:
                rig.lift(cell_name(x))
            self._until(lambda: all(not rig.board.sensed[x] for x in cells), lineno)
            rig.press(buttons.CONFIRM)
        else:
            # a declaration, a pass (the side to play's) or `Jn out`, as
            # the DECLARE button's cycle offers it (Board.declaration)
            want = (kind, seat if letter == "J" else side)
            for _ in range(8):
                if rig.board.declaration() == want:
                    break
                rig.press(buttons.DECLARE)
            if rig.board.declaration() != want:
                raise ReplayError("line %d: no such declaration on the buttons" % lineno)
            rig.press(buttons.CONFIRM)
        t0 = rig.now_us
        self._until(lambda: g.nlog != before, lineno)
        if (kind == PLACE or kind == RAIN_MOVE) and self.latency is not None:
            self.latency.append((rig.now_us - t0) // 1000)
        self.lines += 1
        if self.on_move is not None:
            self.on_move(self)

    def _tap(self, code):
        rig = self.rig
        rig.padcells.put(0, code)
        self._until(lambda: rig.board.hw.pad.state[0] == 1 + code, 0)
        rig.padcells.lift(0)
        self._until(lambda: rig.board.hw.pad.state[0] == 0, 0)

    def _until(self, cond, lineno):
        rig = self.rig
        end = rig.now_us + WAIT_MS * 1000
        while not cond():
            if rig.now_us > end:
                ref = rig.board.ref
                raise ReplayError(
                    "line %d: the board did not follow (reason %d, message %r)"
                    % (lineno, ref.reason if ref else 0, rig.board.message)
                )
            rig.tick()

    def end(self):
        return self.rig.board.ref.game if self.started else None


def play(rig, lines, on_move=None, latency=True):
    """Play the record's lines on rig; returns the Player (its .latency)."""
    p = Player(rig, on_move, latency)
    record.read(lines, p)
    return p

# A whole simulated board: the real Board loop over the simulated twins of
# every part, with a clock that follows the sensor time model (an NFC read
# costs what it would on the board), and hands that act like players:
# put a card on a cell, lift it, tap one on the action pad, press buttons.
from apixagon.geometry import NCELLS, parse_cell

from .. import buttons, layout, scan, settings, uids
from ..board import Board, Hardware
from ..paint import Painter
from .inputs import SimButtons
from .sensors import SimCells, SimMatrix, SimMux, SimNfcReader
from .strip import SimStrip

MATRIX_TICK_US = 200  # profile B: one row of the reed matrix per tick
TAP_MS = 400  # a card held on the pad
PRESS_MS = 150
LONG_PRESS_MS = 900


class Rig:
    def __init__(self, profile="A", settings_path="apixagon-settings.bin", layout_path=None):
        lay = layout.load(layout_path or "hardware/layout.json")
        self.uids = uids.UidTable(settings_path + ".deck")
        self.uids.load()
        self.layout = lay
        self.profile = profile
        self.cells = SimCells(lay.nchannels)
        self.mux = SimMux()
        self.reader = None
        if profile == "A":
            self.reader = SimNfcReader(self.cells, self.mux)
            chans = bytes(sorted(lay.sensor[x] for x in range(NCELLS)))
            scanner = scan.NfcScanner(self.reader, self.mux, chans, uids=self.uids)
        else:
            cols = 8
            scanner = scan.ReedMatrixScanner(
                SimMatrix(self.cells, cols), (lay.nchannels + cols - 1) // cols, cols
            )
        self.padcells = SimCells(1)
        self.padmux = SimMux()
        self.padreader = SimNfcReader(self.padcells, self.padmux)
        pad = scan.NfcScanner(self.padreader, self.padmux, b"\x00", uids=self.uids)
        self.keys = SimButtons()
        self.strip = SimStrip(lay.nleds)
        hw = Hardware(
            scanner,
            pad,
            buttons.Buttons(self.keys),
            Painter(self.strip, lay.led),
            lay,
            paired=profile == "B",
            uids=self.uids,
        )
        st = settings.Settings(settings_path)
        st.load()
        self.board = Board(hw, st)
        self.now_us = 0
        self.ticks = 0

    # ---- time ---------------------------------------------------------------
    def tick(self):
        before = self._sensor_us()
        self.board.tick(self.now_us // 1000)
        spent = self._sensor_us() - before
        self.now_us += spent if spent > 0 else MATRIX_TICK_US
        self.ticks += 1

    def _sensor_us(self):
        us = self.padreader.us
        if self.reader is not None:
            us += self.reader.us
        return us

    def run(self, ms):
        end = self.now_us + ms * 1000
        while self.now_us < end:
            self.tick()

    def now(self):
        return self.now_us // 1000

    # ---- hands --------------------------------------------------------------
    def put(self, name, code):
        """Put the card with tag code `code` on cell `name`."""
        self.cells.put(self.layout.sensor[parse_cell(name)], code)

    def lift(self, name):
        self.cells.lift(self.layout.sensor[parse_cell(name)])

    def tap(self, code, hold_ms=TAP_MS, blank=False):
        self.padcells.blank[0] = blank
        self.padcells.put(0, code)
        self.run(hold_ms)
        self.padcells.lift(0)

    def press(self, button, long=False):
        self.keys.mask = 1 << button
        self.run(LONG_PRESS_MS if long else PRESS_MS)
        self.keys.mask = 0
        self.run(60)

    def settle(self, ms=900):
        """Let the scanners and the loop catch up (a sweep and a confirm)."""
        self.run(ms)

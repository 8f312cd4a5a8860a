# A whole simulated board: the real Board loop over the simulated twins of
# every part, with a clock that follows the sensor time model (an NFC read
# costs what it would on the board), and hands that act like players:
# put a card on a cell, lift it, tap one on the action pad, press buttons.
from apixagon.geometry import NCELLS, parse_cell

from .. import buttons, layout, scan, settings, uids
from ..board import PART_PAD, PART_READER, PART_STRIP, PART_SUPPLY, Board, Hardware, part
from ..paint import Painter
from .inputs import SimButtons
from .sensors import SimCells, SimMatrix, SimMux, SimNfcReader
from .strip import SimStrip

MATRIX_TICK_US = 500  # profile B: a loop tick, a whole pass of the reed matrix
# I2C traffic of one lane's step at 400 kHz: command, ACK, ready polls and
# answer frames, ~60 bytes, paid one lane after the other.
LANE_BUS_US = 1500  # profile B: one row of the reed matrix per tick
TAP_MS = 400  # a card held on the pad
PRESS_MS = 150
LONG_PRESS_MS = 900


def wiring_of(layout_path, profile):
    """hardware/rev_<profile>/wiring.json beside the layout, as a dict."""
    import json

    cut = layout_path.rfind("/")
    root = layout_path[: cut + 1] if cut >= 0 else ""
    with open("%srev_%s/wiring.json" % (root, profile.lower())) as f:
        return json.load(f)


class Rig:
    def __init__(
        self, profile="A", settings_path="apixagon-settings.bin", layout_path=None, supply=None
    ):
        layout_path = layout_path or "hardware/layout.json"
        lay = layout.load(layout_path)
        # the revision's wiring beside the layout (hardware/rev_x/wiring.json,
        # generated from the circuit): its lanes' width (LANE) and its reed
        # matrix's columns, as the board has them
        pins = wiring_of(layout_path, profile)
        self.uids = uids.UidTable(settings_path + ".deck")
        self.uids.load()
        self.layout = lay
        self.profile = profile
        self.cells = SimCells(lay.nchannels)
        self.readers = []
        parts = []
        if profile == "A":
            # Rev A: four readers of 16 channels each (boards/rev_a/pins.py).
            chans = sorted(lay.sensor[x] for x in range(NCELLS))
            deb = scan.Debouncer(lay.nchannels, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
            lanes = []
            lane = pins["LANE"]
            for lo in range(0, lay.nchannels, lane):
                mine = bytes(c for c in chans if lo <= c < lo + lane)
                if mine:
                    mux = SimMux()
                    reader = SimNfcReader(self.cells, mux)
                    lanes.append(scan.NfcScanner(reader, mux, mine, uids=self.uids, deb=deb))
                    cells = bytes(lay.cell_of_channel[c] for c in mine)
                    k = len(self.readers)
                    parts.append(part(PART_READER, reader.answering, k, cells))
                    self.readers.append(reader)
            scanner = scan.NfcLanes(lanes)
        else:
            cols = pins["MATRIX_COLS"]
            # A pending reading's confirming passes run in one tick, each
            # after a wait (scan.REED_GAP_US): the clock counts the wait and
            # the pass, as the board spends them.
            scanner = scan.ReedMatrixScanner(
                SimMatrix(self.cells, cols),
                (lay.nchannels + cols - 1) // cols,
                cols,
                sleep_us=self._wait_us,
            )
        self.padcells = SimCells(1)
        self.padmux = SimMux()
        self.padreader = SimNfcReader(self.padcells, self.padmux)
        pad = scan.NfcScanner(self.padreader, self.padmux, b"\x00", uids=self.uids, uid=True)
        self.keys = SimButtons()
        self.strip = SimStrip(lay.nleds)
        parts.append(part(PART_PAD, self.padreader.answering))
        parts.append(part(PART_STRIP, self.strip.connected))
        painter = Painter(self.strip, lay.led)
        # the LEDs' budget from the USB supply's twin (sim/supply.py), or
        # the painter's own budget_ma without one; with a supply, the
        # strip's load switch too, off until the painter has read it
        painter.supply = supply
        if supply is not None:
            painter.power = self.strip.switch
            painter.powered = self.strip.powered = False
            parts.append(part(PART_SUPPLY, painter.lit_ok))
        hw = Hardware(
            scanner,
            pad,
            buttons.Buttons(self.keys),
            painter,
            lay,
            paired=profile == "B",
            uids=self.uids,
            parts=tuple(parts),
        )
        st = settings.Settings(settings_path)
        st.load()
        self.board = Board(hw, st)
        self.now_us = 0
        self.ticks = 0
        self._waited_us = 0  # profile B: confirming passes within a tick

    # ---- time ---------------------------------------------------------------
    def tick(self):
        # The lanes' readers work at once (scan.NfcLanes): a step costs the
        # slowest lane's time plus the bus traffic of the others, which
        # queues on the host; the pad reader is read on its own.
        rs = self.readers
        before = [(r.us, r.bus_us) for r in rs]
        pad = self.padreader.us
        quiet = self.board.tick(self.now_us // 1000)
        spent = self.padreader.us - pad
        slow = 0
        slow_bus = 0
        for i in range(len(rs)):
            d = rs[i].us - before[i][0]
            bus = rs[i].bus_us - before[i][1]
            spent += bus
            if d > slow:
                slow = d
                slow_bus = bus
        spent += slow - slow_bus
        self.now_us += spent if spent > 0 else MATRIX_TICK_US
        self.now_us += self._waited_us
        self._waited_us = 0
        self.ticks += 1
        return quiet

    def _wait_us(self, us):
        self._waited_us += us + MATRIX_TICK_US  # the wait, then a pass

    @property
    def reads(self):
        return sum(r.reads for r in self.readers)

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

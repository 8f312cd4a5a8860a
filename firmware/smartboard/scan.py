# Cell sensing: scanners that report debounced changes, KMK style.
#
#   ch = scanner.scan_for_changes()   # -1, or a channel whose state changed
#   scanner.state[ch]                 # its new, stable state
#
# States, one byte per channel:
#   EMPTY        nothing on the cell
#   1 + code     a card (profile A: smartboard.tag code; profile B: OCCUPIED)
#   UNREADABLE   a tag keeps failing its checksum (damaged or half on the antenna)
#   FOREIGN      a tag that is not an APIXAGON card
# A reading becomes the state only after STABLE identical reads in a row:
# one torn read, a card slid over an antenna or a bouncing reed never
# reaches the move inference (issue 3: no phantom moves from flicker).
from apixagon.compat import const

from . import tag

EMPTY = const(0)
OCCUPIED = const(1)  # profile B: something is on the cell
UNREADABLE = const(0xFE)
FOREIGN = const(0xFD)
STABLE = const(3)
ERROR_STABLE = const(8)  # an error state must persist much longer than a card


class Debouncer:
    """Per-channel debouncing of raw readings into stable states."""

    def __init__(self, nchannels, stable=STABLE, error_stable=ERROR_STABLE):
        self.state = bytearray(nchannels)
        self._cand = bytearray(nchannels)
        self._count = bytearray(nchannels)
        self.stable = stable
        self.error_stable = error_stable

    def pending(self, ch):
        """True while ch has a reading that disagrees with its state."""
        return self._count[ch] != 0

    def feed(self, ch, raw):
        """Feed one raw reading; True when ch's stable state changed."""
        if raw == self.state[ch]:
            self._count[ch] = 0
            return False
        if raw != self._cand[ch]:
            self._cand[ch] = raw
            self._count[ch] = 1
        elif self._count[ch] < 255:
            self._count[ch] += 1
        need = self.error_stable if raw >= FOREIGN else self.stable
        if self._count[ch] >= need:
            self.state[ch] = raw
            self._count[ch] = 0
            return True
        return False


class NfcScanner:
    """Profile A: one NFC reader switched across the cells' antennas.

    reader.read_page(buf) -> number of bytes read into buf (0: no tag in
    the field); mux.select(ch) switches the antenna. Both come from the
    board's start-up code (real parts) or from smartboard.sim (twins)."""

    def __init__(self, reader, mux, channels, stable=STABLE):
        self.reader = reader
        self.mux = mux
        self.channels = channels  # bytes: the channels to sweep, in order
        self.deb = Debouncer(max(channels) + 1, stable)
        self.state = self.deb.state
        self._buf = bytearray(4)
        self._i = 0
        self._focus = -1  # channel being confirmed: read again at once
        self._focus_reads = 0

    def read(self, ch):
        """One raw reading of channel ch, as a state byte."""
        self.mux.select(ch)
        n = self.reader.read_page(self._buf)
        if n == 0:
            return EMPTY
        c = tag.decode(self._buf) if n >= 4 else tag.LENGTH
        if c >= 0:
            return 1 + c
        if c == tag.NOT_OURS or c == tag.BAD_FIELD:
            return FOREIGN
        return UNREADABLE  # torn or short: only a state if it persists

    def scan_for_changes(self):
        # A channel whose reading disagrees with its state is read again at
        # once (a placement shows in STABLE reads, not STABLE sweeps), but
        # never for more than a few reads: a flickering cell cannot starve
        # the sweep.
        if self._focus >= 0 and self._focus_reads < 2 * ERROR_STABLE:
            ch = self._focus
            self._focus_reads += 1
        else:
            ch = self.channels[self._i]
            self._i = (self._i + 1) % len(self.channels)
            self._focus_reads = 0
        changed = self.deb.feed(ch, self.read(ch))
        self._focus = ch if self.deb.pending(ch) else -1
        return ch if changed else -1


class ReedMatrixScanner:
    """Profile B: a reed/hall switch per cell in a rows x cols matrix.

    matrix.read_row(r) -> bit mask of the closed switches in row r (the
    shift-register chain or GPIO matrix of the board revision)."""

    def __init__(self, matrix, rows, cols, stable=STABLE):
        self.matrix = matrix
        self.rows = rows
        self.cols = cols
        self.deb = Debouncer(rows * cols, stable)
        self.state = self.deb.state
        self._row = 0
        self._cur = 0
        self._mask = 0
        self._col = cols  # forces a row read first

    def scan_for_changes(self):
        # One row read serves `cols` channels; changes come one at a time.
        while True:
            if self._col >= self.cols:
                self._mask = self.matrix.read_row(self._row)
                self._col = 0
                self._cur = self._row
                self._row = (self._row + 1) % self.rows
            ch = self._cur * self.cols + self._col
            raw = OCCUPIED if self._mask >> self._col & 1 else EMPTY
            self._col += 1
            if self.deb.feed(ch, raw):
                return ch
            if self._col >= self.cols:
                return -1

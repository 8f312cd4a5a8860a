# The power-cut harness for tests/board/test_matchlog_cuts*.py: a match
# played on the simulated board whose match-log flash (smartboard.sim.flash)
# cuts the power at chosen units of its write stream, booted again on the
# surviving flash until the match is over; the checks at each cut and at
# the end. Plain code: it runs under CPython and MicroPython (96 wK heap:
# hence the care about what outlives a boot, see Run.__init__).
from apixagon import record
from apixagon.geometry import NCELLS, cell_name
from boardkit import rig
from logkit import ROOT, TAGS, collect, digest, is_move, record_lines
from smartboard import buttons, tag, view
from smartboard.board import OVER, PLAY, RESUME, SETUP
from smartboard.logstore import records, writer
from smartboard.logstore.names import SUFFIX, TMP
from smartboard.proto import crc16
from smartboard.referee import _code_of
from smartboard.sim import replay
from smartboard.sim.flash import PowerCut, SimFlash


def norm(line):
    # a reserve lists its cells in the order the keeper lifted them
    w = line.split()
    if len(w) > 2 and w[1] == "reserve":
        rest = w[2:]
        rest.sort()
        return " ".join(w[:2] + rest)
    return line


def alogs(files):
    out = [p for p in files if p.endswith(SUFFIX)]
    out.sort()
    return out


class Run:
    """One match played through power cuts: cuts[i] is where the write
    stream of boot i is cut (None: never)."""

    def __init__(self, name, moves, abandon, cuts, profile="A"):
        self.name = name
        self.profile = profile
        self.moves = moves  # the record's first moves (None: all of them)
        self.abandon = abandon
        self.cuts = cuts
        self.flash = SimFlash()
        # What lies on the table, by sensor channel. Made up front, like
        # everything that outlives a boot: under MicroPython a long-lived
        # object made while a board exists splits the heap once it is gone.
        self.table = bytearray(64)
        # verdict, good length, records of the newest log at the first cut
        # (verdict -1: no log yet, the cut came in the header; -2: no cut)
        self.first = [-2, 0, 0]
        # At each cut, per log: its path, the end of its complete records
        # and their SHA-256 (room made up front, as for the table).
        self.kept = [None] * 16
        self.nkept = 0
        self.sums = bytearray(32 * 16)
        self.goods = [0] * 16
        self.crcs = bytearray(2 * 128)  # the logged moves at a boot (MoveCrcs)
        self.boots = 0
        self.resumed = 0
        self.fixed = 0  # cards put right as the LEDs asked

    def go(self):
        while True:
            k = self.boots
            self.boots += 1
            assert self.boots < 12, "no end to the cuts"
            self.flash.power_on()
            if k < len(self.cuts) and self.cuts[k] is not None:
                self.flash.cut_after(self.cuts[k])
            self.r = r = log = None  # the last boot's board is gone (the heap is small)
            collect()
            try:
                r, log = self.boot()
                if self.match_over(log):
                    break
                self.continue_play(r, log)
                break
            except PowerCut:
                if self.r is not None:
                    # the cards stay where they are
                    self.table[:] = self.r.cells.cells
                self.r = r = log = None
                collect()
                self.after_cut()
        self.r = r = log = None
        collect()
        self.check_end()
        return self

    # ---- a cut ----------------------------------------------------------------
    def after_cut(self):
        # The power is off: what is on flash now is what the next boot gets.
        names = alogs(self.flash.files)
        for p in names:
            v, good, count, _ = records.read_log(self.flash.contents(p))
            assert v == records.OK_LOG or v == records.TORN, (p, records.verdict_name(v))
            i = self.nkept
            assert i < len(self.kept)
            self.kept[i] = p
            self.sums[32 * i : 32 * i + 32] = digest(self.flash, p, good)
            self.goods[i] = good
            self.nkept = i + 1
            if self.first[0] == -2 and p == names[-1]:
                self.first[0] = v
                self.first[1] = good
                self.first[2] = count
        if self.first[0] == -2:
            self.first[0] = -1

    def boot(self):
        self.check_kept()
        moves = self.logged()  # read before the board exists: its heap is small
        collect()
        r = rig(self.name, self.profile, fresh=self.boots == 1)
        self.r = r
        r.cells.cells[:] = self.table
        log = writer.MatchLog(ROOT, TAGS, self.flash)
        b = r.board
        b.listener = log
        b.log = log
        found = log.unfinished()
        self.check_kept()
        if found is not None:
            b.resume(found[1].lines(), log)
            found = None
        if moves is None:
            assert log.game is None and b.phase == SETUP
            return r, log
        assert log.game is not None
        self.resumed += 1
        # The board's game is the logged one, move for move (STATUS moves=)
        g = b.ref.game
        n = 0
        for kind, payload, ply in g.history():
            c = crc16(record.move_text(g, kind, payload, ply).encode())
            assert self.crcs[2 * n] == c >> 8 and self.crcs[2 * n + 1] == c & 255, n
            n += 1
        assert n == moves
        occupied = False
        for x in range(NCELLS):
            if g.board[x]:
                occupied = True
        assert b.phase == (RESUME if occupied else PLAY)
        self.restore(r, g)
        return r, log

    def logged(self):
        """The number of moves of the newest unfinished log on flash
        (complete records only; their CRCs in self.crcs), or None."""
        names = alogs(self.flash.files)
        if not names:
            return None
        m = MoveCrcs(self.crcs)
        v, good, count, _ = records.read_log(self.flash.contents(names[-1]), m)
        if m.over or count == 0:
            return None
        return m.n

    def check_kept(self):
        # Every complete record on flash at a cut is still there.
        for i in range(self.nkept):
            p = self.kept[i]
            assert p in self.flash.files, p
            h = digest(self.flash, p, self.goods[i])
            for j in range(32):
                assert h[j] == self.sums[32 * i + j], p

    # ---- the cards back as the LEDs ask ---------------------------------------
    def restore(self, r, want):
        b = r.board
        r.settle()
        for _ in range(3):
            if b.phase == RESUME:
                self.check_leds(r, want)
            elif not errors(b):
                break
            self.follow_leds(r, want)
            r.settle()
        assert b.phase in (PLAY, OVER) and not errors(b), b.message

    def check_leds(self, r, want):
        lay = r.layout
        for x in range(NCELLS):
            w = _code_of(want.board[x]) if want.board[x] else 0
            p = r.cells.cells[lay.sensor[x]]
            v = r.board.view.layer[x]
            if same(w, p, self.profile == "B"):
                assert v == view.OFF, cell_name(x)
            elif w and not p:
                assert v == (view.SIDE0 + tag.side_of(w - 1)) | view.SLOW, cell_name(x)
            else:
                assert v == view.ERR_RED | view.FAST, cell_name(x)

    def follow_leds(self, r, want):
        layer = bytes(r.board.view.layer)
        resume = r.board.phase == RESUME
        for x in range(NCELLS):
            if layer[x] == view.ERR_RED | view.FAST:
                r.lift(cell_name(x))
                self.fixed += 1
        for x in range(NCELLS):
            v = layer[x]
            if resume and v & view.SLOW and v & 0x3F in (view.SIDE0, view.SIDE1):
                c = _code_of(want.board[x]) - 1
                if tag.kind_of(c) == tag.RAIN and on_table(r, c):
                    c += 1  # that side's other Rain card
                r.put(cell_name(x), c)
                self.fixed += 1

    # ---- play on ----------------------------------------------------------------
    def match_over(self, log):
        names = alogs(self.flash.files)
        if not names or log.game is not None:
            return False
        lines = records.Lines()
        records.read_log(self.flash.contents(names[-1]), lines)
        return lines.result is not None

    def continue_play(self, r, log):
        b = r.board
        if b.phase != OVER:
            replay.play(r, record_lines(self.moves))
            if self.abandon:
                r.press(buttons.CONFIRM, True)
        r.settle(300)
        log.flush_all()

    def check_end(self):
        self.check_kept()
        names = alogs(self.flash.files)
        assert len(names) == 1, names
        for p in self.flash.files:
            assert not p.endswith(TMP), p
        data = self.flash.contents(names[0])
        want = Expect(self.moves)
        v, good, count, _ = records.read_log(data, want)
        assert v == records.OK_LOG and good == len(data)
        assert want.header == 3 and want.i == want.n  # every move of the record
        if self.abandon:
            assert want.result == "abandoned"
        else:
            assert want.result is not None and want.result.startswith("team A wins")


class MoveCrcs:
    """read_log visitor: the CRC-16 of each logged move's text, take-backs
    taken back, into a buffer made up front (no list of strings: see
    Run.__init__)."""

    def __init__(self, out):
        self.out = out
        self.n = 0
        self.over = False

    def __call__(self, kind, payload):
        if kind == records.MOVE:
            c = crc16(payload)
            self.out[2 * self.n] = c >> 8
            self.out[2 * self.n + 1] = c & 255
            self.n += 1
        elif kind == records.UNDO:
            self.n -= 1
            self.over = False
        elif kind == records.END:
            self.over = True


class Expect:
    """read_log visitor: the log must hold the record's lines, in order
    (no list of them built: the heap under MicroPython is small)."""

    def __init__(self, moves):
        self.moves = moves
        self.n = 0
        for x in record_lines(moves):
            if is_move(x):
                self.n += 1
        self.i = 0  # moves matched (net of take-backs)
        self.undos = 0
        self.header = 0
        self.result = None

    def __call__(self, kind, payload):
        text = payload.decode()
        if kind == records.HEADER:
            assert text == ('[Board "sim"]', "mode beehive", "start B")[self.header], text
            self.header += 1
        elif kind == records.MOVE:
            want = self.move(self.i)
            assert norm(text) == norm(want), (text, want)
            self.i += 1
        elif kind == records.END:
            self.result = text
        else:
            # A take-back: two cards that stayed on the table unlogged both
            # blink red; lifted one after the other, the second one is a
            # placement for a moment, then taken back (the referee, §3).
            assert kind == records.UNDO and self.i > 0
            self.i -= 1
            self.undos += 1

    def move(self, i):
        for x in record_lines(self.moves):
            if is_move(x):
                if not i:
                    return x
                i -= 1
        assert False, "more moves than the record"


def same(w, p, occupancy=False):
    if occupancy:
        return (w != 0) == (p != 0)
    if w == p:
        return True
    if not w or not p:
        return False
    return tag.kind_of(w - 1) == tag.RAIN and tag.kind_of(p - 1) == tag.RAIN and w >> 7 == p >> 7


def on_table(r, c):
    for v in r.cells.cells:
        if v == c + 1:
            return True
    return False


def errors(b):
    if b.ref is None:
        return False
    for e in b.ref.err:
        if e:
            return True
    return False


def uncut(moves, abandon, profile="A"):
    run = Run("cuts-len", moves, abandon, [], profile).go()
    assert run.boots == 1 and run.first[0] == -2
    return run


def record_ends(data):
    ends = []
    i = 0
    while i < len(data):
        i += data[i + 2] + 9
        ends.append(i)
    return ends


# The write stream of a match on a blank flash: mkdir (1 unit), the header
# records into a .tmp file, the rename (1 unit), then each record appended:
# byte b of the log past its header is unit b + 2.
HEADER_RECORDS = 3  # [Board "sim"], mode, start
SHORT = 4  # moves of the short match (then abandoned)

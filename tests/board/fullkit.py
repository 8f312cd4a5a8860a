# Helpers of test_matchlog_fullflash.py: a flash twin counting littlefs's
# blocks (SimFlash lfs=True) filled in each way a season fills it, a match
# played on it from the scripted record, and at every move the power cut:
# the flash as it was right then is booted again and must hold every move
# the board had taken, or say which it lost (STATUS lost=, said to the
# players). CPython only: the flash's 1.4 MB live in the test's memory.
from logkit import ROOT, TAGS, record_lines
from packkit import games, pack_all
from smartboard import buttons
from smartboard.logstore import lfs, records, writer
from smartboard.logstore.names import SPARE
from smartboard.sim import replay
from smartboard.sim.flash import SimFlash
from storekit import Board


def blocks_twin():
    """The flash twin that counts littlefs's blocks (logstore.lfs)."""
    return SimFlash(lfs=True)


def littlefs_twin():
    """littlefs itself (littlefs-python, MicroPython's configuration, the
    firmware's flash interface over it: tools/rp2040/flashfs.BoardFlash)."""
    _tools()
    import flashfs
    from littlefs import LittleFS
    from littlefs.context import UserContext

    ctx = UserContext(flashfs.STORAGE_BYTES)
    LittleFS(context=ctx, mount=False, **flashfs._GEOMETRY).format()
    data = b"\xff" * flashfs.STORAGE_OFFSET + bytes(ctx.buffer)
    return flashfs.BoardFlash(flashfs.FlashFs(_NOWHERE, data))


_NOWHERE = "/nonexistent/flash.bin"  # a twin in memory: never saved


def _tools():
    import os
    import sys

    d = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "tools", "rp2040")
    if d not in sys.path:
        sys.path.insert(0, d)


def clone(flash):
    """The flash as it is now, apart from the running board's: what a
    power cut leaves (every write on a twin is whole or refused)."""
    if not isinstance(flash, SimFlash):
        _tools()
        import flashfs

        img = bytes(flash.ffs.image[: flashfs.STORAGE_OFFSET]) + bytes(flash.ffs._ctx.buffer)
        return flashfs.BoardFlash(flashfs.FlashFs(_NOWHERE, img))
    c = SimFlash(capacity=flash.capacity, blocks=0, lfs=flash.use is not None)
    c.files = {p: [bytearray(b) for b in flash.files[p]] for p in flash.files}
    c.lens = dict(flash.lens)
    c.dirs = list(flash.dirs)
    if flash.use is not None:
        c.use.meta = dict(flash.use.meta)
        c.use.data = flash.use.data
    return c


def read(flash, path):
    if isinstance(flash, SimFlash):
        return bytes(flash.contents(path))
    return flash.ffs.read(path)


def good_moves(flash, name):
    """The moves of a log's good records (a twin's refused write may leave
    a torn tail, which littlefs would not: the boot cuts it off)."""
    lines = records.Lines()
    v, good, count, _ = records.read_log(read(flash, ROOT + "/" + name), lines)
    assert v in (records.OK_LOG, records.TORN), records.verdict_name(v)
    return lines.moves


_logs = []


def four_logs():
    """The four scripted matches' logs as the board writes them (bytes)."""
    if not _logs:
        f = SimFlash()
        log = writer.MatchLog(ROOT, TAGS, f)
        log.clock = lambda: 1790000000
        for g in games():
            log.make_room()
            log.begin(g)
            log.flush_all()
            _logs.append(bytes(f.contents(log.path)))
    return _logs


def real_logs(flash, leave=0, most=400):
    """Real logs, each written whole as the board leaves it, until no more
    than `leave` bytes are free or the flash takes no more: how many."""
    four = four_logs()
    if not flash.exists(ROOT):
        flash.mkdir(ROOT)
    n = 0
    while n < most and (not leave or flash.free("") > leave):
        path = ROOT + "/%04d.alog" % (n + 1)
        try:
            flash.write(path, four[n % 4])
        except OSError:
            if flash.exists(path):
                flash.remove(path)
            break
        n += 1
    return n


def spare(flash):
    """SPARE as the board leaves it after its first logged match."""
    log = writer.MatchLog(ROOT, TAGS, flash)
    log._rare("make_spare")


def archives(flash, logs):
    """logs real logs, all packed into archives but the newest."""
    log = writer.MatchLog(ROOT, TAGS, flash)
    log.clock = lambda: 1790000000
    four = games()
    for n in range(logs):
        log.make_room()
        log.begin(four[n % 4])
        log.flush_all()
    pack_all(log)
    return log


def foreign(flash, leave):
    """Files some other program put on the flash, outside logs/, until no
    more than `leave` bytes are free (whole blocks, as statvfs counts
    them), or no block more goes."""
    if not flash.exists("data"):
        flash.mkdir("data")
    i = 0
    while True:
        k = (flash.free("") - leave) // lfs.BLOCK
        if k <= 0:
            return
        while k > 0:
            try:
                flash.reserve("data/photo%03d.bin" % i, lfs.bytes_in(k if k < 64 else 64))
                break
            except OSError:
                try:
                    flash.remove("data/photo%03d.bin" % i)
                except OSError:
                    pass
                k -= 1
        if k <= 0:
            return
        i += 1


class _Unsaved(replay.Player):
    # the players answer the board's question: a second CONFIRM plays the
    # match unsaved (Board.start)
    def _begin(self):
        rig = self.rig
        real = rig.press

        def press(button, long=False):
            real(button, long)
            if button == buttons.CONFIRM and not long and rig.board.asking:
                real(buttons.CONFIRM)

        rig.press = press
        try:
            replay.Player._begin(self)
        finally:
            rig.press = real


class Cuts:
    """The scripted match played on flash, the power cut at every move:
    after each move has had its ticks (its records written when the flash
    takes them), the flash as it is is booted again and judged."""

    def __init__(self, name, flash, moves=None, during=None):
        self.name = name
        self.flash = flash
        self.moves = moves
        self.during = during  # during(k, board): what happens after move k
        self.cuts = 0
        self.lost = []  # (move, STATUS lost=) of each cut that lost moves
        self.unlogged = 0  # cuts of a match played unsaved, said after the boot
        self.unsafe = 0  # ... said at once, UNSAVED refused
        self.said = []  # what the board said while the match was played
        self.spare_used = False

    def play(self, unsaved=False):
        bd = Board(self.name, self.flash)
        self.bd = bd
        player = (_Unsaved if unsaved else replay.Player)(bd.r, self._cut, False)
        from apixagon import record

        record.read(record_lines(self.moves), player)
        bd.r.settle(300)
        self.said = list(bd.says.texts)
        return bd

    def _cut(self, player):
        bd = self.bd
        k = bd.r.board.ref.game.nmoves()
        if self.during is not None:
            self.during(k, bd)
        bd.r.run(50)  # the move's records, on quiet ticks
        log = self.bd.log
        if (log.made or log.unlogged is not None) and not self.flash.exists(ROOT + "/" + SPARE):
            self.spare_used = True
        self.judge(k, clone(self.flash))

    def texts(self):
        return self.bd.says.texts

    def judge(self, k, flash):
        """The power went after move k: what the flash says at the boot."""
        self.cuts += 1
        log = self.bd.log
        unsaved = log.unlogged is not None
        name = None if unsaved else log.current()
        held = 0
        if name is not None and flash.exists(ROOT + "/" + name):
            held = len(good_moves(flash, name))
        after = Board(self.name + "-cut", flash)
        st = after.status()
        if unsaved:
            if st.get("lost") == "unlogged":
                assert after.says.said("power cut: the match played unsaved was lost")
                self.unlogged += 1
            else:
                # no block for UNSAVED (no SPARE on a flash filled before
                # it): said at once, while the board is on
                assert log.unsafe and "lost" not in st, (k, st)
                said = self.texts()
                assert any(t.startswith("storage full: a power cut now would lose") for t in said)
                self.unsafe += 1
        elif held < k:
            # moves were lost: the boot says which, and the players were
            # told at once while the match was played
            assert any(t.startswith("storage full") for t in self.texts()), k
            if name is None or not log.made:
                assert st.get("lost") == "match", (k, st)
                assert after.says.said("power cut: a match whose log could not be made")
            else:
                assert st.get("lost") == "%s:%d" % (name, held), (k, held, st)
                assert after.says.said(
                    "power cut: log %s lost its moves after move %d" % (name, held)
                )
                if held:
                    assert st["phase"] == "resume" and st["moves"] == str(held), st
            self.lost.append((k, st["lost"]))
        else:
            assert held == k and "lost" not in st, (k, held, st)
            if self.bd.r.board.ref.game.over():
                assert st["phase"] == "setup", st
            else:
                assert st["phase"] == "resume" and st["moves"] == str(k), st

# Match-log storage (issue 4): when flash runs low the board warns — STATUS
# low=1, a message (the serial link forwards it as a `say` event) and row I
# blinking yellow in set-up and at a match's start; on a full flash the
# match goes on, its moves wait in the game (no queue of their own), the
# board warns, never crashes and never deletes a log; when space comes back
# (the host pulled and deleted a log) the moves are written and the log
# verifies. Also the bad states at boot: a damaged newest log is left as it
# is, a log that does not replay is not resumed. The flash is the simulated
# twin (smartboard.sim.flash), which reports a chosen free space.
from apixagon import record
from apixagon.geometry import NCELLS, ROW_START, cell_name, parse_cell
from boardkit import rig
from logkit import ROOT, TAGS, collect, digest, record_lines
from smartboard import board as B
from smartboard import buttons, link, proto, view
from smartboard import matchlog as L
from smartboard.sim import replay
from smartboard.sim.flash import SimFlash

ROW_I = ROW_START[8]


class Port:
    """The serial link's port: nothing comes in, replies are kept."""

    def __init__(self):
        self.out = []

    def read_byte(self):
        return -1

    def write(self, data):
        self.out.append(data)


class Says:
    """A board listener keeping what the board says."""

    def __init__(self):
        self.texts = []

    def on_event(self, board, what):
        self.texts.append(what)

    def said(self, start):
        for t in self.texts:
            if t.startswith(start):
                return True
        return False


class Board:
    """A simulated board wired as the start-up code does (serial_main)."""

    def __init__(self, name, flash, fresh=True):
        self.r = rig(name, "A", fresh=fresh)
        self.flash = flash
        self.log = L.MatchLog(ROOT, TAGS, flash)
        self.port = Port()
        self.link = link.Link(self.port, self.r.board, self.log)
        self.says = Says()
        b = self.r.board
        b.listener = link.Fanout((self.log, self.link, self.says))
        b.log = self.log
        found = self.log.unfinished()
        if found is not None:
            b.resume(found[1].lines(), self.log)
        self.r.settle(200)

    def ask(self, text):
        """One request through the link: (ok, reply text)."""
        del self.port.out[:]
        self.link.handle("@1 " + text)
        line = self.port.out[-1][:-1]
        kind, seq, ok, rest = proto.parse_reply(proto.body(line))
        return ok, rest

    def status(self):
        ok, text = self.ask("STATUS")
        assert ok, text
        out = {}
        for w in text.split():
            if "=" in w:
                k, v = w.split("=", 1)
                out[k] = v
        return out

    def play(self, moves):
        replay.play(self.r, record_lines(moves))
        self.r.settle(300)

    def clear(self):
        """The players take every card off the board (for a new match)."""
        r = self.r
        for x in range(NCELLS):
            if r.cells.cells[r.layout.sensor[x]]:
                r.lift(cell_name(x))
        r.settle()

    def abandon(self):
        self.r.press(buttons.CONFIRM, True)
        self.clear()

    def sign(self):
        """The cells of row I that show the storage sign."""
        n = 0
        for x in range(ROW_I, NCELLS):
            if self.r.board.view.layer[x] == view.STORAGE | view.SLOW:
                n += 1
        return n

    def sign_room(self):
        """Row I's cells the sign may take in play: free, not a corner."""
        n = 0
        b = self.r.board.ref.game.board
        for x in range(ROW_I + 1, NCELLS - 1):
            if not b[x]:
                n += 1
        return n


def verified(flash, name):
    """(moves, result) of a log that must verify whole."""
    data = flash.contents(ROOT + "/" + name)
    lines = L.Lines()
    v, good, count, _ = L.read_log(data, lines)
    assert v == L.OK_LOG and good == len(data), L.verdict_name(v)
    return lines.moves, lines.result


def record_moves(n):
    out = []
    for line in record_lines(n):
        if len(line) > 1 and line[1] in " 123" and line[0] in "AB":
            out.append(line)
    return out


def finished_log(name):
    """A flash holding one finished match (20 moves, abandoned: ~400 bytes,
    room enough for the next match's moves once it is deleted)."""
    flash = SimFlash()
    bd = Board(name, flash)
    bd.play(20)
    bd.abandon()
    bd.log.flush_all()
    assert bd.log.over
    bd = None
    collect()  # that board is gone: the heap under MicroPython is small
    return flash


def test_plenty_of_space_no_warning():
    bd = Board("store-ok", SimFlash())
    st = bd.status()
    assert st["low"] == "0" and int(st["free"]) > L.LOW_BYTES
    assert bd.r.board.storage == B.STORE_OK and bd.sign() == 0
    assert not bd.says.said("storage")


def test_low_storage_warns_in_set_up_and_at_the_start_of_a_match():
    flash = SimFlash()
    flash.set_free(30000)
    bd = Board("store-low", flash)
    st = bd.status()
    assert st["low"] == "1" and st["free"] == "30000"
    b = bd.r.board
    assert b.storage == B.STORE_LOW
    assert bd.says.said("storage low: 29 KB free; download the match logs")
    assert bd.sign() == 5  # the whole of row I, in set-up
    # A match starts: said again, and the sign until the first card.
    bd.says.texts = []
    bd.r.press(buttons.CONFIRM)
    assert b.phase == B.PLAY
    assert bd.says.said("storage low")
    assert bd.sign() == 3  # I5 and I9 are corners: whose turn it is
    bd.r.put("D4", 0)  # black's card 0
    bd.r.settle()
    g = b.ref.game
    assert g.nlog and bd.sign() == 0
    assert bd.status()["low"] == "1"
    # The log is written all the same: low is a warning, not a refusal.
    bd.log.flush_all()
    moves, result = verified(flash, "0001.alog")
    assert moves == [record.write(g)[-1]] and result is None


def test_full_flash_keeps_the_match_playable_and_deletes_nothing():
    flash = finished_log("store-full")
    path = ROOT + "/0001.alog"
    size = flash.size(path)
    older = digest(flash, path, size)  # no copy of it held: a small heap
    bd = Board("store-full", flash, fresh=False)
    b = bd.r.board
    bd.play(2)  # a new match (the table was cleared), its header and moves on flash
    flash.set_free(5)  # then the flash fills up: a record is cut short
    bd.play(12)  # the match goes on from hands
    assert b.phase == B.PLAY and b.ref.game.nlog
    assert bd.log.failing and bd.log.due
    assert b.storage == B.STORE_FULL and bd.says.said("storage full")
    assert bd.sign() == bd.sign_room() > 0  # through the match while the flash is full
    st = bd.status()
    assert st["low"] == "1" and st["free"] == "0"
    # Nothing deleted, the older log untouched; the new one holds its
    # first moves and at most a torn part of the next record.
    assert sorted(bd.log.names()) == ["0001.alog", "0002.alog"]
    assert flash.size(path) == size and digest(flash, path, size) == older
    v = L.read_log(flash.contents(ROOT + "/0002.alog"))[0]
    assert v == L.OK_LOG or v == L.TORN
    # The host pulls the older match and deletes it: PULLED cannot write
    # its marker on a full flash and is kept in memory, so DEL may go on.
    assert bd.ask("PULLED 0001.alog") == (True, "0001.alog")
    assert bd.ask("DEL 0001.alog") == (True, "0001.alog")
    bd.r.settle(300)  # quiet ticks: the waiting moves are written
    assert not bd.log.failing and not bd.log.due
    assert b.storage == B.STORE_LOW and bd.says.said("storage: the match log is saved again")
    assert bd.sign() == 0  # low, and the match has begun: no sign
    moves, result = verified(flash, "0002.alog")
    assert moves == record_moves(12) and result is None


def test_a_failed_write_is_tried_again_later_not_every_tick():
    flash = SimFlash()
    bd = Board("store-retry", flash)
    bd.play(1)
    flash.set_free(0)
    bd.play(2)
    errors = bd.log.errors
    bd.r.run(1000)  # hundreds of quiet ticks: one more attempt at most
    assert bd.log.errors <= errors + 1
    flash.set_free(4096)  # space back without a DEL (the host removed a file)
    bd.r.run(2500)
    assert not bd.log.failing
    assert verified(flash, "0001.alog")[0] == record_moves(2)


def test_matches_played_on_a_full_flash_are_written_when_space_comes_back():
    flash = SimFlash()
    bd = Board("store-next", flash)
    flash.set_free(0)
    bd.play(3)
    b = bd.r.board
    bd.abandon()  # its log not even begun
    bd.play(2)  # a second match: it waits for the first one's log
    assert bd.log.game is not b.ref.game and bd.log.next is b.ref.game
    flash.set_free(8192)
    bd.log.flush_all()  # as LOGS does
    assert verified(flash, "0001.alog") == (record_moves(3), "abandoned")
    assert verified(flash, "0002.alog") == (record_moves(2), None)
    assert bd.log.dropped == 0


def test_a_third_match_on_a_full_flash_takes_the_waiting_ones_place():
    # Bounded memory: the log holds one match besides the one written to.
    flash = SimFlash()
    bd = Board("store-third", flash)
    flash.set_free(0)
    for _ in range(3):
        bd.play(1)
        bd.abandon()
    assert bd.log.dropped == 1 and bd.says.said("storage full")
    flash.set_free(8192)
    bd.log.flush_all()
    assert bd.log.names() == ["0001.alog", "0002.alog"]
    assert verified(flash, "0002.alog") == (record_moves(1), "abandoned")


def test_a_power_cut_while_the_flash_is_full_resumes_from_what_is_on_it():
    flash = SimFlash()
    bd = Board("store-cut", flash)
    bd.play(3)
    flash.set_free(7)  # the fourth move's record cut short by a full flash
    bd.play(5)
    assert bd.log.failing
    table = bytes(bd.r.cells.cells)
    bd = None
    flash.set_free(4096)  # the power is back, and so is some space
    bd = Board("store-cut", flash, fresh=False)
    bd.r.cells.cells[:] = table
    b = bd.r.board
    assert b.phase == B.RESUME and b.ref.game.nlog  # the 3 logged moves
    assert verified(flash, "0001.alog")[0] == record_moves(3)  # torn tail cut


def test_a_damaged_newest_log_is_left_as_it_is_and_not_resumed():
    flash = SimFlash()
    bd = Board("store-bad", flash)
    bd.play(3)
    bd.log.flush_all()
    path = ROOT + "/0001.alog"
    block = flash.files[path][0]
    block[30] ^= 0x20  # a flipped bit in the second header record
    damaged = flash.contents(path)
    assert L.read_log(damaged)[0] == L.CORRUPT
    bd = Board("store-bad", flash, fresh=False)
    b = bd.r.board
    assert b.phase == B.SETUP and bd.log.damaged == "0001.alog"
    assert bd.says.said("log 0001.alog does not verify: kept, not resumed")
    assert flash.contents(path) == damaged
    bd.play(1)  # a new match: a new log beside it
    bd.log.flush_all()
    assert bd.log.names() == ["0001.alog", "0002.alog"]
    assert flash.contents(path) == damaged


def test_a_log_that_does_not_replay_is_not_resumed_and_can_be_deleted():
    flash = SimFlash()
    flash.mkdir(ROOT)
    rec = bytearray()
    link = L.SEED
    for kind, text in ((L.HEADER, "mode queens-gambit"), (L.MOVE, "B 0 E5")):
        r, link = L.encode(link, kind, text.encode())  # the Royal Cell, first
        rec.extend(r)
    flash.write(ROOT + "/0001.alog", rec)
    before = flash.contents(ROOT + "/0001.alog")
    bd = Board("store-illegal", flash)
    assert bd.r.board.phase == B.SETUP
    assert bd.says.said("log unreadable at line 2: new match")
    assert bd.log.current() is None and bd.log.game is None
    assert flash.contents(ROOT + "/0001.alog") == before
    assert bd.ask("PULLED 0001.alog") == (True, "0001.alog")
    assert bd.ask("DEL 0001.alog") == (True, "0001.alog")


def test_the_storage_sign_is_in_the_palette():
    assert view.colour_of(view.STORAGE) == (255, 255, 0)
    assert parse_cell("I5") == ROW_I and view.SIGN_FIRST == ROW_I

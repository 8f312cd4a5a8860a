# A long match's log: 2000 records and more (the scripted 6-player game's
# first 60 moves, each taken back and put down again 17 times, as players
# who change their minds do), unfinished, on the real filesystem (the
# firmware's smartboard.logstore.flash.Flash). The board resumes it reading the log
# through a window of at most the link's 2 KB (never a read of the whole
# file: a 27 KB log in a small heap), puts the match back where it was and
# plays on into the same log; a torn tail after all those records is cut
# off by a copy through the same window. Plain functions: also run under
# the MicroPython unix port at 96 wK.
import hashlib

from apixagon import record
from apixagon.codes import BEEHIVE
from apixagon.game import Game
from logkit import RECORD, TAGS, collect, is_move, record_lines
from scalekit import folder, log_size
from smartboard import board as B
from smartboard import proto
from smartboard.logstore import flash, records, repair, writer
from storekit import Board

MOVES = 60
PAIRS = 17  # take-backs of each move: 60 * (1 + 2 * 17) records, and the header


class _Writer(record.Visitor):
    """Plays the record's moves into a game as they are read (no list of
    them held: a small heap), each taken back and put down again, the log's
    writer following."""

    def __init__(self, game, log, upto, pairs):
        self.g = game
        self.log = log
        self.upto = upto
        self.pairs = pairs
        self.n = 0

    def _step(self, r=0):
        assert r == 0, r
        self.log.sync(self.g)
        self.log.flush_all()

    def move(self, lineno, letter, seat, kind, card, cells):
        if self.n == self.upto:
            return
        self.n += 1
        g = self.g
        self._step(record.apply_move(g, letter, seat, kind, card, cells))
        for _ in range(self.pairs):
            g.undo()
            self._step()
            self._step(record.apply_move(g, letter, seat, kind, card, cells))


def long_log(root, moves, pairs):
    """The firmware's writer (MatchLog) following the scripted game for
    `moves` moves, each taken back and put down again `pairs` times: a log
    of 2 * pairs + 1 records a move, unfinished, in the folder root (the
    """
    g = Game(BEEHIVE, 1, 0, False)  # as tests/data/beehive_full.apx
    log = writer.MatchLog(root, TAGS)
    log.begin(g)
    log.flush_all()
    with open(RECORD) as f:
        record.read(f, _Writer(g, log, moves, pairs))
    # its records counted through a window, as the board reads it
    v, good, count, _ = records.walk(log.fs, log.path, bytearray(320), None)
    assert v == records.OK_LOG
    return count, lines_digest(g)


def lines_digest(g):
    """The SHA-256 of a game's record lines (no list of them held)."""
    h = hashlib.sha256()
    for line in record.lines(g, TAGS):
        h.update(line.encode())
    return h.digest()


class Watched(flash.Flash):
    """The real filesystem, the largest part of a file read or copied at
    once kept; a read of a whole file refused."""

    def __init__(self):
        flash.Flash.__init__(self)
        self.most = 0
        self.copied = 0

    def read_into(self, path, offset, buf):
        self.most = max(self.most, len(buf))
        return flash.Flash.read_into(self, path, offset, buf)

    def copy(self, src, dst, n, buf):
        self.most = max(self.most, len(buf))
        self.copied += n
        return repair.copy_files(src, dst, n, buf)

    def read(self, path):
        raise AssertionError("%s read whole" % path)


def _long(name):
    d = folder(name)
    count, digest = long_log(d + "/logs", MOVES, PAIRS)
    assert count >= 2000, count
    return d + "/logs", digest


def _walked(root, visit=None):
    # the log read back through a window, as the board reads it
    return records.walk(writer.MatchLog(root).fs, root + "/0001.alog", bytearray(320), visit)


def _resumed(name, root, digest):
    fs = Watched()
    bd = Board(name, fs, root=root)
    b = bd.r.board
    assert b.phase == B.RESUME, b.message
    g = b.ref.game
    assert g.nmoves() == MOVES and lines_digest(g) == digest
    assert fs.most <= proto.MAX_CHUNK and bd.log.window is bd.link._chunk
    bd.cards_back()
    assert b.phase == B.PLAY, b.message
    bd.play(MOVES + 1)  # the next move of the record, into the same log
    bd.log.flush_all()
    assert bd.log.names() == ["0001.alog"] and g.nmoves() == MOVES + 1
    return fs


def test_a_2000_record_log_resumes_read_through_a_window():
    root, digest = _long("long-resume")
    collect()
    _resumed("long-resume", root, digest)
    collect()
    lines = records.Lines()
    v, good, count, _ = _walked(root, lines)
    assert v == records.OK_LOG and good == log_size(root + "/0001.alog") and count > 2000
    n = 0
    for line in record_lines(MOVES + 1):  # the standing moves: the record's
        if is_move(line):
            assert lines.moves[n] == line, n
            n += 1
    assert n == len(lines.moves) == MOVES + 1


def test_a_torn_tail_after_2000_records_is_cut_through_the_window():
    root, _ = _long("long-torn")
    path = root + "/0001.alog"
    good = log_size(path)
    with open(path, "ab") as f:
        f.write(b"\xa5M\x07A 3 ")  # the power went mid-record
    collect()
    fs = Watched()
    bd = Board("long-torn", fs, root=root)
    assert bd.r.board.phase == B.RESUME and bd.r.board.ref.game.nmoves() == MOVES
    assert fs.copied == good and fs.most <= proto.MAX_CHUNK
    assert log_size(path) == good
    assert _walked(root)[:2] == (records.OK_LOG, good)

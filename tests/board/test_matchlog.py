# Match logs: append-only, a CRC per record, hash-chained. A power cut at
# any byte loses at most the record being written; an edit is detected.
import os

from apixagon import record
from apixagon.codes import BEEHIVE
from apixagon.game import Game
from boardkit import TMP, settings_path
from smartboard.logstore import records, writer

RECORD = "tests/data/beehive_full.apx"


def fresh(name):
    settings_path(name)  # makes build/tmp
    root = "%s/logs-%s" % (TMP, name)
    try:
        for f in os.listdir(root):
            os.remove(root + "/" + f)
    except OSError:
        pass
    return writer.MatchLog(root, (("Board", "sim"),))


class Moves(record.Visitor):
    def __init__(self):
        self.moves = []

    def move(self, lineno, letter, seat, kind, card, cells):
        self.moves.append((letter, seat, kind, card, cells))


def game_moves():
    with open(RECORD) as f:
        lines = [line for line in f]
    v = Moves()
    record.read(lines, v)
    return v.moves


def played(log, n):
    g = Game(BEEHIVE, 1, 0, False)  # as tests/data/beehive_full.apx
    log.begin(g)
    for m in game_moves()[:n]:
        assert record.apply_move(g, *m) == 0
        log.sync(g)
    log.flush_all()
    return g


def data_of(log):
    with open(log.path, "rb") as f:
        return f.read()


def test_moves_and_take_backs_read_back_as_the_record():
    log = fresh("rw")
    g = played(log, 3)
    g.undo()
    log.sync(g)
    assert record.apply_move(g, *game_moves()[2]) == 0  # put back
    log.sync(g)
    log.flush_all()
    lines = records.Lines()
    verdict, good, count, link = records.read_log(data_of(log), lines)
    assert verdict == records.OK_LOG and good == len(data_of(log))
    assert lines.header[0] == '[Board "sim"]' and lines.header[1].startswith("mode")
    assert lines.moves == ["B1 8 H5", "A1 23 G3", "B2 25 E3"]
    assert lines.header[-1] == "start B"


def test_truncation_at_every_byte_loses_only_the_record_being_written():
    log = fresh("cut")
    played(log, 4)
    data = data_of(log)
    ends = []
    i = 0
    while i < len(data):
        i += data[i + 2] + 9
        ends.append(i)
    for n in range(len(data) + 1):
        verdict, good, count, link = records.read_log(data[:n])
        complete = len([e for e in ends if e <= n])
        assert count == complete, n
        assert verdict == (records.OK_LOG if n in ends or n == 0 else records.TORN), n


def test_an_edited_or_damaged_record_is_detected():
    log = fresh("edit")
    played(log, 3)
    data = bytearray(data_of(log))
    # Rewrite one move's text and fix its CRC: only the chain can tell.
    first_move = 0
    i = 0
    while data[i + 1] != records.MOVE:
        i += data[i + 2] + 9
    first_move = i
    ln = data[i + 2]
    payload = bytes(data[i + 3 : i + 3 + ln]).replace(b"1", b"2")
    rec, _ = records.encode(b"XXXX", records.MOVE, payload)  # a forger without the chain
    edited = data[:first_move] + rec + data[first_move + ln + 9 :]
    assert records.read_log(edited)[0] == records.BROKEN
    flipped = bytearray(data)
    flipped[first_move + 4] ^= 1
    assert records.read_log(flipped)[0] == records.CORRUPT


def test_a_torn_tail_is_cut_before_the_match_goes_on():
    log = fresh("resume")
    played(log, 2)
    with open(log.path, "ab") as f:
        f.write(b"\xa5M\x07A 3 ")  # the power went mid-record
    log2 = writer.MatchLog(log.root)
    name, lines = log2.unfinished()
    assert lines.moves() == 2 and name == "0001.alog"
    g = Game(BEEHIVE, 1, 0, False)
    for m in game_moves()[:2]:
        record.apply_move(g, *m)
    log2.adopt(g)
    record.apply_move(g, *game_moves()[2])
    log2.sync(g)
    log2.flush_all()
    # 3 headers + 3 moves (the Board tag, mode, start)
    assert records.read_log(data_of(log2))[:3] == (records.OK_LOG, len(data_of(log2)), 6)


def test_the_winning_card_taken_back_reopens_the_match():
    # E then U: the match goes on (issue 3), so a power cut after it must
    # resume it, on the board (Positions) as on the host (Lines).
    from smartboard.sim.flash import SimFlash

    data = bytearray()
    link = records.SEED
    for kind, text in (
        (records.HEADER, "mode queens-gambit"),
        (records.MOVE, "B 0 D4"),
        (records.MOVE, "G 0 D5"),
        (records.END, "black wins (two sequences of 4)"),
        (records.UNDO, ""),
    ):
        rec, link = records.encode(link, kind, text.encode())
        data.extend(rec)
    lines = records.Lines()
    assert records.read_log(data, lines)[0] == records.OK_LOG
    assert lines.result is None and lines.moves == ["B 0 D4"]
    flash = SimFlash()
    flash.mkdir("logs")
    flash.write("logs/0001.alog", data)
    name, found = writer.MatchLog("logs", (), flash).unfinished()
    assert name == "0001.alog" and found.moves() == 1 and found.result is None
    assert list(found.lines()) == ["mode queens-gambit", "B 0 D4"]


def test_date_tags_name_the_day_and_time_of_unix_seconds():
    # integer arithmetic, the same on every port: leap days, centuries
    # (2000 was a leap year, 2100 is not), the last second of a day
    for t, day, hm in (
        (946684800, "2000.01.01", "00:00"),
        (951782400, "2000.02.29", "00:00"),
        (1709251199, "2024.02.29", "23:59"),
        (1795822200, "2026.11.27", "23:30"),
        (4107456000, "2100.02.28", "00:00"),
        (4107542400, "2100.03.01", "00:00"),
    ):
        assert writer.date_tags(t) == (("Date", day), ("Time", hm)), (t, writer.date_tags(t))

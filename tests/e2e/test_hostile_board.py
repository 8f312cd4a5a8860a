"""The host against boards that misbehave (tests/e2e/fakeboard.py: a board
on a real pseudo-terminal answering from a thread) and against data
folders and database files it cannot trust. Each case runs the real
`apixagon` console script and checks the exit code and message each
case expects, that it came back well before any timeout (no hang), that
no traceback was printed, and what the database holds afterwards:
unchanged, or whole logs and verified prefixes of them, nothing half."""

import contextlib
import hashlib
import os
import sqlite3
import subprocess
import sys
import time

import pytest
from apixagon_host.store import Store
from fakeboard import STATUS, UNPLUG, FakeBoard, big_log, get_reply, log_bytes
from ptykit import Terminal
from smartboard import proto
from smartboard.logstore import records

BIN = os.path.join(os.path.dirname(sys.executable), "apixagon")
QUICK = 3.0  # a refusal that waits for nothing: startup and one exchange
DEADLINE = 6.5  # one request's deadline (3 s) and startup, well under TIMEOUT
TIMEOUT = 30

GAME = ["mode queens-gambit", "start black", "B 12 E4", "G 3 A1", "B 13 I9"]


def apixagon(tmp_path, *argv, limit=QUICK):
    """Run the console script as a user does: (exit code, stdout, stderr).
    Fails on a traceback or when it took longer than limit seconds."""
    env = {k: v for k, v in os.environ.items() if k != "APIXAGON_PORT"}
    env.setdefault("APIXAGON_DATA", str(tmp_path / "data"))
    t0 = time.monotonic()
    p = subprocess.run([BIN] + list(argv), capture_output=True, timeout=TIMEOUT, env=env)
    took = time.monotonic() - t0
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert took < limit, "%s took %.1f s: %s" % (argv, took, err)
    return p.returncode, out, err


def rows(db):
    """Everything stored, read-only (the test must not change it either)."""
    uri = "file:%s?mode=ro" % db
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as c:
        assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return c.execute("SELECT board, name, data, complete FROM logs ORDER BY name").fetchall()


def seeded(tmp_path):
    """A database holding one match of another board: a failed pull must
    leave it as it was."""
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("other-board", "0001.alog", log_bytes(GAME, "abandoned"))
    return db, rows(db)


def assert_prefixes(stored, logs):
    """Each stored log is the board's bytes, whole or a prefix that reads
    back record for record (a pull that stopped between batches)."""
    for board, name, data, complete in stored:
        if board == "other-board":
            continue
        whole = logs[name]
        assert whole.startswith(data), name
        verdict, good, _, _ = records.read_log(data)
        assert good == len(data) and verdict == records.OK_LOG, name
        assert complete == (data == whole), name


# ---- what the board lists ---------------------------------------------------------------------
LISTINGS = {
    "terabyte": ("0001.alog:1000000000000:done", "0001.alog is listed at 1000000000000 bytes"),
    "negative": ("0001.alog:-5:done", "0001.alog is listed at a negative size, -5 bytes"),
    "not-a-number": ("0001.alog:abc:done", "0001.alog is listed with a size that is not a number"),
    "marker-+0": ("0001.alog:12:done +0", "LOGS 0 was answered with the page marker +0"),
    "state": ("0001.alog:12:lost", "0001.alog is listed as 'lost'"),
    "path": ("../../etc/passwd:12:done", "'../../etc/passwd' is not a log's name"),
    "twice": ("0001.alog:12:done 0001.alog:12:done", "0001.alog is listed twice"),
}


@pytest.mark.parametrize("page,message", LISTINGS.values(), ids=LISTINGS.keys())
def test_a_listing_that_makes_no_sense_is_refused_before_any_get(tmp_path, page, message):
    db, before = seeded(tmp_path)
    with FakeBoard() as board:
        board.answer["LOGS"] = lambda b, seq, args: proto.reply_ok(seq, page)
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
        # HELLO 4, 3 and 2 refused, HELLO 1 (a board of protocol 1); asked once, nothing
        # fetched, nothing marked
        assert board.verbs() == ["HELLO"] * proto.VERSION + ["LOGS"]
    assert rc == 1 and "the board's list of logs makes no sense: " + message in err
    assert "pulled" not in out  # (a negative size was reported as a pulled match)
    assert rows(db) == before


def test_a_listing_that_pages_on_for_ever_stops_at_the_page_bound(tmp_path):
    # Each page moves on by one and lists nothing: an advancing marker,
    # but no board has that many pages of logs.
    db, before = seeded(tmp_path)
    with FakeBoard() as board:
        board.answer["LOGS"] = lambda b, seq, args: proto.reply_ok(seq, "+%d" % (int(args[0]) + 1))
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
        assert board.verbs().count("LOGS") == 256
    assert rc == 1 and "makes no sense: more than 256 pages of logs" in err
    assert rows(db) == before


# ---- replies that never come --------------------------------------------------------------------
def test_endless_replies_with_the_wrong_seq_end_at_the_request_deadline(tmp_path):
    with FakeBoard() as board:

        def mad(b, seq, args):
            b.flood = proto.reply_ok(seq + 1000, "phase=setup")  # for ever, to a request not made
            return b""

        board.answer["STATUS"] = mad
        rc, out, err = apixagon(tmp_path, "status", "-p", board.port, limit=DEADLINE)
    assert rc == 1
    assert "the board did not answer STATUS within 3 s on %s" % board.port in err
    assert "to requests it was not asked (a wrong seq) instead" in err


def test_get_replies_with_the_wrong_seq_end_the_download_at_its_deadline(tmp_path):
    db, before = seeded(tmp_path)
    with FakeBoard({"0001.alog": log_bytes(GAME)}) as board:
        board.answer["GET"] = lambda b, seq, args: proto.reply_ok(
            seq + 7, get_reply(b.logs[args[0]], int(args[1]), int(args[2]))
        )
        rc, out, err = apixagon(
            tmp_path, "logs", "pull", "-p", board.port, "--db", db, limit=DEADLINE
        )
        assert "PULLED" not in board.verbs()
    assert rc == 1 and "the board did not answer GET 0001.alog 0 " in err
    assert "(a wrong seq) instead" in err
    assert rows(db) == before


def test_a_slow_honest_board_is_waited_for(tmp_path):
    # 0.4 s a chunk, 8 GETs in flight: the last of a window is answered
    # 3.2 s after it was sent, over the 3 s deadline, but 0.4 s after the
    # answer before it: a deadline runs from the board's last answer.
    logs = {"0001.alog": big_log(15)}  # 8 chunks: one window
    with FakeBoard(logs) as board:
        good = board.good

        def slow(b, seq, args):
            time.sleep(0.4)
            return good(seq, "GET", args)

        board.answer["GET"] = slow
        db = str(tmp_path / "m.sqlite")
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db, limit=8)
    assert rc == 0 and "1 log pulled" in out, err
    assert [d for b, n, d, c in rows(db)] == [logs["0001.alog"]]


def test_invalid_base64_in_a_get_reply_is_refused_after_a_few_tries(tmp_path):
    db, before = seeded(tmp_path)
    with FakeBoard({"0001.alog": log_bytes(GAME)}) as board:
        board.answer["GET"] = lambda b, seq, args: proto.reply_ok(
            seq, "%s 4 0000 !!not*base64!!" % args[1]
        )
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
        assert board.verbs().count("GET") == 9 and "PULLED" not in board.verbs()
    assert rc == 1
    assert "0001.alog: the board's answers to GET are damaged or make no sense" in err
    assert "(invalid base64), 9 times" in err
    assert rows(db) == before


def test_a_board_that_answers_err_fails_with_its_message(tmp_path):
    with FakeBoard() as board:
        board.answer["LOGS"] = lambda b, seq, args: proto.reply_err(seq, proto.E_INTERNAL, "flash")
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port)
    assert rc == 1 and "apixagon: board: board error: flash" in err


# ---- the board unplugged, the disk full -------------------------------------------------------
def four_logs():
    return {"%04d.alog" % i: big_log(40, str(i)) for i in range(1, 5)}  # 80 chunks


def test_a_board_unplugged_mid_pull_is_no_board_and_keeps_what_was_stored(tmp_path):
    db, before = seeded(tmp_path)
    logs = four_logs()
    with FakeBoard(logs) as board:
        good = board.good

        def get(b, seq, args):
            # the 50th GET: a batch of 32 chunks is stored, the next in flight
            return UNPLUG if b.verbs().count("GET") == 50 else good(seq, "GET", args)

        board.answer["GET"] = get
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
        assert board.unplugged.is_set() and "PULLED" not in board.verbs()
    assert rc == 3
    assert "lost the board on %s (unplugged?)" % board.port in err
    assert "what was stored before is kept, the board keeps its logs: pull again" in err
    stored = rows(db)
    assert [r for r in stored if r[0] == "other-board"] == before
    assert len(stored) > len(before)  # the first batch is in
    assert_prefixes(stored, logs)
    # Plugged in again, the pull goes on from what was stored.
    with FakeBoard(logs) as board:
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
        asked = sum(int(a[2]) for v, a in board.asked if v == "GET")
    assert rc == 0 and "pulled from fake-1" in out
    assert asked < sum(len(x) for x in logs.values())
    assert {n: d for b, n, d, c in rows(db) if b == "fake-1"} == logs


@contextlib.contextmanager
def small_disk(path, kb, ro=False):
    """A folder on a tmpfs of kb KB (a disk that really fills up: ENOSPC,
    as a full disk says it). Needs mount(8) as root, as CI runs."""
    path.mkdir()
    opts = "size=%dk,mode=0777" % kb + (",ro" if ro else "")
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)], capture_output=True
        ).returncode
    ):
        pytest.skip("a small disk needs a tmpfs mount (root)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def test_a_full_disk_mid_pull_is_a_message_and_nothing_half_written(tmp_path):
    logs = four_logs()
    with small_disk(tmp_path / "disk", 160) as disk:
        db = str(disk / "m.sqlite")
        with FakeBoard(logs) as board:
            rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
            assert "PULLED" not in board.verbs()  # the board keeps every log
        assert rc == 1
        assert "cannot write the match database %s: the disk is full" % db in err
        assert "what was stored before is kept, nothing is half-written" in err
        stored = rows(db)
        assert 0 < len(stored) < 4  # a batch or two, each whole
        assert_prefixes(stored, logs)
        # Room made: the next pull goes on and ends with every log whole.
        subprocess.run(["mount", "-o", "remount,size=4m", str(disk)], check=True)
        with FakeBoard(logs) as board:
            rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
            assert board.verbs().count("PULLED") == 4
        assert rc == 0, err
        assert {n: d for b, n, d, c in rows(db)} == logs


# ---- data folders and database files that are not what they should be ------------------------
def test_a_data_dir_that_is_a_file_is_named_in_the_message(tmp_path):
    (tmp_path / "data").write_text("not a folder")
    rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", "/dev/null")
    said = "the data folder %s is a file, not a folder" % (tmp_path / "data")
    assert rc == 2 and said in err
    assert "None" not in err
    rc, out, err = apixagon(tmp_path, "logs", "list")  # a read too: not "nothing stored"
    assert rc == 2 and said in err and out == ""


def test_a_read_only_data_dir_is_named_in_the_message_and_still_read(tmp_path):
    data = tmp_path / "data"
    db = str(data / "matches.sqlite")
    with small_disk(data, 256) as disk:
        with Store(db) as s:  # pulled before the folder went read-only
            s.put("fake-1", "0001.alog", log_bytes(GAME, "abandoned"))
        before = rows(db)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        with FakeBoard({"0002.alog": log_bytes(GAME)}) as board:
            rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port)
        assert rc == 2 and "None" not in err
        assert "cannot write the match database %s: attempt to write a readonly" % db in err
        rc, out, err = apixagon(tmp_path, "logs", "list")
        assert rc == 0 and "fake-1" in out and "abandoned" in out
        rc, out, err = apixagon(tmp_path, "logs", "show", "1")
        assert rc == 0 and "B 13 I9" in out
        assert rows(db) == before and os.listdir(data) == ["matches.sqlite"]


def test_a_full_data_dir_is_named_in_the_message(tmp_path):
    data = tmp_path / "data"
    with small_disk(data, 64) as disk:
        with open(disk / "filler", "wb") as f:
            with contextlib.suppress(OSError):
                f.write(b"x" * (1 << 20))  # ENOSPC once the disk is full
        with FakeBoard({"0001.alog": log_bytes(GAME)}) as board:
            rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port)
            assert board.verbs() == []  # refused before the board is asked anything
        assert rc == 1 and "None" not in err
        assert (
            "cannot write the match database %s: the disk is full" % (data / "matches.sqlite")
            in err
        )


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def foreign(path, sql):
    with contextlib.closing(sqlite3.connect(str(path))) as c:
        c.executescript(sql)
        c.commit()
    return str(path)


READS = [("logs", "list"), ("logs", "show", "1"), ("logs", "export", "1"), ("replay", "1")]


@pytest.mark.parametrize(
    "sql,message",
    [
        ("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine')", "other tables (notes)"),
        ("CREATE TABLE logs (id INTEGER PRIMARY KEY, what TEXT)", "its logs table has no board"),
    ],
    ids=["other-tables", "other-logs"],
)
def test_a_foreign_sqlite_file_is_refused_and_left_as_it_was(tmp_path, sql, message):
    db = foreign(tmp_path / "theirs.sqlite", sql)
    digest = sha(db)
    for argv in READS:
        rc, out, err = apixagon(tmp_path, *(argv + ("--db", db)))
        assert rc == 2 and "%s is not a match database: " % db in err and message in err, argv
    with FakeBoard({"0001.alog": log_bytes(GAME)}) as board:  # the writer refuses it too
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
        assert board.verbs() == []
    assert rc == 2 and message in err
    assert sha(db) == digest and sorted(os.listdir(tmp_path)) == ["theirs.sqlite"]


def test_reads_take_an_older_database_as_it_stands_and_pull_brings_it_up_to_date(tmp_path):
    # The first release's schema (no moves column), in rollback-journal
    # mode: reading it adds no column and switches it to no WAL.
    db = foreign(
        tmp_path / "old.sqlite",
        "CREATE TABLE logs (id INTEGER PRIMARY KEY, board TEXT NOT NULL, name TEXT NOT NULL,"
        " data BLOB NOT NULL, records INTEGER NOT NULL, complete INTEGER NOT NULL,"
        " result TEXT, pulled_at TEXT NOT NULL, UNIQUE (board, name))",
    )
    with contextlib.closing(sqlite3.connect(db)) as c, c:
        c.execute(
            "INSERT INTO logs (board, name, data, records, complete, result, pulled_at)"
            " VALUES ('fake-1', '0001.alog', ?, 6, 1, 'abandoned', '2026-11-01 10:00:00')",
            (log_bytes(GAME, "abandoned"),),
        )
    digest = sha(db)
    rc, out, err = apixagon(tmp_path, "logs", "list", "--db", db)
    assert rc == 0 and out.splitlines()[1].split()[1:9] == [
        "fake-1",
        "0001.alog",
        "2026-11-01",  # no date column: its last pull's time
        "10:00",
        "3",  # counted from the stored bytes
        "done",
        "-",  # no players named
        "abandoned",
    ]
    for argv in READS[1:]:
        rc, out, err = apixagon(tmp_path, *(argv + ("--db", db)))
        assert rc == 0 and "B 13 I9" in out, argv
    assert sha(db) == digest and sorted(os.listdir(tmp_path)) == ["old.sqlite"]
    with FakeBoard({"0002.alog": log_bytes(GAME)}) as board:
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "1 log pulled" in out
    with contextlib.closing(sqlite3.connect(db)) as c:
        assert c.execute("SELECT name, moves FROM logs ORDER BY name").fetchall() == [
            ("0001.alog", 3),
            ("0002.alog", 3),
        ]
        assert c.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # at rest again
    assert sorted(os.listdir(tmp_path)) == ["old.sqlite"]


# ---- what the board's text does on the user's terminal ----------------------------------------
HOSTILE = [
    '[Event "\x1b]0;owned\x07\x1b[2J\x1b[H"]',
    "mode queens-gambit",
    "start black",
    "B 12 E4 # \x1b[31mred\x1b[0m \u202eevil",
    "G 3 A1",
    b"B 13 I9 # \xff\xfe",
]


def test_a_hostile_log_never_reaches_the_terminal_raw(tmp_path):
    db = str(tmp_path / "m.sqlite")
    log = log_bytes(HOSTILE, "abandoned\x1b[5m")
    with FakeBoard({"0001.alog": log}) as board:
        rc, out, err = apixagon(tmp_path, "logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "1 log pulled" in out
    assert rows(db)[0][2] == log  # stored as the board wrote it: its checksums hold
    with Store(db) as s:  # and a database whose board name came from elsewhere
        s.put("evil\x1b[2J", "0002.alog", log_bytes(GAME))
    shown = {}
    for argv in (("logs", "show", "1"), ("logs", "list"), ("replay", "1")):
        rc, out, err = apixagon(tmp_path, *(argv + ("--db", db)))
        assert rc == 0 and not any(c in out for c in "\x1b\x07\u202e"), (argv, out)
        shown[argv[1]] = out
    assert '[Event "\\x1b]0;owned\\x07\\x1b[2J\\x1b[H"]' in shown["show"]  # seen, not acted on
    assert "B 12 E4 # \\x1b[31mred\\x1b[0m \\u202eevil" in shown["show"]
    assert "B 13 I9 # \ufffd\ufffd" in shown["show"] and "abandoned\\x1b[5m" in shown["show"]
    assert "evil\\x1b[2J" in shown["list"]
    # An export is the record as the log holds it, to a file or a pipe...
    rc, out, err = apixagon(
        tmp_path, "logs", "export", "1", "--db", db, "-o", str(tmp_path / "x.apx")
    )
    assert rc == 0 and "B 12 E4 # \x1b[31mred" in (tmp_path / "x.apx").read_text()
    rc, out, err = apixagon(tmp_path, "logs", "export", "1", "--db", db)
    assert rc == 0 and "\x1b]0;owned\x07" in out
    rc, out, err = apixagon(tmp_path, "logs", "export", "1", "--db", db, "--format", "json")
    assert rc == 0 and "\\u001b]0;owned\\u0007" in out and "\x1b" not in out
    rc, out, err = apixagon(
        tmp_path, "logs", "render", "2", "--db", db, "-o", str(tmp_path / "x.svg")
    )
    svg = (tmp_path / "x.svg").read_text()  # the title names the board: evil\x1b[2J
    assert rc == 0 and "evil\\x1b[2J" in svg and "\x1b" not in svg  # or it is no XML
    # ... and cleaned on a terminal.
    t = Terminal([BIN, "logs", "export", "1", "--db", db])
    try:
        assert t.wait_exit(TIMEOUT) == 0
        assert b"\\x1b]0;owned" in t.raw and b"\x1b" not in t.raw and b"\x07" not in t.raw
    finally:
        t.close()


# ---- STATUS from boards old and new --------------------------------------------------------------
@pytest.mark.parametrize("display", ["card query", "card_query"], ids=["older", "newer"])
def test_status_reads_old_and_new_values_and_says_what_is_down(tmp_path, display):
    st = STATUS.replace("display=adult", "display=" + display).replace("hw=ok", "hw=reader2,pad")
    with FakeBoard(status=st + " faults=3") as board:
        rc, out, err = apixagon(tmp_path, "status", "-p", board.port)
    assert rc == 0, err
    lines = out.splitlines()
    assert "  display   card query" in lines and "  logs      0" in lines
    assert "  hw        reader2,pad" in lines and "  faults    3" in lines
    assert (
        "warning: parts of the board do not work: cell reader 2, the action pad's reader"
        " (it plays on with the rest)" in lines
    )
    assert "warning: the board's main loop caught 3 errors since it started (it went on)" in lines

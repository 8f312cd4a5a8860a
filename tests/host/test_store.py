"""The local match database (a real SQLite file): what `logs list` counts,
databases made by older versions, and a mistyped --db."""

import io
import json
import os
import re
import sqlite3
import time

import pytest
from apixagon_host import cli
from apixagon_host.errors import CommandError
from apixagon_host.store import Store
from smartboard.logstore import records

RECORD = [
    "mode queens-gambit",
    "start black",
    "B 12 E4",
    "G 3 A1",
    "B 13 I9",
]


def log_bytes(lines, end=None):
    out = bytearray()
    prev = records.SEED
    for text in lines:
        kind = records.HEADER if text[0] in "ms[" else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    if end:
        rec, prev = records.encode(prev, records.END, end.encode())
        out += rec
    return bytes(out)


def run_cli(*argv):
    out = io.StringIO()
    return cli.main(list(argv), cli.State(out=out)), out.getvalue()


def test_list_counts_moves_not_records(tmp_path):
    db = str(tmp_path / "m.sqlite")
    s = Store(db)
    s.put("sim-A", "0001.alog", log_bytes(RECORD, "abandoned"))
    s.close()
    rc, out = run_cli("logs", "list", "--db", db)
    assert rc == 0
    row = out.splitlines()[1].split()
    assert row[:3] + row[5:9] == ["1", "sim-A", "0001.alog", "3", "done", "-", "abandoned"]
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d$", " ".join(row[3:5]))


def test_a_database_from_before_the_moves_column_is_read_as_it_is_and_pulled_into_shape(tmp_path):
    db = str(tmp_path / "old.sqlite")
    with sqlite3.connect(db) as c:  # the schema as the first release made it
        c.execute(
            "CREATE TABLE logs (id INTEGER PRIMARY KEY, board TEXT NOT NULL, name TEXT NOT NULL,"
            " data BLOB NOT NULL, records INTEGER NOT NULL, complete INTEGER NOT NULL,"
            " result TEXT, pulled_at TEXT NOT NULL, UNIQUE (board, name))"
        )
        c.execute(
            "INSERT INTO logs (board, name, data, records, complete, result, pulled_at)"
            " VALUES ('sim-A', '0001.alog', ?, 5, 0, NULL, '2026-11-01 10:00:00')",
            (log_bytes(RECORD),),
        )
    c.close()
    with open(db, "rb") as f:
        before = f.read()
    rc, out = run_cli("logs", "list", "--db", db)
    row = out.splitlines()[1].split()
    assert rc == 0 and row[5:7] == ["3", "in"]  # counted as read
    assert row[3:5] == ["2026-11-01", "10:00"]  # no date column: its last pull's
    rc, out = run_cli("logs", "export", "1", "--db", db)
    assert rc == 0 and "B 13 I9" in out
    with open(db, "rb") as f:
        assert f.read() == before  # a read command changes nothing, not even a column
    Store(db).close()  # a writer (logs pull) brings it up to date
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT moves, date FROM logs").fetchall() == [(3, "2026-11-01 10:00")]
    c.close()
    s = Store(db)  # and takes tags, pending or set
    s.set_tags(1, {"Black": "Anna"})
    assert s.tags(1) == {"Black": "Anna"}
    s.close()


def test_a_mistyped_db_is_an_error_and_makes_no_file(tmp_path, capsys):
    missing = str(tmp_path / "typo.sqlite")
    for argv in (
        ("logs", "list"),
        ("logs", "show", "1"),
        ("logs", "export", "1"),
        ("logs", "render", "1", "-o", str(tmp_path / "x.svg")),
        ("replay", "1"),
    ):
        rc, out = run_cli(*(argv + ("--db", missing)))
        assert rc == 2, argv
        assert "no match database at %s" % missing in capsys.readouterr().err
        assert not os.path.exists(missing) and not os.path.exists(str(tmp_path / "x.svg"))


def test_a_file_that_is_not_a_database_is_an_error_and_stays_as_it_was(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes, not a database\n" * 200)
    rc, _ = run_cli("logs", "list", "--db", str(path))
    assert rc == 2 and "is not a match database" in capsys.readouterr().err
    assert path.read_bytes() == b"my notes, not a database\n" * 200


# Every command that takes --db, run as far as its --db (no board, no server:
# serve's --host is refused later, monitor's and pull's port is no board).
DB_COMMANDS = (
    ("logs", "list"),
    ("logs", "show", "1"),
    ("logs", "export", "1"),
    ("logs", "tag", "1", "Event=club"),
    ("logs", "render", "1"),
    ("logs", "pull", "--port", os.devnull),
    ("replay", "1"),
    ("monitor", "--port", os.devnull, "--seconds", "0.1"),
    ("serve", "--port", os.devnull, "--host", "192.0.2.1"),
)


@pytest.mark.parametrize("argv", DB_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_db_that_cannot_be_a_database_file_says_why(tmp_path, capsys, argv):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not a database\n")
    folder = tmp_path / "matches"
    folder.mkdir()
    cases = {
        str(folder): "--db %s is a folder: name a database file, e.g. %s"
        % (folder, folder / "matches.sqlite"),
        str(tmp_path / "nope" / "m.sqlite"): "--db %s is in a folder that is not there: %s"
        % (tmp_path / "nope" / "m.sqlite", tmp_path / "nope"),
        str(notes / "m.sqlite"): "--db %s is in %s, which is not a folder"
        % (notes / "m.sqlite", notes),
        str(notes): "--db %s is not a match database: it is not an SQLite file" % notes,
    }
    for db, words in cases.items():
        rc, out = run_cli(*(argv + ("--db", db)))
        err = capsys.readouterr().err
        assert rc == 2 and out == "", (db, err)
        assert err == "apixagon: %s\n" % words or err.startswith("apixagon: %s (" % words), err
        for write in (False, True):  # the web companion's and the companion's opening too
            with pytest.raises(CommandError) as e:
                Store(db, write).close()
            assert str(e.value).startswith(words), (db, write, e.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["matches", "notes.txt"]
    assert list(folder.iterdir()) == []
    assert notes.read_text() == "my notes, not a database\n"


def test_a_default_database_that_is_a_folder_says_so(tmp_path, monkeypatch, capsys):
    (tmp_path / "matches.sqlite").mkdir()
    monkeypatch.setenv("APIXAGON_DATA", str(tmp_path))
    for argv in (("logs", "list"), ("logs", "show", "1")):
        rc, out = run_cli(*argv)
        assert rc == 2 and out == "", argv
        assert (
            "the match database %s is a folder, not a file" % (tmp_path / "matches.sqlite")
            in capsys.readouterr().err
        )


def test_export_to_a_file_is_written_whole_and_a_bad_path_is_a_usage_error(tmp_path, capsys):
    db = str(tmp_path / "m.sqlite")
    s = Store(db)
    s.put("sim-A", "0001.alog", log_bytes(RECORD, "abandoned"))
    s.close()
    out = tmp_path / "m.apx"
    rc, text = run_cli("logs", "export", "1", "--db", db, "-o", str(out))
    assert rc == 0 and text == "wrote %s\n" % out
    assert "B 13 I9" in out.read_text() and out.read_text().endswith("\n")
    rc, _ = run_cli("logs", "export", "1", "--db", db, "-o", str(tmp_path / "no" / "m.apx"))
    assert rc == 2 and "cannot write" in capsys.readouterr().err
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # nothing half-made


def test_a_data_folder_that_is_a_file_is_a_usage_error(tmp_path, monkeypatch, capsys):
    path = tmp_path / "data"
    path.write_text("not a folder")
    monkeypatch.setenv("APIXAGON_DATA", str(path))
    for argv in (("logs", "list"), ("logs", "show", "1"), ("replay", "1")):
        rc, out = run_cli(*argv)
        assert rc == 2 and out == "", argv
        assert "the data folder %s is a file, not a folder" % path in capsys.readouterr().err
    assert path.read_text() == "not a folder"


def test_a_negative_replay_delay_is_a_usage_error(tmp_path, capsys):
    db = str(tmp_path / "m.sqlite")
    s = Store(db)
    s.put("sim-A", "0001.alog", log_bytes(RECORD, "abandoned"))
    s.close()
    for bad in ("-1", "nan", "inf"):
        rc, out = run_cli("replay", "1", "--db", db, "--delay", bad)
        assert rc == 2 and out == ""
        assert "--delay must be 0..3600 seconds" in capsys.readouterr().err


def test_export_takes_its_format_from_the_extension_and_refuses_a_contradiction(tmp_path, capsys):
    db = str(tmp_path / "m.sqlite")
    s = Store(db)
    s.put("sim-A", "0001.alog", log_bytes(RECORD, "abandoned"))
    s.close()
    j, a = tmp_path / "m.json", tmp_path / "m.APX"
    assert run_cli("logs", "export", "1", "--db", db, "-o", str(j))[0] == 0
    assert json.loads(j.read_text())["moves"] == ["B 12 E4", "G 3 A1", "B 13 I9"]
    assert run_cli("logs", "export", "1", "--db", db, "-o", str(a))[0] == 0
    assert a.read_text().startswith("[")
    assert run_cli("logs", "export", "1", "--db", db, "-o", str(a), "--format", "apx")[0] == 0
    assert json.loads(run_cli("logs", "export", "1", "--db", db, "--format", "json")[1])
    bad = tmp_path / "x.json"
    rc, out = run_cli("logs", "export", "1", "--db", db, "-o", str(bad), "--format", "apx")
    assert rc == 2 and out == "" and not bad.exists()
    assert "--format apx but %s ends in .json" % bad in capsys.readouterr().err


def stored_match(tmp_path, lines=RECORD, end="abandoned", board="sim-A", name="0001.alog"):
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put(board, name, log_bytes(lines, end))
    return db


def test_logs_tag_names_the_players_and_export_and_list_show_them(tmp_path, capsys):
    db = stored_match(tmp_path)
    rc, out = run_cli("logs", "tag", "1", "Black=Anna", "Gold=Ben", "Event=Club night", "--db", db)
    assert rc == 0
    assert out == 'match 1: Black="Anna"  Event="Club night"  Gold="Ben"\n'
    rc, out = run_cli("logs", "list", "--db", db)
    assert "Anna v Ben" in out.splitlines()[1]
    rc, out = run_cli("logs", "export", "1", "--db", db)
    head = out.splitlines()[:9]
    day = time.strftime("%Y.%m.%d")
    assert head[0] == '[Board "sim-A"]' and head[1] == '[BoardId "sim-A"]'
    assert head[2] == '[Log "0001.alog"]' and head[3] == '[Date "%s"]' % day
    assert head[4].startswith('[Time "')
    assert head[5:9] == [
        '[Black "Anna"]',
        '[Event "Club night"]',
        '[Gold "Ben"]',
        '[Result "abandoned"]',
    ]
    f = tmp_path / "m.apx"  # what is exported checks as a record
    f.write_text(out)
    assert run_cli("check", str(f))[0] == 0
    rc, out = run_cli("logs", "export", "1", "--db", db, "--format", "json")
    data = json.loads(out)
    assert data["tags"]["Black"] == "Anna" and data["date"].startswith(day.replace(".", "-"))
    rc, out = run_cli("logs", "tag", "1", "Gold=", "--db", db)  # Name= removes it
    assert rc == 0 and "Gold" not in out
    rc, out = run_cli("logs", "list", "--db", db)
    assert "Anna v ?" in out


def test_bad_tags_change_nothing(tmp_path, capsys):
    db = stored_match(tmp_path)
    assert run_cli("logs", "tag", "1", "Black=Anna", "--db", db)[0] == 0
    for pair, said in (
        ("Gold", "is not Name=value"),
        ("Go ld=Ben", "is not a tag name"),
        ("1st=Ben", "is not a tag name"),
        ('Gold=B"en', "holds a quote"),
        ("Gold=B\x1b[2Jen", "control character"),
        ("Result=black wins", "the board's own tag"),
        ("Date=yesterday", "Date must be YYYY.MM.DD"),
        ("Gold=" + "x" * 201, "longer than 200"),
    ):
        rc, out = run_cli("logs", "tag", "1", "Gold=Ben", pair, "--db", db)
        assert rc == 2 and out == "", pair
        err = capsys.readouterr().err
        assert said in err and "nothing changed" in err or "Name=value" in err, (pair, err)
        with Store(db) as s:
            assert s.tags(1) == {"Black": "Anna"}, pair
    rc, out = run_cli("logs", "tag", "9", "Gold=Ben", "--db", db)
    assert rc == 2 and "no stored match with id 9" in capsys.readouterr().err
    missing = str(tmp_path / "typo.sqlite")
    rc, out = run_cli("logs", "tag", "1", "Gold=Ben", "--db", missing)
    assert rc == 2 and not os.path.exists(missing)


def test_pending_tags_are_set_when_that_log_is_pulled(tmp_path):
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(RECORD, "abandoned"))
        s.pend_tags("sim-A", 2, {"Black": "Anna", "Gold": "Ben"})
        s.pend_tags("sim-B", 2, {"Black": "Cleo"})  # another board's 0002
        s.pend_tags("sim-A", "0002.alog", {"Gold": ""})  # taken back before the pull
        assert s.tags(1) == {}
        s.put("sim-A", "0002.alog", log_bytes(RECORD))  # pulled in play
        assert s.tags(2) == {"Black": "Anna"}
        s.pend_tags("sim-A", 2, {"Gold": "Ben"})  # in play and stored: set at once
        assert s.tags(2) == {"Black": "Anna", "Gold": "Ben"}
        s.put("sim-A", "0002.alog", log_bytes(RECORD, "abandoned"))
        assert s.tags(2) == {"Black": "Anna", "Gold": "Ben"}
        s.put("sim-B", "0002.alog", log_bytes(RECORD))
        assert s.tags(3) == {"Black": "Cleo"}
        with pytest.raises(ValueError):
            s.pend_tags("sim-A", 3, {"Log": "x"})
        with pytest.raises(KeyError):
            s.set_tags(9, {"Black": "Anna"})


def test_the_date_is_the_logs_own_when_it_has_one(tmp_path):
    db = stored_match(tmp_path, ['[Date "2026.11.22"]', '[Time "19:05:00"]'] + RECORD)
    rc, out = run_cli("logs", "list", "--db", db)
    assert out.splitlines()[1].split()[3:5] == ["2026-11-22", "19:05"]
    rc, out = run_cli("logs", "export", "1", "--db", db)
    assert out.count("[Date ") == 1 and '[Date "2026.11.22"]' in out


def test_the_board_is_named_as_its_log_names_it_and_by_its_id(tmp_path):
    db = stored_match(tmp_path, ['[Board "simulator A"]'] + RECORD)
    rc, out = run_cli("logs", "export", "1", "--db", db)
    assert out.splitlines()[:2] == ['[Board "simulator A"]', '[BoardId "sim-A"]']
    assert out.count("[Board ") == 1
    rc, out = run_cli("logs", "show", "1", "--db", db)
    assert out.startswith("match 1: 0001.alog on simulator A (sim-A), ")


def test_a_date_set_on_the_pc_is_the_matchs_date(tmp_path):
    # pulled later than it was played: the pull's time until a Date says
    db = stored_match(tmp_path, RECORD)
    with Store(db) as s:
        s.set_tags(1, {"Date": "2026.11.20", "Time": "17:30"})
        assert s.date(1) == "2026-11-20 17:30"
        s.set_tags(1, {"Black": "Anna"})  # other tags leave it
        assert s.date(1) == "2026-11-20 17:30"
    rc, out = run_cli("logs", "list", "--db", db)
    assert out.splitlines()[1].split()[3:5] == ["2026-11-20", "17:30"]


def _list_as_a_user_who_may_not_read(data):
    """(exit code, stderr) of `logs list` on the data folder, run by a user
    the folder's permissions keep out: as root (who reads every folder) a
    child process that gives root up, with the command's modules loaded
    first (the checkout need not be readable by that user); else the
    folder's permissions taken away."""
    import sys

    from apixagon_host import link, logs  # noqa: F401 - loaded before the child gives up root

    if os.geteuid() != 0:
        os.chmod(data, 0o000)
        err = io.StringIO()
        real, sys.stderr = sys.stderr, err
        try:
            code = cli.main(["logs", "list"], cli.State(out=io.StringIO()))
        finally:
            sys.stderr = real
        return code, err.getvalue()
    os.chmod(data, 0o700)  # root's alone
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: nobody
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            err = io.StringIO()
            sys.stderr = err
            code = cli.main(["logs", "list"], cli.State(out=io.StringIO()))
            os.write(w, ("%d\n%s" % (code, err.getvalue())).encode())
        finally:
            os._exit(0)
    os.close(w)
    got = b""
    while True:
        chunk = os.read(r, 4096)
        if not chunk:
            break
        got += chunk
    os.close(r)
    os.waitpid(pid, 0)
    code, _, text = got.decode().partition("\n")
    return int(code), text


def test_an_unreadable_data_folder_is_an_error_not_an_empty_library(monkeypatch):
    # A folder holding the user's matches that the user may not read: "no
    # matches stored yet" (exit 0) said a library of a thousand was empty.
    import shutil
    import tempfile

    top = tempfile.mkdtemp()
    data = os.path.join(top, "data")
    try:
        os.mkdir(data)
        s = Store(os.path.join(data, "matches.sqlite"))
        s.put("sim-A", "0001.alog", log_bytes(RECORD, "abandoned"))
        s.close()
        monkeypatch.setenv("APIXAGON_DATA", data)
        code, err = _list_as_a_user_who_may_not_read(data)
        assert code == 2, err
        assert "cannot read the data folder %s" % data in err, err
        # a path through a file: the same, whoever runs it
        monkeypatch.setenv("APIXAGON_DATA", os.path.join(data, "matches.sqlite", "x"))
        err = io.StringIO()
        monkeypatch.setattr("sys.stderr", err)
        assert cli.main(["logs", "list"], cli.State(out=io.StringIO())) == 2
        assert "cannot read the data folder" in err.getvalue()
    finally:
        os.chmod(data, 0o700)
        shutil.rmtree(top)

"""`apixagon logs pull` against the simulated board (the firmware in the
MicroPython unix port on a pseudo-terminal, pyserial, a real SQLite file):
resumable after an interruption, incremental inside a log still in play,
a log that does not verify kept on the board, progress bars."""

import io
import os
import pty
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest
from apixagon.geometry import NCELLS, cell_name
from apixagon_host import cli, logs, store
from apixagon_host import link as L
from apixagon_host.link import BoardError
from e2ekit import RECORD, connect, play_record
from fakeboard import FakeBoard, log_bytes
from smartboard import proto

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "tools", "rp2040")
)
import flashfs  # noqa: E402  (the board's archives read by its own code)

BIN = os.path.join(os.path.dirname(sys.executable), "apixagon")


def run_cli(*argv):
    out = io.StringIO()
    rc = cli.main(list(argv), cli.State(out=out))
    return rc, out.getvalue()


def fill(board, n):
    """n finished matches on the board: one played, the rest its copies."""
    with connect(board) as link:
        play_record(link, RECORD)
        link.logs()  # what is queued is on flash now
    d = os.path.join(board.flash, "logs")
    for i in range(2, n + 1):
        shutil.copy(os.path.join(d, "0001.alog"), os.path.join(d, "%04d.alog" % i))
    return d


def stored(db):
    with sqlite3.connect(db) as c:
        return dict(c.execute("SELECT name, data FROM logs").fetchall())


def board_file(board, name):
    with open(os.path.join(board.flash, "logs", name), "rb") as f:
        return f.read()


class Counting:
    """Counts the bytes asked for with GET; raises KeyboardInterrupt (a
    user's Ctrl-C) as chunk number `stop_at` comes in, before the pull has
    it."""

    def __init__(self, monkeypatch, stop_at=None):
        self.asked = 0
        self.chunks = 0
        real = L.Link.fetch_many

        def fetch_many(link, reqs, *a, took=None, **k):
            self.asked += sum(n for _, _, n in reqs)

            def counted(r, data):
                self.chunks += 1
                if self.chunks == stop_at:
                    raise KeyboardInterrupt
                took(r, data)

            return real(link, reqs, *a, took=counted if took else None, **k)

        monkeypatch.setattr(L.Link, "fetch_many", fetch_many)


def test_an_interrupted_pull_goes_on_where_it_stopped(board, tmp_path, monkeypatch):
    fill(board, 10)
    db = str(tmp_path / "m.sqlite")
    c = Counting(monkeypatch, stop_at=9)
    rc, _ = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 130  # interrupted, as by Ctrl-C
    first = stored(db)
    assert sorted(first) == ["%04d.alog" % i for i in range(1, 9)]  # each kept whole as it came
    with connect(board) as link:
        assert {s for _, _, s in link.logs()} == {"done"}  # none marked: not finished
    size = len(board_file(board, "0001.alog"))
    c = Counting(monkeypatch)
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "2 logs pulled" in out and "8 up to date" in out
    assert c.asked == 2 * size  # only what the first pull had not stored
    every = stored(db)
    assert len(every) == 10
    for name, data in every.items():
        assert data == board_file(board, name)
    with connect(board) as link:
        assert {s for _, _, s in link.logs()} == {"pulled"}
    c = Counting(monkeypatch)
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "0 logs pulled" in out and c.asked == 0


def test_a_match_in_play_is_pulled_in_parts(board, tmp_path, monkeypatch):
    db = str(tmp_path / "m.sqlite")
    with connect(board) as link:
        play_record(link, RECORD, upto=10)
        assert link.logs()[0][2] == "play"
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "1 log pulled" in out
    part = stored(db)["0001.alog"]
    rc, out = run_cli("logs", "list", "--db", db)
    assert "in play" in out
    with connect(board) as link:
        assert link.logs()[0][2] == "play"  # not marked while in play
        assert link.request("HAND", "press", "confirm", "long") == "ok"  # abandoned
        link.logs()
    whole = board_file(board, "0001.alog")
    assert whole.startswith(part) and len(whole) > len(part)
    c = Counting(monkeypatch)
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "1 log pulled" in out
    # the tail only, from the stored log's last link and CRC (which must match)
    assert c.asked == len(whole) - len(part) + logs.OVERLAP
    assert stored(db)["0001.alog"] == whole
    rc, out = run_cli("logs", "list", "--db", db)
    assert "done" in out and "abandoned" in out
    with connect(board) as link:
        assert link.logs()[0][2] == "pulled"


def test_a_log_that_does_not_verify_is_kept_on_the_board(board, tmp_path, capsys):
    d = fill(board, 3)
    path = os.path.join(d, "0002.alog")
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[40] ^= 0x20  # one letter of a record changed on the board's flash
    with open(path, "wb") as f:
        f.write(data)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    err = capsys.readouterr().err
    assert rc == 1
    assert "2 logs pulled" in out
    assert "0002.alog: corrupt record at byte" in err and "kept on the board" in err
    assert "1 log did not verify" in err
    assert sorted(stored(db)) == ["0001.alog", "0003.alog"]
    with connect(board) as link:
        states = {n: s for n, _, s in link.logs()}
        assert states == {"0001.alog": "pulled", "0002.alog": "done", "0003.alog": "pulled"}
        with pytest.raises(BoardError, match="not allowed now"):
            link.request("DEL", "0002.alog")  # never deleted: it was not downloaded
    assert board_file(board, "0002.alog") == bytes(data)
    rc, _ = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 1  # still reported, still not stored, still kept
    assert sorted(stored(db)) == ["0001.alog", "0003.alog"]


def _pull_stderr(board, db, extra=(), tty=False):
    """The console script's stderr, written to a pipe or a real terminal."""
    argv = [BIN, "logs", "pull", "-p", board.port, "--db", db] + list(extra)
    if not tty:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        return p.stderr
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        got = bytearray()
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the program closed the terminal
                break
            if not chunk:
                break
            got += chunk
        assert p.wait(60) == 0, got
    finally:
        os.close(master)
    return got.decode()


def test_progress_bar_on_a_terminal_or_when_asked(board, tmp_path):
    d = fill(board, 6)
    size = 6 * len(board_file(board, "0001.alog"))
    err = _pull_stderr(board, str(tmp_path / "a.sqlite"), tty=True)
    assert "\rpulling" in err and "100%" in err and "#" * 30 in err
    assert "%.1f KB" % (size / 1024) in err
    assert err.endswith("\n")  # the bar's line ends: the shell prompt starts clean
    for name in os.listdir(d):
        if name.endswith(".pulled"):
            os.remove(os.path.join(d, name))
    assert _pull_stderr(board, str(tmp_path / "b.sqlite")) == ""  # a pipe: no bar
    err = _pull_stderr(board, str(tmp_path / "c.sqlite"), ["--progress"])
    assert "100%" in err


def test_no_board_is_exit_3_and_bad_arguments_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(L.PORT_ENV, raising=False)
    db = str(tmp_path / "m.sqlite")
    rc, _ = run_cli("logs", "pull", "-p", str(tmp_path / "no-such-port"), "--db", db)
    assert rc == 3 and "cannot open" in capsys.readouterr().err
    rc, _ = run_cli("logs", "pull", "--db", db, "--bogus")
    assert rc == 2 and "unrecognized arguments: --bogus" in capsys.readouterr().err
    assert stored(db) == {}  # the database exists, nothing in it


def test_the_database_lives_in_the_user_data_dir(board, tmp_path, monkeypatch):
    # XDG_DATA_HOME (or ~/.local/share) on Linux, %APPDATA% on Windows;
    # APIXAGON_DATA overrides both.
    monkeypatch.delenv("APIXAGON_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with connect(board) as link:
        play_record(link, RECORD, upto=3)
    assert run_cli("logs", "pull", "-p", board.port)[0] == 0
    db = tmp_path / "xdg" / "apixagon" / "matches.sqlite"
    assert sorted(stored(str(db))) == ["0001.alog"]
    monkeypatch.setenv("APIXAGON_DATA", str(tmp_path / "mine"))
    rc, out = run_cli("logs", "list")
    assert rc == 0 and "no matches stored yet" in out
    assert not (tmp_path / "mine").exists()  # a read command makes nothing


def _wipe(board):
    """The board's flash wiped (a factory reset): its numbers start again."""
    d = os.path.join(board.flash, "logs")
    for name in os.listdir(d):
        os.remove(os.path.join(d, name))


def _names(db):
    with sqlite3.connect(db) as c:
        return [r[0] for r in c.execute("SELECT name FROM logs ORDER BY id")]


QUEENS_GAMBIT = """mode queens-gambit
start black
B 12 E4
G 3 A1
B 13 I9
G 4 A5
B 14 E9
G 5 I5
B 15 A3
G 6 C7
"""


def _clear(link):
    """The players take every card off the board (CELLS says where)."""
    cells = link.request("CELLS")
    for x in range(NCELLS):
        if cells[2 * x : 2 * x + 2] != "00":
            link.request("HAND", "lift", cell_name(x))


@pytest.mark.parametrize("first,second", [(8, 3), (3, 8)])
def test_a_wiped_board_never_overwrites_a_stored_match(board, tmp_path, first, second):
    # (8, 3): the board's new 0001 is shorter than the stored one; (3, 8):
    # longer, and the stored one was pulled in play: told by the overlap
    # (the board's bytes do not continue the stored ones).
    db = str(tmp_path / "m.sqlite")
    other = tmp_path / "other.apx"
    other.write_text(QUEENS_GAMBIT)
    with connect(board) as link:
        play_record(link, RECORD, upto=first)
        if first > second:
            link.request("HAND", "press", "confirm", "long")  # abandoned
        link.logs()
    assert run_cli("logs", "pull", "-p", board.port, "--db", db)[0] == 0
    old = stored(db)["0001.alog"]
    board.power_cut(hold=True)
    _wipe(board)
    board.power_on()
    assert board.wait_boot(2)
    with connect(board) as link:
        assert link.status()["phase"] == "setup"
        _clear(link)
        play_record(link, str(other), upto=second)  # another match altogether
        link.request("HAND", "press", "confirm", "long")
        link.logs()
    new = board_file(board, "0001.alog")
    assert new != old and not new.startswith(old[: len(old) - logs.OVERLAP])
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0, out
    assert "0001.alog on the board is another match" in out and "kept as 0001.alog~1" in out
    assert _names(db) == ["0001.alog~1", "0001.alog"]  # the old one keeps its id
    got = stored(db)
    assert got["0001.alog~1"] == old and got["0001.alog"] == new
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "0 logs pulled" in out and _names(db) == ["0001.alog~1", "0001.alog"]


def test_pull_delete_frees_the_board_of_what_is_stored(board, tmp_path):
    d = fill(board, 3)
    with connect(board) as link:
        link.request("HAND", "press", "confirm")  # the match is over: back to set-up
        _clear(link)
        play_record(link, RECORD, upto=2)  # a fourth match, in play
        link.logs()
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db, "--delete")
    assert rc == 0 and "4 logs pulled" in out and "3 deleted from the board" in out
    assert sorted(n for n in os.listdir(d) if n.endswith(".alog")) == ["0004.alog"]
    assert sorted(stored(db)) == ["0001.alog", "0002.alog", "0003.alog", "0004.alog"]
    with connect(board) as link:
        assert [(n, s) for n, _, s in link.logs()] == [("0004.alog", "play")]


def _markers(d):
    return sorted(n for n in os.listdir(d) if n.endswith(".pulled"))


def test_a_power_cut_before_the_quiet_marker_write_stores_the_log_once(board, tmp_path):
    # PULLED marks the log in RAM at once; its marker reaches the flash
    # once the host has been quiet for a while (the pull's requests are not
    # slowed by littlefs). A cut before then forgets the mark: the log is
    # offered again and the database takes it as the copy it has.
    d = fill(board, 3)
    with connect(board) as link:
        link.request("HAND", "press", "confirm")  # the match is over: back to set-up
    db = str(tmp_path / "m.sqlite")
    with connect(board) as link:
        board_id = link.info["id"]
        link.logs()  # (the copies fill() made are listed)
        for name in ("0001.alog", "0002.alog", "0003.alog"):
            data = link.fetch_many([(name, 0, os.path.getsize(os.path.join(d, name)))])
            with store.Store(db) as st:
                st.put(board_id, name, data[(name, 0)])
        link.request_many("PULLED", ["0001.alog", "0002.alog", "0003.alog"])
        assert [s for _, _, s in link.logs()] == ["pulled"] * 3  # marked at once
        board.power_cut(hold=True)  # at once: the link was never quiet
    assert _markers(d) == []
    before = stored(db)
    board.power_on()
    assert board.wait_boot(2)
    with connect(board) as link:
        assert [s for _, _, s in link.logs()] == ["done"] * 3  # offered again
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "0 logs pulled" in out and "3 up to date" in out, out
    assert stored(db) == before  # each stored once, unchanged
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM logs").fetchone()[0] == 3
    end = time.monotonic() + 5  # the host quiet: the markers go to flash
    while _markers(d) != ["0001.pulled", "0002.pulled", "0003.pulled"]:
        assert time.monotonic() < end, _markers(d)
        time.sleep(0.05)


def _sent(monkeypatch):
    """[(verb, args)] of every request the host sends."""
    sent = []
    real = L.Link.send

    def send(link, verb, *args):
        sent.append((verb, " ".join(str(a) for a in args)))
        return real(link, verb, *args)

    monkeypatch.setattr(L.Link, "send", send)
    return sent


def _raw_chunks(monkeypatch):
    """The lengths of the raw chunks the host reads (protocol 3 and up)."""
    raws = []
    read_frame = L.Link.read_frame

    def spy(link, deadline):
        f = read_frame(link, deadline)
        if f and link.payload is not None:
            raws.append(len(link.payload))
        return f

    monkeypatch.setattr(L.Link, "read_frame", spy)
    return raws


def test_a_board_of_protocol_4_is_asked_for_ranges_of_whole_logs(board, tmp_path, monkeypatch):
    # 30 finished logs: FETCH and PULLED name them as ranges of numbers
    # ("N+K"), a few bytes where each log's name cost the board ~1 ms of
    # per-byte USB reads; the chunks come raw
    fill(board, 30)
    monkeypatch.setattr(L.proto, "VERSION", 4)  # a host of version 4
    sent = _sent(monkeypatch)
    raws = _raw_chunks(monkeypatch)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "30 logs pulled" in out, out
    assert sent[0] == ("HELLO", "4")
    assert max(raws) <= proto.MAX_CHUNK  # chunk frames only: no span
    assert raws and sum(raws) == sum(len(d) for d in stored(db).values())  # every byte raw
    assert [a for v, a in sent if v == "PULLED"] == ["1+30"]
    fetched = [a.split() for v, a in sent if v == "FETCH"]
    assert fetched and not [v for v, _ in sent if v == "GET"]
    ranges = [w.split("+") for a in fetched for w in a]  # every item a range
    assert [int(lo) + int(k) for lo, k in ranges[:-1]] == [int(lo) for lo, _ in ranges[1:]]
    assert ranges[0][0] == "1" and sum(int(k) for _, k in ranges) == 30
    assert len(fetched) < 6
    with connect(board) as link:
        assert [s for _, _, s in link.logs()] == ["pulled"] * 30


def packed(board, n):
    """n finished matches on the board, packed into archives as a user's
    board has them between matches (STATUS packing= until then)."""
    d = fill(board, n)
    with connect(board) as link:
        link.logs()  # the board lists the copies (the folder read afresh)
        end = time.monotonic() + 60
        while "packing" in link.status():
            assert time.monotonic() < end, "the board never finished packing"
            time.sleep(0.05)
    assert any(name.endswith(".pack") for name in os.listdir(d))
    return d


def test_a_board_of_protocol_5_sends_a_run_of_packed_logs_as_one_span(board, tmp_path, monkeypatch):
    # the archive's own entries, heads and bytes, raw behind one head frame
    # a run of packed logs, not a frame a log
    d = packed(board, 30)
    want = logs_on_flash_of(d)
    sent = _sent(monkeypatch)
    raws = _raw_chunks(monkeypatch)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "30 logs pulled" in out, out
    assert sent[0] == ("HELLO", "5") and proto.VERSION == 5
    assert stored(db) == want
    assert not [v for v, _ in sent if v == "GET"]
    assert max(raws) > proto.MAX_CHUNK  # a span: many logs in one frame
    assert len(raws) < 15  # 30 logs (the newest stays its own file)
    assert [a for v, a in sent if v == "PULLED"] == ["1+30"]


def test_a_damaged_span_entry_is_asked_again_on_its_own(board, tmp_path, monkeypatch):
    # a byte flipped in a span's third log: that log alone is asked again;
    # the others of the span are stored from it
    d = packed(board, 12)
    want = logs_on_flash_of(d)
    sent = _sent(monkeypatch)
    read_frame = L.Link.read_frame
    hit = []

    def spoil(link, deadline):
        f = read_frame(link, deadline)
        p = link.payload
        if f and p is not None and len(p) > proto.MAX_CHUNK and not hit:
            at = 0
            for _ in range(2):  # past two entries: into the third's bytes
                at += 14 + int.from_bytes(p[at + 4 : at + 8], "big")
            link.payload = p[: at + 20] + bytes([p[at + 20] ^ 1]) + p[at + 21 :]
            hit.append(int(f[3].split("+")[0]) + 2)
        return f

    monkeypatch.setattr(L.Link, "read_frame", spoil)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "12 logs pulled" in out, out
    assert hit and stored(db) == want
    # asked again on its own (a range of one), after the spans of all 12
    fetched = [a for v, a in sent if v in ("GET", "FETCH")]
    assert fetched[-1] == "%d+1" % hit[0] and fetched.count("%d+1" % hit[0]) == 1


def logs_on_flash_of(d):
    files = []
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            files.append((name, f.read()))
    return flashfs.folder_logs(files)


def test_a_board_of_protocol_3_takes_many_names_a_pulled_and_sends_chunks_raw(
    board, tmp_path, monkeypatch
):
    fill(board, 30)
    monkeypatch.setattr(L.proto, "VERSION", 3)  # a host of version 3
    sent = _sent(monkeypatch)
    raws = _raw_chunks(monkeypatch)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "30 logs pulled" in out, out
    assert sent[0] == ("HELLO", "3")
    assert raws and sum(raws) == sum(len(d) for d in stored(db).values())  # every byte raw
    pulled = [a.split() for v, a in sent if v == "PULLED"]
    assert len(pulled) == 2 and sum(pulled, []) == ["%04d.alog" % i for i in range(1, 31)]
    # the chunks in a few FETCHes (each item a whole log here), no GET
    fetched = [a.split() for v, a in sent if v == "FETCH"]
    assert fetched and not [v for v, _ in sent if v == "GET"]
    assert [a[i] for a in fetched for i in range(0, len(a), 3)] == pulled[0] + pulled[1]
    assert len(fetched) < 10 and all(len(" ".join(a)) <= L.FETCH_TEXT for a in fetched)
    with connect(board) as link:
        assert [s for _, _, s in link.logs()] == ["pulled"] * 30


def test_a_range_is_asked_only_for_finished_logs(board, tmp_path, monkeypatch):
    # a log in play grows: asked for by its bytes, as is a log stored in part
    with connect(board) as link:
        play_record(link, RECORD, upto=10)  # 0001, in play
        link.logs()
    d = os.path.join(board.flash, "logs")
    done = log_bytes(["mode queens-gambit", "B 12 E4"], "abandoned")
    for i in (2, 3, 4):  # finished matches (as another board's)
        with open(os.path.join(d, "%04d.alog" % i), "wb") as f:
            f.write(done)
    sent = _sent(monkeypatch)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "4 logs pulled" in out, out
    words = [w for v, a in sent if v in ("FETCH", "GET") for w in a.split()]
    assert words == ["0001.alog", "0", str(len(board_file(board, "0001.alog"))), "2+3"]
    assert [a for v, a in sent if v == "PULLED"] == ["2+3"]  # not the one in play
    with connect(board) as link:
        link.request("HAND", "press", "confirm", "long")  # abandoned
        link.logs()
    del sent[:]
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "1 log pulled" in out, out
    assert stored(db)["0001.alog"] == board_file(board, "0001.alog")
    words = [w for v, a in sent if v in ("FETCH", "GET") for w in a.split()]
    assert words[0] == "0001.alog" and len(words) == 3  # stored in part: its tail
    assert [a for v, a in sent if v == "PULLED"] == ["1+1"]


def test_a_fetch_reply_damaged_or_cut_short_is_asked_again_a_get_a_chunk(
    board, tmp_path, monkeypatch
):
    # a frame of a FETCH that fails its check, then an error that ends one:
    # what came is kept, the rest asked for again by GET (chunk frames: a
    # host of version 4; a damaged span: test_a_damaged_span_entry_...)
    d = fill(board, 8)
    monkeypatch.setattr(L.proto, "VERSION", 4)
    real = L.Link.read_frame
    seen = []

    def read_frame(link, deadline):
        f = real(link, deadline)
        if f is not None and f[2] and f[3].split()[0].isdigit():  # a chunk
            seen.append(f)
            if len(seen) == 2:  # a damaged chunk
                f = f[:3] + (f[3].replace(" ", " 9", 1),)
            elif len(seen) == 4:  # the board gives up on the rest
                f = (f[0], f[1], False, "10 board error")
        return f

    monkeypatch.setattr(L.Link, "read_frame", read_frame)
    sent = _sent(monkeypatch)
    _pulled_whole(board, tmp_path, d, 8)
    assert len([v for v, _ in sent if v == "FETCH"]) > 1 and _one_by_one(sent)


def _one_by_one(sent):
    """Requests of one chunk each (of a log asked for whole: a range of one
    log): how a host asks again for what came damaged."""
    return [a for v, a in sent if v == "GET" or v == "FETCH" and a.endswith("+1")]


def _pulled_whole(board, tmp_path, d, n):
    """logs pull into a fresh database: n logs pulled, each the bytes on
    the board (d: its logs folder)."""
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "%d logs pulled" % n in out, out
    assert stored(db) == {
        name: board_file(board, name) for name in sorted(os.listdir(d)) if name.endswith(".alog")
    }


def test_a_raw_chunk_whose_bytes_fail_their_crc32_is_asked_again(board, tmp_path, monkeypatch):
    # version 3: a byte of a chunk changed on the way (the head intact)
    d = fill(board, 6)
    real = L.Link.read_frame
    hurt = []

    def read_frame(link, deadline):
        f = real(link, deadline)
        if f is not None and link.payload and not hurt:
            hurt.append(f[3])
            link.payload = bytes([link.payload[0] ^ 0x20]) + link.payload[1:]
        return f

    monkeypatch.setattr(L.Link, "read_frame", read_frame)
    sent = _sent(monkeypatch)
    _pulled_whole(board, tmp_path, d, 6)
    assert hurt and _one_by_one(sent)  # the damaged chunk again


def test_a_host_of_protocol_2_gets_base64_chunks_from_a_board_of_3(board, tmp_path, monkeypatch):
    # the board answers each link in the version its HELLO asked for
    fill(board, 5)
    monkeypatch.setattr(L.proto, "VERSION", 2)
    real = L.Link.read_frame
    raw = []

    def read_frame(link, deadline):
        f = real(link, deadline)
        if f is not None and link.payload is not None:
            raw.append(f)
        return f

    monkeypatch.setattr(L.Link, "read_frame", read_frame)
    sent = _sent(monkeypatch)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "5 logs pulled" in out, out
    assert sent[0] == ("HELLO", "2") and [v for v, _ in sent if v == "FETCH"]
    assert not raw  # base64 frames only


def test_a_board_of_protocol_2_without_fetch_is_pulled_by_get(board, tmp_path, monkeypatch):
    # firmware of version 2 from before FETCH answers it ERR 5 (unknown
    # command): the host goes on with a GET a chunk
    fill(board, 12)
    real = L.Link.send

    def send(link, verb, *args):
        return real(link, "FETCHX" if verb == "FETCH" else verb, *args)

    monkeypatch.setattr(L.Link, "send", send)
    sent = _sent(monkeypatch)
    db = str(tmp_path / "m.sqlite")
    rc, out = run_cli("logs", "pull", "-p", board.port, "--db", db)
    assert rc == 0 and "12 logs pulled" in out, out
    assert len([v for v, _ in sent if v == "FETCH"]) <= 2  # the window in flight
    assert len([v for v, _ in sent if v == "GET"]) >= 12


def test_a_board_of_protocol_1_is_pulled_a_name_a_request(tmp_path, monkeypatch):
    # older firmware: HELLO 5, 4, 3 and 2 refused (ERR 9), PULLED of one name
    logs = {
        "%04d.alog" % i: log_bytes(["mode queens-gambit", "B 12 E4"], "abandoned")
        for i in (1, 2, 3)
    }
    with FakeBoard(logs) as fake:
        sent = _sent(monkeypatch)
        db = str(tmp_path / "m.sqlite")
        rc, out = run_cli("logs", "pull", "-p", fake.port, "--db", db)
        assert rc == 0 and "3 logs pulled" in out, out
        assert [a for v, a in sent if v == "HELLO"] == ["5", "4", "3", "2", "1"]
        assert [a for v, a in sent if v == "PULLED"] == sorted(logs)
        assert not [v for v, _ in sent if v == "FETCH"]  # GETs, a chunk each
        assert set(fake.states.values()) == {"pulled"}
    assert stored(db) == logs

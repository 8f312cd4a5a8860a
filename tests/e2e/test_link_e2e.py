"""The board's serial link end to end: pyserial over a real pseudo-terminal
to the firmware in the MicroPython unix port, the CLI's commands, a real
SQLite file; bad frames, fuzzing, and mpremote taking the board over."""

import io
import os
import random
import subprocess
import sys
import time

import pytest
from apixagon_host import cli
from apixagon_host.link import BoardError
from e2ekit import RECORD, connect, play_record
from smartboard import proto
from smartboard.logstore import records


def run_cli(*argv):
    out = io.StringIO()
    rc = cli.main(list(argv), cli.State(out=out))
    return rc, out.getvalue()


def _norm(line):
    # a reserve lists its cells in the order the keeper lifted them
    w = line.split()
    return " ".join(w[:2] + sorted(w[2:])) if w[1:2] == ["reserve"] else line


def test_handshake_status_and_clear_errors(board):
    with connect(board) as link:
        assert link.info["proto"] == str(proto.VERSION) and link.info["profile"] == "A"
        assert link.status()["phase"] == "setup"
        link.ser.write(b"hello there\n")
        with pytest.raises(BoardError, match="malformed frame"):
            link.wait(0)
        bad = bytearray(proto.request(5, "STATUS"))
        bad[3] ^= 1
        link.ser.write(bytes(bad))
        with pytest.raises(BoardError, match="checksum mismatch"):
            link.wait(0)
        with pytest.raises(BoardError, match="unknown command"):
            link.request("FROB")
        with pytest.raises(BoardError, match="bad arguments"):
            link.request("GET", "0001.alog", "x", 10)
        with pytest.raises(BoardError, match="not found"):
            link.request("GET", "0009.alog", 0, 10)
        with pytest.raises(BoardError, match="bad arguments"):
            link.request("GET", "../settings.bin", 0, 10)
        with pytest.raises(BoardError, match="protocol version"):
            link.request("HELLO", 99)
        link.ser.write(b"@7 STA")  # truncated: no newline ever comes
        with pytest.raises(BoardError, match="truncated frame"):
            link.wait(0, timeout=4)
        assert link.status()["phase"] == "setup"  # and it still answers
    assert board.boots == 1


def test_fuzzing_never_crashes_the_board(board):
    rnd = random.Random(4)
    with connect(board) as link:
        for i in range(60):
            kind = i % 4
            if kind == 0:  # random bytes (not Ctrl-C: that hands over to the REPL)
                data = bytes(rnd.choice([b for b in range(256) if b != 3]) for _ in range(300))
            elif kind == 1:  # a huge line
                data = b"@1 " + b"A" * rnd.randrange(300, 5000) + b"\n"
            elif kind == 2:  # a frame with a bad checksum
                data = bytearray(proto.request(i, "LOGS"))
                data[-3] = ord("0") if data[-3] != ord("0") else ord("1")
                data = bytes(data)
            else:  # a good frame cut in the middle, then a good one
                data = proto.request(i, "STATUS")[:8] + b"\n"
            link.ser.write(data + b"\n")
        time.sleep(0.5)
        link.ser.reset_input_buffer()
        assert link.hello()["proto"] == str(proto.VERSION)
        assert link.status()["phase"] == "setup"
    assert board.boots == 1, "".join(board.stderr)


def test_a_played_match_is_pulled_verified_and_exported(board, tmp_path):
    db = str(tmp_path / "m.sqlite")
    with connect(board) as link:
        assert play_record(link, RECORD).startswith("played")
        logs = link.logs()
    assert len(logs) == 1 and logs[0][2] == "done"
    rc, out = run_cli("logs", "pull", "--port", board.port, "--db", db)
    assert rc == 0 and "1 log pulled" in out
    rc, out = run_cli("logs", "pull", "--port", board.port, "--db", db)
    assert rc == 0 and "0 logs pulled" in out  # incremental: nothing new
    with connect(board) as link:
        assert link.logs()[0][2] == "pulled"  # the board may delete it now
    rc, out = run_cli("logs", "list", "--db", db)
    assert "done" in out and "team A wins" in out
    rc, out = run_cli("logs", "export", "1", "--db", db)
    with open(RECORD) as f:
        want = [x for x in f.read().splitlines() if x and x[0] in "AB" and x[1] in "123"]
    got = [x for x in out.splitlines() if x and x[0] in "AB" and x[1:2] in "123"]
    assert [_norm(x) for x in got] == [_norm(x) for x in want]
    rc, out = run_cli("logs", "export", "1", "--format", "json", "--db", db)
    assert '"verified": "ok"' in out
    rc, out = run_cli("logs", "show", "7", "--db", db)
    assert rc == 2


def test_delete_only_after_download(board, tmp_path):
    with connect(board) as link:
        play_record(link, RECORD, upto=6)
        name = link.logs()[0][0]
        with pytest.raises(BoardError, match="not allowed now"):
            link.request("DEL", name)  # the match is in play
    with connect(board) as link:
        assert link.request("HAND", "press", "confirm", "long") == "ok"  # abandon
        with pytest.raises(BoardError, match="not allowed now"):
            link.request("DEL", name)  # not downloaded yet
    assert run_cli("logs", "pull", "-p", board.port, "--db", str(tmp_path / "d.sqlite"))[0] == 0
    with connect(board) as link:
        assert link.request("DEL", name) == name
        assert link.logs() == []


def test_power_cut_mid_match_loses_no_complete_record_and_resumes(board):
    from apixagon import record
    from apixagon.game import Game
    from smartboard.referee import _code_of

    with connect(board) as link:
        play_record(link, RECORD, upto=20)
        link.request("HAND", "put", "A1", 3)  # a card put down as the power goes
    board.power_cut(hold=True)
    path = os.path.join(board.flash, "logs", "0001.alog")
    with open(path, "rb") as f:
        before = f.read()
    v, good, count, _ = records.read_log(before)
    assert count >= 20  # header + the moves written on quiet ticks
    board.power_on()
    assert board.wait_boot(2)
    with connect(board) as link:
        st = link.status()
        assert st["phase"] == "resume"
        with open(path, "rb") as f:
            after = f.read()
        assert after[:good] == before[:good]  # every complete record kept
        lines = records.Lines()
        assert records.read_log(after, lines)[0] == records.OK_LOG
        g, _ = record.check(lines.lines(), Game)
        # The players put the cards back as the LEDs ask; play goes on.
        from apixagon.geometry import NCELLS, cell_name

        for x in range(NCELLS):
            if g.board[x]:
                # HAND put takes the tag code; _code_of gives 1 + it (a scan state)
                link.request("HAND", "put", cell_name(x), _code_of(g.board[x]) - 1)
        assert link.status()["phase"] == "play"


def test_mpremote_takes_the_board_over(board):
    exe = os.path.join(os.path.dirname(sys.executable), "mpremote")
    r = subprocess.run(
        [exe, "connect", board.port, "resume", "exec", "print(6 * 7)"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert "42" in r.stdout, r.stdout + r.stderr

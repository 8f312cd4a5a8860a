"""The CLI's board commands against the simulated board over a real
pseudo-terminal: status, ports (discovery), replay of a pulled match, and
the board's answer to an oversized frame."""

import io
import os
import re
import signal
import sys
import termios
import time

from apixagon_host import cli
from apixagon_host import link as L
from e2ekit import RECORD, connect, play_record
from ptykit import Terminal
from smartboard import proto

APIXAGON = os.path.join(os.path.dirname(sys.executable), "apixagon")


def run_cli(*argv):
    out = io.StringIO()
    rc = cli.main(list(argv), cli.State(out=out))
    return rc, out.getvalue()


def test_status_names_the_board_and_its_state(board):
    with connect(board) as link:
        play_record(link, RECORD, upto=4)
    rc, out = run_cli("status", "-p", board.port)
    assert rc == 0
    assert "board sim-A (APIXAGON_simulator), firmware 0.9.3, protocol 5, profile A" in out
    want = ("phase     play", "moves     4\n", "log       0001.alog", "unpulled  1", "low       0")
    for line in want:
        assert line in out
    assert "warning" not in out
    # For a person: the last move as the record writes it, the clock as a
    # date, the flash in MB: the simulator's as a Pico's filesystem would
    # have it (1408 KB less its files), never the PC's free disk.
    assert "last      A2 20 F2\n" in out
    assert re.search(r"clock     20\d\d-\d\d-\d\d \d\d:\d\d:\d\d\n", out)
    m = re.search(r"free      ([\d.]+) ([KM])B \(of a simulated Pico's 1408 KB filesystem\)", out)
    assert m, out
    assert m.group(2) == "M" and 1.3 <= float(m.group(1)) <= 1.45, out  # 1 441 792 B less logs


def test_ports_finds_the_board_and_says_when_there_is_none(board, monkeypatch, tmp_path):
    # A pseudo-terminal is not in pyserial's USB list: $APIXAGON_PORT names it.
    monkeypatch.setenv(L.PORT_ENV, board.port)
    rc, out = run_cli("ports")
    assert rc == 0 and out.startswith(board.port + "  APIXAGON_simulator sim-A fw 0.9.3")
    rc, out = run_cli("status")  # the default port for every command
    assert rc == 0 and "board sim-A" in out
    monkeypatch.setenv(L.PORT_ENV, str(tmp_path / "gone"))
    rc, out = run_cli("ports")
    assert rc == 3 and "no APIXAGON board found on USB" in out


def test_replay_steps_through_a_pulled_match(board, tmp_path, capsys):
    db = str(tmp_path / "m.sqlite")
    with connect(board) as link:
        play_record(link, RECORD, upto=5)
        link.request("HAND", "press", "confirm", "long")  # abandoned: a finished log
    assert run_cli("logs", "pull", "-p", board.port, "--db", db)[0] == 0
    rc, out = run_cli("replay", "1", "--db", db)
    assert rc == 0
    heads = [x for x in out.splitlines() if x.endswith("to play)")]
    assert heads[0].startswith("start") and len(heads) == 6  # the start and 5 moves
    assert out.count("e5") == 6  # the board drawn at every step (the Royal Cell free)
    assert out.rstrip().endswith("result: abandoned")
    rc, _ = run_cli("replay", "9", "--db", db)
    assert rc == 2 and "no stored match with id 9" in capsys.readouterr().err


def test_an_oversized_frame_gets_one_error_and_nothing_else(board):
    with connect(board) as link:
        link.ser.write(b"@3 STATUS " + b"x" * 5000 + b"\n")
        time.sleep(0.5)
        frames = []
        while True:
            f = link.read_frame(time.monotonic() + 0.5)
            if f is None:
                break
            frames.append(f)
        assert frames == [("=", 0, False, "%d frame too long" % proto.E_LONG)]
        assert link.noise == [] and link.events == []
        assert link.status()["phase"] == "setup"  # and it still answers


def test_pulled_and_del_refuse_a_log_that_is_not_there(board):
    import os

    with connect(board) as link:
        play_record(link, RECORD, upto=2)
        link.request("HAND", "press", "confirm", "long")
        link.logs()  # the abandonment on flash
        before = sorted(os.listdir(board.flash)), sorted(os.listdir(board.flash + "/logs"))
        for verb in ("PULLED", "DEL"):
            for name in ("0099.alog", "../settings.bin", "logs/0001.alog", "0001.pulled"):
                try:
                    link.request(verb, name)
                except L.BoardError as e:
                    assert e.board_code in (proto.E_NOT_FOUND, proto.E_ARGS), (verb, name)
                else:
                    raise AssertionError("%s %s answered OK" % (verb, name))
        assert [n for n, _, _ in link.logs()] == ["0001.alog"]
        assert link.logs()[0][2] == "done"  # nothing marked
    assert (sorted(os.listdir(board.flash)), sorted(os.listdir(board.flash + "/logs"))) == before


def test_replay_on_a_terminal_steps_with_keys(board, tmp_path):
    db = str(tmp_path / "m.sqlite")
    with connect(board) as link:
        play_record(link, RECORD, upto=5)
        link.request("HAND", "press", "confirm", "long")  # abandoned: a finished log
    assert run_cli("logs", "pull", "-p", board.port, "--db", db)[0] == 0
    for leave in ("q", "\x03", signal.SIGTERM):
        t = Terminal([APIXAGON, "replay", "1", "--db", db])
        try:
            t.wait_for(r"match 1: 0001\.alog on sim-A . start \(5 moves\)")
            before = termios.tcgetattr(t.fd)
            assert not before[3] & termios.ECHO  # keys, not lines, while stepping
            for keys, shows in (
                ("n", r"move 1 of 5: B1 8 H5"),
                ("\x1b[C", r"move 2 of 5: A1 23 G3"),
                ("$", r"move 5 of 5: B3 0 D5[\s\S]*result: abandoned"),
                ("g 2\r", r"move 2 of 5"),
                ("\x1b[D", r"move 1 of 5"),
                ("\x1b[H", r"start \(5 moves\)"),
                ("g9\r", r"move 9: the match has 5 moves"),
            ):
                t.type(keys)
                t.wait_for(shows)
            if leave == signal.SIGTERM:
                os.kill(t.pid, signal.SIGTERM)
                assert t.wait_exit() == 128 + signal.SIGTERM
            else:
                t.type(leave)
                assert t.wait_exit() == 0
            assert t.raw.count(b"\x1b[?1049h") == 1 and t.raw.endswith(b"\x1b[?1049l")
            assert termios.tcgetattr(t.fd)[3] & termios.ECHO  # the terminal given back
            assert t.text.count("match 1:") >= 8  # redrawn in place, a frame per step
        finally:
            t.close()


def test_selftest_runs_again_and_its_report_is_read(board):
    rc, out = run_cli("selftest", "--last", "-p", board.port)
    assert rc == 0 and out == "self-test: none\n  no self-test yet\n", out
    rc, out = run_cli("selftest", "-p", board.port)
    assert rc == 0 and out.startswith("the board runs its self-test"), out
    rc, out = run_cli("selftest", "--last", "-p", board.port)
    assert rc == 0 and out.startswith("self-test: running\n  supply   "), out
    assert "  buttons  none\n" in out

"""The CLI's board commands against the simulated board over a real
pseudo-terminal: status, ports (discovery), replay of a pulled match, and
the board's answer to an oversized frame."""

import io
import time

from apixagon_host import cli
from apixagon_host import link as L
from e2ekit import RECORD, connect, play_record
from smartboard import proto


def run_cli(*argv):
    out = io.StringIO()
    rc = cli.main(list(argv), cli.State(out=out))
    return rc, out.getvalue()


def test_status_names_the_board_and_its_state(board):
    with connect(board) as link:
        play_record(link, RECORD, upto=4)
    rc, out = run_cli("status", "-p", board.port)
    assert rc == 0
    assert "board sim-A (APIXAGON_simulator), firmware 0.7.0, protocol 4, profile A" in out
    want = ("phase     play", "moves     4\n", "log       0001.alog", "unpulled  1", "low       0")
    for line in want:
        assert line in out
    assert "warning" not in out


def test_ports_finds_the_board_and_says_when_there_is_none(board, monkeypatch, tmp_path):
    # A pseudo-terminal is not in pyserial's USB list: $APIXAGON_PORT names it.
    monkeypatch.setenv(L.PORT_ENV, board.port)
    rc, out = run_cli("ports")
    assert rc == 0 and out.startswith(board.port + "  APIXAGON_simulator sim-A fw 0.7.0")
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

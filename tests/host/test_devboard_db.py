"""`make run` (tools/devboard.py --companion) and the CLI share one match
database by default: the user's, so `apixagon logs list` after a run lists
what its companion pulled."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import devboard  # noqa: E402


class FakeBoard:
    port = "/dev/pts/fake"

    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def test_make_run_passes_no_database_of_its_own(monkeypatch, tmp_path):
    from apixagon_host import cli

    seen = []
    monkeypatch.setattr(cli, "main", lambda argv: seen.append(argv) or 0)
    monkeypatch.setattr(devboard, "install", lambda flash, **kw: None)
    monkeypatch.setattr(devboard, "DevBoard", FakeBoard)
    monkeypatch.setattr(devboard.signal, "signal", lambda *a: None)  # pytest keeps its own
    assert devboard.main(["--companion", "--flash", str(tmp_path / "flash")]) == 0
    assert seen == [["monitor", "--port", FakeBoard.port]]  # the monitor's default: the user's
    db = str(tmp_path / "m.sqlite")
    devboard.main(["--companion", "--flash", str(tmp_path / "flash"), "--db", db])
    assert seen[-1] == ["monitor", "--port", FakeBoard.port, "--db", db]


def test_one_simulated_board_per_flash(monkeypatch, tmp_path, capsys):
    # `make run` and `make web` together booted two "sim-A" on build/flash,
    # their match logs interleaved: the second now refuses, naming the first
    from apixagon_host import cli

    monkeypatch.setattr(cli, "main", lambda argv: 0)
    monkeypatch.setattr(devboard, "install", lambda flash, **kw: None)
    monkeypatch.setattr(devboard, "DevBoard", FakeBoard)
    monkeypatch.setattr(devboard.signal, "signal", lambda *a: None)
    flash = tmp_path / "flash"
    flash.mkdir()
    first = devboard.FlashLock(str(flash), "make run")
    assert first.take() is None
    try:
        assert devboard.main(["--web", "--flash", str(flash)]) == 2
        err = capsys.readouterr().err
        assert "in use by make run (pid %d)" % os.getpid() in err and "--flash DIR" in err
    finally:
        first.release()
    assert devboard.main(["--companion", "--flash", str(flash)]) == 0  # free again


def test_make_web_names_its_own_port_setting(monkeypatch, tmp_path, capsys):
    import socket

    monkeypatch.setattr(devboard, "install", lambda flash, **kw: None)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        port = s.getsockname()[1]
        argv = ["--web", "--flash", str(tmp_path / "flash"), "--web-port", str(port)]
        assert devboard.main(argv) == 2
    finally:
        s.close()
    err = capsys.readouterr().err
    assert "port %d" % port in err and "make web WEB_PORT=" in err and "--web-port" not in err

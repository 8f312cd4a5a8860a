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
    monkeypatch.setattr(devboard, "install", lambda flash: None)
    monkeypatch.setattr(devboard, "DevBoard", FakeBoard)
    monkeypatch.setattr(devboard.signal, "signal", lambda *a: None)  # pytest keeps its own
    assert devboard.main(["--companion", "--flash", str(tmp_path / "flash")]) == 0
    assert seen == [["monitor", "--port", FakeBoard.port]]  # the monitor's default: the user's
    db = str(tmp_path / "m.sqlite")
    devboard.main(["--companion", "--flash", str(tmp_path / "flash"), "--db", db])
    assert seen[-1] == ["monitor", "--port", FakeBoard.port, "--db", db]

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")
pytest.importorskip("uvicorn", reason="the web companion's packages (make installs them)")


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    """A simulated board (profile A) running today's firmware, for a
    module's browser tests; a module that needs another board defines its
    own."""
    import build_mpy
    import devboard

    mpy = str(tmp_path_factory.mktemp("fw"))
    build_mpy.build_all(mpy)
    flash = tmp_path_factory.mktemp("flash")
    devboard.install(str(flash), mpy)
    b = devboard.DevBoard(str(flash), "A")
    b.start()
    yield b
    b.stop()


@pytest.fixture
def serve(tmp_path):
    """start(manual): a web companion with no board (the library, the
    rules and the manual need none), serving the manual from `manual`;
    every one started is stopped after the test."""
    from webkit import Server

    servers = []

    def start(manual):
        s = Server(str(tmp_path / "no-board"), str(tmp_path / "m.sqlite"), manual=manual)
        servers.append(s.start())
        return s

    yield start
    for s in servers:
        s.stop()

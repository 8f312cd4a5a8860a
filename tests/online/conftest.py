"""Online play with real parts: Debian's mosquitto on 127.0.0.1 on a free
port, simulated boards (the firmware in the MicroPython unix port on a
pseudo-terminal, tools/devboard.py) each with its own host session."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tools"))

pytest.importorskip("paho.mqtt", reason="paho-mqtt (make installs it)")

from apixagon_host.online import broker as B  # noqa: E402


@pytest.fixture(scope="session")
def firmware_mpy(tmp_path_factory):
    import build_mpy

    out = tmp_path_factory.mktemp("fw")
    build_mpy.build_all(str(out))
    return str(out)


@pytest.fixture(autouse=True)
def seats_here(tmp_path, monkeypatch):
    """The seats' keys (seal.Keep) of the CLI's runs in the test's folder,
    never in the user's own state folder."""
    monkeypatch.setenv("APIXAGON_STATE_DIR", str(tmp_path / "seats"))


@pytest.fixture
def mqtt():
    if B.mosquitto() is None:
        pytest.skip("mosquitto is not installed and apt-get could not install it (make tries)")
    with B.Broker() as b:
        yield b


@pytest.fixture
def homes(tmp_path, firmware_mpy, mqtt):
    from onlinekit import Home

    h = {"B": Home(tmp_path, firmware_mpy, "black"), "G": Home(tmp_path, firmware_mpy, "gold")}
    yield h
    for home in h.values():
        home.stop()

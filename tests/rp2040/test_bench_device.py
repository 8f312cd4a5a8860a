"""The kit for the first real board (`make bench-device PORT=...`,
tools/bench/device.py) run against the emulated board through its
pseudo-terminal, as it will run against a Pico's /dev/ttyACM0: the
calibration programs, the rules core and a reset to HELLO over the raw
REPL alone, the figures written as docs/figures/data's files are (the
figures page's "real Pico" column reads them; tests/test_figures.py checks
every file's where, date and commit)."""

import json
import os
import sys

import emukit

sys.path.insert(0, os.path.join(emukit.ROOT, "tools"))
from bench import calibration, device  # noqa: E402


def test_the_real_board_kit_runs_over_a_serial_port(tmp_path):
    b = emukit.EmuBoard(
        emukit.image("rev_a"), "rev_a", flash=str(tmp_path / "flash.bin"), workdir=str(tmp_path)
    )
    out = tmp_path / "device.json"
    try:
        b.wait_usb()
        emukit.wait_firmware(b)
        rc = device.main(["--port", b.port, "--out", str(out), "--quick", "--board", "emulated"])
    finally:
        b.close()
    assert rc == 0
    rec = json.loads(out.read_text())
    parts = rec["parts"]
    assert set(parts) == {"device-calibration", "device-core", "device-boot"}
    for p in parts.values():
        assert p["where"] == device.REAL % "emulated" and p["source"] == "measured"
        assert p["date"] and p["commit"]
    cal = parts["device-calibration"]["figures"]["calibration"]
    assert cal["freq"] == 125_000_000 and cal["loop_us"] > 0
    assert {"int_add", "float_div", "gpio_2048"} <= set(cal["programs"])
    core = parts["device-core"]["figures"]["core"]
    assert core["hint_us"] > 0 and core["worst_hint_us"] > 0
    boot = parts["device-boot"]["figures"]["boot"]["device"]
    assert boot["hello_wall_ms"] > 0 and boot["hello"].startswith("apixagon")
    assert calibration.rows({}, {})  # the published rows stand without figures


def test_a_port_that_is_not_there_is_said_in_words(capsys):
    assert device.main(["--port", "/dev/nonexistent-apixagon"]) == 1
    err = capsys.readouterr().err
    assert "cannot open /dev/nonexistent-apixagon" in err and "Traceback" not in err

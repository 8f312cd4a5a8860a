"""Both images boot their main.py on the emulated RP2040 and answer the
host on USB CDC; what the board keeps on its littlefs survives a reset:
REBOOT is machine.reset() there (the watchdog restarts the chip), and a
setting changed just before it is still set after."""

import emukit
import pytest
from apixagon_host import link as L


@pytest.mark.parametrize("rev", emukit.REVS)
def test_boots_answers_and_keeps_its_settings_through_a_reset(rev, tmp_path):
    board = emukit.boot(rev, tmp_path)
    try:
        with L.connect(board.port, timeout=30) as link:
            h = L.fields(link.request("HELLO", "1"))
            assert h["profile"] == emukit.PROFILE[rev] and h["proto"] == str(L.proto.VERSION)
            st = L.fields(link.request("STATUS"))
            assert st["phase"] == "setup" and st["hw"] == "ok" and int(st["heap"]) > 100_000
            assert link.request("SET", "display", "0") == "display=0"
            link.send("REBOOT")  # answered "=0 OK rebooting", then the reset
        board.wait_for(lambda: any(e.get("why") == "watchdog" for e in board.events), 60)
        board.wait_usb()
        emukit.wait_firmware(board)
        with L.connect(board.port, timeout=30) as link:
            assert L.fields(link.request("CONF"))["display"] == "0"
            assert L.fields(link.request("STATUS"))["display"] == "adult"
    finally:
        board.close()

"""A reader that hangs, on the emulated RP2040: the modelled PN532 holds the
cell bus's SDA low (through the TCA9548A while its port is on) or never
has an answer ready again, and only a reset pulse on its RSTPD_N clears it
(tools/rp2040/board.js, wired from hardware/<rev>/wiring.json). The
firmware's recovery (smartboard/recover.py) drives the real GPIOs: the
switch's RESET and the readers' RSTPD_N go low long enough, the readers
are set up again, and the card put meanwhile is played."""

import emukit
from apixagon.geometry import parse_cell
from apixagon_host import link as L
from emukit import card


def status(link):
    return L.fields(link.request("STATUS"))


def test_a_reader_holding_the_cell_bus_is_reset_by_the_firmware_and_play_goes_on(tmp_path):
    board = emukit.boot("rev_a", tmp_path)
    try:
        with L.connect(board.port, timeout=30) as link:
            board.wait_ms(1500)
            assert status(link)["hw"] == "ok"
            board.press("confirm")  # a match: E4 first
            k = board.layout.sensor[parse_cell("E4")] // 16
            board.hang(k, "sda")  # its reader holds SDA low: the whole cell bus stops
            board.put(parse_cell("E4"), card("B12"))  # the move, while it hangs
            board.wait_ms(4000)
            got = board.resets()
            assert got["hung"] == [], got  # cleared: the firmware pulsed the lines
            assert got["switch"] >= 1 and got["readers"][str(k)] >= 1, got
            st = status(link)
            assert st["moves"] == "1", st  # the card put meanwhile: played
            assert st["hw"] == "ok", st
    finally:
        board.close()


def test_a_pad_reader_that_never_answers_again_is_reset_by_the_firmware(tmp_path):
    board = emukit.boot("rev_b", tmp_path)
    try:
        with L.connect(board.port, timeout=30) as link:
            board.wait_ms(1500)
            assert status(link)["hw"] == "ok"
            board.hang("pad", "busy")  # its status byte never ready again
            board.wait_ms(4000)
            got = board.resets()
            assert got["hung"] == [] and got["readers"]["pad"] >= 1, got
            assert status(link)["hw"] == "ok"
    finally:
        board.close()

"""The first-boot self-test on the emulated RP2040: rev B's image on a
flash as it is flashed (no settings file: EmuBoard(selftest=True)) runs
the self-test at its first boot by itself. The test is the maker: it
waits for the LED walk to end (every LED lit white), answers yes, skips
the cell check with CONFIRM and presses the three buttons when asked; the
board reports a pass over USB, keeps it, and the next boot plays."""

import emukit
from apixagon_host import link as L

REV = "rev_b"


def status(link):
    return L.fields(link.request("STATUS"))


def until_stage(board, link, stage, most_ms=20000):
    waited = 0
    while status(link).get("selftest") != stage:
        assert waited < most_ms, (stage, status(link))
        board.wait_ms(250)
        waited += 250


def all_white(board):
    f = board.frame()
    return f is not None and all(f[1])


def test_a_freshly_flashed_board_runs_its_self_test_and_passes(tmp_path):
    board = emukit.EmuBoard(
        emukit.image(REV), REV, flash=str(tmp_path / "flash.bin"), workdir=str(tmp_path),
        selftest=True,
    )  # fmt: skip
    try:
        board.wait_usb()
        emukit.wait_firmware(board)
        with L.connect(board.port, timeout=60) as link:
            assert status(link).get("selftest") in ("supply", "leds")
            waited = 0
            while not all_white(board):  # the walk's three colours, then the question
                assert waited < 15000, status(link)
                board.wait_ms(250)
                waited += 250
            board.press("confirm")  # every LED lit
            until_stage(board, link, "cells")
            rep = link.request("SELFTEST", "last")
            assert rep == "running supply=ok leds=ok parts=ok idle=ok cells=none buttons=none", rep
            board.press("confirm")  # the cell check skipped
            until_stage(board, link, "buttons")
            for name in ("mode", "confirm", "declare"):
                board.press(name)
            until_stage(board, link, "summary")
            rep = link.request("SELFTEST", "last")
            assert rep == "pass supply=ok leds=ok parts=ok idle=ok cells=skip buttons=ok", rep
            f = board.frame()[1]
            r, g, b = board.leds(f)[30]
            assert g > 0 and r < g and b < g  # all green
            board.press("mode")  # the summary left: set-up
            board.wait_ms(300)
            st = status(link)
            assert "selftest" not in st and st["phase"] == "setup", st
        # kept on flash: the next boot plays
        board.cycle()
        board.wait_usb()
        emukit.wait_firmware(board)
        with L.connect(board.port, timeout=60) as link:
            st = status(link)
            assert "selftest" not in st and st["phase"] == "setup", st
            assert link.request("SELFTEST", "last").startswith("pass supply=ok")
    finally:
        board.close()

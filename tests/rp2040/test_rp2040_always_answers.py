"""The board never stops being a board, on the emulated RP2040 where a small
int ends near 2^30: requests with numbers at and beyond the edges are
answered one error each, never a crash to the REPL; a loop that hangs is
restarted by the chip's watchdog; MODE held at power-on starts the safe
mode, in which the matches can still be listed and pulled."""

import subprocess
import sys
import time

import emukit
from apixagon_host import link as L
from emukit import card
from smartboard import proto

EDGES = (
    "0", "-1", "1073741823", "1073741824", "-1073741824", "-1073741825",
    "2147483647", "2147483648", "4611686018427387904", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "1" * 100, "+1", "1e9", "0x10",
)  # fmt: skip
VERBS = (
    "HELLO %s",
    "LOGS %s",
    "GET 0001.alog %s 10",
    "GET 0001.alog 0 %s",
    "SET display %s",
    "SET mode %s",
    "CLOCK %s",
    "WATCH %s",
    "STATUS %s",
    "DEL %s",
    "PULLED %s",
    "REBOOT %s",
)


def replies(link, frames):
    """Send the frames as one burst; each frame with its reply (every one
    must come)."""
    seqs = [link.send(*f.split(" ")) for f in frames]
    got = {}
    for s in seqs:
        while s not in got:
            f = link.read_frame(time.monotonic() + 30)
            assert f is not None, ("no reply to", s, link.noise[-3:])
            got[f[1]] = f
    return [(frames[i], got[seqs[i]]) for i in range(len(frames))]


def test_numbers_at_the_edges_of_the_targets_ints_never_crash_it(tmp_path):
    board = emukit.boot("rev_a", tmp_path)
    try:
        with L.connect(board.port, timeout=30) as link:
            board.press("confirm")
            board.put("E4", card("B12"))
            board.wait_ms(1200)  # a log on flash, a match in play
            frames = [v % e for v in VERBS for e in EDGES if not v.startswith("REBOOT")]
            oks = [fr for fr, f in replies(link, frames) if f[2]]
            # only the sane ones pass: a clock from 2004 or 2038, a page or
            # offset 0, a setting 0
            assert sorted(oks) == [
                "CLOCK 1073741823", "CLOCK 1073741824", "CLOCK 2147483647", "CLOCK 2147483648",
                "GET 0001.alog 0 10", "HELLO 0", "LOGS 0", "SET display 0", "SET mode 0", "WATCH 0",
            ], oks  # fmt: skip
            st = L.fields(link.request("STATUS"))
            assert st["moves"] == "1" and st["faults"] == "0" and st["hw"] == "ok", st
            assert not link.noise, link.noise[-3:]  # never a traceback, never the REPL
            assert link.request("CLOCK", "1700000000") == "1700000000"
    finally:
        board.close()


def test_a_hung_loop_is_restarted_by_the_watchdog(tmp_path):
    board = emukit.boot("rev_b", tmp_path)
    try:
        resets = len([e for e in board.events if e.get("ev") == "reset"])
        # mpremote takes the board over (which stops the watchdog), then
        # starts the board's own loop again with a pass that never ends:
        # the loop arms the watchdog, and nothing feeds it any more
        hang = (
            "from smartboard import loop\n"
            "def hang(*a):\n    while True:\n        pass\n"
            "loop.step = hang\n"
            "from boards import start\n"
            "start.loop_forever(None, None)\n"
        )
        subprocess.run(
            [sys.executable, "-m", "mpremote", "connect", board.port, "resume", "exec",
             "--no-follow", hang],
            capture_output=True, timeout=60,
        )  # fmt: skip
        board.wait_for(
            lambda: len([e for e in board.events if e.get("why") == "watchdog"]) > resets,
            120,
            "the watchdog's reset",
        )
        board.wait_usb()
        h = emukit.wait_firmware(board)  # the board is back, its loop answering
        assert h["profile"] == "B"
    finally:
        board.close()


def test_the_pcs_soft_reset_does_not_leave_the_watchdog_running(tmp_path):
    # mpremote without `resume` stops the loop, then soft-resets the board
    # into its raw REPL (no main.py runs, no timer of before survives): the
    # image's boot.py, which runs at every reset, has the selector watch the
    # PC again (bootsel.handover), so the watchdog is fed for the PC's 30 s
    # and does not reset the board under it 8 s later, in the middle of a
    # copy or a rollback
    board = emukit.boot("rev_a", tmp_path)
    try:
        out = subprocess.run(
            [sys.executable, "-m", "mpremote", "connect", board.port, "exec",
             "import time\ntime.sleep(11)\nprint('still here')"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert "still here" in out.stdout, (out.stdout, out.stderr)
        assert not [e for e in board.events if e.get("why") == "watchdog"]
    finally:
        board.close()


def test_mode_held_at_power_on_is_the_safe_mode_that_still_pulls(tmp_path):
    board = emukit.boot("rev_a", tmp_path)
    try:
        board.press("confirm")
        board.put("E4", card("B12"))
        board.wait_ms(1200)
        board.cut()
        board.wait_for(lambda: not board.on, 30)
        board.request("button", gpio=board.pins["BUTTONS"][0], down=True)  # MODE held
        board.power_on()
        board.wait_usb()
        with L.connect(board.port, timeout=30) as link:
            st = L.fields(link.request("STATUS"))
            assert st["phase"] == "safe" and st["error"] == "MODE_held_at_power-on", st
            assert st["logs"] == "1", st
            assert link.request("LOGS").startswith("0001.alog:")
            off, n, crc, b64 = link.request("GET", "0001.alog", "0", "64").split()
            assert off == "0" and int(n) > 0 and b64 != "-"
            try:
                link.request("WATCH", "1")
                raise AssertionError("WATCH in safe mode")
            except L.BoardError as e:
                assert e.board_code == proto.E_STATE and "safe mode" in str(e)
            board.request("button", gpio=board.pins["BUTTONS"][0], down=False)
            link.send("REBOOT")
        board.wait_for(lambda: any(e.get("why") == "watchdog" for e in board.events), 60)
        board.wait_usb()
        emukit.wait_firmware(board)
        with L.connect(board.port, timeout=30) as link:
            st = L.fields(link.request("STATUS"))
            assert st["phase"] == "resume" or st["phase"] == "play", st  # the match again
            assert st["moves"] == "1", st
    finally:
        board.close()

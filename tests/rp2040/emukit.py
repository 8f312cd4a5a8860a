"""Helpers for the tests on the emulated RP2040 (tools/rp2040/).

The images are `make firmware`'s (build/firmware/apixagon-rev_*.uf2; `make
test` builds them first). A test boots one on a fresh flash, talks to it
over its USB serial (a pseudo-terminal) with the host's own code, and
plays hands on the modelled cells. What the LEDs should show comes from
the same hands played on the CPython simulator (smartboard.sim.rig): its
board's view layer, painted by the real View and Painter at each blink
phase, must equal the frame the emulated strip latched, byte for byte.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "rp2040"))
from emuboard import EmuBoard, card, wiring_of  # noqa: E402, F401

IMAGES = os.environ.get("APIXAGON_FIRMWARE_DIR", os.path.join(ROOT, "build", "firmware"))
REVS = ("rev_a", "rev_b")
# make test runs the power-cut tests at a size that still reaches every kind
# of cut (at a random cycle, inside a program, inside an erase); `make
# test-long` (APIXAGON_LONG=1) at the size they were written for.
LONG = os.environ.get("APIXAGON_LONG") == "1"


def size(short, long):
    """A test's count of cuts: short in make test, long in make test-long."""
    return long if LONG else short


PROFILE = {"rev_a": "A", "rev_b": "B"}


def image(rev):
    path = os.path.join(IMAGES, "apixagon-%s.uf2" % rev)
    if not os.path.exists(path):
        raise AssertionError("no firmware image %s: `make firmware` builds it" % path)
    return path


def wait_firmware(board, timeout=60):
    """Until the firmware's loop answers HELLO (USB comes up first, while
    main.py still starts: a hand before then would go unseen)."""
    from apixagon_host import link as L

    with L.connect(board.port, timeout=timeout) as link:
        return L.fields(link.request("HELLO", "1"))


def boot(rev, tmp_path, flash=None, before=None):
    """A board on a fresh flash (or the given flash file), powered on and
    its firmware answering; before(board), if given, runs while the power
    is still off (a reader to kill, a strip to unplug)."""
    b = EmuBoard(
        image(rev),
        rev,
        flash=flash or str(tmp_path / ("flash-%s.bin" % rev)),
        workdir=str(tmp_path),
        powered=before is None,
    )
    try:
        if before is not None:
            before(b)
            b.power_on()
        b.wait_usb()
        wait_firmware(b)
    except Exception:
        b.close()
        raise
    return b


def at_repl(tmp_path, code, name, **board):
    """code run at the raw REPL of a rev A board on a fresh flash of its own
    (flash-<name>.bin; board: EmuBoard's keywords, timing= or spin=), the
    way mpremote runs it: (its output, the timing request's figures before
    it, and after it)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from bench.emulated import Repl

    b = EmuBoard(
        image("rev_a"),
        "rev_a",
        flash=str(tmp_path / ("flash-%s.bin" % name)),
        workdir=str(tmp_path),
        **board,
    )
    try:
        b.wait_usb()
        repl = Repl(b.port)
        before = b.timing_stats()
        out = repl.run(code)
        after = b.timing_stats()
        repl.close()
    finally:
        b.close()
    return out, before, after


class Twin:
    """The same hands on the CPython simulator: what the board should show."""

    def __init__(self, rev, tmp_path):
        import emuboard
        from smartboard.sim.rig import Rig
        from smartboard.sim.supply import sim_supply

        # the same USB source as the emulated board's (its CC reading's twin)
        self.rig = Rig(
            PROFILE[rev],
            str(tmp_path / "twin-settings.bin"),
            os.path.join(ROOT, "hardware", "layout.json"),
            supply=sim_supply(emuboard.wiring_of(rev), emuboard.CC_DEFAULT),
        )
        self.rig.settle()

    def layer(self):
        return bytes(self.rig.board.view.layer)

    def frames(self):
        """Every frame the twin's layer can show: one per blink phase."""
        from smartboard.sim.strip import phase_frames

        b = self.rig.board
        p = b.hw.painter
        return phase_frames(
            b.view.layer,
            self.rig.layout.led,
            self.rig.layout.nleds,
            p.brightness,
            p.supply.led_budget_ma(),
        )


def settled_frame(board, ms=600):
    """The strip's frame once nothing has changed for a while (blinks aside)."""
    board.wait_ms(ms)
    f = board.frame()
    assert f is not None, "the strip never latched a frame"
    return f[1]


def diff_cells(board, got, want):
    """Cells whose LED differs between two frames, for a readable failure."""
    from apixagon.geometry import cell_name

    a = board.leds(got)
    b = board.leds(want)
    return ["%s %s!=%s" % (cell_name(x), a[x], b[x]) for x in range(61) if a[x] != b[x]]

# The board's entry: each main.py calls run(), the revision's own, frozen
# into its image (boards/<rev>/main.py), or firmware/main.py on a stock
# MicroPython's flash (`apixagon deploy`, `mpremote mip install`). It has
# the board built (boards/build.py, the one place that knows the
# platform) and runs the firmware's loop for ever. The PC runs the same
# loop on simulated parts instead (smartboard.sim).
import sys
import time


def run(rev):
    """The board of revision `rev` ("rev_a"): build it and run it for ever.

    A part that fails to start (a reader that does not answer, a strip
    that will not set up) never stops the board at a traceback: it is
    marked down (smartboard.board: check_parts), the board says so and runs
    without it, and the PC can still talk to it. If the board itself
    cannot be built, it runs in safe mode: the serial link alone, which
    still answers HELLO, STATUS (why), LOGS, GET, PULLED, DEL and REBOOT,
    so the matches on the flash can be pulled and a firmware put right."""
    pins = __import__("boards.%s.pins" % rev, None, None, ("pins",))
    from boards import build

    if build.mode_held(pins):
        safe_mode(pins, "MODE held at power-on")
        return
    try:
        b, log = build.build(pins)
    except Exception as e:  # noqa: BLE001 - see above
        safe_mode(pins, e)
        return
    name, profile, data = pins.NAME, pins.PROFILE, "boards." + pins.LAYOUT
    # What only start-up needs, forgotten before the loop runs: the
    # builder, the layout's JSON (in the layout's tables now) and the pin
    # table. Deployed as .mpy into a slot of the littlefs, the firmware's
    # bytecode is heap: 4.4 KB more for the match (docs/development/notes.md).
    build = pins = None
    forget("boards.build")
    forget(data)
    forget("boards.%s.pins" % rev)
    forget("boards." + rev)
    import machine
    from smartboard.link import Fanout, Link
    from smartboard.stdio import StdioPort

    lk = Link(StdioPort(), b, log, name, profile, board_id())
    lk.reboot = machine.reset
    from smartboard.cbpalette import follow

    follow(lk)  # the LED palette setting, kept and SET
    b.listener = Fanout((log, lk))
    b.log = log
    b.resume_from(log)
    # the first-boot self-test (smartboard.selftest): on a board that never
    # ran it, or with CONFIRM held down at power-on
    b.boot_check()
    loop_forever(b, lk)


def forget(name):
    """Drop module `name` from sys.modules and from its package: once
    nothing else holds it, its objects (and a deployed .mpy's bytecode)
    are garbage. A later import would run it again."""
    sys.modules.pop(name, None)
    pkg, _, leaf = name.rpartition(".")
    parent = sys.modules.get(pkg)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)


def board_id():
    import machine

    return "".join("%02x" % x for x in machine.unique_id())


# A loop that stops (a bug, a hang in a driver) is restarted by the chip's
# watchdog. A loop the PC stopped (mpremote's Ctrl-C: it takes the board
# over, to copy a firmware) stops the watchdog here, and the boot selector
# arms it again to watch the PC instead (bootsel.handover: fed while the
# PC speaks, so a PC that died leaves the board at its REPL ~40 s, not
# until it is unplugged). Without the selector (a main.py of before the
# slots) the board is the PC's until a reset, as it was.
WATCHDOG_MS = 8000  # the RP2040's longest is 8.3 s; a loop pass takes < 0.2 s
# WATCHDOG_CTRL (0x40058000) through the RP2040's atomic-clear alias
# (+0x3000): writing ENABLE there clears it alone, as the SDK's
# watchdog_disable() does. Both are above the RP2040's small ints (2^30),
# so plain names, not const().
_WATCHDOG_CTRL_CLR = 0x4005B000
_WATCHDOG_ENABLE = 1 << 30


def _own_watchdog():
    """The loop feeds the watchdog from here on: the selector's watch of a
    host (its timer) ends."""
    unwatch = getattr(sys.modules.get("bootsel"), "unwatch", None)
    if unwatch is not None:
        unwatch()


def loop_forever(b, lk):
    import machine
    from smartboard import loop

    _own_watchdog()
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    now = loop.Millis(time.ticks_ms, time.ticks_diff)
    sleep_ms = time.sleep_ms
    try:
        while True:
            wdt.feed()
            # A pass with nothing to do and nothing due: the core sleeps
            # until the next millisecond rather than spin at its full run
            # current (loop.step; scan.IDLE_US says why not machine.idle).
            if loop.step(b, lk, now()):
                sleep_ms(1)
    except KeyboardInterrupt:
        machine.mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE
        raise


def safe_mode(pins, err):
    import machine
    from smartboard.link import Link
    from smartboard.stdio import StdioPort

    try:
        from smartboard.logstore import writer

        log = writer.MatchLog("logs", (("Board", pins.NAME),))
    except Exception:  # noqa: BLE001 - no log: the link says so per command
        log = None
    lk = Link(StdioPort(), None, log, pins.NAME, pins.PROFILE, board_id())
    lk.safe = err if isinstance(err, str) else "%s %s" % (type(err).__name__, err)
    lk.reboot = machine.reset
    from smartboard.loop import Millis

    now = Millis(time.ticks_ms, time.ticks_diff)
    # The watchdog here too: a trial boot armed it (bootsel), and a safe
    # mode that hangs is no better than a loop that does.
    _own_watchdog()
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    sleep_ms = time.sleep_ms
    try:
        while True:
            wdt.feed()
            lk.poll(now())
            if not lk.got:
                sleep_ms(1)  # nothing came: asleep until the next millisecond
    except KeyboardInterrupt:
        machine.mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE
        raise

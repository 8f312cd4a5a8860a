# Start-up code of the board: the one place that knows the platform. It
# builds the drivers from a revision's pin table (boards/<rev>/pins.py) and
# hands them to the firmware's loop, which never asks where it runs. Each
# main.py calls run(): the revision's own, frozen into its image
# (boards/<rev>/main.py), or firmware/main.py on a stock MicroPython's
# flash (`apixagon deploy`, `mpremote mip install`). The PC runs the same
# loop on simulated parts instead (smartboard.sim).
import time

from smartboard import board, buttons, layout, scan, settings, uids
from smartboard.board import PART_CELLS, PART_PAD, PART_READER, PART_STRIP, failed, part
from smartboard.paint import Painter

# An I2C transfer to a PN532 is at most ~45 bytes (1 ms at 400 kHz): 5 ms
# is room enough, and a bus held low costs the loop 5 ms, not MicroPython's
# default 50 ms, until its readers are marked down.
_I2C_TIMEOUT_US = 5000


class PinButtons:
    """Buttons to ground with pull-ups: pressed reads 0."""

    def __init__(self, pin_objects):
        self.pins = pin_objects

    def read(self):
        m = 0
        for i in range(len(self.pins)):
            if not self.pins[i].value():
                m |= 1 << i
        return m


_LED_SM = 0  # the strip's PIO state machine: PIO0's first


def led_strip(pins, n):
    # The PIO driver, or MicroPython's neopixel, behind one interface. The
    # board runs MicroPython only: this start-up code needs machine and rp2,
    # the painter's current limit is @micropython.viper, which CircuitPython
    # does not compile, and the .mpy format is MicroPython's. The Adafruit
    # library's adapter (drivers/neopixel_cp.py) is for a CircuitPython
    # program of one's own (hardware/README.md, LEDs).
    from machine import Pin

    if pins.LED_DRIVER == "pio":
        import rp2
        from smartboard.drivers.neopixel_pio import PioStrip, ws2812_program

        led = Pin(pins.LED_PIN)
        sm = rp2.StateMachine(_LED_SM, ws2812_program(rp2), freq=8000000, sideset_base=led)
        sm.active(1)
        # a DMA channel feeds the FIFO, paced by its TX DREQ (RP2040
        # datasheet 2.5.3.1: PIO0 TX0..3 are DREQ 0..3, PIO1's 8..11)
        dreq = (_LED_SM // 4) * 8 + _LED_SM % 4
        return PioStrip(sm, n, rp2.DMA(), dreq, time)
    import neopixel
    from smartboard.drivers.neopixel_mp import NeoPixelStrip

    return NeoPixelStrip(neopixel.NeoPixel(Pin(pins.LED_PIN), n))


def i2c_bus(bus):
    from machine import I2C, Pin

    return I2C(bus[0], sda=Pin(bus[1]), scl=Pin(bus[2]), freq=bus[3], timeout=_I2C_TIMEOUT_US)


def nfc_reader(i2c):
    from smartboard.drivers.pn532 import PN532

    return PN532(i2c, sleep_ms=time.sleep_ms)


class NoMux:
    def select(self, ch):
        pass


class NoStrip:
    """The painter's strip when the real one failed to start: frames go
    nowhere, the loop goes on."""

    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)

    def write(self):
        pass


class NoScanner:
    """A scanner that failed to start: it never reports a change."""

    PRIORITISED = False

    def __init__(self, n):
        self.state = bytearray(n)

    def scan_for_changes(self):
        return -1

    def prioritise(self, hot):
        pass


def cell_scanner(pins, lay, deck, parts):
    from machine import Pin

    if pins.PROFILE == "A":
        from smartboard.drivers.i2cmux import TCA9548A
        from smartboard.drivers.mux import AnalogMux

        chans = sorted(lay.sensor)
        deb = scan.Debouncer(lay.nchannels, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
        switch = TCA9548A(i2c_bus(pins.CELL_I2C), pins.CELL_SWITCH)
        lanes = []
        for k in range(len(pins.MUX_SELECT)):
            lo = k * pins.LANE
            mux = AnalogMux(tuple(Pin(p, Pin.OUT) for p in pins.MUX_SELECT[k]), (), lo)
            mine = bytes(c for c in chans if lo <= c < lo + pins.LANE)
            reader = nfc_reader(switch.port(k))
            lanes.append(scan.NfcScanner(reader, mux, mine, uids=deck, deb=deb))
            cells = bytes(lay.cell_of_channel[c] for c in mine)
            parts.append(part(PART_READER, reader.answering, k, cells))
        return scan.NfcLanes(lanes, time.ticks_us, time.ticks_diff)
    from machine import SPI
    from smartboard.drivers.shiftreg import ShiftRegMatrix

    b = pins.SHIFT_SPI
    spi = SPI(b[0], baudrate=b[4], sck=Pin(b[1]), mosi=Pin(b[2]), miso=Pin(b[3]))
    latch = Pin(pins.SHIFT_LATCH, Pin.OUT, value=1)
    matrix = ShiftRegMatrix(spi, latch, pins.SHIFT_BYTES, pins.MATRIX_COLS)
    rows = pins.SHIFT_BYTES * 8 // pins.MATRIX_COLS
    return scan.ReedMatrixScanner(matrix, rows, pins.MATRIX_COLS, sleep_us=time.sleep_us)


def strip_sense(pins):
    """The strip connector's sense line: tied to ground on the strip's
    side, pulled up here, so it reads 1 with the strip unplugged."""
    from machine import Pin

    p = Pin(pins.STRIP_SENSE, Pin.IN, Pin.PULL_UP)
    return lambda: not p.value()


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
    if mode_held(pins):
        safe_mode(pins, "MODE held at power-on")
        return
    try:
        b, log = build(pins)
    except Exception as e:  # noqa: BLE001 - see above
        safe_mode(pins, e)
        return
    import machine
    from smartboard.link import Fanout, Link
    from smartboard.stdio import StdioPort

    lk = Link(StdioPort(), b, log, pins.NAME, pins.PROFILE, board_id())
    lk.reboot = machine.reset
    from smartboard.cbpalette import follow

    follow(lk)  # the LED palette setting, kept and SET
    b.listener = Fanout((log, lk))
    b.log = log
    b.resume_from(log)
    loop_forever(b, lk)


def mode_held(pins):
    """MODE held down at power-on asks for the safe mode: a way back for a
    board whose firmware fails at every boot (hardware/README.md)."""
    from machine import Pin

    p = Pin(pins.BUTTONS[0], Pin.IN, Pin.PULL_UP)
    time.sleep_ms(2)  # the pull-up charges the line
    return not p.value()


def build(pins):
    """The board and its match log, from the pin table."""
    from machine import Pin
    from smartboard.logstore import writer

    # The layout is frozen data (pins.LAYOUT names its module in boards/):
    # nothing needs to be on the flash for the board to light its cells.
    data = __import__("boards." + pins.LAYOUT, None, None, ("JSON",))
    lay = layout.loads(data.JSON)
    deck = uids.UidTable("deck.bin")
    deck.load()
    parts = []
    try:
        cells = cell_scanner(pins, lay, deck, parts)
    except Exception as e:
        cells = NoScanner(lay.nchannels)
        parts.append(failed(PART_CELLS, e))
    try:
        reader = nfc_reader(i2c_bus(pins.PAD_I2C))
        pad = scan.NfcScanner(reader, NoMux(), b"\x00", uids=deck, uid=True)
        parts.append(part(PART_PAD, reader.answering))
    except Exception as e:
        pad = None
        parts.append(failed(PART_PAD, e))
    keys = buttons.Buttons(PinButtons(tuple(Pin(p, Pin.IN, Pin.PULL_UP) for p in pins.BUTTONS)))
    try:
        strip = led_strip(pins, lay.nleds)
    except Exception as e:
        strip = NoStrip(lay.nleds)
        parts.append(failed(PART_STRIP, e))
    else:
        if hasattr(pins, "STRIP_SENSE"):
            parts.append(part(PART_STRIP, strip_sense(pins)))
    paint = Painter(strip, lay.led)
    if hasattr(pins, "CC_SENSE"):
        from smartboard import power

        # the LEDs' budget from the USB supply's advertisement (Default USB
        # 500 mA unless the CC pins say 1.5 A or 3 A): smartboard.power
        try:
            read = power.adc_mv(pins.CC_SENSE)
        except Exception:  # noqa: BLE001 - no reading: Default USB power
            read = power.no_reading
        paint.supply = power.Supply(read, pins.CC_LEVELS, pins.POWER_REST_MA)
    hw = board.Hardware(cells, pad, keys, paint, lay, pins.PROFILE == "B", deck, parts=tuple(parts))
    st = settings.Settings("settings.bin")
    st.load()
    log = writer.MatchLog("logs", (("Board", pins.NAME),))
    return board.Board(hw, st), log


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
    import sys

    unwatch = getattr(sys.modules.get("bootsel"), "unwatch", None)
    if unwatch is not None:
        unwatch()


def loop_forever(b, lk):
    import machine
    from smartboard import loop

    _own_watchdog()
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    now = loop.Millis(time.ticks_ms, time.ticks_diff)
    try:
        while True:
            wdt.feed()
            loop.step(b, lk, now())
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
    try:
        while True:
            wdt.feed()
            lk.poll(now())
    except KeyboardInterrupt:
        machine.mem32[_WATCHDOG_CTRL_CLR] = _WATCHDOG_ENABLE
        raise

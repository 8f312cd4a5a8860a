# The board's start-up: the one place that knows the platform. It builds
# the drivers from a revision's pin table (boards/<rev>/pins.py) for the
# firmware's loop, which never asks where it runs (boards/start.py runs
# it). Start-up only: boards/start.py forgets this module once the board
# is built (with the firmware deployed as .mpy into a slot of the
# littlefs, its bytecode is heap the match can use), so nothing the
# running board keeps is defined here (boards/parts.py holds those).
import time

from smartboard import board, buttons, layout, scan, settings, uids
from smartboard.board import (
    PART_CELLS,
    PART_PAD,
    PART_READER,
    PART_STRIP,
    PART_SUPPLY,
    failed,
    part,
)
from smartboard.paint import Painter
from smartboard.recover import CELLS, PAD, Recovery

from boards.parts import NoMux, NoScanner, NoStrip, PinButtons, SenseLine

# An I2C transfer to a PN532 is at most ~45 bytes (1 ms at 400 kHz): 5 ms
# is room enough, and a bus held low costs the loop 5 ms, not MicroPython's
# default 50 ms, until its readers are marked down.
_I2C_TIMEOUT_US = 5000


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


def reset_line(gpio):
    """A reset input's GPIO, driven high (the board's pull-up holds it
    there through reset and boot); smartboard.recover pulses it low."""
    from machine import Pin

    return Pin(gpio, Pin.OUT, value=1)


def cell_scanner(pins, lay, deck, parts, recover):
    from machine import Pin

    if pins.PROFILE == "A":
        from smartboard.drivers.i2cmux import TCA9548A
        from smartboard.drivers.mux import AnalogMux

        chans = sorted(lay.sensor)
        deb = scan.Debouncer(lay.nchannels, scan.STABLE, scan.ERROR_STABLE, scan.LIFT_STABLE)
        switch = TCA9548A(i2c_bus(pins.CELL_I2C), pins.CELL_SWITCH)
        lanes = []
        readers = []
        for k in range(len(pins.MUX_SELECT)):
            lo = k * pins.LANE
            mux = AnalogMux(tuple(Pin(p, Pin.OUT) for p in pins.MUX_SELECT[k]), (), lo)
            mine = bytes(c for c in chans if lo <= c < lo + pins.LANE)
            reader = nfc_reader(switch.port(k))
            readers.append(reader)
            lanes.append(scan.NfcScanner(reader, mux, mine, uids=deck, deb=deb))
            cells = bytes(lay.cell_of_channel[c] for c in mine)
            parts.append(part(PART_READER, reader.answering, k, cells))
        if hasattr(pins, "CELL_RSTPD"):
            # one pulse resets the switch (a port's SDA let go) and the
            # four readers (their RSTPD_N share a line); the switch first
            # in the list: it forgets its port before they are set up
            lines = (reset_line(pins.CELL_SWITCH_RESET), reset_line(pins.CELL_RSTPD))
            recover.append(Recovery(lines, (switch,) + tuple(readers), CELLS))
        return scan.NfcLanes(lanes, time.ticks_us, time.ticks_diff, time.sleep_ms)
    from machine import SPI
    from smartboard.drivers.shiftreg import ShiftRegMatrix

    b = pins.SHIFT_SPI
    spi = SPI(b[0], baudrate=b[4], sck=Pin(b[1]), mosi=Pin(b[2]), miso=Pin(b[3]))
    latch = Pin(pins.SHIFT_LATCH, Pin.OUT, value=1)
    matrix = ShiftRegMatrix(spi, latch, pins.SHIFT_BYTES, pins.MATRIX_COLS)
    rows = pins.SHIFT_BYTES * 8 // pins.MATRIX_COLS
    return scan.ReedMatrixScanner(matrix, rows, pins.MATRIX_COLS, sleep_us=time.sleep_us)


def strip_sense(pins):
    """The strip connector's sense line (boards/parts.py)."""
    from machine import Pin

    return SenseLine(Pin(pins.STRIP_SENSE, Pin.IN, Pin.PULL_UP))


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
    supply = None
    if hasattr(pins, "CC_SENSE"):
        from smartboard import power

        # the LEDs' budget from the USB supply's advertisement (Default USB
        # 500 mA unless the CC pins say 1.5 A or 3 A): smartboard.power.
        # Read once before any reader is set up: the USB descriptor asks
        # for what the board draws until then, the strip off and (rev A)
        # no RF field on (tools/hardware/power.py boot_ma).
        try:
            read = power.adc_mv(pins.CC_SENSE)
        except Exception:  # noqa: BLE001 - no reading: Default USB power
            read = power.no_reading
        # (and the readers' RF fields it carries at once: Board.tick)
        supply = power.Supply(
            read, pins.CC_LEVELS, pins.POWER_REST_MA, pins.RF_FIELDS, pins.RF_FIELD_MA
        )
        supply.led_budget_ma()
    deck = uids.UidTable("deck.bin")
    deck.load()
    parts = []
    recover = []  # smartboard.recover: the parts on reset lines
    try:
        cells = cell_scanner(pins, lay, deck, parts, recover)
    except Exception as e:
        cells = NoScanner(lay.nchannels)
        parts.append(failed(PART_CELLS, e))
    try:
        reader = nfc_reader(i2c_bus(pins.PAD_I2C))
        pad = scan.NfcScanner(reader, NoMux(), b"\x00", uids=deck, uid=True)
        parts.append(part(PART_PAD, reader.answering))
        if hasattr(pins, "PAD_RSTPD"):
            recover.append(Recovery((reset_line(pins.PAD_RSTPD),), (reader,), PAD))
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
    if supply is not None:
        paint.supply = supply
        if hasattr(pins, "STRIP_EN"):
            # off through reset (pulled down); the painter switches it on
            # once it has read the supply (Painter.follow)
            paint.power = Pin(pins.STRIP_EN, Pin.OUT, value=0).value
            paint.powered = False
            parts.append(part(PART_SUPPLY, paint.lit_ok))
    hw = board.Hardware(
        cells,
        pad,
        keys,
        paint,
        lay,
        pins.PROFILE == "B",
        deck,
        parts=tuple(parts),
        recover=tuple(recover),
    )
    st = settings.Settings("settings.bin")
    st.load()
    log = writer.MatchLog("logs", (("Board", pins.NAME),))
    return board.Board(hw, st), log

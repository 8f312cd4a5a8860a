# TCA9548A I2C switch: several PN532 readers share one I2C bus although
# each answers at the same fixed address (0x24). Rev A hangs its four cell
# readers on ports 0-3 (smartboard.scan.NfcLanes). A port object offers the
# two bus calls the PN532 driver makes; the switch is written only when the
# port changes (one byte, ~25 us at 400 kHz).
from apixagon.compat import const

_ADDR = const(0x70)


class TCA9548A:
    def __init__(self, i2c, addr=_ADDR):
        self.i2c = i2c
        self.addr = addr
        self.current = -1
        self._sel = bytearray(1)

    def port(self, n):
        return Port(self, n)

    # A part of smartboard.recover's cell-bus reset (its RESET with the
    # readers' RSTPD_N): a reset deselects every port (TCA9548A datasheet,
    # RESET Input), so the next transfer writes the port again. Its own
    # failures show as its readers' (their transfers go through it).
    def answering(self):
        return True

    def hold(self):
        self.current = -1

    def reinit(self):
        self.current = -1
        return True

    def select(self, n):
        if n != self.current:
            self._sel[0] = 1 << n
            self.i2c.writeto(self.addr, self._sel)
            self.current = n


class Port:
    def __init__(self, switch, n):
        self.switch = switch
        self.n = n

    # The switch's channel checked here, select() called only to change
    # it: a reader's transfers come in runs (a read's ACK, status and
    # answer, then the next command), and a call is ~15 us on the RP2040.
    def writeto(self, addr, buf):
        sw = self.switch
        if sw.current != self.n:
            sw.select(self.n)
        sw.i2c.writeto(addr, buf)

    def readfrom_into(self, addr, buf):
        sw = self.switch
        if sw.current != self.n:
            sw.select(self.n)
        sw.i2c.readfrom_into(addr, buf)

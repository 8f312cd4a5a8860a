# Bus-level twins for the real drivers: pins that record their writes, and
# a 74HC165 chain over SPI backed by SimCells.


class SimPin:
    def __init__(self, v=1):
        self.v = v
        self.writes = 0

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        self.writes += 1


class SimResetLine:
    """A reset line (a PN532's RSTPD_N, the TCA9548A's RESET) and the twins
    on it: held low, they are in reset and answer nothing; let go after at
    least min_ms low (clock(): the simulated ms), the reset clears a hang
    (sensors.SimNfcReader.hung), which nothing else does."""

    def __init__(self, twins, clock, min_ms):
        self.twins = twins
        self.clock = clock
        self.min_ms = min_ms
        self.v = 1
        self.low_at = 0
        self.pulses = 0  # pulses long enough to reset

    def value(self, v=None):
        if v is None:
            return self.v
        if v == self.v:
            return
        self.v = v
        now = self.clock()
        for t in self.twins:
            t.in_reset = not v
        if not v:
            self.low_at = now
        elif now - self.low_at >= self.min_ms:
            self.pulses += 1
            for t in self.twins:
                t.hung = False


class SimSpi165:
    """74HC165 chain: byte i carries inputs 8i..8i+7, low = closed."""

    def __init__(self, cells, latch):
        self.cells = cells
        self.latch = latch

    def readinto(self, buf):
        for i in range(len(buf)):
            b = 0xFF
            for k in range(8):
                ch = 8 * i + k
                if ch < len(self.cells.cells) and self.cells.cells[ch]:
                    b &= ~(1 << k)
            buf[i] = b & 0xFF


class SimPn532I2C:
    """A PN532 on I2C, answering from SimCells through a SimNfcReader
    (so the time model and the noise are the same): frames, ACK, ready
    byte. corrupt: the next response's checksum is wrong; busy: never
    ready."""

    def __init__(self, reader):
        self.reader = reader  # SimNfcReader over SimCells and SimMux
        self.corrupt = False
        self.busy = False
        self._reply = b""
        self._acked = False
        self._page = bytearray(4)

    def writeto(self, addr, frame):
        cmd = frame[6]
        data = b""
        if cmd == 0x4A:
            n = self.reader.read_page(self._page)
            if n <= 0:
                data = b"\x00"
            else:
                uid = bytearray(7)
                self.reader.uid(uid)
                data = b"\x01\x01\x00\x44\x00\x07" + bytes(uid)
        elif cmd == 0x32 and frame[7] == 0x01:
            self.reader.field(frame[8] & 1)  # RFConfiguration: the RF field
        elif cmd == 0x40:
            # The READ goes to the tag InListPassiveTarget found: if it has
            # left (or another lies there now) the PN532 times out (0x01).
            again = bytearray(4)
            if self.reader.read_page(again) == 4 and again == self._page:
                data = b"\x00" + bytes(self._page) + bytes(12)
            else:
                data = b"\x01"
        body = bytes([0xD5, cmd + 1]) + data
        dcs = (-sum(body)) & 0xFF
        if self.corrupt:
            dcs ^= 0x5A
            self.corrupt = False
        ln = len(body)
        self._reply = b"\x00\x00\xff" + bytes([ln, (-ln) & 0xFF]) + body + bytes([dcs, 0])
        self._acked = False

    def readfrom_into(self, addr, buf):
        if self.busy:
            buf[0] = 0
            return
        buf[0] = 1
        if len(buf) == 1:
            return
        src = b"\x00\x00\xff\x00\xff\x00" if not self._acked else self._reply
        self._acked = True
        for i in range(1, len(buf)):
            buf[i] = src[i - 1] if i - 1 < len(src) else 0

# NXP PN532 NFC reader on I2C (profile A's cell reader and the action pad).
# The bus (machine.I2C or a twin) and a sleep_ms are passed in. One
# preallocated frame buffer; read_page() is the scanner's whole question:
# is there a tag, and what is on its page 4 (smartboard.tag's payload)?
#
# A reader can fail on its own — a loose cable, a dead chip, a bus held
# low: the driver never raises. A bus error, a missing ACK or a reader
# never ready counts against the reader; DOWN_AFTER of them in a row and it
# is down: it answers NO_READER at once (no bus traffic, so a dead reader
# costs the loop nothing) and is set up again every PROBE_EVERY starts, so
# a reader plugged back in comes back by itself. A tag that leaves mid-read
# is the tag's failure (-1), not the reader's.
from apixagon.compat import const

_ADDR = const(0x24)
_HOST = const(0xD4)  # TFI host -> PN532
_DEV = const(0xD5)  # TFI PN532 -> host
_SAM_CONFIGURATION = const(0x14)
_RF_CONFIGURATION = const(0x32)
_IN_LIST_PASSIVE_TARGET = const(0x4A)
_IN_DATA_EXCHANGE = const(0x40)
_NTAG_READ = const(0x30)
_PAYLOAD_PAGE = const(4)
_ACK = b"\x00\x00\xff\x00\xff\x00"
NO_READER = const(-2)  # smartboard.scan.NO_READER: the reader is down
DOWN_AFTER = const(5)
PROBE_EVERY = const(50)


class PN532:
    def __init__(self, i2c, addr=_ADDR, polls=30, sleep_ms=None):
        self.i2c = i2c
        self.addr = addr
        self.polls = polls
        self.sleep_ms = sleep_ms or (lambda ms: None)
        self._out = bytearray(16)
        self._in = bytearray(40)
        self._one = bytearray(1)
        self._uid = bytearray(10)
        self._uid_len = 0
        self.errors = 0
        self.failures = 0  # reader-level failures in a row
        self.alive = True
        self._skip = 0
        self._started = False
        self.alive = self._setup()

    def _setup(self):
        # Normal mode, no SAM; then one activation attempt per
        # InListPassiveTarget, so an empty antenna answers at once instead
        # of waiting for a tag (the sweep's short timeout).
        if self._command(_SAM_CONFIGURATION, b"\x01\x14\x01") < 0:
            return False
        if self._command(_RF_CONFIGURATION, b"\x05\xff\x01\x00") < 0:
            return False
        self.failures = 0
        return True

    def answering(self):
        """False while the reader is down (the board's health check)."""
        return self.alive

    def read_page(self, buf):
        """4 bytes of page 4 into buf: 4; no tag: 0; a failed read: -1;
        the reader down: NO_READER."""
        self.start()
        return self.finish(buf)

    def start(self):
        """Ask for a tag and return: the PN532 settles its field and
        polls on its own meanwhile, so the host can start another reader
        (smartboard.scan.NfcLanes) before it collects this answer."""
        if not self.alive:
            self._started = False
            self._skip += 1
            if self._skip < PROBE_EVERY:
                return
            self._skip = 0
            self.alive = self._setup()
            if not self.alive:
                return
        self._started = self._send(_IN_LIST_PASSIVE_TARGET, b"\x01\x00")

    def finish(self, buf):
        """Collect the answer of start(), then read page 4 (as read_page)."""
        if not self.alive:
            return NO_READER
        if not self._started:
            return -1
        self._started = False
        n = self._answer(_IN_LIST_PASSIVE_TARGET)
        if n < 0:
            return NO_READER if not self.alive else -1
        d = self._in
        if n < 1 or d[8] == 0:
            return 0  # NbTg = 0: nothing in the field
        # Tg, SENS_RES(2), SEL_RES, NFCIDLength, NFCID1
        k = d[13]
        if n < 6 + k or k > len(self._uid):
            return -1
        self._uid[:k] = d[14 : 14 + k]
        self._uid_len = k
        n = self._command(_IN_DATA_EXCHANGE, b"\x01\x30\x04")
        if n < 0:
            return NO_READER if not self.alive else -1
        if n < 5 or d[8] != 0:
            return -1  # the tag left mid-read, or answered garbled
        buf[0:4] = d[9:13]
        return 4

    def uid(self, out):
        """UID of the tag last found; its length."""
        n = self._uid_len
        out[:n] = self._uid[:n]
        return n

    # ---- frames -------------------------------------------------------------
    def _command(self, cmd, params):
        """Send a command; the response's data length (data at _in[8:]),
        or -1 on no answer, no ACK or a bad checksum."""
        if not self._send(cmd, params):
            return -1
        return self._answer(cmd)

    def _send(self, cmd, params):
        """Write the command frame and take its ACK; False if none came."""
        o = self._out
        n = len(params) + 2
        o[0] = 0
        o[1] = 0
        o[2] = 0xFF
        o[3] = n
        o[4] = (-n) & 0xFF
        o[5] = _HOST
        o[6] = cmd
        s = _HOST + cmd
        for i in range(len(params)):
            o[7 + i] = params[i]
            s += params[i]
        o[5 + n] = (-s) & 0xFF
        o[6 + n] = 0
        d = self._in
        try:
            self.i2c.writeto(self.addr, memoryview(o)[: 7 + n])
            if not self._ready():
                self._fail()
                return False
            self.i2c.readfrom_into(self.addr, memoryview(d)[:7])
        except OSError:  # no ACK on the bus, or the bus timed out
            self._fail()
            return False
        if d[1:7] != _ACK:
            self._fail()
            return False
        return True

    def _answer(self, cmd):
        """Wait for the response frame to cmd; its data length or -1."""
        d = self._in
        try:
            if not self._ready():
                return self._fail()
            self.i2c.readfrom_into(self.addr, d)
        except OSError:
            return self._fail()
        # d[0] ready, 00 00 FF LEN LCS D5 CMD+1 data.. DCS 00
        ln = d[4]
        if d[1:4] != b"\x00\x00\xff" or (ln + d[5]) & 0xFF or ln < 2 or ln + 8 > len(d):
            return self._fail()
        if d[6] != _DEV or d[7] != cmd + 1:
            return self._fail()
        s = 0
        for i in range(6, 6 + ln + 1):
            s += d[i]
        if s & 0xFF:
            return self._fail()  # a torn frame: never taken for a card
        self.failures = 0
        return ln - 2

    def _ready(self):
        for _ in range(self.polls):
            self.i2c.readfrom_into(self.addr, self._one)
            if self._one[0] == 1:
                return True
            self.sleep_ms(1)
        return False

    def _fail(self):
        self.errors += 1
        self.failures += 1
        if self.failures >= DOWN_AFTER:
            self.alive = False
            self._skip = 0
        return -1

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
# is the tag's failure (-1), not the reader's. A reader that hangs (its
# status never ready, SDA held low) goes down the same way; with its
# RSTPD_N on a GPIO, smartboard.recover resets it: hold() while the line is
# low (no bus traffic, NO_READER), reinit() once it is up again.
#
# The calls of a read (poll, _list_answer, _read) each keep their state
# within 11 words, with no try block of their own (_got has it): MicroPython
# puts a larger frame on the GC heap at every call (py/objfun.c), ~45 us a
# call on the RP2040 past the heap's holes, and a lane's every step made
# four. The frame's checksum is summed in machine code (_sum).
from apixagon.compat import const, micropython, ptr8

_ADDR = const(0x24)
_HOST = const(0xD4)  # TFI host -> PN532
_DEV = const(0xD5)  # TFI PN532 -> host
_SAM_CONFIGURATION = const(0x14)
_RF_CONFIGURATION = const(0x32)
_IN_LIST_PASSIVE_TARGET = const(0x4A)
_IN_DATA_EXCHANGE = const(0x40)
_NTAG_READ = const(0x30)
_PAYLOAD_PAGE = const(4)
NO_READER = const(-2)  # smartboard.scan.NO_READER: the reader is down
BUSY = const(-3)  # poll(): the reader's answer is not ready yet
DOWN_AFTER = const(5)
PROBE_EVERY = const(50)
# Frame lengths read back, status byte included: the reader keeps a frame
# until it is read, and every byte costs 22.5 us at 400 kHz (4 readers
# share the bus), so each answer is read at the length it can have, not
# at the buffer's: ACK 7; InListPassiveTarget's answer 26 (one target,
# a UID of up to 10 bytes: 1 + 7 + 6 + 10 + 2); InDataExchange's READ 27
# (1 + 7 + status + 16 bytes + 2).
_ACK_LEN = const(7)
_LIST_LEN = const(26)
# Without the UID: 11 bytes are the whole answer when no tag is there
# (NbTg 0), the most frequent answer of a sweep; with a tag, its head
# (NbTg 1): the PN532 user manual (I2C, 6.2.4) has the rest of a frame cut
# by a STOP lost, the target stays listed, and the READ that follows
# brings the payload with its checksums.
_LIST_SHORT = const(11)
_PAGE_LEN = const(27)
# Status polls before an answer counts as never coming; a poll is one I2C
# transfer (~60 us on the bus, ~0.15 ms with the host's work), so ~30 ms.
_POLLS = const(200)


class PN532:
    def __init__(self, i2c, addr=_ADDR, polls=_POLLS, sleep_ms=None):
        self.i2c = i2c
        self.addr = addr
        self.polls = polls
        self.sleep_ms = sleep_ms or (lambda ms: None)
        self._out = bytearray(16)
        self._in = bytearray(40)
        d = memoryview(self._in)
        # Views made once: slicing a memoryview allocates, and a read is
        # the sweep's inner step.
        self._ack = d[:_ACK_LEN]
        self._list = d[:_LIST_LEN]
        self._short = d[:_LIST_SHORT]
        self._page = d[:_PAGE_LEN]
        self._whole = d
        self._one = bytearray(1)
        self._uid = bytearray(10)
        self._uid_len = 0
        # The two frames of a read never change: built once.
        self._f_list = self._frame(_IN_LIST_PASSIVE_TARGET, b"\x01\x00")
        self._f_read = self._frame(_IN_DATA_EXCHANGE, b"\x01\x30\x04")
        self.errors = 0
        self.failures = 0  # reader-level failures in a row
        self.alive = True
        self._skip = 0
        self._phase = 0  # 0 idle, 1 InListPassiveTarget sent, 2 READ sent
        self._listed = False  # a target listed, not lost since
        self._with_uid = True  # read InListPassiveTarget's answer whole
        self._waited = 0
        self._acking = False  # a command written, its ACK not yet read
        # The command under way is the page READ (smartboard.scan.NfcLanes
        # times its next question by it).
        self.paging = False
        self.held = False  # its reset line low (hold(): smartboard.recover)
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

    def hold(self):
        """Its RSTPD_N goes low (smartboard.recover): no bus traffic, no
        reading (NO_READER) until reinit(); a read under way is dropped."""
        self.held = True
        self._phase = 0
        self._acking = False

    def reinit(self):
        """Out of reset: set up again (the PN532 forgot SAMConfiguration
        and RFConfiguration); True if it answers."""
        self.held = False
        self._listed = False
        self._skip = 0
        self.alive = self._setup()
        return self.alive

    def field(self, on):
        """Its RF field on or off (RFConfiguration, CfgItem 1: RF field,
        PN532 user manual 7.3.1), a read under way dropped: off, the
        reader draws no field current (ITVDD, up to 150 mA) and the tag it
        listed loses its power. Set-up style (its answer waited for, ~1
        ms): smartboard.scan.NfcLanes calls it between reads, where the
        supply carries fewer fields than there are readers. True if the
        reader took it."""
        self._phase = 0
        self._acking = False
        self._listed = False
        if self.held or not self.alive:
            return False
        return self._command(_RF_CONFIGURATION, b"\x01\x01" if on else b"\x01\x00") >= 0

    def read_page(self, buf):
        """4 bytes of page 4 into buf: 4; no tag: 0; a failed read: -1;
        the reader down: NO_READER."""
        self.start()
        return self.finish(buf)

    def start(self, again=False, uid=True):
        """Ask for a tag and return: the PN532 settles its field and
        polls on its own meanwhile, so the host can start another reader
        (smartboard.scan.NfcLanes) before it collects this answer.

        again: the antenna has not been switched since a read that found a
        tag: page 4 is asked of that target at once (READ only, ~1.2 ms of
        RF work and 45 bytes on the bus instead of ~3.9 ms and 110 bytes
        with InListPassiveTarget). The PN532 keeps the target it listed
        until the next InListPassiveTarget; if that tag has gone, the READ
        times out: a failed read, and the next read lists again.

        uid: read the tag's UID (uid() after the read), needed for a tag
        without our payload (a learned deck, a tag to teach); without it
        an empty antenna's answer costs 11 bytes on the bus, not 26."""
        self._phase = 0
        self._acking = False
        if self.held:
            return
        if not self.alive:
            self._skip += 1
            if self._skip < PROBE_EVERY:
                return
            self._skip = 0
            self.alive = self._setup()
            if not self.alive:
                return
        self.paging = False
        if again and self._listed:
            if self._write(self._f_read):
                self._phase = 2
                self.paging = True
            return
        self._uid_len = 0
        self._listed = False
        self._with_uid = uid
        if self._write(self._f_list):
            self._phase = 1

    def finish(self, buf):
        """Collect the answer of start(), then read page 4 (as read_page)."""
        if self._acking:
            # Asked at once: the ACK's status byte first (a frame read
            # before it is ready may be lost).
            self._acking = False
            if not self._ack_of():
                self._phase = 0
                return NO_READER if not self.alive else -1
        while True:
            n = self.poll(buf)
            if n != BUSY:
                return n

    def poll(self, buf):
        """finish() without waiting: BUSY while the reader works (one
        status byte asked), else finish()'s answer. The host serves the
        other readers meanwhile: none waits for another's tag."""
        if self.held or not self.alive:
            return NO_READER
        ph = self._phase
        if not ph:
            return -1
        if self._acking:
            # The ACK of the command start() wrote, read whole without a
            # status poll of its own: the PN532 has it ready ~50 us after
            # the frame, and poll() is never called that soon after
            # start() (NfcScanner.step() returns after beginning a read;
            # NfcLanes asks a lane POLL_US or more later). One I2C
            # transfer fewer per command on the bus the readers share.
            self._acking = False
            if not self._got(self._ack) or not self._acked():
                self._phase = 0
                return NO_READER if not self.alive else -1
        one = self._one
        if not self._got(one):
            self._phase = 0
            return NO_READER if not self.alive else -1
        if one[0] != 1:
            self._waited += 1
            if self._waited < self.polls:
                return BUSY
            self._phase = 0
            self._fail()  # never ready
            return NO_READER if not self.alive else -1
        if ph == 1:
            return self._list_answer()
        self._phase = 0
        n = self._read(_IN_DATA_EXCHANGE, self._page)
        if n < 0:
            self._listed = False
            return NO_READER if not self.alive else -1
        d = self._in
        if n < 5 or d[8] != 0:
            self._listed = False  # no target held: the next read lists again
            return -1  # the tag left mid-read, or answered garbled
        buf[0] = d[9]
        buf[1] = d[10]
        buf[2] = d[11]
        buf[3] = d[12]
        return 4

    def _list_answer(self):
        """poll() of an InListPassiveTarget answered: 0 no tag in the
        field, BUSY the READ of page 4 asked of the tag found, else a
        failed read (or NO_READER)."""
        full = self._with_uid
        n = self._read(_IN_LIST_PASSIVE_TARGET, self._list if full else self._short, not full)
        if n < 0:
            self._phase = 0
            return NO_READER if not self.alive else -1
        if n < 1 or self._in[8] == 0:
            self._phase = 0
            return 0  # NbTg = 0: nothing in the field
        if full and not self._uid_of(n):
            self._phase = 0
            return -1
        self._listed = True
        if not self._write(self._f_read):
            self._phase = 0
            return NO_READER if not self.alive else -1
        self._phase = 2
        self.paging = True
        return BUSY

    def _uid_of(self, n):
        """The UID of the target listed (Tg, SENS_RES(2), SEL_RES,
        NFCIDLength, NFCID1) kept for uid(); False if the answer (n bytes
        of data) cannot hold it."""
        d = self._in
        k = d[13]
        u = self._uid
        if n < 6 + k or k > len(u):
            return False
        for i in range(k):
            u[i] = d[14 + i]
        self._uid_len = k
        return True

    def uid(self, out):
        """UID of the tag last found; its length."""
        n = self._uid_len
        out[:n] = self._uid[:n]
        return n

    # ---- frames -------------------------------------------------------------
    def _frame(self, cmd, params):
        """The command frame: 00 00 FF LEN LCS D4 CMD params DCS 00."""
        n = len(params) + 2
        o = bytearray(7 + n)
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
        return o

    def _command(self, cmd, params):
        """Send a command and wait for its answer (set-up only): the
        response's data length (data at _in[8:]), or -1 on no answer, no
        ACK or a bad checksum."""
        if not self._send(self._frame(cmd, params)):
            return -1
        try:
            for _ in range(self.polls):
                self.i2c.readfrom_into(self.addr, self._one)
                if self._one[0] == 1:
                    return self._read(cmd, self._whole)
                self.sleep_ms(1)
        except OSError:
            pass
        return self._fail()

    def _write(self, frame):
        """Write a command frame, its ACK left for poll() or finish() to
        take; False if the reader did not answer its address."""
        try:
            self.i2c.writeto(self.addr, frame)
        except OSError:  # no ACK on the bus, or the bus timed out
            self._fail()
            return False
        self._acking = True
        self._waited = 0
        return True

    def _send(self, frame):
        """Write a command frame and take its ACK; False if none came."""
        if not self._write(frame):
            return False
        self._acking = False
        return self._ack_of()

    def _ack_of(self):
        """Take the ACK of the frame just written, its status byte asked
        first; False if none came."""
        try:
            # The ACK is ready ~50 us after the frame: its status byte is
            # asked first (a frame read before it is ready may be lost).
            one = self._one
            for _ in range(8):
                self.i2c.readfrom_into(self.addr, one)
                if one[0] == 1:
                    self.i2c.readfrom_into(self.addr, self._ack)
                    break
            else:
                self._in[0] = 0  # never ready: no ACK
        except OSError:  # no ACK on the bus, or the bus timed out
            self._fail()
            return False
        return self._acked()

    def _acked(self):
        """The ACK frame read into _in: True, else a failure counted."""
        d = self._in
        # 01, then the ACK frame 00 00 FF 00 FF 00 (compared in place: a
        # slice would allocate, every read)
        if d[0] != 1 or d[1] | d[2] | d[4] | d[6] or d[3] != 0xFF or d[5] != 0xFF:
            self._fail()
            return False
        return True

    def _read(self, cmd, into, head=False):
        """Read the response frame to cmd (ready): its data length or -1.
        head: a longer frame may be cut at len(into) (its head checked,
        its checksum unread: only NbTg is taken from it)."""
        if not self._got(into):
            return -1
        d = self._in
        # d[0] ready, 00 00 FF LEN LCS D5 CMD+1 data.. DCS 00
        ln = d[4]
        if d[1] | d[2] or d[3] != 0xFF or (ln + d[5]) & 0xFF or ln < 2:
            return self._fail()
        if d[6] != _DEV or d[7] != cmd + 1:
            return self._fail()
        if ln + 7 > len(into):
            if not head:
                return self._fail()
            self.failures = 0
            return ln - 2
        if _sum(d, 6, ln + 1) & 0xFF:
            return self._fail()  # a torn frame: never taken for a card
        self.failures = 0
        return ln - 2

    def _got(self, buf):
        """buf read from the reader; False (a failure counted) if the bus
        failed: no ACK of its address, or a timeout."""
        try:
            self.i2c.readfrom_into(self.addr, buf)
        except OSError:
            self._fail()
            return False
        return True

    def _fail(self):
        self.errors += 1
        self.failures += 1
        if self.failures >= DOWN_AFTER:
            self.alive = False
            self._skip = 0
        return -1


@micropython.viper
def _sum(d: ptr8, a: int, n: int) -> int:
    # the bytes d[a:a+n] summed (a frame's checksum: a slice would allocate)
    s = 0
    for i in range(a, a + n):
        s += d[i]
    return s

# Cell sensing: scanners that report debounced changes, KMK style.
#
#   ch = scanner.scan_for_changes()   # -1, or a channel whose state changed
#   scanner.state[ch]                 # its new, stable state
#
# States, one byte per channel:
#   EMPTY        nothing on the cell
#   1 + code     a card (profile A: smartboard.tag code; profile B: OCCUPIED)
#   UNREADABLE   a tag keeps failing its checksum (damaged or half on the antenna)
#   FOREIGN      a tag that is not an APIXAGON card
# A reading becomes the state only after STABLE identical reads in a row:
# one torn read, a card slid over an antenna or a bouncing reed never
# reaches the move inference (issue 3: no phantom moves from flicker).
from apixagon.compat import const

from . import tag

EMPTY = const(0)
OCCUPIED = const(1)  # profile B: something is on the cell
UNREADABLE = const(0xFE)
FOREIGN = const(0xFD)
STABLE = const(3)
# NfcScanner's reads come in three tiers (prioritise): the hot cells (the
# legal cells, where the next card goes, the cells in error, the last
# move's neighbourhood) most; each empty cell, where a card put on the
# wrong cell must be seen and shown red, about every WARM_READS reads of
# its lane (at ~7-10 ms a read: ~0.2 s); each occupied one (a card lying
# still: only a lift changes it) about every COLD_READS (~0.7-1 s). Before,
# one tier for every cell not hot, each read about every COLD_READS: a
# refused card took ~1 s at the 95th percentile to show red in the sensor
# time model; three tiers, ~0.2 s, the legal placements a few ms more
# (docs/development/notes.md).
HOT_RATIO = const(5)  # hot reads per read of the sweep, an unprioritised lane
WARM_READS = const(18)
COLD_READS = const(96)
HOT_MIN = const(1)  # hot reads per read of the sweep, at least
ERROR_STABLE = const(8)  # an error state must persist much longer than a card
# NFC fails by silence: a tag that misses a read looks like an empty cell,
# while a wrong card cannot pass the CRC. So a card must be missed more
# times in a row before it counts as lifted than it takes to see one placed
# (at a 5 % miss rate a phantom lift is then ~1e-8 per look).
LIFT_STABLE = const(6)
# A reed matrix is read whole once per loop tick (the 74HC165 chain's 64
# bits take 16-64 us on SPI). A reed's contacts bounce for 0.5-1 ms after
# a magnet arrives or leaves (reed switch datasheets): 4 agreeing passes
# spaced at least REED_GAP_US apart span >= 1.2 ms, longer than any
# bounce, and make an electrical glitch that fakes a card (p^4 with reads
# 0.4 ms apart) vanishingly rare. While a reading is pending the passes
# follow each other in the same call instead of one per loop tick: the
# placement-to-LED budget (<= 25 ms, profile B) leaves the sensing ~3 ms
# beside the sensor event (~8 ms) and a frame on the wire (1.83 ms).
REED_STABLE = const(4)
REED_GAP_US = const(400)
# reader.finish() when the reader itself does not answer (a loose cable, a
# bus held low: smartboard.drivers.pn532): no reading at all, so the cells
# it serves keep their states — never a phantom lift of every card on them.
NO_READER = const(-2)
# reader.poll(): its answer is not there yet (smartboard.drivers.pn532.BUSY);
# NfcScanner.step() passes it on.
BUSY = const(-3)
# NfcLanes on the board: the earliest a PN532 may be asked for a tag (5.1
# ms after an antenna switch), the earliest its answer can be there (an
# empty antenna's InListPassiveTarget takes ~0.7 ms of RF work, a READ
# ~1.2 ms), and the wait between two status questions while it works.
# Rev A's MOSFET switches put the field on the new coil within
# microseconds (docs/hardware/antenna-switching.md):
# the 5.1 ms is the tag's, which ISO/IEC 14443-3 (5.1) lets take 5 ms of
# unmodulated field to power up, so a reader gives it 5.1 ms before REQA.
# A PN532 sends REQA the moment it gets InListPassiveTarget (it does not
# wait for a tag to power up): the host holds the command SETTLE_US after
# the switch (NfcScanner.settling; NfcLanes serves the other lanes
# meanwhile), then asks for the answer RF_US after sending it.
SETTLE_US = const(5100)
RF_US = const(700)
READ_US = const(1200)  # a page READ of the tag the reader still holds
POLL_US = const(200)
# InListPassiveTarget when a tag answers: ~2.7 ms of RF work (its
# activation: REQA, the anticollision and SELECT of each cascade level of
# a 7-byte UID; the time model the simulator and the emulated readers
# share), not the 0.7 ms of an empty field. A list still not answered at
# RF_US has a tag: it is asked again when that tag's answer can be there,
# not every POLL_US (each "not yet" an I2C transfer and a pass of Python
# the other lanes waited for); once it has answered, its page READ is
# asked READ_US after it was written.
FOUND_US = const(2700)
# NfcLanes with a clock: a call goes on collecting the lanes' reads (each
# restarted at once) until a change or its slice (NfcLanes.slice_us, at
# most this long), then gives the loop its turn. On the RP2040 a lane comes
# round every ~9.5 ms, not the ~5.7 ms its field and RF work take: each
# read costs ~1 ms of blocking I2C at 400 kHz on the bus the four readers
# share, and the Python around it. Each loop pass (the link, the pad, the
# buttons, a frame: ~2 ms measured at an 8 ms slice) is time the lanes
# wait; returning after every read paid it at every read (profile A's
# placement to LED, 95 %: 158 ms with a read a call, 132 ms with this
# slice). A change still ends the call at once; the board shortens the
# slice when the loop has work due sooner (the pad's next read: a tap
# confirmed a slice late is a tap missed).
SLICE_US = const(25000)
# The chip sleeps (sleep_ms(1): WFE until the next millisecond, MicroPython's
# rp2 port, mp_hal_delay_ms) only when no lane's answer can be there for
# longer than that: a lane is never asked late. A core that never sleeps
# draws its full run current for nothing. (machine.idle() is no sleep
# there: the event register an interrupt set since the last WFE ends it
# at once, Cortex-M0+; the loop takes interrupts all the time.)
IDLE_US = const(1300)  # the sleep's 1 ms, and the link's poll before it
# A slice of NO_WAIT: one pass over the lanes whose answer can be there,
# no waiting for the others. With no match in play, or while the PC
# downloads, the loop's turn comes first: a request that came amid a
# slice (or a one-read call, which waits out a lane's 5 ms settling) had
# waited up to 25 ms for it; the loop comes back at once, so the lanes
# are still read as soon as each can answer.
NO_WAIT = const(-1)


class Debouncer:
    """Per-channel debouncing of raw readings into stable states."""

    def __init__(self, nchannels, stable=STABLE, error_stable=ERROR_STABLE, lift_stable=0):
        self.state = bytearray(nchannels)
        self._cand = bytearray(nchannels)
        self._count = bytearray(nchannels)
        self.stable = stable
        self.error_stable = error_stable
        self.lift_stable = lift_stable or stable

    def pending(self, ch):
        """True while ch has a reading that disagrees with its state."""
        return self._count[ch] != 0

    def feed(self, ch, raw):
        """Feed one raw reading; True when ch's stable state changed."""
        if raw == self.state[ch]:
            self._count[ch] = 0
            return False
        if raw != self._cand[ch]:
            self._cand[ch] = raw
            self._count[ch] = 1
        elif self._count[ch] < 255:
            self._count[ch] += 1
        if raw >= FOREIGN:
            need = self.error_stable
        elif raw == EMPTY:
            need = self.lift_stable
        else:
            need = self.stable
        if self._count[ch] >= need:
            self.state[ch] = raw
            self._count[ch] = 0
            return True
        return False


class NfcScanner:
    """Profile A: one NFC reader switched across the cells' antennas.

    reader.start() begins a read, reader.finish(buf) -> number of bytes
    read into buf (0: no tag in the field, NO_READER: the reader is down,
    another < 0: a failed read) ends it; reader.poll(buf) is finish()
    without waiting (BUSY while the reader works);
    reader.uid(buf) -> length of the UID of the tag just read;
    mux.select(ch) switches the antenna. Both come from the board's
    start-up code (real parts) or from smartboard.sim (twins)."""

    def rest(self):
        """False: scan_for_changes reads at once (never a time to sleep)."""
        return False

    def __init__(
        self, reader, mux, channels, stable=STABLE, uids=None, deb=None, uid=False, wait_us=None
    ):
        self.reader = reader
        # uid: read every tag's UID (the pad: a tag tapped to teach a deck);
        # else only while a learned deck may lie on the cells.
        self.always_uid = uid
        self.uids = uids  # UidTable of a learned deck, or None
        self.uid = bytearray(7)  # UID of the last tag without our payload
        self.uid_len = 0
        self.mux = mux
        self.channels = channels  # bytes: the channels to sweep, in order
        # NfcLanes hands its lanes one Debouncer: one state array for all.
        self.deb = deb or Debouncer(
            max(channels) + 1, stable, ERROR_STABLE, max(stable, LIFT_STABLE)
        )
        self.state = self.deb.state
        self._buf = bytearray(4)
        self._i = 0
        self._focus = -1  # channel being confirmed: read again at once
        self._focus_reads = 0
        self._hot = bytearray(len(channels))  # channels read first, in order
        self._nhot = 0
        self._ratio = HOT_RATIO  # hot reads per read of the sweep
        self._j = 0  # the occupied cells' own pointer (_sweep)
        self._acc = 0  # _sweep's share of occupied reads: _cw of _tw
        self._cw = 0
        self._tw = 1
        self._tiered = False  # prioritised: occupied cells swept less often
        # hot[ch] of the last prioritise(), a copy: the board's own map
        # changes under it between two calls (its cells then in neither the
        # hot reads nor the sweep: a card put there went unseen)
        self._hotmap = bytearray(max(channels) + 1)
        self._h = 0
        self._k = 0
        self._ch = -1  # channel of the read begun
        self.switched = True  # that read's antenna was switched to
        # NfcLanes' ticks_us (None: no clock, the simulator): when begin()
        # switched the antenna, since the field settles from there
        self.clock = None
        self.switched_at = 0
        # The read's command held back after an antenna switch: a PN532
        # sends its REQA the moment it gets InListPassiveTarget, and the tag
        # on the new coil needs SETTLE_US of field to power up before it can
        # answer (ISO/IEC 14443-3, 5.1): asked sooner, an occupied cell
        # reads empty. With a clock NfcLanes sends it (send()) once
        # SETTLE_US have passed, serving the other lanes meanwhile; without
        # one (the simulated board, which counts time in its twins)
        # wait_us(SETTLE_US) stands for that wait.
        self.settling = False
        self.wait_us = wait_us
        self.paged = False  # that read is a page READ alone (a card held)
        self._busy = False  # a read begun and not collected
        # The channel whose card the reader still holds (its last read there
        # found one, no antenna switch since): read again by page alone.
        self._held = -1

    def prioritise(self, hot):
        """hot[ch] != 0: read ch before the rest (the sweep's one read
        after a few hot reads, as many as keep each empty cell read about
        every WARM_READS reads: see the top).

        Issue 3: one reader over 61 antennas costs ~5 ms of field settling
        (scan.SETTLE_US) per switch plus the read, 0.35-0.55 s a sweep. The board passes the
        cells where the next card can go (the legal cells), the cells in
        error and the last move's neighbourhood, so a placement is seen in a
        fraction of a sweep; the full sweep still visits every cell."""
        n = warm = cold = 0
        hm = self._hotmap  # the sweep skips these: the hot reads visit them
        st = self.state
        for ch in self.channels:
            if hot[ch]:
                self._hot[n] = ch
                n += 1
                hm[ch] = 1
            else:
                hm[ch] = 0
                if st[ch] == EMPTY:
                    warm += 1
                else:
                    cold += 1
        self._nhot = n
        self._tiered = True
        # The sweep's share of the reads: warm/WARM_READS + cold/COLD_READS,
        # in whole hot reads per sweep read; within the sweep, an occupied
        # cell's read in proportion (_sweep's accumulator, integers only)
        self._cw = cold * WARM_READS
        self._tw = self._cw + warm * COLD_READS
        r = WARM_READS * COLD_READS // self._tw - 1 if self._tw else HOT_RATIO
        self._ratio = r if r > HOT_MIN else HOT_MIN
        if self._h >= n:
            self._h = 0

    def _raw(self, n):
        if n == 0:
            return EMPTY
        if n == NO_READER:
            return -1
        c = tag.decode(self._buf) if n >= 4 else tag.LENGTH
        if c >= 0:
            return 1 + c
        if c == tag.NOT_OURS or c == tag.BAD_FIELD:
            # No payload of ours: a card of a learned deck (smartboard.uids)
            # is known by its UID; else a foreign tag, whose UID is kept for
            # the teaching of a new deck.
            n = self.reader.uid(self.uid)
            self.uid_len = n
            if self.uids is not None:
                c = self.uids.lookup(self.uid, n)
                if c >= 0:
                    return 1 + c
            return FOREIGN
        return UNREADABLE  # torn or short: only a state if it persists

    def begin(self):
        """Choose the next channel, switch to it and start its read."""
        # A channel whose reading disagrees with its state is read again at
        # once (a placement shows in STABLE reads, not STABLE sweeps), but
        # never for more than a few reads: a flickering cell cannot starve
        # the sweep.
        if self._focus >= 0 and self._focus_reads < 2 * ERROR_STABLE:
            ch = self._focus
            self._focus_reads += 1
        elif self._nhot and (self._k < self._ratio or self._nhot == len(self.channels)):
            ch = self._hot[self._h]
            self._h = (self._h + 1) % self._nhot
            self._k += 1
            self._focus_reads = 0
        else:
            ch = self._sweep()
        self.switched = ch != self._ch
        self._ch = ch
        self.mux.select(ch)
        self.paged = ch == self._held
        if not self.paged:
            self._held = -1
        if self.switched:
            if self.clock is not None:
                self.switched_at = self.clock()
                self.settling = True  # NfcLanes sends it SETTLE_US from now
                return
            if self.wait_us is not None:
                self.wait_us(SETTLE_US)
        self.send()

    def send(self):
        """The read's command, to the reader (begin(); NfcLanes once the
        field has been on the new antenna SETTLE_US)."""
        self.settling = False
        if self.paged:
            self.reader.start(True)
        else:
            u = self.uids
            self.reader.start(False, self.always_uid or (u is not None and u.count > 0))

    def _sweep(self):
        # The sweep's read: the next channel that is not hot (a hot one
        # comes round in the hot reads anyway). Early in a match nearly
        # every cell is legal: a sweep slot spent again on a hot cell
        # stretched the time to come back to each by a third. (Apart from
        # begin(), whose state then passed 11 words: a frame on the heap
        # at every call, smartboard/drivers/pn532.py.)
        self._k = 0
        self._focus_reads = 0
        chans = self.channels
        n = len(chans)
        hot = self._hotmap if self._nhot else None
        if not self._tiered:
            ch = chans[self._i]
            self._i = (self._i + 1) % n
            if hot is not None:
                for _ in range(n):
                    if not hot[ch]:
                        break
                    ch = chans[self._i]
                    self._i = (self._i + 1) % n
            return ch
        # Tiered (the cells prioritised): the empty cells in turn, and in
        # proportion (_cw of _tw) the occupied ones, each kind by a pointer
        # of its own (one pointer for both, skipping, came round to the
        # same part of them when their counts shared a factor: a card put
        # or lifted there went unseen).
        st = self.state
        self._acc += self._cw
        cold = self._acc >= self._tw
        if cold:
            self._acc -= self._tw
        for _ in range(2):
            j = self._j if cold else self._i
            for _ in range(n):
                c = chans[j]
                j = j + 1 if j + 1 < n else 0
                if (st[c] != EMPTY) == cold and (hot is None or not hot[c]):
                    if cold:
                        self._j = j
                    else:
                        self._i = j
                    return c
            cold = not cold  # none of that kind: the other
        return chans[0]

    def field(self, on):
        """Its reader's RF field on or off (NfcLanes, where the supply
        carries fewer fields than there are readers): the lane is idle
        (no read begun); with the field on again its next read lists anew
        after SETTLE_US, as after a switch (its tag powers up again)."""
        self.reader.field(on)
        self._ch = -1
        self._held = -1

    def end(self):
        """Finish the read begun; the channel if its stable state changed.
        (Blocking, without a clock: a command still held is sent now.)"""
        if self.settling:
            self.send()
        return self._fed(self.reader.finish(self._buf))

    def step(self, chain=True):
        """The non-blocking sweep: begin a read if none is under way, else
        collect it if the reader has answered. BUSY while it works; else
        the channel if its stable state changed, or -1. chain: begin the
        next read as soon as one is collected, so its antenna's field
        settles while the host serves the other readers and the loop."""
        if not self._busy:
            # Not asked at once: no answer (nor the PN532's ACK, ~50 us
            # after the frame) can be there yet.
            self.begin()
            self._busy = True
            return BUSY
        if self.settling:
            # NfcLanes steps a settling lane once SETTLE_US have passed
            # since its switch: the tag there has power now
            self.send()
            return BUSY
        n = self.reader.poll(self._buf)
        if n == BUSY:
            return BUSY
        self._busy = False
        ch = self._fed(n)
        if chain:
            self.begin()
            self._busy = True
        return ch

    def _fed(self, n):
        ch = self._ch
        raw = self._raw(n)
        if raw < 0:
            self._focus = -1  # no reading: the reader is down
            self._held = -1
            return -1
        self._held = ch if EMPTY < raw < FOREIGN else -1
        changed = self.deb.feed(ch, raw)
        self._focus = ch if self.deb.pending(ch) else -1
        return ch if changed else -1

    def scan_for_changes(self):
        self.begin()
        return self.end()


class NfcLanes:
    """Profile A with several readers, each switched over its own antennas
    (a lane), each read started and collected on its own.

    ~5 ms of field settling per antenna switch makes one reader over 61
    antennas too slow for a 300 ms placement-to-LED budget. Each PN532
    settles its field and talks to its tag on its own once started, so
    four lanes of 16 antennas come round to a cell about four times as
    often. The lanes share one Debouncer, hence one `state` for the board.

    ticks_us, ticks_diff (time's, on the board): a reader is not asked for
    its command before the tag on a newly switched antenna has power
    (SETTLE_US after the switch), nor its status before its answer can be
    there (RF_US after the command, POLL_US after a "not yet"): each
    question is an I2C transfer the four readers' bus and the host pay
    for."""

    def __init__(self, lanes, ticks_us=None, ticks_diff=None, sleep_ms=None):
        self.lanes = lanes
        # time's sleep_ms on the board (None: never): sleep_ms(1) while no
        # lane can answer within IDLE_US (rest)
        self.sleep_ms = sleep_ms
        self._next = 0  # the lane polled first: each in turn
        self.ticks_us = ticks_us
        self.ticks_diff = ticks_diff
        self._at = [0] * len(lanes)  # per lane: when it was last started/asked
        self._gap = [0] * len(lanes)  # per lane: how long before asking
        self._t0 = [0] * len(lanes)  # per lane: when its read was begun
        self._gap0 = [0] * len(lanes)  # per lane: its first question's wait
        # per lane: 1 a list asked, 2 a list that answered "not yet" (a
        # tag answers), 3 a page READ, 4 its antenna switched and the list
        # held (NfcScanner.settling); 0 unknown (no chained begin yet)
        self._st = bytearray(len(lanes))
        self.deb = lanes[0].deb
        self.state = self.deb.state
        # Changes found in the same step wait here, one per lane at most:
        # scan_for_changes() hands them out one per call, none lost.
        self._pend = bytearray(len(lanes))
        self._npend = 0
        # The next call's slice, 0..SLICE_US (0: return after one read);
        # Board.tick sets it from what else the loop has due.
        self.slice_us = SLICE_US
        for lane in lanes:
            lane.clock = ticks_us  # each stamps its antenna switch
        # How many lanes may have their reader's RF field on at once (the
        # board sets it from the supply: smartboard.power fields_allowed).
        # Fewer than the lanes: they take turns, a read each, a lane's
        # field switched off once its read is collected and the next
        # waiting lane's on (round robin); the fields' current is most of
        # rev A's draw (150 mA each at the PN532's maximum).
        self.fields = len(lanes)
        self._on = bytearray(b"\x01" * len(lanes))  # per lane: its field on
        self._non = len(lanes)

    def prioritise(self, hot):
        for lane in self.lanes:
            lane.prioritise(hot)

    def scan_for_changes(self):
        n = self._npend
        if n:
            self._npend = n - 1
            return self._pend[n - 1]
        # Each lane runs on its own (NfcScanner.step): a lane whose reader
        # has answered is collected and started again at once, whatever
        # the others do, so no reader waits for the slowest one's tag and
        # the host never sleeps while one works. The call returns once a
        # read is collected (the loop's turn), its changes one at a time.
        lanes = self.lanes
        nl = len(lanes)
        clock = self.ticks_us
        diff = self.ticks_diff
        at = self._at
        gap = self._gap
        gap0 = self._gap0
        began = self._t0
        st = self._st
        ch = -1
        done = False
        t0 = clock() if clock is not None else 0
        slice_us = self.slice_us
        on = self._on
        rationed = self.fields < nl
        if self._non != (self.fields if rationed else nl):
            self._turns(-1)
        while not done:
            asked = False
            for j in range(nl):
                k = self._next + j
                if k >= nl:
                    k -= nl
                lane = lanes[k]
                if rationed and not on[k]:
                    continue  # its field off: its turn comes
                # 0 <= d: ticks_us wraps every 2^30 us (17.9 min) and
                # ticks_diff answers in +-2^29, so a lane last asked that
                # long ago (or never: at 0, on a chip whose timer has run
                # on since its power-on through a soft reset) reads as
                # asked in the future - asked now, not skipped for ever.
                if clock is not None:
                    d = diff(clock(), at[k])
                    if 0 <= d < gap[k]:
                        continue
                asked = True
                # rationed: no read chained, the field is handed on after it
                c = lane.step(False) if rationed else lane.step()
                if clock is not None:
                    now = clock()
                    at[k] = now
                    if lane.settling:
                        # its antenna switched, the read's command held:
                        # stepped again (sent) SETTLE_US after the switch
                        st[k] = 4
                        gap[k] = SETTLE_US - diff(now, lane.switched_at)
                    elif c == BUSY:
                        s = st[k]
                        if s == 4:
                            # the held command sent: a list, answered RF_US on
                            began[k] = now
                            st[k] = 1
                            gap[k] = RF_US
                            gap0[k] = RF_US
                        elif s != 3 and lane.reader.paging:
                            st[k] = 3  # the list found a tag: READ written
                            gap[k] = READ_US
                        elif s == 1:
                            st[k] = 2  # a tag answers: asked at its answer
                            g = gap0[k] - RF_US + FOUND_US - diff(now, began[k])
                            gap[k] = g if g > POLL_US else POLL_US
                        else:
                            gap[k] = POLL_US
                    elif rationed:
                        st[k] = 0  # no read begun: begun when stepped
                        gap[k] = 0
                    else:
                        # (the read begun next: step() chains it)
                        began[k] = now
                        st[k] = 3 if lane.paged else 1
                        g = READ_US if lane.paged else RF_US
                        gap[k] = g
                        gap0[k] = g
                if c == BUSY:
                    continue
                if rationed:
                    self._turns(k)
                # a change ends the call (the sensor event at once), else
                # the slice does; without a clock (the simulator, which
                # counts each step's time itself) a read does
                if c >= 0 or clock is None or diff(clock(), t0) >= slice_us:
                    done = True
                if c >= 0:
                    if ch < 0:
                        ch = c
                    else:
                        self._pend[self._npend] = c
                        self._npend += 1
            self._next = self._next + 1 if self._next + 1 < nl else 0
            if slice_us < 0:
                break  # NO_WAIT: the lanes not due yet are stepped next call
            if not (done or asked) and self.sleep_ms is not None and self.rest():
                self.sleep_ms(1)  # no lane to ask, none can answer within IDLE_US
        return ch

    def _turns(self, k):
        """The fields' turns: lane k's read collected (-1: none, the number
        allowed changed): its field off, then lanes off switched on, from
        the one after k, while fewer are on than allowed; lanes on beyond
        that switched off once idle (a busy one at its collection). At
        least one lane always reads."""
        lanes = self.lanes
        nl = len(lanes)
        on = self._on
        want = self.fields
        if want < 1:
            want = 1
        elif want > nl:
            want = nl
        if k >= 0 and want < nl:
            lanes[k].field(False)
            on[k] = 0
            self._non -= 1
        for j in range(nl):
            if self._non <= want:
                break
            if on[j] and not lanes[j]._busy:
                lanes[j].field(False)
                on[j] = 0
                self._non -= 1
        for j in range(1, nl + 1):
            if self._non >= want:
                break
            i = (k + j) % nl
            if not on[i] and i != k:
                lanes[i].field(True)
                on[i] = 1
                self._non += 1
                self._gap[i] = 0  # stepped at once: its read begins
        if self._non < want and k >= 0 and not on[k]:
            lanes[k].field(True)  # the only lane left to read
            on[k] = 1
            self._non += 1

    def rest(self):
        """No lane's answer can be there within IDLE_US from now, no change
        waits to be handed out: the chip may sleep (Board.quiet)."""
        clock = self.ticks_us
        if clock is None or self._npend:
            return False
        now = clock()
        diff = self.ticks_diff
        at = self._at
        gap = self._gap
        for k in range(len(self.lanes)):
            d = diff(now, at[k])
            if d < 0 or gap[k] - d < IDLE_US:
                return False
        return True


class ReedMatrixScanner:
    """Profile B: a reed/hall switch per cell in a rows x cols matrix.

    matrix.read_row(r) -> bit mask of the closed switches in row r (the
    shift-register chain or GPIO matrix of the board revision)."""

    def __init__(self, matrix, rows, cols, stable=REED_STABLE, sleep_us=None):
        self.matrix = matrix
        self._quiet = False  # the last call ended with no reading pending
        self.sleep_us = sleep_us  # time.sleep_us on the board; None: no wait
        self.rows = rows
        self.cols = cols
        self.deb = Debouncer(rows * cols, stable)
        self.state = self.deb.state
        self._row = 0
        self._cur = 0
        self._mask = 0
        self._col = cols  # forces a row read first
        self._rowstate = bytearray(rows)  # per row: mask of OCCUPIED states
        self._busy = bytearray(rows)  # per row: a reading still pending

    # A matrix reads every cell each pass: nothing to put first, so the
    # board spares each event the likely cells' work (Board._prioritise).
    PRIORITISED = False

    def prioritise(self, hot):
        """Nothing to put first (PRIORITISED)."""

    def rest(self):
        """No reading pending since the last call: the chip may sleep (a
        card put meanwhile is read on the pass after the sleep)."""
        return self._quiet

    def scan_for_changes(self):
        # A quiet board costs one pass per call; a pending reading gets its
        # confirming passes at once, REED_GAP_US apart (see REED_STABLE).
        busy = self._busy
        self._quiet = False
        for _ in range(self.deb.stable + 1):
            ch = self._pass()
            if ch >= 0:
                return ch
            pending = 0
            for r in range(self.rows):
                pending |= busy[r]
            if not pending:
                self._quiet = True
                return -1
            if self.sleep_us is not None:
                self.sleep_us(REED_GAP_US)
        return -1

    def _pass(self):
        # One row read serves `cols` channels; changes come one at a time.
        # A call goes on through the rows until a change or the chain's
        # end: a pass is one snapshot (read_row(0) takes it), so the next
        # call starts a fresh one at row 0. (Counting 8 rows from where a
        # change had stopped it read the rows after it from the old
        # snapshot: a card put there was seen a loop pass late.)
        # A row that reads as its stable states, with nothing pending, is
        # skipped whole: the idle pass costs a byte compare per row. In a
        # row that differs only the channels that differ or are pending are
        # fed (a confirming pass costs a few compares, not 8 calls a row).
        deb = self.deb
        count = deb._count
        cols = self.cols
        reads = 0
        while True:
            if self._col >= cols:
                r = self._row
                if r == 0 and reads:
                    return -1  # the pass is done: the loop's turn
                reads += 1
                self._mask = self.matrix.read_row(r)
                self._row = (r + 1) % self.rows
                self._cur = r
                if self._mask == self._rowstate[r] and not self._busy[r]:
                    continue
                self._col = 0
                self._busy[r] = 0
            r = self._cur
            c = self._col
            ch = r * cols + c
            bit = self._mask >> c & 1
            self._col = c + 1
            if bit == self._rowstate[r] >> c & 1 and not count[ch]:
                continue  # as its state, nothing pending: nothing to feed
            changed = deb.feed(ch, OCCUPIED if bit else EMPTY)
            if count[ch]:
                self._busy[r] = 1
            if changed:
                self._rowstate[r] ^= 1 << c
                return ch

# The board's end of the serial link (docs/protocol.md): frames in from a
# port, commands run against the board and its match logs, replies and
# events out. The port is passed in: USB CDC through sys.stdin/stdout on
# the board and on the unix port (smartboard.stdio), anything with read_byte() and
# write() in tests. A bad frame gets one error reply and changes nothing.
import sys
import time

from apixagon import record
from apixagon.codes import JUNIOR, MODES, TEEN
from apixagon.compat import const
from apixagon.geometry import NCELLS

from . import proto, referee, scan
from . import settings as S
from .board import DISPLAY_NAMES, OVER, PHASES, PLAY, RESUME, SETUP
from .logstore import folder, names

FW_VERSION = "0.9.3"
_BYTES_PER_POLL = const(512)  # bytes taken from the port per loop tick
_CTRL_C = const(3)
# LOGS: entries a reply (~20 bytes each), the most a listing keeps sizes
# of (logstore.folder.HEAD): an archive of that many logs is listed in one request
LOGS_PER_REPLY = const(64)
_MARKS_AFTER_MS = const(300)  # PULLED markers are written once the host is this quiet
_SETTINGS = ("display", "bright", "mode", "start", "option", "players", "palette")
# settings past those, by name: the computer's seats and level, the hints'
# assistance and their limit a turn (smartboard.settings)
_MORE = ("computer", "level", "assist", "hintlimit")
_MORE_AT = (S.COMPUTER, S.LEVEL, S.ASSIST, S.HINT_LIMIT)
_PHASE_EVENTS = ("start", "over", "resumed", "abandoned")
MAX_OFFSET = const(1 << 24)  # GET: beyond any log a 2 MB flash can hold
# FETCH: bytes a request at most: ~30 ms of the RP2040's loop on it (spans
# and whole logs, version 5; it was 16384 when a frame a 2 KB chunk cost
# ~2 ms more, and a host of an older version still asks no more than that)
MAX_FETCH = const(32768)
MAX_START = const(1 << 16)  # LOGS: past any log number (logstore.names.MAX_NUMBER)
CLOCK_MIN = 946684800  # CLOCK: 2000-01-01 ..
CLOCK_MAX = 4102444800  # .. 2100-01-01 (unix seconds)


# Parsed here and by the handlers split out of this module (report,
# declare), which load on demand and so must not import it back.
number = proto.number
_SENT = proto.SENT


class _SafeMode(Exception):
    """A command the safe mode cannot do (no board, or no match log)."""


def _token(text):
    # a STATUS value: no spaces, printable, short
    out = []
    for ch in text[:80]:
        out.append(ch if "!" <= ch <= "~" else "_")
    return "".join(out)


def _heap_free():
    # Free heap in bytes after a collection (MicroPython), for the host and
    # the benchmarks; -1 where the platform cannot tell (CPython).
    import gc

    if not hasattr(gc, "mem_free"):
        return -1
    gc.collect()
    return gc.mem_free()


class Fanout:
    """One Board listener that tells several (the log, the link)."""

    def __init__(self, listeners):
        self.listeners = listeners

    def on_event(self, board, what):
        for x in self.listeners:
            x.on_event(board, what)


class Link:
    # the verbs, as their cmd_ methods are named (a subclass adds its own)
    VERBS = ("hello", "status", "watch", "cells", "logs", "get", "pulled", "del", "conf")
    VERBS += ("set", "clock", "reboot", "fetch", "hands", "declare", "nolog")
    VERBS += ("remote", "expect", "selftest", "mark")

    def __init__(self, port, board, log, name="APIXAGON", profile="A", board_id="sim"):
        self.port = port
        self.board = board
        self.log = log
        self.name = name
        self.profile = profile
        self.board_id = board_id
        self.version = 1  # the protocol this link's host asked for (HELLO)
        self.de = proto.Deframer()
        self.watching = False
        self.clock_offset = 0  # host epoch seconds minus ticks at CLOCK
        self.utc_offset = 0  # minutes east of UTC of the host's clock (CLOCK's second number)
        self.reboot = None  # callable: the start-up code's reset
        self.frames = 0
        # the loop's: until when (ms) the host is downloading (-1: a reply
        # to it just went out), and when the board last ticked
        # (smartboard.loop.step)
        self.hot = 0
        self.ticked = 0
        self.got = False  # the last poll read bytes (loop.step: no sleep then)
        self.errors = 0
        self._leds_sent = False
        # board None: the safe mode (the board could not be built at boot):
        # HELLO, STATUS, LOGS, GET, PULLED, DEL and REBOOT still answer
        self.safe = None  # why the board is in safe mode
        self._last = bytearray(NCELLS)
        # The cells event: a copy of its source as last sent, and the wire
        # bytes (what CELLS answers), kept here so a tick allocates nothing.
        self._cells_sent = False
        self._cells_from = None  # which bytearray that copy was taken from
        self._cells_src = bytearray(NCELLS)
        self._cells = bytearray(NCELLS)
        # GET reads its chunk into the 2 KB at the end of this and writes
        # its base64 over it in place, every time
        self._buf = bytearray(proto.GET_BUFFER)
        self._chunk = memoryview(self._buf)[proto.B64_AT :]
        if log is not None and log.window is None:
            # lent to the log as the window it reads logs through (one
            # buffer: a GET and a log read never overlap in one loop)
            log.window = self._chunk

    # ---- the loop -----------------------------------------------------------
    def poll(self, now):
        """Take what the port has (bounded), answer complete frames."""
        de = self.de
        # port.read_byte() called as a method: `read = port.read_byte`
        # made a bound method object on the heap every poll, so every loop
        # pass left garbage for the collector.
        port = self.port
        line = de.line
        got = False
        for _ in range(_BYTES_PER_POLL):
            b = port.read_byte()
            if b < 0:
                break
            got = True
            if b == _CTRL_C:
                # On the board the REPL's own Ctrl-C handler gets there
                # first; on the unix port the byte reaches us: the same
                # way out, so mpremote can take over (issue 4).
                raise KeyboardInterrupt
            n = de.n
            if b > 13 and n < de.size:
                # the bytes of a line: what Deframer.feed does with them,
                # without a call per byte (each request's 30-odd bytes
                # came in at 70 us a byte on the RP2040)
                line[n] = b
                de.n = n + 1
                de._at = None
                continue
            r = de.feed(b, now)
            if r == proto.READY:
                text = proto.body(de.line, de.n)
                de.taken()
                self.handle(text)
            elif r:
                self._err(0, r)
        # A partial line is dropped only after a second of polls that found
        # the port empty: a tick that read bytes (or stopped at its budget
        # with more waiting) never judges it, however late a busy host or a
        # slow tick makes it.
        r = 0 if got else de.stale(now)
        self.got = got
        if r:
            self._err(0, r)
        elif not got and self.log is not None:
            # PULLED's markers, one a poll, once the host is quiet (stale()
            # timed it from the first empty poll; MatchLog.mark_number):
            # never amid a pull's requests
            m = self.log.marks
            if m and m[-1] > 0 and not de.n and now - de._at >= _MARKS_AFTER_MS:
                self.log.write_mark()

    def _send(self, data):
        self.port.write(data)

    def _err(self, seq, code, detail=""):
        self.errors += 1
        self._send(proto.reply_err(seq, code, detail))

    # ---- events (a Board listener) -------------------------------------------
    def on_event(self, board, what):
        if not self.watching:
            return
        if what == "move":
            g = board.ref.game
            last = record.last_move(g)[2]
            if last is not None:
                self._send(proto.event("move", "%d %s" % (g.nmoves(), last)))
            else:
                self._send(proto.event("move", "0"))
        elif what == "refused" or what == "want" or what == "expect":
            from . import report  # the words, only when there is something to say

            self._send(proto.event(what, report.event_text(board, what)))
        elif what == "changed":
            self._send(proto.event(what))
        else:
            self._send(proto.event("phase" if what in _PHASE_EVENTS else "say", what))

    def send_changes(self):
        """Once per loop tick, when watching: the cells event, then the
        leds event, each only when it changed since it was last sent (a
        compare of two bytearrays, nothing allocated on a quiet tick)."""
        if not self.watching:
            return
        self.send_cells()
        self._send_leds()

    def _send_leds(self):
        # Each cell's LED layer value (palette index and blink flags,
        # smartboard.view): the host's live view paints it with the same
        # palette.
        layer = self.board.view.layer
        if self._leds_sent and layer == self._last:
            return
        self._leds_sent = True
        self._last[:] = layer
        self._send(proto.event("leds", proto.hex_text(layer)))

    def send_cells(self):
        """The cells event: what the board senses on each cell (the wire
        bytes of cells()), when it changed."""
        src = self._cells_source()
        if self._cells_sent and src is self._cells_from and src == self._cells_src:
            return
        self._cells_sent = True
        self._cells_from = src
        self._cells_src[:] = src
        self._send(proto.event("cells", proto.hex_text(self.cells())))

    def _cells_source(self):
        # In play the referee's per-cell byte knows more than the sensors in
        # profile B (the identity a tap lent a reed-sensed card); before a
        # match, and while resuming (the referee then waits for the cards),
        # the board's stable sensed state is the truth.
        # (One bytearray returned, no tuple: this runs every watched tick.)
        b = self.board
        if b.ref is not None and (b.phase == PLAY or b.phase == OVER):
            return b.ref.phys
        return b.sensed

    def cells(self):
        """The cells' states as sent (docs/protocol.md): 0 empty, 1 + card
        code, UNPAIRED (0xFC) a card not identified yet, FOREIGN,
        UNREADABLE. Profile B senses occupancy only: before a match its
        OCCUPIED (1, which would read as a card) goes out as UNPAIRED."""
        src = self._cells_source()
        out = self._cells
        out[:] = src
        if src is self.board.sensed and self.board.hw.paired:
            for x in range(len(out)):
                if out[x] == scan.OCCUPIED:
                    out[x] = referee.UNPAIRED
        return out

    # ---- commands -------------------------------------------------------------
    def handle(self, text):
        seq, verb, args = proto.parse_request(text)
        if seq < 0:
            self._err(0, proto.E_FRAME, "not a request")
            return
        self.frames += 1
        self._seq = seq
        # The verb is looked for in the table first: getattr would intern
        # any name it is given, and MicroPython never frees an interned
        # string (a host sending made-up verbs would use the heap up).
        v = verb.lower()
        if v not in self.VERBS:
            self._err(seq, proto.E_VERB, verb[:16])
            return
        fn = getattr(self, "cmd_" + v)
        try:
            r = fn(args)
        except (ValueError, IndexError):
            self._err(seq, proto.E_ARGS, verb)
            return
        except _SafeMode as e:
            self._err(seq, proto.E_STATE, "safe mode: %s" % (e.args[0] if e.args else verb))
            return
        except OSError as e:
            self._err(seq, proto.E_INTERNAL, "%s %s" % (verb, e))
            return
        except MemoryError:
            # a reply too big for the heap left: an error, never a crash
            self._err(seq, proto.E_INTERNAL, "%s: out of memory" % verb)
            return
        except Exception as e:  # a bug in a handler: answered, counted, never a crash
            if self.board is not None:
                self.board.fault("link " + verb, e)
            self._err(seq, proto.E_INTERNAL, "%s: %s" % (verb, type(e).__name__))
            return
        if isinstance(r, int):
            self._err(seq, r, verb)
        elif r is not _SENT:
            self._send(proto.reply_ok(seq, r))

    def cmd_hello(self, args):
        self.hot = -1  # a pull's LOGS comes next (loop.step)
        if len(args) > 1:
            return proto.E_ARGS
        v = number(args[0], 0, 99) if args else 1
        if v > proto.VERSION:
            return proto.E_VERSION
        self.version = v  # FETCH's chunks raw from version 3
        # mpy=: the .mpy format and native architecture the board loads
        # (sys.implementation._mpy), so that deploy compiles for it.
        return "apixagon proto=%d fw=%s board=%s profile=%s id=%s mpy=%d" % (
            proto.VERSION,
            FW_VERSION,
            self.name.replace(" ", "_"),
            self.profile,
            self.board_id,
            getattr(sys.implementation, "_mpy", 0),
        )

    def cmd_status(self, args):
        if args:
            return proto.E_ARGS
        b = self.board
        if b is None:
            return self._safe_status()
        parts = ["phase=" + PHASES[b.phase] if b.phase < len(PHASES) else "phase=resume"]
        if b.selftest is not None:
            from .selftest import STAGES  # loaded: it runs

            parts.append("selftest=" + STAGES[b.selftest.stage])
        if b.ref is not None:
            g = b.ref.game
            m = g.mode
            letters = record.side_letters(g)
            # for a live view: whose turn in the record's letters (a seat
            # in team games), the last move as its record line, the winner
            t = g.side_to_play()
            parts.append(
                "ply=%d turn=%d moves=%d mode=%s to_play=%s%s"
                % (
                    g.ply(),
                    t,
                    g.nmoves(),
                    MODES[m],
                    letters[t],
                    g.seat_to_play() if g.teams else "",
                )
            )
            last = record.last_move(g)[2]
            if last is not None:
                parts.append("last=" + last.replace(" ", "_"))
            if g.over():
                w = g.winner()
                if m == JUNIOR:
                    # §6 D-13: the player (none when every card is down and
                    # nobody was named)
                    parts.append("winner=" + ("J%d" % w if w else "none"))
                else:
                    parts.append("winner=" + (letters[w] if w < 2 else "draw"))
                from . import ending  # the rule that ended it: end=, runs=

                ending.fields(g, parts)
            start, stp = g.start, g.special_then_place
            players = g.players if m == JUNIOR else 2 * g.seats[0]
            if b.declaring or b.ref.refusal is not None or b.phase == RESUME or b.remote:
                from . import report  # the words, only when there is something to say

                report.status(b, parts, letters)
        else:
            s = b.settings
            m, start, stp, players = (
                s.get(S.GAME_MODE),
                s.get(S.START),
                s.get(S.STP),
                b.players(),
            )
            letters = record.mode_letters(m, players)
            parts.append("mode=" + MODES[m])
        # the match by name, as its record's header names it (set-up: the
        # match the settings make)
        if m != JUNIOR:
            parts.append("start=" + (letters if letters == "AB" else ("black", "gold"))[start])
        parts.append("option=" + ("special_then_place" if stp else "none"))
        if m == TEEN or m == JUNIOR:
            parts.append("players=%d" % players)
        parts.append("sides=" + letters)
        parts.append("watch=%d" % self.watching)
        # values never hold a space: a host splits the reply on them
        parts.append("display=" + DISPLAY_NAMES[b.settings.get(S.DISPLAY)].replace(" ", "_"))
        self._counts(parts)
        if self.log.pack_wanted:
            parts.append("packing=1")  # finished matches being packed (quiet ticks)
        if b.asking:
            parts.append("unlogged=ask")  # the next match would not be saved: CONFIRM again?
        elif b.ref is not None and self.log.unlogged is b.ref.game:
            parts.append("unlogged=1")
        parts.append("log=%s" % (self.log.current() or "-"))
        parts.append("clock=%d" % self.clock())
        parts.append("hw=" + b.faults_text())
        parts.append("faults=%d" % b.crashes)
        parts.append("heap=%d" % _heap_free())
        return " ".join(parts)

    def _safe_status(self):
        # what a host needs to pull the matches and see what is wrong
        parts = ["phase=safe", "error=" + _token(self.safe or "unknown")]
        if self.log is not None:
            self._counts(parts)
        parts.append("clock=%d" % self.clock())
        parts.append("heap=%d" % _heap_free())
        return " ".join(parts)

    def _log(self):
        if self.log is None:
            raise _SafeMode("no match log")
        return self.log

    def _board(self):
        # a command that needs the board, in safe mode
        if self.board is None:
            raise _SafeMode()

    def _counts(self, parts):
        # From the log's index (no listing, no lookup per log: a board with
        # a thousand logs answers as fast as one with none) and one ask of
        # the free space (littlefs counts its blocks to tell).
        log = self.log
        n, unpulled = log.counts()
        free = log.free_bytes()
        parts.append("logs=%d" % n)
        parts.append("unpulled=%d" % unpulled)
        parts.append("free=%d" % free)
        parts.append("low=%d" % (1 if log.low(free) else 0))
        parts.append("room=%d" % (1 if log.room(free) else 0))
        if log.lost is not None:
            parts.append("lost=" + _token(log.lost))
        if log.failing:
            # what a cut would lose now (UNSAVED's words), and whether even
            # UNSAVED was refused: the players are told at once
            parts.append("unsaved=" + _token(log._flag_text().decode()))
            if log.unsafe:
                parts.append("unsafe=1")

    def cmd_watch(self, args):
        self._board()
        if len(args) != 1 or args[0] not in ("0", "1"):
            return proto.E_ARGS
        self.watching = args[0] == "1"
        self._leds_sent = False  # a new watcher gets the whole state first
        self._cells_sent = False
        return "watch=%d" % self.watching

    def cmd_cells(self, args):
        self._board()
        if args:
            return proto.E_ARGS
        return proto.hex_text(self.cells())

    def cmd_logs(self, args):
        self.hot = -1  # a download's: its next request comes soon (loop.step)
        # "LOGS [start]": at most LOGS_PER_REPLY entries a reply, then
        # "+next" if there are more: a long archive never needs a long
        # string in a small heap. start is a log number (0: from the
        # first), +next the number of the next log: the host only ever
        # sends back what it was given, so it reads these pages as it read
        # pages by position, and a log deleted between two pages moves no
        # other one. A listing from the start lists the folder afresh
        # (logstore.folder.Folder.rescan); the pages after it walk the index.
        log = self._log()
        log.flush_all()  # the host asks now: what is queued goes to flash first
        if len(args) > 1:
            return proto.E_ARGS
        start = number(args[0], 0, MAX_START) if args else 0
        if start == 0:
            # its first page's sizes kept in the head of the link's buffer
            # (not the log's window, which starts at B64_AT)
            log.rescan(memoryview(self._buf)[: 6 * folder.HEAD])
        nums, more = log.page(start, LOGS_PER_REPLY)
        sizes = log.sizes(nums, start == 0)  # the listing's own sizes (no 2nd pass)
        marked = log.pulled_of(nums)
        play = log.playing()
        # The reply is written through the link's buffer, sent (its CRC
        # chained) each time it is nearly full: a page never needs a block
        # of a fragmented heap, nor a USB write an entry. Each entry is
        # written in machine code (fetch.listed_into); the head and the
        # next page's number as bytes (no str, so no lookup among the
        # interned strings: each cost the RP2040 one).
        from . import fetch  # (a download's: loaded at its first)

        buf = self._buf
        e = b"=%d OK" % self._seq
        k = len(e)
        buf[:k] = e
        c = 0xFFFF
        top = len(buf) - fetch.LISTED_MAX
        for i in range(len(nums)):
            size = sizes[i]
            if size < 0:
                continue  # gone from flash (not by the board): nothing to pull
            if k > top:
                c = self._piece(memoryview(buf)[:k], c)
                k = 0
            n = nums[i]
            k = fetch.listed_into(buf, k, n, size, 1 if marked[i] else 2 if n == play else 0)
        if more:
            e = b" +%d" % more
            if k + len(e) > len(buf):
                c = self._piece(memoryview(buf)[:k], c)
                k = 0
            buf[k : k + len(e)] = e
            k += len(e)
        self._send(proto.crc_tail(self._piece(memoryview(buf)[:k], c)))
        return _SENT

    def _piece(self, data, c):
        # a part of a reply written in parts: sent, its CRC chained
        self._send(data)
        return proto.crc16(data, c)

    def cmd_get(self, args):
        self.hot = -1  # a download's: its next request comes soon (loop.step)
        if len(args) != 3:
            return proto.E_ARGS
        name, off, n = _item(args, 0, proto.MAX_CHUNK)
        n = self._chunk_frame(names.number_of(name), off, n, False)  # base64 always
        if n < 0:
            return proto.E_NOT_FOUND
        return _SENT if n else "%d 0 FFFF -" % off  # past the end (the CRC of nothing)

    def cmd_fetch(self, args):
        self.hot = -1  # a download's: its next request comes soon (loop.step)
        # Protocol 2: GETs of several logs in one request ("name offset
        # length", up to MAX_FETCH bytes in all), answered a GET reply frame
        # per chunk of up to MAX_CHUNK, in order, each with its CRC: a
        # request's bytes cost the RP2040 ~70 us each (the USB CDC is read a
        # byte a call), ~6 ms a GET, which was most of a pull of short logs.
        # Protocol 4: an item may also be "N+K", the logs numbered N to
        # N+K-1 whole, each from 0 to its end (none of them may be missing):
        # an archive's finished logs asked for in a few bytes, not ~17 a log.
        # All items are checked before any frame goes out; a range's bytes
        # are unknown until read: its logs start only while the reply is
        # under MAX_FETCH, else the reply ends with an error (the host asks
        # the rest again).
        items = []  # name, offset, length; or N, K, 0 for a range
        total = 0
        i = 0
        while i < len(args):
            if "+" in args[i]:
                items += _range(args[i])
                items.append(0)
                i += 1
            else:
                items += _item(args, i, MAX_FETCH)
                total += items[-1]
                i += 3
        if not items or total > MAX_FETCH:
            return proto.E_ARGS
        log = self._log()
        for i in range(0, len(items), 3):
            a = items[i]
            if not (log.has_all(a, items[i + 1]) if items[i + 2] == 0 else log.has(a)):
                return proto.E_NOT_FOUND
        # version 5: a range's packed logs a span frame a run, each of its
        # other logs a span of one (fetch.py: loaded at a download's first)
        fetch = None
        if self.version >= 5:
            from . import fetch
        total = 0
        for i in range(0, len(items), 3):
            a, b, c = items[i], items[i + 1], items[i + 2]
            if c:
                total = self._send_range(names.number_of(a), b, c, total)
                if total < 0:
                    return -total
                continue
            n = a
            while n < a + b:
                k = 0
                if fetch is not None:
                    k, m = fetch.span(self, log, n, a + b - n, MAX_FETCH - total)
                    if not k:
                        k, m = fetch.whole(self, log, n, MAX_FETCH - total, MAX_FETCH)
                if k < 0:
                    return -k
                if k:
                    n += k
                    total += m
                    continue
                total = self._send_range(n, 0, 0, total)
                if total < 0:
                    return -total
                n += 1
        return _SENT

    def _send_range(self, num, off, left, total):
        # The frames of `left` bytes of a log from off (to its end, if
        # sooner), `total` sent already; the new total, or -code to end the
        # reply with (the log gone amid it). left 0: a log of a range, whole,
        # whose end ends it (no empty frame after a full chunk); it starts
        # only while the reply is under MAX_FETCH, and is at most that long
        # (the host asks a longer one by its bytes).
        whole = not left
        if whole:
            if total >= MAX_FETCH:
                return -proto.E_ARGS
            left = MAX_FETCH
        while left > 0:
            want = min(left, proto.MAX_CHUNK)
            n = self._chunk_frame(num, off, want, self.version >= 3)
            if n < 0:
                return -proto.E_INTERNAL  # gone amid the reply: it ends here
            if not n:
                if not whole or not off:
                    self._send(proto.reply_ok(self._seq, "%d 0 FFFF -" % off))
                return total
            total += n
            off += n
            left -= n
            if n < want:
                return total  # the end of the log
        if whole and self._log().read_into(num, off, self._chunk[:1]):
            return -proto.E_ARGS  # longer than MAX_FETCH
        return total

    def _chunk_frame(self, num, off, n, raw):
        # One GET reply frame of log number num (its own file or packed:
        # logstore.folder.read_into): the bytes read (0: none, nothing sent;
        # -1: no such log). The chunk is read into the link's own buffer and its
        # base64 written over it in place (proto.b64_in_place), its CRC and
        # the frame's in machine code: no allocation but the head, and a 2
        # KB chunk costs the RP2040 a few ms (it was 70 ms in bytecode).
        buf = self._buf
        chunk = self._chunk[:n]
        if not num:
            return -1  # no name the board gives
        try:
            n = self._log().read_into(num, off, chunk)
        except OSError:
            return -1
        if not n:
            return 0
        if raw:
            # raw after its head, checked by a CRC-32 in C: no base64, no
            # CRC-16 loops (proto.VERSION). The head frame is written into
            # the buffer just before the chunk (the base64's room, unused
            # here), the two sent as one write.
            if n < len(chunk):
                chunk = chunk[:n]
            # a whole packed log: its CRC-32 as the archive keeps it
            crc = self.log.stored_crc(num, off, n)
            at = proto.chunk_head_into(buf, proto.B64_AT, self._seq, off, n, chunk, crc)
            self._send(memoryview(buf)[at : proto.B64_AT + n])
            return n
        head = ("=%d OK %d %d %04X " % (self._seq, off, n, proto.crc16(chunk, 0xFFFF, n))).encode()
        m = proto.b64_in_place(buf, proto.B64_AT, n)
        c = proto.crc16(buf, proto.crc16(head), m)
        self._send(head)
        self._send(memoryview(buf)[:m])
        self._send(proto.crc_tail(c))
        return n

    # A request of the wrong form changes nothing: DEL or REBOOT with a word
    # too many is refused, never carried out on the words it understood.
    def cmd_pulled(self, args):
        self.hot = -1  # a download's: its next request comes soon (loop.step)
        # one name, or (protocol 2) several, or (protocol 4) ranges "N+K"
        # among them (a name is the range of its number): all are checked
        # (the form of every word first) before any is marked, so that an
        # error leaves the board as it was
        if not args:
            raise ValueError("")
        spans = []
        for w in args:
            spans += _range(w) if "+" in w else (names.number_of(_one_name((w,))), 1)
        log = self._log()
        play = log.playing()
        for i in range(0, len(spans), 2):
            lo = spans[i]
            if not log.has_all(lo, spans[i + 1]):
                return proto.E_NOT_FOUND
            if play and lo <= play < lo + spans[i + 1]:
                return proto.E_STATE  # a match in play is pulled again later
        for i in range(0, len(spans), 2):
            log.mark_range(spans[i], spans[i + 1])
        return " ".join(args)

    def cmd_del(self, args):
        name = _one_name(args)
        log = self._log()
        if not log.has(name):
            return proto.E_NOT_FOUND
        if name == log.current() and not log.over:
            return proto.E_STATE
        if not log.is_pulled(name):
            return proto.E_STATE  # never delete a match not downloaded
        log.delete(name)
        return name

    def cmd_nolog(self, args):
        # The players' answer to the board's question (STATUS
        # unlogged=ask: the longest match does not fit on the flash): play
        # the match unsaved, as a second CONFIRM does
        self._board()
        if args:
            return proto.E_ARGS
        b = self.board
        if not b.asking or b.phase != SETUP:
            return proto.E_STATE
        if not b.start(True):
            return proto.E_STATE  # cards on the board: it says so
        return "unsaved"

    def cmd_conf(self, args):
        self._board()
        if args:
            return proto.E_ARGS
        out = ["%s=%d" % (_SETTINGS[i], self._get(i)) for i in range(len(_SETTINGS))]
        for i in range(len(_MORE)):
            out.append("%s=%d" % (_MORE[i], self._get(_MORE_AT[i])))
        return " ".join(out)

    def _get(self, i):
        # players= is the count of the mode set: Junior keeps its own (§6);
        # level= the computer's level, 1..6
        s = self.board.settings
        if i == S.PLAYERS and s.get(S.GAME_MODE) == JUNIOR:
            return s.get(S.JPLAYERS)
        return s.get(i) + (i == S.LEVEL)

    def cmd_set(self, args):
        self._board()
        if len(args) == 2 and args[0] in _MORE:
            from . import report  # the computer's seats by name: its own module

            return report.set_more(self, args, _MORE_AT[_MORE.index(args[0])])
        if len(args) != 2 or args[0] not in _SETTINGS:
            return proto.E_ARGS
        i = _SETTINGS.index(args[0])
        key = args[0]
        s = self.board.settings
        m = s.get(S.GAME_MODE)
        try:
            value = number(args[1], 0, S.LIMITS[i] - 1)
            if i == S.PLAYERS:
                # A count the mode set takes: Teen 2, 4 or 6 (§7), Junior 2 to 6
                # (§6); the other modes fix their own.
                if m == JUNIOR and value >= 2:
                    i = S.JPLAYERS
                elif m != TEEN or value < 2 or value & 1:
                    raise ValueError(key)
        except ValueError:
            if i != S.PLAYERS:
                return self.set_refused(key, "0..%d" % (S.LIMITS[i] - 1))
            return self.set_refused(
                key, "2,4,6" if m == TEEN else "2..6" if m == JUNIOR else "-", MODES[m]
            )
        s.set(i, value, self.board.now)
        self.board.setting_changed(i)
        return "%s=%d" % (key, value)

    def set_refused(self, key, allowed, mode=""):
        """A refused SET says what the setting takes (docs/protocol.md, SET):
        `ERR 6 bad arguments: SET KEY ALLOWED [MODE]`, the host's to word."""
        self._err(
            self._seq,
            proto.E_ARGS,
            "SET %s %s %s" % (key, allowed, mode) if mode else "SET %s %s" % (key, allowed),
        )
        return _SENT

    def cmd_clock(self, args):
        # CLOCK [seconds [minutes]]: the host's time, and how far east of
        # UTC its clock is (the match's [Date] is the host's day: logstore.writer)
        if len(args) > 2:
            return proto.E_ARGS
        if args:
            t = number(args[0], CLOCK_MIN, CLOCK_MAX)
            east = number(args[1], -720, 840) if len(args) > 1 else 0  # both checked first
            self.clock_offset = t - time.time()
            self.utc_offset = east
            if self.log is not None:
                self.log.clock = self.local_time  # from now on a match is dated
        return "%d" % self.clock()

    def clock(self):
        return int(time.time() + self.clock_offset)

    def local_time(self):
        """The host's wall-clock time in seconds (CLOCK's, its offset from
        UTC applied): what a match's [Date] and [Time] say."""
        return self.clock() + 60 * self.utc_offset

    def cmd_declare(self, args):
        self._board()
        from . import declare  # its own module: a board never asked keeps it out of its heap

        return declare.reply(self.board, args)

    def cmd_remote(self, args):
        self._board()
        from . import remote  # its own module: a board never asked keeps it out of its heap

        return remote.seats(self.board, args)

    def cmd_expect(self, args):
        self._board()
        from . import remote

        return remote.expect(self.board, args)

    def cmd_mark(self, args):
        self._board()
        from . import remote

        return remote.mark(self.board, args)

    def cmd_selftest(self, args):
        # SELFTEST: the first-boot self-test run again (not in a match);
        # SELFTEST last: its report (smartboard.selftest, loaded when asked)
        self._board()
        b = self.board
        if len(args) > 1 or (args and args[0] != "last"):
            return proto.E_ARGS
        from . import selftest

        if args:
            t = b.selftest or selftest.last
            if t is not None and t.board is b:
                return t.report()
            from . import selftext

            return selftext.stored(b.settings.get(S.SELFTEST))
        if b.selftest is not None or b.phase == PLAY:
            return proto.E_STATE  # running already, or a match in play
        selftest.begin(b, b.now)
        return "started"

    def cmd_hands(self, args):
        self._board()
        from . import hands

        return hands.reply(self.board.ref, args)

    def cmd_reboot(self, args):
        if args:
            return proto.E_ARGS
        self._send(proto.reply_ok(0, "rebooting"))
        if self.reboot is not None:
            if self.log is not None:
                self.log.flush_all()
                m = self.log.marks
                while m and m[-1] > 0:  # PULLED's markers not written yet
                    self.log.write_mark()
            if self.board is not None and self.board.settings.dirty():
                self.board.settings.save()  # a setting changed just before is not lost
            self.reboot()
        return "rebooting"


def _item(args, i, most):
    # name offset length at args[i]: a safe name and numbers in range, else
    # ValueError (bad arguments)
    if not _safe(args[i]):
        raise ValueError(args[i])
    return args[i], number(args[i + 1], 0, MAX_OFFSET), number(args[i + 2], 1, most)


def _range(word):
    # "N+K": the logs numbered N .. N+K-1 (protocol 4), else ValueError
    n, plus, k = word.partition("+")
    if not plus:
        raise ValueError(word[:16])
    lo = number(n, 1, names.MAX_NUMBER)
    return lo, number(k, 1, names.MAX_NUMBER + 1 - lo)


def _one_name(args):
    # the one log name of PULLED and DEL, of a safe form, else ValueError
    # (bad arguments)
    if len(args) != 1 or not _safe(args[0]):
        raise ValueError(args[0] if args else "")
    return args[0]


def _safe(name):
    # A log name as the board makes them ("0001.alog"): no path tricks.
    return name.endswith(names.SUFFIX) and len(name) < 32 and "/" not in name and ".." not in name

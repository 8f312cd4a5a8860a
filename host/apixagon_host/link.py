"""The PC's end of the serial link: pyserial under the protocol's pure
framing (smartboard.proto, the very file the board runs). Board discovery
through pyserial's port list, a HELLO handshake, requests with sequence
numbers, pipelined GETs for log downloads, and the event stream.

The board is not trusted to behave: every wait has a deadline (from the
board's last answer to what was asked, never moved by a frame that answers
nothing: a board that keeps sending those does not keep the host
waiting), what it lists and sends is checked before it
is used (page markers, sizes, names, chunks), a board that answers nonsense
is an error that says what was wrong (exit 1), and a port that fails under
the host (unplugged) is "no board" (exit 3), never a traceback."""

import binascii
import errno
import os
import re
import time

import serial
from serial.tools import list_ports

try:
    import termios

    PORT_ERRORS = (OSError, termios.error)  # tcflush on a port gone is termios.error
except ImportError:  # Windows
    PORT_ERRORS = (OSError,)
from smartboard import proto
from smartboard.logstore import archive

from .errors import EXIT_FAILED, CommandError
from .i18n import _, ngettext

EXIT_NO_BOARD = 3  # no board answered (mpremote uses 1; we keep 1 for "failed")
# USB IDs a MicroPython RP2040 board enumerates with (Raspberry Pi's VID).
RP2040_IDS = ((0x2E8A, 0x0005), (0x2E8A, 0x000A))


class BoardError(CommandError):
    """The board answered with an error frame, or did not answer."""

    def __init__(self, message, code=1, board_code=0):
        super().__init__(message, code)
        self.board_code = board_code


class LinkLost(BoardError):
    """The port failed under us: the board was unplugged (or reset its USB)."""

    def __init__(self, port, e):
        super().__init__(
            _("lost the board on %(port)s (unplugged?): %(why)s") % {"port": port, "why": e},
            EXIT_NO_BOARD,
        )


class PortBusy(BoardError):
    """Another program holds the port (a monitor, the companion)."""

    def __init__(self, port):
        super().__init__(
            _(
                "the port %s is busy: another program (apixagon monitor?) is reading it; "
                "quit that program, or pull from inside it"
            )
            % port,
            EXIT_FAILED,
        )


# What a board can hold: an RP2040 addresses at most 16 MB of flash, so no
# log, and not all of them together, can be bigger. A listing beyond it is
# nonsense, refused before a byte is fetched (or the host would ask for it
# for ever, and hold it in memory).
MAX_LOG_BYTES = 16 << 20
MAX_LOGS = 4096  # files: 16 MB of flash holds fewer blocks of 4 KB
MAX_LOG_PAGES = 256  # LOGS pages (24 logs each a page)
LOG_STATES = ("play", "done", "pulled")
# the names of one PULLED (protocol 2): a frame of "@999999 PULLED ", them
# and "*CRC" stays within the board's proto.MAX_IN (256)
PULLED_TEXT = 200
# one FETCH (protocol 2): its items' text, within the frame as PULLED's;
# its bytes, the board's link.MAX_FETCH
FETCH_TEXT = 200
FETCH_BYTES = 16384
FETCH_BYTES_5 = 32768  # a board of version 5 (link.MAX_FETCH there)
KEPT = 200  # noise lines and events kept while nobody takes them


PORT_ENV = "APIXAGON_PORT"  # the default port (as AMPY_PORT for ampy): a board
# pyserial cannot list, such as the simulator's pseudo-terminal


def candidate_ports():
    """Serial ports to try: $APIXAGON_PORT, then those that look like our
    board (RP2040 USB IDs), then the other USB ones."""
    env = os.environ.get(PORT_ENV)
    ours, other = ([env] if env else []), []
    for p in list_ports.comports():
        if p.device in ours:
            continue
        if (p.vid, p.pid) in RP2040_IDS:
            ours.append(p.device)
        elif p.vid is not None:
            other.append(p.device)
    return ours + other


def open_error(port, e):
    """Why a port would not open, in one plain sentence (pyserial's text
    repeats the port and the errno, or is an ioctl's)."""
    n = None
    x = e
    while x is not None and n is None:  # the error pyserial's own came from
        n = getattr(x, "errno", None)
        if n is None and x.args and isinstance(x.args[0], int):
            n = x.args[0]  # termios.error(25, "Inappropriate ioctl for device")
        x = x.__cause__ or x.__context__
    if n == errno.ENOENT:
        return _("no such port (is the board plugged in? apixagon ports lists them)")
    if n in (errno.EACCES, errno.EPERM):
        return _("permission denied (on Linux: add yourself to the dialout group)")
    if n == errno.EISDIR:
        return _("that is a folder, not a serial port")
    if n == errno.ENOTTY:
        return _("that is not a serial port")
    if n is not None:
        return os.strerror(n).lower()
    return str(e)


class Link:
    def __init__(self, port, timeout=3.0, baud=115200):
        try:
            # exclusive: a second program on the port (a monitor already
            # reading it) would take half of each reply; the lock makes the
            # later one fail at once with a clear "busy" instead.
            self.ser = serial.Serial(
                port, baud, timeout=timeout, write_timeout=timeout, exclusive=True
            )
        except (serial.SerialException, OSError) as e:
            if getattr(e, "errno", None) in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY):
                raise PortBusy(port) from None
            raise BoardError(
                _("cannot open %(port)s: %(why)s") % {"port": port, "why": open_error(port, e)},
                EXIT_NO_BOARD,
            )
        self.port = port
        self.timeout = timeout
        self.seq = 0
        self.info = {}
        self.events = []  # (kind, text) received while waiting for replies
        self.noise = []  # lines that were not frames (REPL text, tracebacks)
        self.stray = 0  # replies that answered nothing asked (a wrong seq)
        self._buf = bytearray()

    def close(self):
        try:
            self.ser.close()
        except OSError:
            pass  # the port is gone already: nothing left to close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- frames ---------------------------------------------------------------
    def send(self, verb, *args):
        self.seq = self.seq % 999999 + 1
        try:
            self.ser.write(proto.request(self.seq, verb, *args))
        except PORT_ERRORS as e:  # pyserial's errors are OSErrors too
            raise LinkLost(self.port, e)
        return self.seq

    def read_frame(self, deadline):
        """(kind, seq, ok, rest) of the next board frame, or None at the
        deadline. Lines that are not good frames are kept in .noise."""
        while True:
            line = self._line(deadline)
            if line is None:
                return None
            line = line.rstrip(b"\r\n")
            if proto.check(line) != 0:
                _keep(self.noise, line)
                continue
            try:
                kind, seq, ok, rest = proto.parse_reply(proto.body(line))
            except ValueError:  # a seq of thousands of digits: int() refuses it
                _keep(self.noise, line[:200])
                continue
            if kind == "!":
                _keep(self.events, rest)
                if self.on_event is not None:
                    self.on_event(rest)
                continue
            if kind == "=":
                self.payload = None
                n = _raw_head(rest) if ok else -1
                if n >= 0:
                    # version 3: a FETCH chunk's bytes follow raw (before
                    # any other line); None if they do not all come in time
                    self.payload = self._raw(n, deadline)
                    if self.payload is None:
                        return None
                return kind, seq, ok, rest
            _keep(self.noise, line)

    on_event = None
    payload = None  # the raw bytes after the last reply read (version 3), or None

    def _raw(self, n, deadline):
        buf = self._buf
        while len(buf) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                self.ser.timeout = min(left, 0.5)
                chunk = self.ser.read(max(1, min(self.ser.in_waiting, n - len(buf))))
            except PORT_ERRORS as e:
                raise LinkLost(self.port, e)
            buf += chunk
        data = bytes(buf[:n])
        del buf[:n]
        return data

    def pending(self):
        """A whole line read from the port and not taken yet (a request
        reads in bulk: events after its reply wait here, where a select()
        on the port no longer sees them)."""
        return b"\n" in self._buf

    def _line(self, deadline):
        # pyserial's readline() reads a byte per call: a 2.7 KB chunk
        # reply would cost thousands of system calls. Read what is there
        # in bulk and split lines here.
        # The deadline is looked at before each line, buffered or not: a
        # board that floods the link does not keep a wait going for ever.
        buf = self._buf
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            i = buf.find(b"\n")
            if i >= 0:
                line = bytes(buf[: i + 1])
                del buf[: i + 1]
                return line
            try:
                self.ser.timeout = min(left, 0.5)
                chunk = self.ser.read(max(1, self.ser.in_waiting))
            except PORT_ERRORS as e:  # SerialException is an OSError: unplugged
                raise LinkLost(self.port, e)
            if chunk:
                buf += chunk
            if len(buf) > 1 << 20:
                _keep(self.noise, bytes(buf[:200]))
                del buf[:]  # a runaway line that is no frame of ours

    def wait(self, seq, timeout=None, what="the request"):
        """The data of the reply to seq; BoardError for its error frame, or
        when none came before the deadline (one for the whole wait)."""
        timeout = timeout or self.timeout
        deadline = time.monotonic() + timeout
        stray = self.stray
        while True:
            f = self.read_frame(deadline)
            if f is None:
                raise self._unanswered(what, timeout, stray)
            _kind, s, ok, rest = f
            if s == seq or s == 0 and not ok:
                if not ok:
                    code, _sep, msg = rest.partition(" ")
                    raise BoardError(_("board: %s") % _short(msg, 200), 1, _count(code) or 0)
                return rest
            if s:  # (seq 0 is the board's own news, such as "rebooting")
                self.stray += 1

    def _unanswered(self, what, timeout, stray):
        """The error for a request that got no answer in time: a board that
        kept sending replies to something else answers nonsense (1); a
        silent one is not there (3)."""
        n = self.stray - stray
        if n:
            return BoardError(
                ngettext(
                    "the board did not answer %(what)s within %(s)g s on %(port)s: it sent "
                    "%(n)d reply to requests it was not asked (a wrong seq) instead",
                    "the board did not answer %(what)s within %(s)g s on %(port)s: it sent "
                    "%(n)d replies to requests it was not asked (a wrong seq) instead",
                    n,
                )
                % {"what": what, "s": timeout, "port": self.port, "n": n},
                1,
            )
        # (a program that reads the port without the lock, a terminal
        # program, takes the replies: the host sees only silence)
        return BoardError(
            _(
                "no answer from the board on %s (is it an APIXAGON board, and is no other "
                "program, such as a serial terminal, reading the port?)"
            )
            % self.port,
            EXIT_NO_BOARD,
        )

    def request(self, verb, *args, timeout=None):
        return self.wait(self.send(verb, *args), timeout, verb)

    # ---- messages -----------------------------------------------------------------
    def hello(self):
        """The version handshake; the board's identity as a dict."""
        try:
            self.ser.reset_input_buffer()
        except PORT_ERRORS as e:
            raise LinkLost(self.port, e)
        del self._buf[:]
        # the newest version the board speaks: an older board refuses a
        # newer one with E_VERSION (docs/protocol.md, Versions)
        for v in range(proto.VERSION, 0, -1):
            try:
                text = self.request("HELLO", v)
                break
            except BoardError as e:
                if e.board_code != proto.E_VERSION or v == 1:
                    raise
        words = text.split()
        if not words or words[0] != "apixagon":
            raise BoardError(_("%s is not an APIXAGON board") % self.port, EXIT_NO_BOARD)
        self.info = fields(" ".join(words[1:]))
        return self.info

    def status(self):
        return fields(self.request("STATUS"))

    def logs(self):
        """[(name, size, state)] of the logs on the board, checked: every
        entry of the protocol's form, a size the board could hold, each
        page marker past the last (a board that lists the same page again
        would be asked for ever), at most MAX_LOG_PAGES pages."""
        out = []
        names = set()
        total = 0
        start = 0
        for _page in range(MAX_LOG_PAGES):
            page = self.request("LOGS", start)
            more = None
            for item in page.split():
                if item[0] == "+":
                    more = _count(item[1:])
                    if more is None or more <= start:
                        raise _nonsense(
                            "LOGS %d was answered with the page marker %s" % (start, _short(item)),
                            "a marker past %d" % start,
                        )
                    continue
                name, size, state = _listed(item)
                if name in names:
                    raise _nonsense("%s is listed twice" % name)
                names.add(name)
                if len(names) > MAX_LOGS:
                    raise _nonsense("more than %d logs" % MAX_LOGS)
                total += size
                if total > MAX_LOG_BYTES:
                    raise _nonsense(
                        "its logs add up to more than a board's flash holds (%d MB)"
                        % (MAX_LOG_BYTES >> 20)
                    )
                out.append((name, size, state))
            if more is None:
                return out
            start = more
        raise _nonsense("more than %d pages of logs" % MAX_LOG_PAGES)

    def fetch(self, name, offset, size, chunk=proto.MAX_CHUNK, window=8, progress=None):
        """The bytes [offset, size) of a log (see fetch_many)."""
        reqs = [(name, o, min(chunk, size - o)) for o in range(offset, size, chunk)]
        got = self.fetch_many(reqs, window, progress)
        return b"".join(got[(name, o)] for _name, o, _len in reqs)

    def fetch_many(self, reqs, window=8, progress=None, whole=None, took=None):
        """{(name, offset): bytes} for GET requests (name, offset, n), with
        `window` of them in flight at once across files; each chunk is
        checked against its CRC, and a damaged one is asked for again.
        Where the board speaks protocol 2, consecutive requests go out
        together as one FETCH (a reply frame each, in order; a request cost
        the emulated RP2040 ~6 ms of per-byte USB reads), two in flight.
        progress(n) is told each chunk's length. whole: {name: size} of
        finished logs (they do not grow): where the board speaks protocol 4,
        runs of them asked for whole go out as a range of numbers ("N+K")
        instead of ~17 bytes a log. took(req, bytes): told each chunk as
        it comes (a caller storing logs as they complete keeps the board's
        pipeline full, where fetches in batches emptied it between them).
        """
        got = {}
        pending = {}  # seq -> the requests its reply frames answer, in order
        whole = whole if whole and self.proto() >= 4 else {}
        if self.proto() >= 2:
            most = FETCH_BYTES_5 if self.proto() >= 5 else FETCH_BYTES
            todo, window = _fetches(reqs, whole, most), 2
        else:
            todo = [[r] for r in reqs]
        todo.reverse()
        retries = 0
        garbled = 0  # seq-0 errors: the board could not read one of ours
        stray = self.stray
        # The board answers the window in order: the deadline runs from its
        # last answer to one of these requests (a GET behind seven others
        # waits for them), and replies to other requests or junk coming
        # meanwhile do not move it.
        due = time.monotonic() + self.timeout
        while todo or pending:
            while todo and len(pending) < window:
                g = todo.pop()
                pending[self._get(g, whole)] = g
            f = self.read_frame(due)
            if f is None:
                g = pending.pop(next(iter(pending)))  # the oldest: the one it is on
                if garbled and retries < 8:
                    # the one the board could not read, likely: once more
                    garbled -= 1
                    retries += 1
                    pending[self._get(g, whole)] = g
                    due = time.monotonic() + self.timeout
                    continue
                e = self._unanswered("GET %s %d %d" % g[0], self.timeout, stray)
                if e.code == EXIT_NO_BOARD:
                    e = BoardError(
                        _("the board stopped answering during the download on %s") % self.port,
                        EXIT_NO_BOARD,
                    )
                raise e
            _kind, seq, ok, rest = f
            g = pending.get(seq)
            if g is None:
                if seq:
                    self.stray += 1
                elif not ok:
                    garbled += 1
                continue
            due = time.monotonic() + self.timeout
            if ok and _is_span(rest):
                # version 5: a run of whole logs in one frame
                answered = [
                    (r, data, "an archive entry that does not match its CRCs")
                    for r, data in _span(rest, g, self.payload)
                ]
                if not g:
                    del pending[seq]
            else:
                r = g.pop(0)
                if not g or not ok:
                    del pending[seq]  # its last frame, or an error that ends it
                if ok:
                    data, why = _chunk(rest, r[1], self.payload)
                else:
                    data, why = None, "the board: %s" % _short(rest.partition(" ")[2])
                    # the rest of a FETCH the board gave up on: a GET each
                    todo.extend([x] for x in reversed(g))
                    if _count(rest.partition(" ")[0]) == proto.E_VERB:
                        # a board of version 2 from before FETCH: GETs from now on
                        whole = {}
                        todo = [[x] for grp in todo for x in reversed(grp)]
                        todo.append([r])
                        continue
                answered = [(r, data, why)]
            for r, data, why in answered:
                if data is not None and len(data) != r[2]:
                    raise BoardError(
                        "%s: the board sent %d bytes at offset %d where it listed %d"
                        % (r[0], len(data), r[1], r[2])
                    )
                if data is None:
                    retries += 1
                    if retries > 8:
                        raise BoardError(
                            "%s: the board's answers to GET are damaged or make no sense (%s), "
                            "%d times" % (r[0], why, retries)
                        )
                    todo.append([r])  # asked again on its own
                    continue
                got[(r[0], r[1])] = data
                if took is not None:
                    took(r, data)
                if progress is not None:
                    progress(len(data))
        return got

    def _get(self, g, whole):
        # one GET, or a FETCH of several (consecutive chunks of a log as
        # one item, consecutive whole logs as one range: whole, fetch_many);
        # g stays the list of chunks its frames answer
        items = []
        for name, off, n in g:
            if items and items[-1][0] == name and items[-1][1] + items[-1][2] == off:
                items[-1][2] += n
            else:
                items.append([name, off, n])
        words = []  # a whole log by its number, to be joined into ranges
        for name, off, n in items:
            k = _number(name) if off == 0 and whole.get(name) == n else None
            words += [name, "%d" % off, "%d" % n] if k is None else [k]
        if len(g) == 1 and len(words) == 3:
            return self.send("GET", *words)
        return self.send("FETCH", *_ranges(words))

    def proto(self):
        """The protocol spoken with the board: the lower of its (HELLO's
        proto=) and ours."""
        return min(_count(self.info.get("proto", "")) or 0, proto.VERSION)

    def mark_pulled(self, names):
        """PULLED for each of names: as many a request as a frame holds
        where the board speaks protocol 2 (HELLO's proto=), consecutive
        numbers as one range "N+K" from protocol 4, else one a request;
        pipelined."""
        v = self.proto()
        if v < 2:
            return self.request_many("PULLED", names)
        if v >= 4:
            names = _ranges([_number(name) or name for name in names])
        groups = []
        for w in names:
            if groups and len(groups[-1]) + 1 + len(w) <= PULLED_TEXT:
                groups[-1] += " " + w
            else:
                groups.append(w)
        return self.request_many("PULLED", groups)

    def request_many(self, verb, items):
        """The same request for each item, pipelined; the replies in order."""
        seqs = [self.send(verb, item) for item in items]
        return [self.wait(s, what="%s %s" % (verb, i)) for s, i in zip(seqs, items)]


def _fetches(reqs, whole=None, most=FETCH_BYTES):
    """reqs in groups of one FETCH each: at most `most` bytes (the board's
    link.MAX_FETCH for its version) and a frame's worth of items
    (FETCH_TEXT; a log asked whole, whole={name: size}, counts as a range's
    few characters)."""
    out = []
    size = text = 0
    for r in reqs:
        k = len(r[0]) + 16  # " name offset length" at most
        p = out[-1][-1] if out else None
        if p and p[0] == r[0] and p[1] + p[2] == r[1]:
            k = 0  # the same item goes on
        elif whole and r[1] == 0 and r[0] in whole:
            k = 10  # " N+K" at most
        if out and size + r[2] <= most and text + k <= FETCH_TEXT:
            text += k
            out[-1].append(r)
            size += r[2]
        else:
            out.append([r])
            size, text = r[2], k
    return out


def _number(name):
    """The number of a log named as the board names them ("0007.alog": 7),
    None for any other name."""
    n = int(name[:4]) if _NUMBERED.match(name) else 0
    return n or None


def _ranges(words):
    """words (str), each run of consecutive log numbers (int) among them
    written as one range "N+K" (protocol 4)."""
    out = []
    run = None  # [first, count] of the range out[-1] stands for
    for w in words:
        if not isinstance(w, int):
            run = None
            out.append(w)
        elif run and w == run[0] + run[1]:
            run[1] += 1
            out[-1] = "%d+%d" % (run[0], run[1])
        else:
            run = [w, 1]
            out.append("%d+1" % w)
    return out


def fields(text):
    """{key: value} of a reply's key=value words (HELLO, STATUS). A word
    without "=" goes on the value before it, after a space: older firmware
    says `display=card query` (newer: card_query), and a value cut at its space would
    read as `card` (words before the first key are dropped)."""
    out = {}
    key = None
    for w in text.split():
        k, eq, v = w.partition("=")
        if eq and k:
            key = k
            out[k] = v
        elif key is not None:
            out[key] += " " + w
    return out


def _keep(lines, item):
    """Append, keeping the last KEPT: what a flooding board sends is not
    kept without bound while nobody reads it."""
    lines.append(item)
    if len(lines) > 2 * KEPT:
        del lines[:-KEPT]


def _short(text, n=40):
    return text if len(text) <= n else text[:n] + "..."


def _nonsense(what, want=None):
    return BoardError(
        _("the board's list of logs makes no sense: %s") % what
        + (" (want %s)" % want if want else ""),
        1,
    )


def _count(text):
    """A non-negative decimal number, or None (frames are ASCII: isdigit is
    0-9 here). Past 15 digits it is only "too big": int() of a very long
    string is slow, and refused past 4300 digits."""
    if not text.isdigit():
        return None
    return int(text) if len(text) <= 15 else 10**15


def _listed(item):
    """(name, size, state) of a LOGS entry "name:size:state", checked."""
    parts = item.split(":")
    if len(parts) != 3:
        raise _nonsense("%r is not name:size:state" % _short(item))
    name, size, state = parts
    if not safe_name(name):
        raise _nonsense("%r is not a log's name" % _short(name), "NNNN.alog")
    n = _count(size)
    if n is None:
        if size[:1] == "-" and size[1:].isdigit():
            raise _nonsense("%s is listed at a negative size, %s bytes" % (name, _short(size)))
        raise _nonsense("%s is listed with a size that is not a number: %r" % (name, _short(size)))
    if n > MAX_LOG_BYTES:
        raise _nonsense(
            "%s is listed at %s bytes, more than a board's flash holds (%d MB)"
            % (name, _short(size), MAX_LOG_BYTES >> 20)
        )
    if state not in LOG_STATES:
        raise _nonsense("%s is listed as %r" % (name, _short(state)), " or ".join(LOG_STATES))
    return name, n, state


def safe_name(name):
    """A log name as boards make them (smartboard.link._safe): NNNN.alog,
    nothing that could be a path or a terminal's control sequence."""
    return bool(_NAME.match(name)) and ".." not in name


_NUMBERED = re.compile(r"[0-9]{4}\.alog\Z")
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,26}\.alog\Z")
_B64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")


def _raw_head(rest):
    """The byte count a reply's text says raw bytes follow (version 3:
    "off n CRC32 +"; version 5, a span: "N+k n +"), else -1; what the host
    reads next, before any line. (The host's alone: the board only writes
    them, smartboard.proto.chunk_head_into and smartboard.fetch.span_head_into.)"""
    if rest[-2:] != " +":
        return -1
    parts = rest.split()
    span = len(parts) == 3 and _is_span(rest)
    if not (len(parts) == 4 or span) or not parts[1].isdigit() or len(parts[1]) > 5:
        return -1
    n = int(parts[1])
    return n if n <= (proto.MAX_SPAN if span else proto.MAX_CHUNK) else -1


def _is_span(rest):
    # a span frame's text (version 5) begins "N+k": a chunk's, an offset
    return "+" in rest.partition(" ")[0]


def _span(rest, g, raw):
    """[(request, its bytes or None)] of a span frame "N+k n +" (version
    5): raw holds the archive entries of logs N .. N+k-1 (each packed in
    an archive, or, a log that is its own file, the entry the board made
    for it: smartboard/logstore/archive.py), each a head (its number,
    length and CRC-32, the head's own CRC-16) and the log's bytes. They
    answer the first requests of g, popped: every chunk of those logs,
    each whole. A log whose entry is damaged comes back None, chunk by
    chunk (asked again on its own); a span that is not the logs asked for
    is the board's error."""
    parts = rest.split()
    first, _plus, k = parts[0].partition("+")
    first, k = _count(first), _count(k)
    if first is None or not k or k > len(g):
        raise BoardError("the board sent a span of logs it was not asked for: %r" % _short(rest))
    out = []
    at = 0
    for i in range(k):
        if not g or _number(g[0][0]) != first + i or g[0][1] != 0:
            raise BoardError(
                "the board sent log %04d in a span where %s was asked"
                % (first + i, "%s from %d" % g[0][:2] if g else "no more")
            )
        chunks = [g.pop(0)]  # the log's chunks, in order
        while g and g[0][0] == chunks[0][0] and g[0][1] == chunks[-1][1] + chunks[-1][2]:
            chunks.append(g.pop(0))
        data = None
        h = raw[at : at + archive.ENTRY] if raw is not None and at >= 0 else b""
        kind, n, ln = archive.head_of(h) if len(h) == archive.ENTRY else (archive.TORN, 0, 0)
        if kind == archive.LOG and n == first + i:
            body = raw[at + archive.ENTRY : at + archive.ENTRY + ln]
            at += archive.ENTRY + ln
            if len(body) == ln and binascii.crc32(body) == archive.body_crc(h):
                data = bytes(body)
        else:
            at = -1  # the entries after a damaged head cannot be found
        for r in chunks:
            out.append((r, None if data is None else data[r[1] : r[1] + r[2]]))
    return out


def _chunk(rest, off, raw=None):
    """(bytes, None) of a GET reply "off n CRC b64" (or, version 3, "off n
    CRC32 +" with its raw bytes), or (None, what was wrong) if it is
    damaged or not a GET reply at all."""
    parts = rest.split()
    if len(parts) != 4:
        return None, "not a GET reply: %r" % _short(rest)
    at, n = _count(parts[0]), _count(parts[1])
    if at != off:
        return None, "offset %r where %d was asked" % (_short(parts[0]), off)
    if n is None:
        return None, "a length that is not a number: %r" % _short(parts[1])
    if parts[3] == "+":
        if raw is None or len(raw) != n:
            return None, "a raw chunk without its bytes"
        if "%08X" % (binascii.crc32(raw) & 0xFFFFFFFF) != parts[2]:
            return None, "a chunk that does not match its CRC"
        return raw, None
    if parts[3] == "-":
        data = b""
    elif _B64.match(parts[3]):
        data = binascii.a2b_base64(parts[3])
    else:
        return None, "invalid base64"
    if len(data) != n:
        return None, "%d bytes where it said %d" % (len(data), n)
    if "%04X" % proto.crc16(data) != parts[2]:
        return None, "a chunk that does not match its CRC"
    return data, None


def connect(port=None, timeout=3.0):
    """A Link to the board on port (else $APIXAGON_PORT), or to the first
    port whose device answers HELLO as an APIXAGON board."""
    port = port or os.environ.get(PORT_ENV)
    if port:
        link = Link(port, timeout)
        try:
            link.hello()
        except BaseException:
            link.close()
            raise
        return link
    busy = []
    for dev in candidate_ports():
        try:
            link = Link(dev, 1.0)
        except PortBusy:
            busy.append(dev)
            continue
        except BoardError:
            continue
        try:
            link.hello()
            link.timeout = timeout
            return link
        except BoardError:
            link.close()
            continue
    if busy:  # (one busy port may be the board: say so rather than "none")
        raise PortBusy(", ".join(busy))
    raise BoardError(
        _("no APIXAGON board found on USB (give --port or set %s)") % PORT_ENV, EXIT_NO_BOARD
    )

"""`apixagon monitor`: the live view of a board.

On a terminal: the hexagon with each cell in its LED colour and the card on
it (blinking cells blink and carry '*'), a status line (phase, turn, last
move, the board's messages), the recent events, and a prompt for typed
commands (companion.py: the players' hands on the simulated board, pull,
list, status, render). Redrawn when the board sends an event.

Otherwise (stdout not a terminal, or --plain): one line per event, as the
log it always was (`move`, `phase`, `say`, `leds`, `cells`; in words:
`refused: ...`, `take-back: ...`, `put back: ...`), and commands read from
stdin as lines.

Either way the link survives the board: a heartbeat STATUS every few
seconds sees a board that rebooted (`watch=0`: watch again) or that went
away (reopen the port until it answers)."""

import collections
import os
import select
import signal
import textwrap
import time

from apixagon.geometry import NCELLS
from smartboard import proto

from . import keys, matchend, words
from . import link as L
from .companion import SIMULATOR, Companion
from .errors import CommandError
from .i18n import N_, _, ngettext
from .liveview import cells_text, hexagon, led_text, status_line, status_notes
from .termtext import cap
from .worded import Worded, message
from .words import declaration, refusal, want_cells, want_line

# A typed line echoed in the events above the prompt: two rows of 80 at
# most (a pasted 5,000-character line filled the pane with itself)
ECHO_LINE = 160

HEARTBEAT_S = 2.0  # a STATUS when the board has been quiet this long
RETRY_S = 0.5  # between attempts to reach a board that went away
REQUEST_S = 3.0  # a reply takes longer: the board is gone
PANE = 200  # event and output lines kept for the terminal view


class Session:
    """The link to one board, kept up across reboots and unplugging, and
    what the board last told about itself. notify(kind, text) hears the
    board's events (move, phase, say, cells, leds, and in words: refused,
    want as `put back`, a move event that lowers the count as take-back,
    declare: a new declaration DECLARE previews) and the link's own news
    (link: connected, lost, watching again; status: new STATUS fields)."""

    def __init__(self, port, notify):
        self.port = port
        self.notify = notify
        self.link = None
        self.info = {}
        self.status = {}
        self.layer = None  # bytes(NCELLS) once the board sent them
        self.cells = None
        self.message = ""
        self.moves = None  # the match's move count, as last told
        self.history = []  # the move lines seen, to name what a take-back took
        self.want = []  # (cell, card token) a resume waits for
        self.stale = False  # an event that changes STATUS: ask again
        self.next_beat = 0.0
        self.retry_at = 0.0
        self._lost = False

    @property
    def connected(self):
        return self.link is not None

    @property
    def letters(self):
        return self.status.get("sides", "BG")

    def connect(self, first=False, quiet=False):
        """Open the port, HELLO, WATCH 1. False when the board does not
        answer (raised instead on the first connection: exit code 3)."""
        try:
            link = L.connect(self.port, timeout=REQUEST_S)
        except CommandError:
            if first:
                raise
            return False
        self.link = link
        self.port = link.port
        self.info = link.info
        # The whole state WATCH 1 brings is told after "connected", and
        # "connected" only once the board watches: a user (or a script)
        # who reads it can go on.
        early = []
        link.on_event = early.append
        try:
            self._watch()
        except CommandError as e:
            if self.link is not None:
                self._drop(str(e))
            return False
        self._lost = False
        if not quiet:
            i = self.info
            self.notify(
                "link",
                Worded(
                    message,
                    N_("connected to {board} {id} on {port} (fw {fw}, profile {profile})"),
                    board=i.get("board"),
                    id=i.get("id"),
                    port=self.port,
                    fw=i.get("fw"),
                    profile=i.get("profile"),
                ),
            )
        link.on_event = self._on_event
        for text in early:
            self._on_event(text)
        return True

    def _watch(self):
        self.request("WATCH", 1)
        self._set_clock()
        self.refresh()

    def _set_clock(self):
        # The board has no battery clock: it keeps the time a host gives
        # it (docs/protocol.md CLOCK), so its STATUS clock= and `apixagon
        # status` read right, and with this PC's offset from UTC it dates
        # the matches it logs by this PC's day. Older firmware takes no
        # offset (ERR 6): the time alone. A board in safe mode refuses it:
        # no matter.
        now = time.time()
        east = time.localtime(now).tm_gmtoff // 60
        try:
            self.request("CLOCK", int(now), east)
        except L.BoardError as e:
            if e.board_code == proto.E_ARGS:
                try:
                    self.request("CLOCK", int(now))
                except L.BoardError:
                    pass

    def refresh(self):
        st = L.fields(self.request("STATUS"))
        self.stale = False
        self.next_beat = time.monotonic() + HEARTBEAT_S
        # the clock and free bytes move on their own: not worth a redraw
        news = _shown(st) != _shown(self.status)
        previewed = self.status.get("declare")
        was = self.status.get("phase")
        self.status = st
        if st.get("moves", "").isdigit():
            self.moves = int(st["moves"])
            del self.history[: max(0, len(self.history) - self.moves)]
        self.want = want_cells(st.get("want", ""))
        if news:
            self.notify("status", "")
        if st.get("declare") and st["declare"] != previewed:
            # what DECLARE now previews, in words: a line of its own (the
            # plain log has no status line to show it in)
            self.notify("declare", Worded(declaration, st["declare"], st.get("sides", "BG")))
        if st.get("phase") == "over" and was != "over":
            # who won and the rule that ended it (STATUS winner=, end=)
            self.notify("over", Worded(matchend.end_text, dict(st)))
        if was in ("over", "play") and st.get("phase") == "setup":
            # CONFIRM after a match (or a long one, abandoning it) is only a
            # `changed` event: what it did and what comes next, in words
            cards = sum(1 for c in self.cells or b"" if c)
            simulated = self.info.get("board") == SIMULATOR
            self.notify("setup", Worded(matchend.next_match, cards, simulated, was))

    def request(self, *args):
        """A request on the live link; CommandError if it failed (the link
        is dropped, to be reopened, when the board stopped answering)."""
        if self.link is None:
            raise CommandError("not connected to the board (reconnecting)")
        try:
            return self.link.request(*args)
        except L.BoardError as e:
            if e.code == L.EXIT_NO_BOARD:
                self._drop(str(e))
            raise
        except OSError as e:  # pyserial: the device went away (unplugged)
            self._drop(str(e))
            raise CommandError("lost the board: %s" % e)

    def _drop(self, why):
        if self.link is not None:
            try:
                self.link.close()
            except OSError:
                pass
        self.link = None
        self.retry_at = time.monotonic() + RETRY_S
        if not self._lost:
            self._lost = True
            self.notify(
                "link", Worded(message, N_("lost the board ({why}): reconnecting"), why=why)
            )

    def _on_event(self, text):
        kind, _, rest = text.partition(" ")
        if kind in ("cells", "leds"):
            data = proto.unhex(rest, NCELLS)
            if data is None:
                self.notify(
                    "link", Worded(message, N_("ignored a malformed {kind} event"), kind=kind)
                )
                return
            # WATCH 1 sends the whole state again after each reconnect:
            # only a change is news.
            if data == (self.cells if kind == "cells" else self.layer):
                return
            if kind == "cells":
                self.cells = data
            else:
                self.layer = data
                # the LEDs tell a change STATUS tells too (a turn, a
                # refusal, a set-up): the status line follows them
                self.stale = True
        elif kind in ("move", "phase"):
            self.stale = True
            self.message = ""  # what the board said before is history now
            if kind == "move":
                kind, rest = self._move(rest)
            elif rest in ("start", "abandoned"):
                self.moves = 0
                del self.history[:]
            elif rest == "over":
                return  # said in words once STATUS names the winner (refresh)
        elif kind == "say":
            self.message = rest
        elif kind == "refused":
            self.stale = True
            # Junior's first card: where it goes. Worded, to be said again
            # in each web page's language (web/live.py)
            rest = Worded(refusal, rest, self.moves)
        elif kind == "want":
            self.stale = True
            self.want = want_cells(rest)
            rest = (
                Worded(want_line, list(self.want))
                if self.want
                else Worded(message, N_("put back: nothing left"))
            )
        elif kind == "expect":
            self.stale = True
            rest = (
                Worded(words.expect_line, rest, self.letters)
                if rest
                else Worded(message, N_("the computer's move: done"))
            )
        elif kind == "changed":  # a STATUS field changed: nothing to show
            self.stale = True
            return
        self.notify(kind, rest)

    def _move(self, text):
        """A move event's (kind, text): `move` as it came, or `take-back`
        when its count is lower than the last one (the event after a
        take-back names the move now last, not the one taken back)."""
        n, _, line = text.partition(" ")
        if not n.isdigit():
            return "move", text
        n = int(n)
        before, self.moves = self.moves, n
        if before is None or n >= before:
            if line and (before is None or n > before):
                self.history.append(line)
            return "move", text
        gone = before - n
        taken = self.history[-gone:] if len(self.history) >= gone else []
        del self.history[max(0, len(self.history) - gone) :]
        return "take-back", Worded(take_back_line, taken, gone, n)

    def fileno(self):
        return self.link.ser.fileno() if self.link is not None else None

    def pending(self):
        """Events a request read in bulk (a HAND's cells event with its
        reply) wait in the link's buffer, unseen by select(): pump now, not
        at the next heartbeat."""
        return self.link is not None and self.link.pending()

    def pump(self):
        """Take the frames that arrived (events go to notify)."""
        try:
            while self.link is not None:
                f = self.link.read_frame(time.monotonic() + 0.01)
                if f is None:
                    break
                _, seq, ok, rest = f
                if seq == 0 and ok and rest == "rebooting":
                    self.notify("link", Worded(message, N_("the board is rebooting")))
                    self.next_beat = time.monotonic() + 0.5
        except (OSError, L.LinkLost) as e:  # unplugged: reconnect
            self._drop(str(e))
        if self.link is not None:
            # handled as they came: the link's lists would grow all day
            del self.link.events[:]
            del self.link.noise[:]

    def tick(self):
        """Reconnect, heartbeat, STATUS after a move: between inputs."""
        now = time.monotonic()
        if self.link is None:
            if now >= self.retry_at:
                self.retry_at = now + RETRY_S
                self.connect()
            return
        if not (self.stale or now >= self.next_beat):
            return
        try:
            self.refresh()
            if self.status.get("watch") == "0":
                # the board restarted (or another program said WATCH 0)
                self._watch()
                self.notify("link", Worded(message, N_("the board restarted: watching again")))
        except CommandError:
            pass  # dropped if the board is gone; tick() reconnects

    class _Paused:
        def __init__(self, session):
            self.s = session

        def __enter__(self):
            s = self.s
            if s.link is not None:
                s.link.close()
                s.link = None
            return s

        def __exit__(self, *exc):
            s = self.s
            if not s.connect(quiet=True):
                s._drop("it did not answer after the command")

    def paused(self):
        """Close the port for a command that opens it itself; reopen and
        watch again after it."""
        return Session._Paused(self)

    def close(self):
        if self.link is not None:
            try:
                self.link.on_event = None
                self.link.request("WATCH", 0)
            except (CommandError, OSError):
                pass
            self.link.close()
            self.link = None


def take_back_line(taken, gone, n):
    """A take-back in words: the move lines taken (or how many, when they
    were not seen) and the match's move count after it."""
    what = ", ".join(taken) if taken else ngettext("{n} move", "{n} moves", gone).format(n=gone)
    left = ngettext("{n} move", "{n} moves", n).format(n=n)
    return _("take-back: {what} taken back ({left})").format(what=what, left=left)


# events whose text is a whole line in words (`refused: ...`)
_WORDED = ("refused", "want", "take-back", "declare", "expect", "setup", "over")


# the other events' labels, and the phases' names a `phase` line shows, in
# the reader's language (English as the board says them)
_KIND_WORDS = {
    "link": N_("link"),
    "cells": N_("cells"),
    "leds": N_("leds"),
    "move": N_("move"),
    "phase": N_("phase"),
}
_PHASE_WORDS = {
    "setup": N_("setup"),
    "start": N_("start"),
    "play": N_("play"),
    "over": N_("over"),
    "abandoned": N_("abandoned"),
    "resume": N_("resume"),
    "resumed": N_("resumed"),
}


def event_line(kind, text):
    """An event as the log and the pane show it (a page words it again in
    its own language)."""
    if kind in _WORDED:
        return text
    return Worded(_event_words, kind, text)


def _event_words(kind, text):
    if kind == "phase" and text in _PHASE_WORDS:
        text = _(_PHASE_WORDS[text])
    label = _(_KIND_WORDS[kind]) if kind in _KIND_WORDS else kind
    return "%-5s %s" % (label, text)


def _shown(status):
    return {k: v for k, v in status.items() if k not in ("clock", "free")}


def _fileno(stream):
    try:
        return stream.fileno()
    except (AttributeError, ValueError, OSError):
        return None  # a test's StringIO, pytest's captured stdin


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class PlainView:
    """The line log: one line per event, commands as lines on stdin."""

    def __init__(self, out, inp):
        self.out = out
        self.fd = _fileno(inp)
        self.tty_in = self.fd is not None and os.isatty(self.fd)
        self._buf = b""
        self.session = None

    def notify(self, kind, text):
        if kind == "status":
            return
        if kind == "leds":
            text = led_text(self.session.layer)
        elif kind == "cells":
            text = cells_text(self.session.cells, self.session.letters)
        self.show([event_line(kind, text)])

    def show(self, lines):
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def start(self):
        pass

    def stop(self):
        pass

    def redraw(self):
        pass

    def read(self):
        """Typed lines (None at the end of a terminal's input: quit)."""
        data = os.read(self.fd, 4096)
        if not data:
            if self.tty_in:
                return None
            self.fd = None  # a pipe or file ran out: watch on, read no more
            data = b"\n" if self._buf else b""
        self._buf += data
        *lines, self._buf = self._buf.split(b"\n")
        return [x.decode("ascii", "replace").strip() for x in lines]


class ScreenView:
    """The terminal view: the board redrawn in place, events and command
    output below it, a prompt with its own line editing (the terminal's
    echo, line mode and signal keys are off while it runs: Ctrl-C and
    Ctrl-D are keys that quit)."""

    def __init__(self, out, inp, size=None):
        self.out = out
        self.fd = _fileno(inp)
        self.size = size or (lambda: _size(out))  # (columns, rows), asked at each draw
        self.session = None
        self.pane = collections.deque(maxlen=PANE)
        self.line = ""
        self.history = []
        self._hist_at = 0
        self._esc = b""
        self._saved = None
        self._winch = None
        self.dirty = True

    def notify(self, kind, text):
        if kind in ("move", "phase", "say", "link") + _WORDED:
            self.pane.append(event_line(kind, text))
        self.dirty = True

    def show(self, lines):
        self.pane.extend(lines)
        self.dirty = True

    def start(self):
        def resized(signum, frame):
            self.dirty = True  # the next pass of the loop draws to the new size

        try:
            self._winch = signal.signal(signal.SIGWINCH, resized)
        except ValueError:  # not the main thread: no resize signal then
            self._winch = None
        if self.fd is not None and os.isatty(self.fd):
            self._saved = keys.keys_mode(self.fd)
        self.out.write("\x1b[?1049h\x1b[2J")  # the alternate screen, as full-screen tools do

    def stop(self):
        if self._winch is not None:
            signal.signal(signal.SIGWINCH, self._winch)
        self.out.write("\x1b[?1049l")
        self.out.flush()
        if self._saved is not None:
            keys.restore(self.fd, self._saved)
            self._saved = None

    def redraw(self):
        if not self.dirty:
            return
        self.dirty = False
        s = self.session
        cols, rows = self.size()
        if cols < MIN_COLS or rows < MIN_ROWS:
            self.out.write(
                "\x1b[H\x1b[2J"
                + "\n".join(
                    fit(
                        "the terminal is %dx%d: the live view needs at least %dx%d "
                        "(quit, Ctrl-C)" % (cols, rows, MIN_COLS, MIN_ROWS),
                        cols,
                    )
                )
                + "\n"
                + self._prompt()
            )
            self.out.flush()
            return
        i = s.info
        head = "APIXAGON live view  %s %s  fw %s  profile %s  %s%s" % (
            i.get("board", "?"),
            i.get("id", "?"),
            i.get("fw", "?"),
            i.get("profile", "?"),
            s.port or "",
            "" if s.connected else "  (not connected: reconnecting)",
        )
        # Every line wraps (continued rows indented) rather than being cut:
        # a refusal's code, a hand's last cards, the status line's end were
        # lost at 80 columns. Below 30 rows the blank rows and the rule go,
        # for the events.
        roomy = rows >= 30
        top = [short(head, cols)] + ([""] if roomy else [])
        top += hexagon(s.layer or bytes(NCELLS), s.cells or bytes(NCELLS), s.letters, want=s.want)
        top += [""] if roomy else []
        top += fit(status_line(s.status), cols)
        for note in status_notes(s.status):
            top += fit(note, cols)
        if s.message:
            top += fit("board: " + s.message, cols)
        if roomy:
            top.append("-" * min(cols, 72))
        room = max(rows - len(top) - 1, 1)
        pane = []
        for line in list(self.pane)[-room:]:
            pane += fit(line, cols)
        pane = pane[-room:]
        body = top + pane + [""] * (room - len(pane))
        frame = "\x1b[H" + "".join(line + "\x1b[K\n" for line in body)
        self.out.write(frame + self._prompt())
        self.out.flush()

    def _prompt(self):
        return "\r\x1b[K> " + self.line

    def read(self):
        """Keys typed; the finished lines (None: quit)."""
        data = os.read(self.fd, 1024)
        if not data:
            return None  # the terminal went away
        done = []
        for b in data:
            if self._esc:  # an escape sequence: arrows browse the history
                self._esc += bytes((b,))
                if len(self._esc) >= 3 or (len(self._esc) == 2 and b != ord("[")):
                    self._browse(self._esc)
                    self._esc = b""
                continue
            if b == 27:
                self._esc = b"\x1b"
            elif b in (3, 4) and (b == 3 or not self.line):
                return None  # Ctrl-C, or Ctrl-D on an empty line
            elif b in (13, 10):
                done.append(self.line)
                if self.line.strip():
                    self.history.append(self.line)
                self._hist_at = len(self.history)
                self.pane.append("> " + cap(self.line, ECHO_LINE))
                self.line = ""
                self.dirty = True
            elif b in (8, 127):
                self.line = self.line[:-1]
            elif b == 21:  # Ctrl-U
                self.line = ""
            elif 32 <= b < 127:
                self.line += chr(b)
        if not self.dirty:
            self.out.write(self._prompt())
            self.out.flush()
        return done

    def _browse(self, seq):
        if seq == b"\x1b[A" and self._hist_at > 0:
            self._hist_at -= 1
            self.line = self.history[self._hist_at]
        elif seq == b"\x1b[B" and self._hist_at < len(self.history):
            self._hist_at += 1
            self.line = self.history[self._hist_at] if self._hist_at < len(self.history) else ""


# The smallest terminal the live view draws in: the board's rows (47
# columns), the status line and three rows of events (docs/guide/companion.md says it).
MIN_COLS = 48
MIN_ROWS = 18


def fit(line, cols):
    """line as rows of at most cols columns: wrapped at spaces, the rows
    after the first indented; a line in colour is laid out to fit already
    (cutting it could cut an escape sequence in two)."""
    if "\x1b" in line or len(line) <= cols:
        return [line]
    return textwrap.wrap(line, cols, subsequent_indent="  ", break_on_hyphens=False) or [""]


def short(line, cols):
    """line cut to cols columns with a visible mark where it was cut."""
    return line if len(line) <= cols else line[: cols - 1] + "\u2026"


def _size(out):
    try:
        cols, rows = os.get_terminal_size(out.fileno())
    except (AttributeError, ValueError, OSError):
        cols, rows = 0, 0
    return cols or 80, rows or 24


def run(state, args):
    plain = args.plain or not _isatty(state.out)
    ui = (PlainView if plain else ScreenView)(state.out, state.inp)
    session = Session(args.port, ui.notify)
    ui.session = session
    session.connect(first=True)  # no board at all: exit 3, as the other commands
    companion = Companion(session, getattr(args, "db", None))
    end = time.monotonic() + args.seconds if args.seconds else None
    # A closed terminal (SIGHUP) or a kill (SIGTERM) ends the view through
    # the same finally as quit: the terminal modes come back.
    restore = keys.quit_on_signals(lambda signum: 0)
    ui.start()
    try:
        while end is None or time.monotonic() < end:
            ui.redraw()
            fds = [fd for fd in (ui.fd, session.fileno()) if fd is not None]
            wait = 0.2 if end is None else max(0.0, min(0.2, end - time.monotonic()))
            held = session.pending()
            wait = 0 if held else wait
            ready = select.select(fds, [], [], wait)[0] if fds else time.sleep(wait) or []
            if session.fileno() in ready or held:
                session.pump()
            if ui.fd is not None and ui.fd in ready:
                lines = ui.read()
                if lines is None:
                    break
                if not _run_lines(companion, ui, lines):
                    break
            session.tick()
            ui.show(companion.tick())
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a plain log is stopped: not an error
    finally:
        ui.stop()
        restore()
        session.close()
    return 0


def _run_lines(companion, ui, lines):
    for line in lines:
        go_on, out = companion.command(line)
        ui.show(out)
        if not go_on:
            return False
    return True

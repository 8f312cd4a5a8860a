"""`apixagon replay` on a terminal: a stored match stepped with keys, the
position redrawn in place on the alternate screen (as `monitor` draws).

    -> n space   next move          <- p      previous move
    g N Enter    to move N          Home 0    the start
    End $        the last move      q         quit (Ctrl-C, Ctrl-D too)

Stepper is the keys' state machine alone (bytes in, a ply out: tested
without a terminal); run() is the terminal around it. The terminal is
given back as it was on every way out: q, Ctrl-C, an error, SIGTERM or
SIGHUP (the window closed)."""

import os
import select

from . import keys
from .i18n import N_, _

# (translated where it is shown: the language is chosen after the import)
KEYS = N_("-> n space: next   <- p: back   g N Enter: to move N   Home 0 / End $: ends   q: quit")

# What a key's bytes do. Terminals send Home/End in several forms.
_ACTIONS = {
    b"\x1b[C": "next",
    b"n": "next",
    b" ": "next",
    b"\x1b[D": "back",
    b"p": "back",
    b"\x1b[H": "first",
    b"\x1bOH": "first",
    b"\x1b[1~": "first",
    b"\x1b[7~": "first",
    b"0": "first",
    b"\x1b[F": "last",
    b"\x1bOF": "last",
    b"\x1b[4~": "last",
    b"\x1b[8~": "last",
    b"$": "last",
    b"q": "quit",
    b"\x03": "quit",  # Ctrl-C: the terminal's signal keys are off while stepping
    b"\x04": "quit",  # Ctrl-D
    b"g": "goto",
}
_ENTER = (b"\r", b"\n")
_ERASE = (b"\x7f", b"\x08")


class Stepper:
    """The ply shown (0: the start) of a match of `last` moves, moved by
    the bytes fed to it. typing: the digits of a `g N` being typed (None
    when none is); done: a quit key came."""

    def __init__(self, last):
        self.last = last
        self.ply = 0
        self.typing = None
        self.done = False
        self.message = ""
        self._esc = b""

    def feed(self, data):
        """Take a read's bytes; True when the view changed."""
        changed = False
        for i in range(len(data)):
            changed = self._key(data[i : i + 1]) or changed
            if self.done:
                break
        return changed

    def _key(self, b):
        if self._esc or b == b"\x1b":
            self._esc += b
            # ESC [ (or O) then parameters, then a final byte in @..~
            if len(self._esc) == 1 or (len(self._esc) == 2 and b in b"[O"):
                return False
            if len(self._esc) > 2 and not 0x40 <= b[0] <= 0x7E and len(self._esc) < 8:
                return False
            key, self._esc = self._esc, b""
        else:
            key = b
        if self.typing is not None:
            return self._typed(key)
        act = _ACTIONS.get(key)
        if act is None:
            return False
        self.message = ""
        if act == "quit":
            self.done = True
            return False
        if act == "goto":
            self.typing = ""
            return True
        was = self.ply
        self.ply = {
            "next": min(self.ply + 1, self.last),
            "back": max(self.ply - 1, 0),
            "first": 0,
            "last": self.last,
        }[act]
        return self.ply != was

    def _typed(self, key):
        # g N Enter: digits, Backspace; Enter jumps, anything else cancels.
        if key.isdigit() and len(self.typing) < 5:
            self.typing += key.decode()
        elif key == b" ":
            pass  # `g 30` as one says it
        elif key in _ERASE:
            self.typing = self.typing[:-1]
        elif key in _ENTER and self.typing:
            n = int(self.typing)
            self.typing = None
            if n > self.last:
                self.message = _("move %(n)d: the match has %(moves)d moves") % {
                    "n": n,
                    "moves": self.last,
                }
                n = self.last
            self.ply = n
        else:
            self.typing = None
            if key in (b"\x03", b"\x04", b"q"):
                self.done = True  # still a way out
        return True


def run(out, fd, draw, last):
    """Step through `last` moves on the terminal out (input fd): draw(ply,
    stepper) gives a frame's lines. Returns when a quit key comes."""
    stepper = Stepper(last)
    # (a kill leaves by the finally below: the terminal is restored)
    put_back = keys.quit_on_signals(lambda signum: 128 + signum)
    saved = keys.keys_mode(fd)
    try:
        out.write("\x1b[?1049h\x1b[?25l")  # the alternate screen, no cursor
        changed = True
        while not stepper.done:
            if changed:
                out.write("\x1b[H\x1b[2J" + "\r\n".join(draw(stepper.ply, stepper)) + "\r\n")
                out.flush()
            r = select.select([fd], [], [], 0.2)[0]
            if not r:
                if stepper._esc == b"\x1b":  # a lone Esc: no sequence follows
                    stepper._esc = b""
                    changed = stepper.typing is not None
                    stepper.typing = None
                else:
                    changed = False
                continue
            data = os.read(fd, 64)
            if not data:  # the terminal went away
                break
            changed = stepper.feed(data)
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        keys.restore(fd, saved)
        put_back()
    return stepper.ply

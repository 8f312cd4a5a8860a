"""Typed commands of `apixagon monitor` (the companion of `make run`): the
players' hands on the simulated board, with the console's syntax and card
tokens (smartboard.sim.console.card_code), sent as HAND frames; and the
host's own commands (pull, list, status, render) run through the CLI's
code. A bad command prints why and sends nothing."""

import contextlib
import io
import os

from apixagon.geometry import NCELLS, NONE, cell_name, parse_cell
from smartboard.sim.console import card_code

from .errors import CommandError
from .liveview import legend

SIMULATOR = "APIXAGON_simulator"  # HELLO board= of smartboard.sim.serial_main
BUTTONS = ("mode", "confirm", "declare")

HELP = """\
hands (the simulated board):
  put CELL CARD    put a card on a cell     CARD: B12 G3 (A3 B7 in team games),
  lift CELL        lift the card off it           Grain, Gbee, Bsmoker, J5 (junior)
  tap CARD         tap a card on the action pad (specials, card query)
  mode | confirm | declare [long]   press a button (long: held)
companion:
  pull             download the board's matches into the database
  list             the stored matches          status   the board's identity and storage
  render N         draw stored match N as SVG  help     this text
  quit             leave (also Ctrl-C, Ctrl-D)
Set-up: mode = game mode, declare = who starts, confirm = start the match."""


class Companion:
    """command(line) -> (go on?, lines to show). session: a
    monitor.Session (connected, info, status, port, request, paused)."""

    def __init__(self, session, db=None):
        self.session = session
        self.db = db
        if db:
            # The companion's own database is there from the start: `list`
            # before the first pull says it is empty, not that it is missing
            # (the read commands refuse a --db that does not exist).
            from .store import Store

            Store(db).close()

    def command(self, line):
        words = line.split()
        if not words:
            return True, []
        w = words[0].lower()
        try:
            if w in ("quit", "exit", "q"):
                return False, []
            if w == "help":
                return True, HELP.splitlines() + legend()
            if w in ("put", "lift", "tap") or w in BUTTONS:
                return True, self._hand(w, words)
            if w == "pull":
                self._no_args(words)
                return True, self._cli(["logs", "pull"] + self._port() + self._db(), pause=True)
            if w == "list":
                self._no_args(words)
                return True, self._cli(["logs", "list"] + self._db())
            if w == "status":
                self._no_args(words)
                return True, self._cli(["status"] + self._port(), pause=True)
            if w == "render":
                return True, self._render(words)
            raise CommandError("unknown command %r (try help)" % words[0])
        except CommandError as e:
            return True, ["error: %s" % e]

    # ---- hands ----------------------------------------------------------------
    def _hand(self, w, words):
        # Everything is checked before anything is sent.
        if w == "put":
            self._count(words, 3, "put CELL CARD")
            req = ("put", self._cell(words[1]), self._card(words[2]))
        elif w == "lift":
            self._count(words, 2, "lift CELL")
            req = ("lift", self._cell(words[1]))
        elif w == "tap":
            self._count(words, 2, "tap CARD")
            req = ("tap", self._card(words[1]))
        else:
            if len(words) > 2 or len(words) == 2 and words[1].lower() != "long":
                raise CommandError("%s takes nothing or 'long'" % w)
            req = ("press", w) + (("long",) if len(words) == 2 else ())
        s = self.session
        if not s.connected:
            raise CommandError("not connected to the board (reconnecting); nothing sent")
        if s.info.get("board") != SIMULATOR:
            raise CommandError(
                "hands are for the simulated board: %s is a real board, put the cards on it"
                % s.info.get("board", "this")
            )
        s.request("HAND", *req)
        return []

    def _count(self, words, n, usage):
        if len(words) != n:
            raise CommandError("usage: %s" % usage)

    def _cell(self, word):
        x = parse_cell(word.upper())
        if x == NONE or x >= NCELLS:
            raise CommandError("no cell %r on the board" % word)
        return cell_name(x)

    def _card(self, word):
        c = card_code(word, self.session.status.get("sides") == "AB")
        if c < 0:
            raise CommandError("no card %r (B12, Grain, Gbee, Bsmoker; A/B in team games)" % word)
        return c

    # ---- the host's commands ----------------------------------------------------
    def _no_args(self, words):
        if len(words) > 1:
            raise CommandError("%s takes no arguments" % words[0])

    def _port(self):
        if not self.session.port:
            raise CommandError("not connected to a board")
        return ["--port", self.session.port]

    def _db(self):
        return ["--db", self.db] if self.db else []

    def _render(self, words):
        self._count(words, 2, "render N (a match id from list)")
        if not words[1].isdigit():
            raise CommandError("render takes a match id (see list), not %r" % words[1])
        try:
            from . import render  # noqa: F401
        except Exception as e:  # a partial install: the other commands still work
            raise CommandError("render is not available in this build (%s)" % e)
        out = "match-%s.svg" % words[1]
        if self.db:
            out = os.path.join(os.path.dirname(os.path.abspath(self.db)), out)
        return self._cli(["logs", "render", words[1], "--output", out] + self._db())

    def _cli(self, argv, pause=False):
        """Run an `apixagon` command with the CLI's own code; its output as
        lines. pause: it opens the board's port itself, so the live link
        steps aside meanwhile (one reader per port)."""
        from . import cli

        args = cli.build_parser().parse_args(argv)
        out = io.StringIO()
        err = io.StringIO()  # a progress bar would draw over the live view
        with self.session.paused() if pause else contextlib.nullcontext():
            with contextlib.redirect_stderr(err):
                try:
                    cli.dispatch(cli.State(out=out), args)
                except CommandError as e:
                    return out.getvalue().splitlines() + ["error: %s" % e]
        return out.getvalue().splitlines()

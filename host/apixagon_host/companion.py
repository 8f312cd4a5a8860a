"""Typed commands of `apixagon monitor` (the companion of `make run`): the
players' hands on the simulated board, with the console's syntax and card
tokens (smartboard.sim.console.card_code), sent as HAND frames; the set-up
by name (SET); the declarations by name (DECLARE: a pass, a player out, a
deck empty, ...); the hands left (HANDS); and the host's own commands
(pull, list, status, render) run by calling the commands' functions
(logs.py) as the command table does: the companion sits below cli.py and
never imports it. A bad command prints why and sends nothing."""

import contextlib
import io
import os
import shlex
import time

from apixagon.geometry import NCELLS, NONE, cell_name, parse_cell
from smartboard import proto
from smartboard.sim.console import card_code

from . import link as L
from . import logs, matchend, rules_summary, store, words
from .errors import CommandError, error_line, is_error
from .i18n import N_, _
from .liveview import legend
from .termtext import ECHO, cap, typed
from .worded import Worded, message

SIMULATOR = logs.SIMULATOR  # HELLO board= of the simulated board
BUTTONS = ("mode", "confirm", "declare")

# `help`: every command on a few rows, for the events area of an 80x24
# terminal (eight rows: a longer text scrolled its beginning away);
# `help TOPIC` says one group in full, `help legend` the LEDs' colours.
HELP = N_(
    """\
hands:   put CELL CARD | lift CELL | clear | tap CARD | mode | confirm | declare
set-up:  mode | start | option | players | computer | level | assist | hintlimit
declare:  pass | out N | declare deck-empty SIDE | forced-removal SIDE | reserve
companion: hands | tag Name=.. | pull | list | status | render N | nolog | quit
help TOPIC says more: help hands | setup | declare | companion | legend | rules"""
)

HELP_TOPICS = {
    "hands": N_(
        """\
hands (the simulated board):
  put CELL CARD    put a card on a cell     CARD: B12 G3 (A3 B7 in team games),
  lift CELL        lift the card off it     Grain, Gbee, Bsmoker, J5 (junior)
  clear            lift every card (set-up: after a match, before the next)
  tap CARD         tap a card on the action pad (specials, card query)
  mode | confirm | declare [long]   press a button (long: held)
Buttons in set-up: mode = game mode, declare = who starts, confirm = start."""
    ),
    "setup": N_(
        """\
set-up by name (any board):
  mode NAME        queens-gambit silent-swarm beehive 2v1 3v2 junior teen
  start SIDE       black | gold (A | B in team games)
  option NAME      special_then_place | none
  players N        2 4 6 (teen), 2 to 6 (junior)
the computer (for the next match) and the hints (at once), any board:
  computer G|B|A2+B1|none   level 1..5   assist 0..2   hintlimit 0..6"""
    ),
    "declare": N_(
        """\
declarations by name (any board: what DECLARE then CONFIRM do):
  pass             the seat to play passes (teams: a deck empty, no reserve yet)
  out N            junior: player N is out of cards and wins
  declare deck-empty SIDE | forced-removal SIDE | reserve   SIDE: black gold A B"""
    ),
    "companion": N_(
        """\
companion:
  hands            each side's cards and specials not yet played
  tag Name=value   the players (Black=Anna Gold=Ben; A=.. B=..) or Event
  pull | list      download the board's matches | the stored matches
  status           the board, its storage and hints    render N  match N as SVG
  nolog            play the match unsaved (the board asks: its storage is full)
  help | quit      this text | leave (also Ctrl-C, Ctrl-D)"""
    ),
}

SETUP = ("mode", "start", "option", "players")
# SET's keys for the computer and the hints (firmware smartboard.report.set_more):
# the board reads the words itself
MORE = ("computer", "level", "assist", "hintlimit")
SETUP_USAGE = {"start": "start black|gold|A|B", "option": "option NAME", "players": "players N"}
# DECLARE's declarations (docs/protocol.md) and the words each takes
DECLARATIONS = {"deck-empty": 1, "forced-removal": 1, "pass": 0, "out": 1, "reserve": 0}
DECLARE_USAGE = "declare deck-empty|forced-removal SIDE, declare pass|reserve, declare out N"


class Args:
    """A command's arguments as the command table's parser makes them: the
    fields given, and None for an option not given (argparse's default)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __getattr__(self, name):
        if name.startswith("__"):  # copy, pickle and the like ask for these
            raise AttributeError(name)
        return None


class _State:
    def __init__(self, out):
        self.out = out
        self.inp = None


def _cut(text, pairs):
    # The store's words quote a refused pair, name or value whole: a pasted
    # one is cut to what an echo shows (termtext.cap)
    for p in pairs:
        for w in (p,) + tuple(x.strip() for x in p.split("=", 1)):
            if len(w) > ECHO and w in text:
                text = text.replace(w, cap(w))
    return text


def _pairs(tags):
    return "  ".join('%s="%s"' % kv if kv[1] else "%s removed" % kv[0] for kv in tags.items())


class Companion:
    """command(line) -> (go on?, lines to show). session: a
    monitor.Session (connected, info, status, port, cells, letters, stale,
    request, paused)."""

    def __init__(self, session, db=None):
        self.session = session
        self.db = db
        self.tags = {}  # tag pairs waiting for the match to start (tag)
        self._seen = None  # the log last seen in play (its date: tick)
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
                return True, self._help(words[1:])
            # `mode` alone or `mode long` is the MODE button (set-up: the
            # next mode); `mode NAME` sets it by name
            if w in SETUP and len(words) == 2 and (w != "mode" or words[1].lower() != "long"):
                return True, self._set(w, words[1])
            if w in SETUP[1:]:
                raise CommandError(_("usage: %s") % SETUP_USAGE[w])
            if w in MORE:
                return True, self._set_more(w, words[1:])
            # `declare` alone or `declare long` is the DECLARE button;
            # `declare NAME ...` (and `pass`, `out N`) is the DECLARE command
            if w == "declare" and len(words) > 1 and words[1].lower() != "long":
                return True, self._declare(words[1:])
            if w in ("pass", "out"):
                return True, self._declare(words)
            if w in ("put", "lift", "tap", "clear") or w in BUTTONS:
                return True, self._hand(w, words)
            if w == "tag":
                # quoted as in a shell: tag Black="Anna Maria" Gold=Ben
                try:
                    pairs = shlex.split(line)[1:]
                except ValueError as e:
                    raise CommandError(
                        _(
                            'tag: %s (a value with spaces in quotes: Black="Anna Maria"); '
                            "nothing kept"
                        )
                        % str(e).lower()
                    ) from None
                return True, self._tag(pairs)
            if w == "nolog":
                self._no_args(words)
                return True, self._nolog()
            if w in ("hands", "hand"):
                self._no_args(words)
                return True, self._hands()
            if w == "pull":
                self._no_args(words)
                return True, self._run(logs.pull, port=self._port(), db=self.db, pause=True)
            if w == "list":
                self._no_args(words)
                return True, self._run(logs.list_, db=self.db)
            if w == "status":
                self._no_args(words)
                lines = self._run(logs.status, port=self._port(), pause=True)
                return True, lines + self._hint_settings(lines)
            if w == "render":
                return True, self._render(words)
            raise CommandError(_("unknown command {word} (try help)").format(word=typed(words[0])))
        except CommandError as e:
            return True, [error_line(e)]

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
        elif w == "clear":
            self._count(words, 1, "clear")
            req = ("clear",)
        else:
            if len(words) > 2 or len(words) == 2 and words[1].lower() != "long":
                raise CommandError(_("%s takes nothing or 'long'") % w)
            req = ("press", w) + (("long",) if len(words) == 2 else ())
        s = self.session
        self._connected()
        if s.info.get("board") != SIMULATOR:
            raise CommandError(
                _("hands are for the simulated board: %s is a real board, put the cards on it")
                % s.info.get("board", "this")
            )
        try:
            reply = s.request("HAND", *req)
        except L.BoardError as e:
            if w == "clear" and e.board_code == proto.E_STATE:
                raise CommandError(matchend.clear_refused(s.status.get("phase")))
            if w == "clear" and e.board_code == proto.E_ARGS:
                raise CommandError(
                    _("this simulated board has no clear (update it): lift the cards one by one")
                )
            # A card put on a card (two on one sensor: RULES §8) is refused
            # by the simulated board itself, which knows: the cells the
            # companion last heard of may be a tick behind a take-back.
            if w == "put" and e.board_code == proto.E_ARGS and "holds a card" in str(e):
                raise CommandError(_("%s holds %s: lift it first") % (req[1], self._held(req[1])))
            _head, sep, on = str(e).rpartition("card on ")
            if w == "put" and e.board_code == proto.E_ARGS and sep:
                # the card lies on another cell: a card is in one place
                raise CommandError(
                    _(
                        "{card} is on {cell} already: one card cannot lie on two cells;"
                        " lift it from {cell} first (nothing changed)"
                    ).format(card=words[2], cell=on)
                )
            raise
        return [matchend.cleared(reply)] if w == "clear" else []

    def _held(self, cell):
        # The card on cell as the board tells it now: its cells event for
        # the move just made may still wait behind the reply, so the
        # companion's copy can be a move old. "a card" for one it cannot name.
        try:
            cells = proto.unhex(self.session.request("CELLS"), NCELLS)
        except L.BoardError:
            cells = None
        cells = cells or self.session.cells
        x = parse_cell(cell)
        held = words.card_token(cells[x] - 1, self.session.letters) if cells and cells[x] else "?"
        return "a card" if held == "?" else held

    # ---- declarations (DECLARE: real boards too) --------------------------------
    def _declare(self, args):
        # What the DECLARE button and CONFIRM do, by name. The board says
        # what became of it as it says a CONFIRM's: a move event, or a
        # refusal in words (the refused event): nothing to add here.
        what = args[0].lower()
        n = DECLARATIONS.get(what)
        if n is None or len(args) != 1 + n:
            raise CommandError(_("usage: %s") % DECLARE_USAGE)
        req = [what]
        if what == "out":
            if not args[1].isdigit() or not 1 <= int(args[1]) <= 6:
                raise CommandError(
                    _("out takes a player's number, 1 to 6 (junior), not {word}").format(
                        word=typed(args[1])
                    )
                )
            req.append(int(args[1]))
        elif n:
            req.append(self._side(args[1]))
        self._connected()
        try:
            self.session.request("DECLARE", *req)
        except L.BoardError as e:
            if e.board_code == proto.E_VERB:
                raise CommandError(
                    _(
                        "this board's firmware takes no declarations from here (update it):"
                        " use its DECLARE and CONFIRM buttons"
                    )
                )
            if e.board_code == proto.E_STATE:
                raise CommandError(_("no match in play: nothing declared"))
            raise
        return []

    def _nolog(self):
        # The players' answer to the board's question (STATUS unlogged=ask:
        # its storage full, the match would not be saved): play it unsaved,
        # as a second CONFIRM does (NOLOG, firmware 0.8.0)
        self._connected()
        try:
            self.session.request("NOLOG")
        except L.BoardError as e:
            if e.board_code == proto.E_VERB:
                raise CommandError(_("this board's firmware has no NOLOG: press CONFIRM again"))
            if e.board_code == proto.E_STATE:
                raise CommandError(
                    _(
                        "the board asks nothing: it plays unsaved only when its storage is full"
                        " and CONFIRM was pressed (or clear the cards off it first)"
                    )
                )
            raise
        return [_("the match is played unsaved")]

    def _side(self, word):
        # a side as the match names it: black | gold, or its letter (B G;
        # the teams A B)
        sides = self.session.status.get("sides", "BG")
        w = word.lower()
        if w in ("black", "gold"):
            return w
        if len(w) == 1 and w.upper() in sides and sides != "JJ":
            return w.upper()
        names = "A, B, black, gold" if sides == "AB" else "black, gold (B, G)"
        raise CommandError(
            _("no side {word} in this match: choose one of: {names}").format(
                word=typed(word), names=names
            )
        )

    # ---- set-up and hands (SET, HANDS: real boards too) -------------------------
    def _set(self, key, word):
        s = self.session
        try:
            value = words.setting_value(
                key, word, s.status.get("sides", "BG"), s.status.get("mode")
            )
        except ValueError as e:
            raise CommandError(str(e))
        self._connected()
        try:
            s.request("SET", key, value)
        except L.BoardError as e:  # the board's ERR 6 says what it takes
            if e.board_code != proto.E_ARGS:
                raise
            raise CommandError(
                words.setting_refused(key, word, str(e), s.status.get("sides", "BG"))
            )
        s.stale = True  # STATUS names the new set-up
        # said in words, as every setting is; in a match, that the board
        # keeps it for the next one (a match's set-up is fixed when it
        # starts: its record's header)
        return [
            words.setting_taken(
                key, value, s.status.get("phase", "setup"), s.status.get("sides", "BG")
            )
        ]

    def _set_more(self, key, args):
        if len(args) != 1:
            raise CommandError(
                "usage: computer G|B|A2+B1|none, level 1..5, assist 0..2, hintlimit 0..6"
            )
        self._connected()
        s = self.session
        value = args[0]
        if key == "computer":
            # the board reads record names (G, A2+B1): gold, g, a2+b1 are them too
            value = {"black": "B", "gold": "G", "none": "none"}.get(value.lower(), value.upper())
        sides = s.status.get("sides", "BG")
        try:
            s.request("SET", key, value)
        except L.BoardError as e:  # the board's ERR 6 says what the setting takes
            if e.board_code != proto.E_ARGS:
                raise CommandError(str(e))
            raise CommandError(words.setting_refused(key, args[0], str(e), sides))
        s.stale = True
        # the computer is the next match's; the hints act at once (the board
        # reads them at each tap and repaint)
        return [words.setting_taken(key, value, s.status.get("phase", "setup"), sides)]

    def _hint_settings(self, lines):
        # The hints' assistance and limit, in words under `status` (CONF:
        # STATUS has neither); nothing after an error or from a board
        # without them (firmware before 0.8.0)
        if any(is_error(x) for x in lines):
            return []
        try:
            conf = dict(f.split("=", 1) for f in self.session.request("CONF").split() if "=" in f)
        except L.BoardError:
            return []
        out = []
        for key in ("assist", "hintlimit"):
            if conf.get(key, "").isdigit():
                out.append(
                    "  %s %s (%s)"
                    % (key.ljust(logs.status_width()), conf[key], words.hints_text(key, conf[key]))
                )
        return out

    def _hands(self):
        self._connected()
        try:
            reply = self.session.request("HANDS")
        except L.BoardError as e:
            if e.board_code == proto.E_VERB:
                raise CommandError(_("this board's firmware cannot tell the hands (update it)"))
            raise
        try:
            return words.hands_lines(reply)
        except ValueError:
            raise CommandError(_("the board's HANDS reply makes no sense: %r") % reply[:60])

    def _help(self, words):
        if not words:
            return _(HELP).splitlines()
        topic = words[0].lower().replace("-", "")
        if topic in ("legend", "leds", "colours", "colors"):
            return legend()
        if len(words) == 1 and topic in HELP_TOPICS:
            return _(HELP_TOPICS[topic]).splitlines()
        if topic == "rules" and len(words) <= 2:  # the game itself, in short
            try:
                return rules_summary.summary_lines(words[1] if words[1:] else None)
            except ValueError as e:
                raise CommandError(str(e))
        raise CommandError(
            _(
                "no help on {word}: help hands | setup | declare | companion | legend | rules"
            ).format(word=typed(words[0]))
        )

    def _tag(self, pairs):
        # NOTATION tag pairs for the match on the board (or, in set-up, the
        # one about to start), kept in the database against the board's id
        # and its log's number until a pull stores that log
        # (Store.pend_tags); `logs tag ID` names a match already stored.
        if not pairs:
            raise CommandError(_("usage: tag Name=value ... (Black=Anna Gold=Ben; Name= removes)"))
        from .store import check_tags, tag_pairs

        try:
            tags = tag_pairs(pairs)
            check_tags(tags)
        except ValueError as e:
            raise CommandError(_("{why}; nothing kept").format(why=_cut(str(e), pairs)))
        self._connected()
        self.tags.update(tags)
        return self.tick() or ["tags kept for the match about to start: %s" % _pairs(self.tags)]

    def tick(self):
        """Between inputs (monitor's loop): tags waiting for a match to
        start go to the database once the board names its log. Lines to
        show, or []."""
        s = self.session
        log = s.status.get("log", "-")
        if not s.connected or s.status.get("phase") == "setup" or log == "-":
            return []
        if log != self._seen:
            self._seen = log
            if s.status.get("phase") == "play" and s.status.get("moves") == "0":
                # It began just now: its date is today's (the board writes
                # one itself only once a host set its clock, and older
                # firmware never; a match pulled days later would otherwise
                # be dated by the pull)
                self.tags.setdefault("Date", time.strftime("%Y.%m.%d"))
                self.tags.setdefault("Time", time.strftime("%H:%M"))
        if not self.tags:
            return []
        from .store import Store

        tags, self.tags = self.tags, {}
        try:
            with Store(self.db, True) as store:
                store.pend_tags(s.info.get("id", "?"), log, tags)
        except (ValueError, CommandError) as e:
            # Worded: the web page's events list says it in each page's language
            return [Worded(message, N_("error: the tags were not kept: {why}"), why=str(e))]
        named = {k: v for k, v in tags.items() if k not in ("Date", "Time")}
        if not named:
            return []  # the date alone: nothing a player asked for
        return [
            Worded(
                message,
                N_("match {log}: {tags} (stored with it when pulled)"),
                log=log,
                tags=_pairs(named),
            )
        ]

    def _connected(self):
        if not self.session.connected:
            raise CommandError(_("not connected to the board (reconnecting); nothing sent"))

    def _count(self, words, n, usage):
        if len(words) != n:
            raise CommandError(_("usage: %s") % usage)

    def _cell(self, word):
        x = parse_cell(word.upper())
        if x == NONE or x >= NCELLS:
            raise CommandError(_("no cell {word} on the board").format(word=typed(word)))
        return cell_name(x)

    def _card(self, word):
        c = card_code(word, self.session.status.get("sides") == "AB")
        if c < 0:
            raise CommandError(
                _("no card {word} (B12, Grain, Gbee, Bsmoker; A/B in team games)").format(
                    word=typed(word)
                )
            )
        return c

    # ---- the host's commands ----------------------------------------------------
    def _no_args(self, words):
        if len(words) > 1:
            raise CommandError(_("%s takes no arguments") % words[0])

    def _port(self):
        if not self.session.port:
            raise CommandError(_("not connected to a board"))
        return self.session.port

    def _render(self, words):
        self._count(words, 2, "render N (a match id from list)")
        if not words[1].isdigit():
            raise CommandError(
                _("render takes a match id (see list), not {word}").format(word=typed(words[1]))
            )
        try:
            from . import render  # noqa: F401
        except Exception as e:  # a partial install: the other commands still work
            raise CommandError(_("render is not available in this build (%s)") % e)
        # beside the database (the user's data folder by default), never in
        # whatever folder the companion was started from (`make run`: the
        # checkout)
        db = self.db or store.default_path()
        out = os.path.join(os.path.dirname(os.path.abspath(db)), "match-%s.svg" % words[1])
        return self._run(logs.render, id=int(words[1]), output=out, db=self.db)

    def _run(self, command, pause=False, **fields):
        """Run one of the host's commands (command(state, args), as the
        command table does); its output as lines. pause: it opens the
        board's port itself, so the live link steps aside meanwhile (one
        reader per port)."""
        out = io.StringIO()
        err = io.StringIO()  # a progress bar would draw over the live view
        with self.session.paused() if pause else contextlib.nullcontext():
            with contextlib.redirect_stderr(err):
                try:
                    command(_State(out), Args(**fields))
                except CommandError as e:
                    return out.getvalue().splitlines() + [error_line(e)]
        return out.getvalue().splitlines()

"""`apixagon` command line: a table of commands over one state object, one
error type that becomes the exit code (the mpremote shape).

The layers, each importing only those below it: this command table on top;
the commands (check, play, logs, monitor with its companion, deploy) below
it, each a function of (state, args); link, store and the small helpers at
the bottom. A command that runs another (the companion's pull, list,
status, render) calls its function; nothing imports this module
(tests/host/test_companion.py keeps it so).

Each command's module is imported when that command runs, never before:
`apixagon --help` or `logs list` does not load the simulator's console or
the web server (tests/host/test_cli_text.py times it), and a Ctrl-C while
one loads is the command's interrupt, not a traceback."""

import argparse
import importlib
import os
import sys

from . import i18n
from .errors import EXIT_USAGE, CommandError
from .i18n import N_, _
from .termtext import clean_lines


class State:
    """What every command shares: where output goes (tests swap it)."""

    def __init__(self, out=None, inp=None):
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin


def _check_args(p):
    p.add_argument("file", help=_("the .apx record to validate ('-' reads standard input)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object instead of lines"))


def _play_args(p):
    p.add_argument("--mode", default="queens-gambit", help=_("queens-gambit, beehive, junior, ..."))
    p.add_argument("--start", default=None, help=_("black|gold (2 players) or A|B (teams)"))
    p.add_argument("--hints", action="store_true", help=_("start with the kids' hint view on"))
    p.add_argument(
        "--computer", help=_("the seats the computer plays: black|gold, or A2,B1 in team games")
    )
    p.add_argument(
        "--level",
        type=int,
        default=1,
        help=_(
            "its level: 1 (a child beats it) .. 6 (its strongest); "
            "7: the PC's tree search, level 6's equal"
        ),
    )
    p.add_argument("--seed", type=int, default=1, help=_("the deal and the computer's choices"))
    p.add_argument(
        "--assist",
        type=int,
        default=1,
        choices=(0, 1, 2),
        help=_("hints: 0 legal cells, 1 + cells to block, 2 + hint N grades the cells"),
    )
    p.add_argument(
        "--hint-limit", type=int, default=0, choices=range(7), help=_("hint N a turn: 0 no limit")
    )


def _port(p):
    p.add_argument("--port", "-p", help=_("serial port of the board (default: the first found)"))


def _selftest_args(p):
    _port(p)
    p.add_argument("--last", action="store_true", help=_("print the last self-test's report"))


def _db(p):
    p.add_argument("--db", help=_("SQLite file (default: matches.sqlite in the user data dir)"))


def _logs_args(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    sub.required = True
    a = sub.add_parser("pull", help=_("download new matches from the board into the database"))
    _port(a)
    _db(a)
    a.add_argument("--progress", action="store_true", help=_("progress bar even when not a tty"))
    a.add_argument(
        "--delete",
        action="store_true",
        help=_("then delete from the board every match stored whole (frees its flash)"),
    )
    _db(sub.add_parser("list", help=_("the stored matches")))
    for name, text in (
        ("show", N_("print a stored match")),
        ("export", N_("write a match as .apx/JSON")),
    ):
        a = sub.add_parser(name, help=_(text))
        a.add_argument("id", type=int, help=_("match id (apixagon logs list)"))
        _db(a)
        if name == "export":
            a.add_argument(
                "--format",
                choices=("apx", "json"),
                help=_("default: the --output's extension (.json, .apx), else apx"),
            )
            a.add_argument("--output", "-o", help=_("file to write ('-': standard output)"))
    a = sub.add_parser("tag", help=_("name a match's players, event, date (Name=value)"))
    a.add_argument("id", type=int, help=_("match id (apixagon logs list)"))
    a.add_argument(
        "tags", nargs="+", metavar="Name=value", help=_('Black=Anna Gold=Ben Event="Club night"')
    )
    _db(a)
    a = sub.add_parser("review", help=_("each move graded against the best one the seat could see"))
    a.add_argument("id", type=int, help=_("match id (apixagon logs list)"))
    a.add_argument("--json", action="store_true", help=_("print the review as one JSON object"))
    a.add_argument("--progress", action="store_true", help=_("progress bar even when not a tty"))
    a.add_argument("--jobs", type=int, default=1, help=_("processes scoring moves (default 1)"))
    _db(a)
    a = sub.add_parser("render", help=_("draw a position as SVG or PNG"))
    a.add_argument("id", type=int, help=_("match id (apixagon logs list)"))
    a.add_argument("--ply", type=int, default=None, help=_("after this many moves (default: all)"))
    a.add_argument("--output", "-o", help=_("FILE.svg or FILE.png (default: match-ID-PLY.svg)"))
    a.add_argument("--size", type=int, help=_("width in pixels (default: 864, the natural size)"))
    a.add_argument(
        "--no-coords", action="store_true", help=_("no row letters, numbers, cell names")
    )
    _db(a)


def _monitor_args(p):
    p.add_argument("--port", "-p", help=_("serial port of the board (default: the first found)"))
    p.add_argument(
        "--seconds", type=float, default=0, help=_("stop after this long (default: quit or Ctrl-C)")
    )
    p.add_argument("--plain", action="store_true", help=_("one line per event, even on a terminal"))
    p.add_argument("--db", help=_("SQLite file for pull/list/render (default: the user data dir)"))


def _run(target):
    """A command's run(state, args), "module" (its run) or "module:function",
    imported when the command runs."""
    name, _, fn = target.partition(":")

    def run(state, args):
        module = importlib.import_module("." + name, __package__)
        return getattr(module, fn or "run")(state, args)

    return run


_LOGS = {"list": "list_"}  # logs ACTION -> its function in logs.py, where not the same


def _run_logs(state, args):
    if args.action == "review":
        return _run("reviewcli")(state, args)  # the engine loaded only for a review
    return _run("logs:" + _LOGS.get(args.action, args.action))(state, args)


def _replay_args(p):
    p.add_argument("id", type=int, help=_("match id (apixagon logs list)"))
    p.add_argument(
        "--delay",
        type=float,
        help=_(
            "play every move with this many seconds between them "
            "(default on a terminal: step with keys; -> next, <- back, g N Enter, q quits)"
        ),
    )
    p.add_argument(
        "--board",
        action="store_true",
        help=_("replay it on the board: each move's target lit, the cards put down by hand"),
    )
    p.add_argument(
        "--review",
        action="store_true",
        help=_("with --board: after each move its grade said and the better cell lit"),
    )
    p.add_argument("--progress", action="store_true", help=_("progress bar even when not a tty"))
    _port(p)
    _db(p)


def _run_replay(state, args):
    if args.board and args.delay is not None:
        raise CommandError(
            _("--delay is for the terminal: on the board (--board) each move waits for its card")
        )
    if args.review and not args.board:
        raise CommandError(
            _(
                "--review goes with --board (the better cell lit on the board); "
                "apixagon logs review ID gives the review on the terminal"
            )
        )
    if args.board:
        return _run("boardreplay")(state, args)
    return _run("logs:replay")(state, args)


def _lazy(name):
    """(run, add-arguments) of a command module imported only when used
    (deploy, web.serve): a partial checkout, or an install without the
    module's packages, still runs the other commands."""

    def add_args(p):
        try:
            module = importlib.import_module("." + name, __package__)
        except ImportError:
            return
        module.add_args(p)

    return _run(name), add_args


_run_serve, _serve_args = _lazy("web.serve")
_run_deploy, _deploy_args = _lazy("deploy")
_run_online, _online_args = _lazy("online.command")


# name: (run(state, args) or a module with run, add-arguments, one-line help)
COMMANDS = {
    "check": (_run("check"), _check_args, N_("validate an .apx match record")),
    "play": (
        _run("play"),
        _play_args,
        N_("play a match on the terminal board (rules core + hints)"),
    ),
    "ports": (_run("logs:ports"), lambda p: None, N_("find APIXAGON boards on USB serial ports")),
    "status": (_run("logs:status"), _port, N_("the board's identity, match and storage")),
    "logs": (
        _run_logs,
        _logs_args,
        N_("match logs: pull, list, show, export, tag, review, render"),
    ),
    "selftest": (
        _run("logs:selftest"),
        _selftest_args,
        N_("run the board's self-test again, or print its last report (--last)"),
    ),
    "replay": (
        _run_replay,
        _replay_args,
        N_("step through a stored match on the terminal, or on the board (--board)"),
    ),
    "monitor": (
        _run("monitor"),
        _monitor_args,
        N_("live view of a board (and the simulator's companion): cards, LEDs, moves"),
    ),
    "serve": (
        _run_serve,
        _serve_args,
        N_("the companion in the browser: live board, library, board"),
    ),
    "online": (
        _run_online,
        _online_args,
        N_("play a board against a board in another home (host|join CODE, over MQTT)"),
    ),
    "deploy": (_run_deploy, _deploy_args, N_("install the firmware on a board (all files)")),
    "update": (_run_deploy, _deploy_args, N_("update the firmware on a board (changed files)")),
}

# argparse's own words in our help and errors ("usage:", "options", ...).
# argparse translates them with the gettext functions it imported, in
# gettext's global domain, which is not ours and knows no --lang; so they
# are marked here, which puts them in our catalogue, and main() hands
# argparse our _ and ngettext while it parses (_argparse_words). Only the
# ones our parser can show: it has no mutually exclusive groups, no
# nargs=N, no FileType.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("optional arguments"),  # Python 3.9's name for "options"
    N_("show this help message and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would exit(2) itself; keep one path
        raise CommandError("%s\n%s" % (message, self.format_usage().strip()), EXIT_USAGE)


class _argparse_words:
    """While parsing, argparse's words in the language in use: its module's
    _ and ngettext are ours, put back after (nothing else in the process
    sees the change once main() returns)."""

    def __enter__(self):
        self.saved = argparse._, argparse.ngettext
        argparse._, argparse.ngettext = _, i18n.ngettext

    def __exit__(self, *exc):
        argparse._, argparse.ngettext = self.saved


def take_lang(argv):
    """(the --lang value, argv without it): the language is set before the
    parser is built, as argparse's words are fixed when it is. Taken from
    anywhere on the line (apixagon logs list --lang it) before a `--`."""
    lang, rest, words = None, [], list(argv)
    while words:
        w = words.pop(0)
        if w == "--":
            rest += [w] + words
            break
        if w == "--lang":
            if not words:
                raise CommandError(_("--lang needs a language: en or it"), EXIT_USAGE)
            lang = words.pop(0)
        elif w.startswith("--lang="):
            lang = w[len("--lang=") :]
        else:
            rest.append(w)
    return lang, rest


def choose_lang(lang):
    """Use --lang's language, else the system's (APIXAGON_LANG, LC_ALL,
    LC_MESSAGES, LANG, LANGUAGE), else English. An unknown --lang is a
    usage error in words (in the system's language)."""
    try:
        return i18n.set_lang(lang)
    except ValueError:
        i18n.set_lang(None)
        raise CommandError(
            _("unknown language %(lang)r: --lang takes en (English) or it (Italian)")
            % {"lang": lang},
            EXIT_USAGE,
        ) from None


def build_parser(argv=None):
    """The parser; of the commands, only the one argv names gets its
    arguments (deploy's and serve's load their modules to say them)."""
    words = sys.argv[1:] if argv is None else argv
    named = next((w for w in words if not w.startswith("-")), None)
    parser = _Parser(prog="apixagon", description=_("APIXAGON smart board host tools"))
    parser.add_argument("--version", action="store_true", help=_("print the version and exit"))
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_(
            "the language of its words: en or it (default: APIXAGON_LANG, "
            "else the system's language)"
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (_run_fn, add_args, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=_(help_text), description=_(help_text))
        if name == named:
            add_args(p)
    return parser


def version():
    """The host package's version (installed metadata; a bare checkout says so)."""
    from importlib import metadata

    try:
        return metadata.version("apixagon")
    except metadata.PackageNotFoundError:
        return _("unknown (not installed)")


def dispatch(state, args):
    """Run the command parsed args name (CommandError on failure)."""
    return COMMANDS[args.command][0](state, args)


def main(argv=None, state=None):
    state = state or State()
    try:
        lang, argv = take_lang(sys.argv[1:] if argv is None else argv)
        choose_lang(lang)
        with _argparse_words():
            parser = build_parser(argv)
            args = parser.parse_args(argv)
            if args.version:
                state.out.write("apixagon %s\n" % version())
                return 0
            if not args.command:
                raise CommandError(parser.format_help().strip(), EXIT_USAGE)
        if getattr(args, "db", None):
            # before the command starts: monitor and serve open the
            # database only later, once the board or a page asks
            from .store import check_path

            check_path(args.db)
        code = dispatch(state, args)
        state.out.flush()  # here, where a closed pipe is caught (not at exit)
        return code
    except CommandError as e:
        # (a message may quote a board or a database: shown, never acted on)
        sys.stderr.write("apixagon: %s\n" % clean_lines(str(e)))
        return e.code
    except KeyboardInterrupt:
        sys.stderr.write("apixagon: %s\n" % _("interrupted"))
        return 130
    except BrokenPipeError:
        # the reader went away (`apixagon logs list | head -1`): end quietly,
        # as Unix tools do (128 + SIGPIPE); what is still buffered for the
        # closed pipe goes nowhere instead of failing again at exit
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # a stdout with no file (tests)
            pass
        return 141


if __name__ == "__main__":
    sys.exit(main())

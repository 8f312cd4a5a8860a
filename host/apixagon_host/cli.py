"""`apixagon` command line: a table of commands over one state object, one
error type that becomes the exit code (the mpremote shape).

The layers, each importing only those below it: this command table on top;
the commands (check, play, logs, monitor with its companion, deploy) below
it, each a function of (state, args); link, store and the small helpers at
the bottom. A command that runs another (the companion's pull, list,
status, render) calls its function; nothing imports this module
(tests/host/test_companion.py keeps it so)."""

import argparse
import importlib
import sys

from . import check, logs, monitor, play
from .errors import EXIT_USAGE, CommandError
from .termtext import clean_lines


class State:
    """What every command shares: where output goes (tests swap it)."""

    def __init__(self, out=None, inp=None):
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin


def _check_args(p):
    p.add_argument("file", help="the .apx record to validate ('-' reads standard input)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of lines")


def _play_args(p):
    p.add_argument("--mode", default="queens-gambit", help="queens-gambit, beehive, junior, ...")
    p.add_argument("--start", default=None, help="black|gold (2 players) or A|B (teams)")
    p.add_argument("--hints", action="store_true", help="start with the kids' hint view on")


def _port(p):
    p.add_argument("--port", "-p", help="serial port of the board (default: the first found)")


def _db(p):
    p.add_argument("--db", help="SQLite file (default: matches.sqlite in the user data dir)")


def _logs_args(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    sub.required = True
    a = sub.add_parser("pull", help="download new matches from the board into the database")
    _port(a)
    _db(a)
    a.add_argument("--progress", action="store_true", help="progress bar even when not a tty")
    a.add_argument(
        "--delete",
        action="store_true",
        help="then delete from the board every match stored whole (frees its flash)",
    )
    _db(sub.add_parser("list", help="the stored matches"))
    for name, text in (("show", "print a stored match"), ("export", "write a match as .apx/JSON")):
        a = sub.add_parser(name, help=text)
        a.add_argument("id", type=int, help="match id (apixagon logs list)")
        _db(a)
        if name == "export":
            a.add_argument(
                "--format",
                choices=("apx", "json"),
                help="default: the --output's extension (.json, .apx), else apx",
            )
            a.add_argument("--output", "-o", help="file to write ('-': standard output)")
    a = sub.add_parser("tag", help="name a match's players, event, date (Name=value)")
    a.add_argument("id", type=int, help="match id (apixagon logs list)")
    a.add_argument(
        "tags", nargs="+", metavar="Name=value", help='Black=Anna Gold=Ben Event="Club night"'
    )
    _db(a)
    a = sub.add_parser("render", help="draw a position as SVG or PNG")
    a.add_argument("id", type=int, help="match id (apixagon logs list)")
    a.add_argument("--ply", type=int, default=None, help="after this many moves (default: all)")
    a.add_argument("--output", "-o", help="FILE.svg or FILE.png (default: match-ID-PLY.svg)")
    a.add_argument("--size", type=int, help="width in pixels (default: 864, the natural size)")
    a.add_argument("--no-coords", action="store_true", help="no row letters, numbers, cell names")
    _db(a)


def _run_logs(state, args):
    return {
        "pull": logs.pull,
        "list": logs.list_,
        "show": logs.show,
        "export": logs.export,
        "render": logs.render,
        "tag": logs.tag,
    }[args.action](state, args)


def _replay_args(p):
    p.add_argument("id", type=int, help="match id (apixagon logs list)")
    p.add_argument(
        "--delay",
        type=float,
        help="play every move with this many seconds between them "
        "(default on a terminal: step with keys; -> next, <- back, g N Enter, q quits)",
    )
    _db(p)


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

    def run(state, args):
        return importlib.import_module("." + name, __package__).run(state, args)

    return run, add_args


_run_serve, _serve_args = _lazy("web.serve")
_run_deploy, _deploy_args = _lazy("deploy")


# name: (run(state, args) or a module with run, add-arguments, one-line help)
COMMANDS = {
    "check": (check, _check_args, "validate an .apx match record"),
    "play": (play, _play_args, "play a match on the terminal board (rules core + hints)"),
    "ports": (logs.ports, lambda p: None, "find APIXAGON boards on USB serial ports"),
    "status": (logs.status, _port, "the board's identity, match and storage"),
    "logs": (_run_logs, _logs_args, "match logs: pull, list, show, export, tag, render"),
    "replay": (logs.replay, _replay_args, "step through a stored match on the terminal"),
    "monitor": (
        monitor,
        monitor.add_args,
        "live view of a board (and the simulator's companion): cards, LEDs, moves",
    ),
    "serve": (_run_serve, _serve_args, "the companion in the browser: live board, library, board"),
    "deploy": (_run_deploy, _deploy_args, "install the firmware on a board (all files)"),
    "update": (_run_deploy, _deploy_args, "update the firmware on a board (changed files)"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would exit(2) itself; keep one path
        raise CommandError("%s\n%s" % (message, self.format_usage().strip()), EXIT_USAGE)


def build_parser():
    parser = _Parser(prog="apixagon", description="APIXAGON smart board host tools")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (_, add_args, help_text) in COMMANDS.items():
        add_args(sub.add_parser(name, help=help_text, description=help_text))
    return parser


def version():
    """The host package's version (installed metadata; a bare checkout says so)."""
    from importlib import metadata

    try:
        return metadata.version("apixagon")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def dispatch(state, args):
    """Run the command parsed args name (CommandError on failure)."""
    entry = COMMANDS[args.command][0]
    return (entry if callable(entry) else entry.run)(state, args)


def main(argv=None, state=None):
    state = state or State()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.version:
            state.out.write("apixagon %s\n" % version())
            return 0
        if not args.command:
            raise CommandError(parser.format_help().strip(), EXIT_USAGE)
        return dispatch(state, args)
    except CommandError as e:
        # (a message may quote a board or a database: shown, never acted on)
        sys.stderr.write("apixagon: %s\n" % clean_lines(str(e)))
        return e.code
    except KeyboardInterrupt:
        sys.stderr.write("apixagon: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())

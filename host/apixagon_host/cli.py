"""`apixagon` command line: a table of commands over one state object, one
error type that becomes the exit code (the mpremote shape)."""

import argparse
import sys

from . import check, play
from .errors import EXIT_USAGE, CommandError


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


# name: (module with run(state, args), add-arguments, one-line help)
COMMANDS = {
    "check": (check, _check_args, "validate an .apx match record"),
    "play": (play, _play_args, "play a match on the terminal board (rules core + hints)"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would exit(2) itself; keep one path
        raise CommandError("%s\n%s" % (message, self.format_usage().strip()), EXIT_USAGE)


def build_parser():
    parser = _Parser(prog="apixagon", description="APIXAGON smart board host tools")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (_, add_args, help_text) in COMMANDS.items():
        add_args(sub.add_parser(name, help=help_text, description=help_text))
    return parser


def main(argv=None, state=None):
    state = state or State()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not args.command:
            raise CommandError(parser.format_help().strip(), EXIT_USAGE)
        return COMMANDS[args.command][0].run(state, args)
    except CommandError as e:
        sys.stderr.write("apixagon: %s\n" % e)
        return e.code
    except KeyboardInterrupt:
        sys.stderr.write("apixagon: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())

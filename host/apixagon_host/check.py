"""`apixagon check FILE [--json]`: validate an .apx record (NOTATION.md)."""

import json
import sys

from apixagon import record
from apixagon.codes import OK, REASONS
from apixagon.game import Game

from .errors import EXIT_FAILED, EXIT_OK, CommandError
from .i18n import _


def read_record_lines(path):
    """Lines of a record file ('-' for standard input), with clear errors."""
    try:
        if path == "-":
            return _no_bom(sys.stdin.read()).splitlines()
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CommandError(
            _("cannot read %(path)s: %(why)s") % {"path": path, "why": e.strerror or e}
        ) from None
    try:
        # utf-8-sig: a byte-order mark some editors write is not part of
        # line 1 (the mode line would be lost as a syntax error)
        return data.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as e:
        raise CommandError(
            _("%(path)s is not a text record (byte %(byte)d is not UTF-8)")
            % {"path": path, "byte": e.start}
        ) from None


def _no_bom(text):
    return text[1:] if text[:1] == "\ufeff" else text


def result_of(game, tags=()):
    """record.result, but a match its record says was abandoned (the board
    writes [Result "abandoned"]) is not "in progress": the rules did not end
    it, and nobody will play the turn."""
    status, winner, reason, text = record.result(game)
    if status == "in-progress" and ("Result", "abandoned") in tags:
        return "abandoned", None, "abandoned", text.replace("in progress", "abandoned", 1)
    return status, winner, reason, text


def result_json(game, tags=()):
    status, winner, reason, text = result_of(game, tags)
    out = {"status": status, "winner": winner, "reason": reason, "text": text}
    if game.mode != 5:
        out["sequences_of_3"] = [game.count_runs(0)[0], game.count_runs(1)[0]]
        out["sequences_of_4"] = [game.count_runs(0)[1], game.count_runs(1)[1]]
    return out


def run(state, args):
    lines = read_record_lines(args.file)
    checker = record.Checker(Game)
    record.read(lines, checker)
    game, verdicts, tags = checker.game, checker.verdicts, checker.tags
    if not verdicts:
        # Not one move line (NOTATION.md: a record is its moves; the
        # headers alone are no match): not "in progress", an error.
        name = _("standard input") if args.file == "-" else args.file
        raise CommandError(_("%s: no moves: not a match record") % name, EXIT_FAILED)
    if args.json:
        moves = []
        for lineno, reason in verdicts:
            m = {"line": lineno, "ok": reason == OK}
            if reason != OK:
                m["reason"] = REASONS[reason]
            moves.append(m)
        state.out.write(json.dumps({"moves": moves, "result": result_json(game, tags)}) + "\n")
    else:
        for lineno, reason in verdicts:
            state.out.write(record.verdict_text(lineno, reason) + "\n")
        state.out.write(_("result: %s") % result_of(game, tags)[3] + "\n")
    return EXIT_FAILED if any(r != OK for _, r in verdicts) else EXIT_OK

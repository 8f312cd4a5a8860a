"""The pictures of the manual's How to play page: each record
docs/guide/rules/NAME.apx, checked move by move by the rules core (as
`apixagon check` does), drawn by the project's renderer into NAME.svg
beside it. The pictures carry no word but the cells' names, so the English
and the Italian pages share them and say the rest in their captions.

    python tools/rules_pictures.py          write the pictures that changed
    python tools/rules_pictures.py --check  exit 1 if one is not up to date

An illegal move in a record is an error that names its line: a picture
of a position the rules refuse would teach the game wrong."""

import glob
import os
import sys

from apixagon import record
from apixagon.codes import OK, REASONS
from apixagon.game import Game
from apixagon_host import i18n, render
from apixagon_host.check import read_record_lines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "docs", "guide", "rules")


class IllegalRecord(Exception):
    """A record with a line the rules refuse."""


def records(folder=None):
    """The records' paths (in FOLDER unless told), by name."""
    return sorted(glob.glob(os.path.join(folder or FOLDER, "*.apx")))


def position(path):
    """The game a record leaves, every one of its moves legal."""
    checker = record.Checker(Game)
    record.read(read_record_lines(path), checker)
    for lineno, reason in checker.verdicts:
        if reason != OK:
            raise IllegalRecord(
                "%s line %d: illegal %s" % (os.path.relpath(path, ROOT), lineno, REASONS[reason])
            )
    return checker.game


def picture(path):
    """The SVG of a record's last position: the board alone (no title, no
    legend), the cells named, no other word."""
    return render.render_svg(position(path), chrome=False, words=False)


def svg_path(path):
    return os.path.splitext(path)[0] + ".svg"


def stale(folder=None):
    """The records whose committed picture differs from theirs today."""
    out = []
    for path in records(folder):
        want = picture(path)
        try:
            with open(svg_path(path), encoding="utf-8") as f:
                have = f.read()
        except FileNotFoundError:
            have = None
        if have != want:
            out.append(path)
    return out


def main(argv, folder=None):
    check = argv == ["--check"]
    if argv and not check:
        sys.stderr.write("usage: rules_pictures.py [--check]\n")
        return 2
    # The same bytes on any desktop, whatever its language (the pictures
    # should hold no word to translate anyway).
    i18n.set_lang("en")
    try:
        old = stale(folder)
    except IllegalRecord as e:
        sys.stderr.write("error: %s\n" % e)
        return 1
    for path in old:
        name = os.path.relpath(svg_path(path), ROOT)
        if check:
            sys.stderr.write("%s is not up to date: python tools/rules_pictures.py\n" % name)
        else:
            with open(svg_path(path), "w", encoding="utf-8") as f:
                f.write(picture(path))
            print("wrote %s" % name)
    return 1 if check and old else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

# Helpers for the whole-firmware tests: a simulated board (smartboard.sim)
# per test with its own settings file. Plain functions: the same files run
# under CPython (pytest) and under the MicroPython unix port (96 wK heap).
import os
import sys

from apixagon.geometry import NCELLS, parse_cell
from smartboard import buttons, settings, tag, view
from smartboard.sim.rig import Rig

TMP = "build/tmp"


def settings_path(name):
    for d in ("build", TMP):
        try:
            os.mkdir(d)
        except OSError:
            pass  # already there
    path = "%s/%s-%s.bin" % (TMP, sys.implementation.name, name)
    for f in (path, path + ".deck"):
        try:
            os.remove(f)
        except OSError:
            pass
    return path


def rig(name, profile="A", fresh=True, supply=None, resets=False):
    path = settings_path(name) if fresh else "%s/%s-%s.bin" % (TMP, sys.implementation.name, name)
    return Rig(profile, path, supply=supply, resets=resets)


def started(name, profile="A", display=view.HINT, resets=False):
    """A rig with a 2-player queens-gambit match started (black first);
    resets: with the readers' reset lines and the board's recovery."""
    r = rig(name, profile, resets=resets)
    st = r.board.settings
    st.set(settings.DISPLAY, display, 0)
    r.press(buttons.CONFIRM)
    assert r.board.ref is not None, r.board.message
    return r


def card(side, i):
    return tag.code(side, tag.NORMAL, i)


def special(side, kind):
    return tag.code(side, kind, 0)


def x(name):
    c = parse_cell(name)
    assert c < NCELLS, name
    return c


def layer(r, name):
    """Palette entry (with blink flags) the view gives a cell."""
    return r.board.view.layer[x(name)]


def colour(r, name):
    return layer(r, name) & 0x3F


def lit(r, entry):
    """Cells whose palette entry is entry (flags ignored)."""
    return [c for c in range(NCELLS) if r.board.view.layer[c] & 0x3F == entry]


def play(r, steps):
    """Scenario table: (action, cell or None, card code or button)."""
    for action, where, what in steps:
        if action == "put":
            r.put(where, what)
        elif action == "lift":
            r.lift(where)
        elif action == "tap":
            r.tap(what)
        elif action == "press":
            r.press(what)
        elif action == "long":
            r.press(what, True)
        r.settle()


def errors(r):
    e = r.board.ref.err
    return [(c, e[c]) for c in range(NCELLS) if e[c]]

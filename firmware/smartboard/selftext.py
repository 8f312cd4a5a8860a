# The self-test's words (smartboard.selftest), all in this one module so
# that a catalogue in another language replaces this file alone. Loaded
# only when the self-test says something or is reported. The report's keys
# (STEPS, VERDICTS) go over the wire and stay as they are.
from apixagon.geometry import NCELLS, cell_name

from . import health

STEPS = ("supply", "leds", "parts", "idle", "cells", "buttons")
VERDICTS = ("none", "ok", "fail", "skip")
KEYS = ("MODE", "CONFIRM", "DECLARE")

_SAID = (
    "self-test: 6 steps; the report comes over USB as they run",
    "step 2, LED walk: every LED lights red, then green, then blue, one after the other",
    "did every LED light in each colour? CONFIRM yes, DECLARE no",
    "LEDs lit in green up to a blue one: all lit and the blue one there? CONFIRM yes, DECLARE no",
    "step 3, parts: the readers are asked",
    "step 4, empty board: nothing may lie on it now",
    "step 5, cells: put a %s on the blinking cell and lift it; DECLARE if it is not "
    "seen, CONFIRM skips the rest",
    "",
    "step 6, buttons: press %s",
    "the %s button was not pressed within 10 s: check its solder joints and its wire to the board",
    "",
)
_OK = (
    "step 1, supply: %s; the strip is switched on",
    "step 2, LED walk: every LED lit",
    "step 3, parts: every part answers",
    "step 4, empty board: no cell reads occupied",
    "step 5, cells: every cell sensed its %s",
    "step 6, buttons: every button works",
)
_SKIPPED = "step 5, cells: skipped"
_SUPPLY = "USB-C supply of %d mA"
_NO_SUPPLY = "no supply reading on this board"
_STARVED = (
    "step 1, supply: %s is too little for the LEDs: the strip stays off; use a USB-C "
    "charger of 1.5 A or more"
)
_NO_ANSWER = "step 2, LED walk: no answer to the question (CONFIRM or DECLARE)"
_DARK = (
    "step 2, LED walk: LED %d (cell %s) stays dark, and every LED after it: check its "
    "solder joints (5 V, GND, DIN) and %s"
)
_DARK_FROM = ("the data line from the strip connector", "the DOUT of LED %d before it")
_PARTS = "step 3, parts: %s"
_STUCK = "step 4, empty board: %s read%s occupied: %s"
_STUCK_WHY = (
    "a card left there? if none, check that antenna's wiring and its switch",
    "a stuck reed switch (check its orientation, and nothing magnetic near) or a "
    "shorted row or column line",
)
_UNSENSED = "step 5, cells: %s did not sense the %s: %s"
_UNSENSED_WHY = (
    "check its antenna's solder joints and its switch",
    "check its reed switch (its orientation, its solder joints) and its diode",
)
_THING = ("card", "magnet")
_KEYS_BAD = "step 6, buttons: %s not pressed: check its solder joints and its wire"
_PASSED = "self-test passed: every step green"
_FAILED = "self-test failed: %s"
_RUNNING = "running"
_STORED = ("no self-test yet", "older board: no self-test yet")


def _rev(t):
    return 1 if t.board.hw.paired else 0


def _cells(t, mark):
    return " ".join(cell_name(x) for x in range(NCELLS) if t.marks[x] == mark)


def say(t, what, arg=0):
    """What the board says at a moment of the self-test t (selftest's
    _say codes: 7 a step's verdict, arg the step)."""
    if what == 6:
        return _SAID[6] % _THING[_rev(t)]
    if what == 8 or what == 9:
        return _SAID[what] % KEYS[arg]
    if what == 7:
        return verdict(t, arg)
    if what == 10:
        m = t.failed()
        return (
            _PASSED
            if not m
            else _FAILED % ", ".join(STEPS[k] for k in range(len(STEPS)) if m >> k & 1)
        )
    return _SAID[what]


def verdict(t, k):
    """Step k's result in words."""
    v = t.verdict[k]
    rev = _rev(t)
    if v == 3:
        return _SKIPPED
    if v == 1:
        if k == 0:
            return _OK[0] % _supply(t)
        return _OK[k] % _THING[rev] if k == 4 else _OK[k]
    if k == 0:
        return _STARVED % _supply(t)
    if k == 1:
        i = t.dark
        if i < 0 or i == 0xFF:
            return _NO_ANSWER
        led = t.board.hw.layout.led
        x = 0
        while x < NCELLS and led[x] != i:
            x += 1
        name = cell_name(x) if x < NCELLS else "-"
        return _DARK % (i + 1, name, _DARK_FROM[0] if not i else _DARK_FROM[1] % i)
    if k == 2:
        parts = t.board.hw.parts
        return _PARTS % "; ".join(
            health.down(parts[i]) for i in range(len(parts)) if t.parts >> i & 1
        )
    if k == 3:
        cells = _cells(t, 1)
        return _STUCK % (cells, "s" if " " not in cells else "", _STUCK_WHY[rev])
    if k == 4:
        return _UNSENSED % (_cells(t, 2), _THING[rev], _UNSENSED_WHY[rev])
    return _KEYS_BAD % " and ".join(KEYS[b] for b in range(3) if t.keys >> b & 1)


def _supply(t):
    return _NO_SUPPLY if t.supply_ma < 0 else _SUPPLY % t.supply_ma


def report(t):
    """The report line (SELFTEST last): the result, each step's verdict by
    name, then what failed in words after ' : '."""
    head = _RUNNING if not t.done and t.stage < 8 else "fail" if t.failed() else "pass"
    out = [head]
    for k in range(len(STEPS)):
        out.append("%s=%s" % (STEPS[k], VERDICTS[t.verdict[k]]))
    line = " ".join(out)
    m = t.failed()
    if m:
        line += " : " + "; ".join(verdict(t, k) for k in range(len(STEPS)) if m >> k & 1)
    return line


def stored(value):
    """The report of the self-test kept in the settings (settings.SELFTEST:
    0 none, 1 + the mask of the steps that failed, OLDER): the steps'
    verdicts only; the words of that run went with it."""
    if value == 0 or value > 1 << len(STEPS):
        return "none : " + _STORED[0 if value == 0 else 1]
    m = value - 1
    out = ["fail" if m else "pass"]
    for k in range(len(STEPS)):
        out.append("%s=%s" % (STEPS[k], "fail" if m >> k & 1 else "ok"))
    return " ".join(out)

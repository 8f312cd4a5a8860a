"""Every LED mode's frames, painted by the firmware's real View and
Painter on the simulated board (smartboard.sim), with the USB supply's
twin behind the painter's current limit.

frames(profile, pins, advert) drives the board loop through its
scenarios - the set-up screens (a board full of cards, which blink white:
the brightest frame the firmware can paint), the recorded matches of
tests/data played from hands in each display mode to their end, a card
query with the corner alarm, a dead reader's cells - and the resume and
deck-teaching screens through the View itself; it records for each frame
written its mode, the painter's estimate before the limit and the
estimate of the bytes written (smartboard.paint: 20 mA per channel at 255,
1 mA per LED). Brightness at its top level (255): the worst case."""

import functools
import os
import tempfile

from . import check

MODES = (
    "set-up",
    "adult",
    "hint",
    "card query",
    "end of game",
    "resume",
    "deck teaching",
)
RECORDS = ("3v2_full.apx", "beehive_full.apx", "junior_full.apx", "queens_gambit_full.apx")


def estimate(buf, n):
    """The firmware's own estimate of a frame (mA), from its GRB bytes."""
    from smartboard import paint

    return paint._lit(bytearray(buf), len(buf), 1 << 24) + n


class Recorder:
    def __init__(self, rig):
        self.rig = rig
        self.label = None
        self.rows = []  # (mode, before mA, written mA, budget mA)
        p = rig.board.hw.painter
        orig = p.show
        n = rig.strip.n

        def show():
            before = p.frame_ma()
            orig()
            # a strip switched off for want of power draws nothing
            out = estimate(rig.strip.buf, n) if p.powered else 0
            self.rows.append((self.mode(), before, out, p.budget_ma))

        p.show = show

    def mode(self):
        from smartboard import board as B
        from smartboard import settings as S
        from smartboard import view as V

        if self.label:
            return self.label
        b = self.rig.board
        if b.phase == B.SETUP:
            return "set-up"
        if b.phase == B.OVER:
            return "end of game"
        if b.phase == B.RESUME:
            return "resume"
        d = b.settings.get(S.DISPLAY)
        if b.ref is not None and b.ref.query and d != V.ADULT:
            return "card query"
        return ("adult", "hint", "card query")[d]


@functools.lru_cache(maxsize=None)
def _settings_dir():
    # this process's folder for the rigs' settings files, gone at exit:
    # make hardware writes nothing in the folder it runs from (boardkit's
    # rig puts them in build/tmp under the current folder)
    import atexit
    import shutil

    d = tempfile.mkdtemp(prefix="apixagon-modes-")
    atexit.register(shutil.rmtree, d, True)
    return d


def _rig(profile, supply, name, brightness=255):
    from smartboard.sim.rig import Rig

    # its own settings file: runs in parallel (pytest -n) never share one
    # (with a supply, the strip behind its load switch: sim/rig.py)
    path = os.path.join(_settings_dir(), "%s-%s-%d.bin" % (name, profile, brightness))
    for f in (path, path + ".deck"):
        if os.path.exists(f):
            os.remove(f)
    lay = os.path.join(check.ROOT, "hardware", "layout.json")
    r = Rig(profile, path, lay, supply=supply)
    r.board.hw.painter.brightness = brightness
    return r


def frames(profile, pins, advert, records=RECORDS, brightness=255):
    """[(mode, before, written, budget)] of every frame of the scenarios."""
    from apixagon.geometry import NCELLS, cell_name
    from smartboard import buttons, tag
    from smartboard import settings as S
    from smartboard import view as V
    from smartboard.sim import replay
    from smartboard.sim.supply import sim_supply

    supply = sim_supply(pins, advert)
    rows = []
    codes = [tag.code(s, tag.NORMAL, i) for s in (0, 1) for i in range(31)]

    # set-up: the settings' cells, then every cell covered (blinks white),
    # then CONFIRM refused with cards on (red, fast)
    r = _rig(profile, supply, "power-setup", brightness)
    rec = Recorder(r)
    r.settle(300)
    for _ in range(3):
        r.press(buttons.MODE)
    r.press(buttons.CONFIRM, True)
    for x in range(NCELLS):
        r.put(cell_name(x), codes[x])
    r.settle(1200)
    r.press(buttons.CONFIRM)
    r.settle(1200)
    rows += rec.rows

    # the recorded matches from hands, in each display mode, to their end
    for d in (V.ADULT, V.HINT, V.QUERY):
        for name in records:
            r = _rig(profile, supply, "power-play", brightness)
            r.board.settings.set(S.DISPLAY, d, 0)
            rec = Recorder(r)
            with open(os.path.join(check.ROOT, "tests", "data", name)) as f:
                replay.play(r, f, None, False)
            r.settle(1200)  # the winner's colours blink
            rows += rec.rows

    # a card query (and the corner alarm over it), a reader down
    for d in (V.HINT, V.QUERY):
        r = _rig(profile, supply, "power-query", brightness)
        r.board.settings.set(S.DISPLAY, d, 0)
        rec = Recorder(r)
        r.press(buttons.CONFIRM)
        for x, c in (("E4", codes[3]), ("E6", codes[40]), ("D4", codes[5])):
            r.put(x, c)
            r.settle(600)
        r.tap(codes[20])
        r.settle(600)
        r.board.view.alarm(r.now() + 1500)
        r.settle(1600)
        if profile == "A":
            r.readers[0].dead = True
            r.settle(2500)
        rows += rec.rows

    # resume and deck teaching, through the View: every cell's card missing
    # (each blinks in its side's colour), then every count of a deck taught
    r = _rig(profile, supply, "power-view", brightness)
    rec = Recorder(r)
    v = r.board.view
    want = bytearray(1 + codes[x % len(codes)] for x in range(NCELLS))
    for side in (0, 1, None):
        w = want if side is None else bytearray(1 + tag.code(side, tag.NORMAL, 0) for _ in want)
        rec.label = "resume"
        v.resume(w, bytearray(NCELLS))
        for now in range(0, 1024, 128):
            v.dirty = True
            v.frame(now)
    rec.label = "deck teaching"
    for count in range(0, 71):
        v.learning(count)
        v.frame(0)
    rows += rec.rows
    return rows


def worst(rows):
    """{mode: (worst before the limit, worst written)} in mA."""
    out = {}
    for mode, before, written, _ in rows:
        b, w = out.get(mode, (0, 0))
        out[mode] = (max(b, before), max(w, written))
    return out

"""The web page's pictures in the README and the manual, made from the page
itself in Chromium (Debian's, driven by Playwright), so they cannot go
stale: `make screenshots` (make docs runs it) writes

    docs/img/web-live.png   the live page at a laptop's 1280 x 800: two
                            moves, a refused card and its reason, the hands
    docs/img/web-match.png  a stored match replayed at move 2 of 3
    docs/img/web-phone.png  the live page on a phone (390 x 844), 3 moves

and the same in Italian in docs/img/it/. The simulated board (the firmware
in the MicroPython unix port on a pty) plays the moves; the stored match
is put in a database of its own with a fixed date.

    python tools/screenshots.py          write the pictures that changed
    python tools/screenshots.py --check  exit 1 if one is not up to date

Deterministic: a fixed viewport, no animation (reduced motion: a blinking
cell is drawn with a steady outline), no clock text (the events' times are
hidden), the board's port named by a link of a fixed name, a fixed seed
for anything random here, the same moves: two runs on one machine draw
the same pixels. A picture counts as unchanged when at most TOLERANCE[1]
of its pixels moved by more than TOLERANCE[0] of 255 (same_picture): room
for a rasterizer's rounding, none for a changed word (a digit moves some
fifty pixels). screenshots.json beside the pictures names the Chromium
that made them: another Chromium draws text a little differently, so
tests/web/test_screenshots.py compares only with the same one."""

import argparse
import json
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from webthread import ServedCompanion  # noqa: E402

IMG = os.path.join(ROOT, "docs", "img")
LANGS = ("en", "it")  # English in docs/img, the others in docs/img/<lang>
SEED = 20261122
DATE = "2026.11.22"  # the stored match's [Date]
PORT_NAME = "simulated-board"  # the pty's link: the page names the port so
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# (name, path, viewport, phone): each picture and the page it shows
SHOTS = (
    ("web-live.png", "/", LAPTOP, False),
    ("web-match.png", "/match/1?ply=2", LAPTOP, False),
    ("web-phone.png", "/", PHONE, True),
)
# The stored match the replay shows: the live page's first three moves
MATCH = ['[Date "%s"]' % DATE, "mode queens-gambit", "start black", "B 12 E4", "G 5 E6", "B 7 D4"]
# At most TOLERANCE[1] pixels may have moved by more than TOLERANCE[0] (of
# 255, in any channel).
TOLERANCE = (24, 16)
# Steady pictures: no clock text (the events' times), no caret, no animation.
STEADY_CSS = (
    "#events time { display: none !important; }"
    " * { caret-color: transparent !important; animation: none !important;"
    " transition: none !important; }"
)


def picture_path(name, lang, folder=IMG):
    return os.path.join(folder, name) if lang == "en" else os.path.join(folder, lang, name)


def same_picture(a, b, tolerance=TOLERANCE):
    """(same, why) of two PNG files (or bytes): the same size, and at most
    tolerance[1] pixels moved by more than tolerance[0]."""
    import io

    from PIL import Image, ImageChops

    def load(x):
        return Image.open(io.BytesIO(x) if isinstance(x, bytes) else x).convert("RGB")

    ia, ib = load(a), load(b)
    if ia.size != ib.size:
        return False, "size %dx%d, now %dx%d" % (ia.size + ib.size)
    diff = ImageChops.difference(ia, ib)
    # a pixel's largest channel difference, over the threshold: 255
    moved = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(moved[0], moved[1]), moved[2])
    over = worst.point(lambda v: 255 if v > tolerance[0] else 0).histogram()[255]
    if over > tolerance[1]:
        return False, "%d pixels differ (tolerance %d)" % (over, tolerance[1])
    return True, ""


class _Server(ServedCompanion):
    """The web companion (tools/webthread.py) with no manual to serve."""

    def __init__(self, port, db):
        super().__init__(port, db, manual=None)

    def status(self):
        return dict(self.bridge.session.status)

    def wait(self, what, timeout=30):
        end = time.monotonic() + timeout
        while not what(self.status()):
            if time.monotonic() > end:
                raise RuntimeError("the simulated board never got there: %r" % self.status())
            time.sleep(0.05)

    def command(self, line):
        done, lines = self.bridge.call(lambda s: self.bridge.companion().command(line)).result(20)
        return lines


def _stored_match(db):
    from apixagon_host.store import Store
    from smartboard.logstore import records

    out = bytearray()
    prev = records.SEED
    for text in MATCH:
        kind = records.HEADER if text[0] in "ms[" else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    with Store(db) as store:
        store.put("sim-A", "0001.alog", bytes(out))


def _shoot(browser, url, viewport, phone, ready):
    ctx = browser.new_context(
        viewport=viewport,
        is_mobile=phone,
        device_scale_factor=1,
        reduced_motion="reduce",
        bypass_csp=True,  # (Playwright's waits evaluate JavaScript text)
    )
    try:
        page = ctx.new_page()
        page.goto(url)
        page.add_style_tag(content=STEADY_CSS)
        ready(page)
        # The whole page in one view: the window as tall as the page (the
        # board, sticky in a shorter one, would be drawn where a scroll left it)
        for _ in range(5):
            tall = page.evaluate("document.documentElement.scrollHeight")
            if tall == page.viewport_size["height"]:
                break
            page.set_viewport_size({"width": viewport["width"], "height": tall})
            page.wait_for_timeout(100)
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(300)  # the last update drawn
        return page.screenshot(animations="disabled", caret="hide")
    finally:
        ctx.close()


def _live_ready(refused):
    def ready(page):
        page.wait_for_selector("#link.ok", timeout=15000)
        if refused:
            page.wait_for_selector("#refusal:not([hidden])", timeout=15000)
        page.locator("#hands-button").click()
        page.wait_for_selector("#hands li", timeout=15000)

    return ready


def _match_ready(page):
    page.wait_for_selector("#match[data-ready]", timeout=15000)


def _draw(browser, live, match, langs, log):
    """The pictures: the simulated board's moves typed, each page drawn."""
    out = {}
    for line in ("confirm", "put E4 B12", "put E6 G5"):
        live.command(line)
    live.wait(lambda st: st.get("moves") == "2")
    live.command("put F3 G3")  # Black is to play: refused, its reason said
    live.wait(lambda st: st.get("refused"))
    for lang in langs:
        log("drawing %s (%s)" % ("web-live.png", lang))
        out["web-live.png", lang] = _shoot(
            browser, live.url + "/?lang=" + lang, LAPTOP, False, _live_ready(True)
        )
        log("drawing %s (%s)" % ("web-match.png", lang))
        out["web-match.png", lang] = _shoot(
            browser, match.url + "/match/1?ply=2&lang=" + lang, LAPTOP, False, _match_ready
        )
    live.command("lift F3")
    live.wait(lambda st: not st.get("refused"))
    live.command("put D4 B7")
    live.wait(lambda st: st.get("moves") == "3")
    for lang in langs:
        log("drawing %s (%s)" % ("web-phone.png", lang))
        out["web-phone.png", lang] = _shoot(
            browser, live.url + "/?lang=" + lang, PHONE, True, _live_ready(False)
        )
    return out


def make(folder=IMG, langs=LANGS, log=print, browser=None):
    """Every picture, drawn now: {(name, lang): PNG bytes}; the Chromium
    that drew them (its version). browser: a Playwright Browser to draw
    with (the tests' one), else Debian's chromium is launched here.
    RuntimeError when chromium or Playwright is missing."""
    import shutil

    random.seed(SEED)
    if browser is None:
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            raise RuntimeError("Debian's chromium is missing (make installs it)")
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise RuntimeError("Playwright is missing (make installs it)") from None
    import build_mpy
    import devboard

    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="apixagon-screens-") as tmp:
        mpy = os.path.join(tmp, "mpy")
        flash = os.path.join(tmp, "flash")
        os.makedirs(mpy)
        os.makedirs(flash)
        build_mpy.build_all(mpy)
        devboard.install(flash, mpy)
        board = devboard.DevBoard(flash, "A").start()
        # the page names the board's port: a link of a fixed name, opened
        # from the folder it is in, not the pty's number of this run
        os.symlink(board.port, os.path.join(tmp, PORT_NAME))
        os.chdir(tmp)
        live = match = None
        try:
            live = _Server(PORT_NAME, os.path.join(tmp, "live.sqlite")).start()
            live.wait(lambda st: live.bridge.session.connected and st.get("phase") == "setup")
            db = os.path.join(tmp, "match.sqlite")
            _stored_match(db)
            match = _Server(PORT_NAME + "-none", db).start()  # a replay needs no board
            if browser is not None:
                return _draw(browser, live, match, langs, log), browser.version
            with sync_playwright() as p:
                own = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                try:
                    return _draw(own, live, match, langs, log), own.version
                finally:
                    own.close()
        finally:
            os.chdir(here)
            for s in (live, match):
                if s is not None:
                    s.stop()
            board.stop()


def stale(drawn, folder=IMG):
    """[(path, why)] of the committed pictures that differ from the drawn."""
    out = []
    for (name, lang), png in sorted(drawn.items()):
        path = picture_path(name, lang, folder)
        if not os.path.exists(path):
            out.append((path, "missing"))
            continue
        same, why = same_picture(path, png)
        if not same:
            out.append((path, why))
    return out


def write(drawn, version, folder=IMG, log=print):
    """Write the pictures that changed (beyond the tolerance), and the
    Chromium that made them when any was written."""
    changed = dict(stale(drawn, folder))
    for (name, lang), png in sorted(drawn.items()):
        path = picture_path(name, lang, folder)
        rel = os.path.relpath(path, ROOT)
        if path in changed:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(png)
            log("%s: written (%s)" % (rel, changed[path]))
        else:
            log("%s: up to date" % rel)
    meta = os.path.join(folder, "screenshots.json")
    if changed or not os.path.exists(meta):
        with open(meta, "w") as f:
            json.dump({"chromium": version, "tolerance": list(TOLERANCE)}, f, indent=1)
            f.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a picture is not up to date")
    ap.add_argument("--out", default=IMG, help="the folder of the pictures (default docs/img)")
    args = ap.parse_args(argv)
    try:
        drawn, version = make(args.out, log=lambda s: print(s, file=sys.stderr))
    except RuntimeError as e:
        # make docs goes on without: the pictures committed stay
        print("screenshots: not made: %s" % e, file=sys.stderr)
        return 0 if not args.check else 1
    if args.check:
        bad = stale(drawn, args.out)
        for path, why in bad:
            print("%s: not up to date (%s): make screenshots" % (os.path.relpath(path, ROOT), why))
        return 1 if bad else 0
    write(drawn, version, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

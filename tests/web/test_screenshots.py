"""The README's and the manual's pictures of the web page are what the page
draws now: tools/screenshots.py draws them again (the simulated board's
live page, a stored match, a phone; English and Italian) and each must
match the committed one within its tolerance (screenshots.same_picture: at
most 16 pixels moved by more than 24 of 255; two runs on one machine draw
the same pixels). A change to the
page's layout or words fails here until `make screenshots` is run and the
pictures committed. Another Chromium than the one that made them
(docs/img/screenshots.json) draws text a little differently: skipped."""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import screenshots  # noqa: E402

pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")
pytest.importorskip("PIL", reason="Pillow compares the pictures")


def test_same_picture_holds_its_tolerance(tmp_path):
    from PIL import Image

    a = Image.new("RGB", (100, 100), (255, 253, 246))
    b = a.copy()
    for x in range(16):  # the tolerance: a rasterizer's rounding
        b.putpixel((x, 0), (0, 0, 0))
    pa, pb = str(tmp_path / "a.png"), str(tmp_path / "b.png")
    a.save(pa)
    b.save(pb)
    assert screenshots.same_picture(pa, pb) == (True, "")
    b.putpixel((50, 50), (0, 0, 0))
    b.save(pb)
    same, why = screenshots.same_picture(pa, pb)
    assert not same and why == "17 pixels differ (tolerance 16)"
    b.putpixel((50, 50), (255 - 24, 253, 246))  # moved by 24 only: the same
    b.save(pb)
    assert screenshots.same_picture(pa, pb)[0]
    assert screenshots.same_picture(pa, str(tmp_path / "a.png"))[0]
    a.crop((0, 0, 100, 99)).save(pb)
    assert screenshots.same_picture(pa, pb) == (False, "size 100x100, now 100x99")


def test_the_committed_pictures_are_what_the_page_draws_now(browser):
    with open(os.path.join(screenshots.IMG, "screenshots.json")) as f:
        made_by = json.load(f)["chromium"]
    drawn, version = screenshots.make(log=lambda s: None, browser=browser)
    if version.split(".")[0] != made_by.split(".")[0]:
        pytest.skip("the pictures were made by Chromium %s, this is %s" % (made_by, version))
    assert sorted(drawn) == sorted(
        (name, lang)
        for name, _path, _view, _phone in screenshots.SHOTS
        for lang in screenshots.LANGS
    )
    stale = screenshots.stale(drawn)
    assert not stale, "not what the page draws now (make screenshots, then commit them): %s" % (
        ["%s: %s" % (os.path.relpath(p, ROOT), why) for p, why in stale]
    )

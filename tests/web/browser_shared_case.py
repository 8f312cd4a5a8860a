"""Run in one process by test_browser_shared.py (not collected by itself:
make test's workers would split its tests): two tests get the same Chromium
(tests/conftest.py's `browser`), and a test after them may still run asyncio
in this thread (Playwright's sync API leaves its loop marked running between
its calls)."""

import asyncio

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")

SEEN = []


def _use(browser):
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.set_content("<p id=x>shared</p>")
        assert page.locator("#x").text_content() == "shared"
    finally:
        ctx.close()
    SEEN.append(browser._browser)


def test_a_first_browser_test(browser):
    _use(browser)


def test_a_second_gets_the_same_browser(browser):
    _use(browser)
    assert len(SEEN) == 2 and SEEN[0] is SEEN[1]


def test_a_test_after_them_runs_asyncio_here():
    assert SEEN, "the browser tests above ran first"
    assert asyncio.run(asyncio.sleep(0, "ran")) == "ran"

"""The live page in a real Chromium on the simulated board (the firmware in
the MicroPython unix port on a pty), at a laptop's 1280 x 800: the set-up
shows the board's own settings (the computer's seats and level, the hints
and their limit, as CONF says them), before and during a match and after a
command typed; and typing commands leaves the board in view."""

import pytest
from webkit import Server

pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")

VIEW = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(board, tmp_path_factory):
    s = Server(board.port, str(tmp_path_factory.mktemp("db") / "m.sqlite")).start()
    s.wait(lambda st: st["connected"] and st["phase"] == "setup", 30)
    yield s
    s.stop()


@pytest.fixture
def page(server, browser):
    # (bypass_csp: Playwright's waits evaluate JavaScript text, which the
    # pages' Content-Security-Policy forbids)
    ctx = browser.new_context(viewport=VIEW, bypass_csp=True)
    pg = ctx.new_page()
    pg.goto(server.url + "/")
    pg.wait_for_selector("#link.ok", timeout=10000)
    yield pg
    ctx.close()


def _type(page, line):
    box = page.locator("#command")
    box.fill(line)
    box.press("Enter")
    page.wait_for_function("document.getElementById('command').value === ''", timeout=20000)


def _selects(page):
    return {
        k: page.locator("#setup-form select[name=%s]" % k).input_value()
        for k in ("computer", "level", "assist", "hintlimit")
    }


def test_the_setup_shows_the_computer_and_the_hint_limit_the_board_has(server, page):
    page.select_option("select[name=computer]", "G")
    page.select_option("select[name=level]", "2")
    page.select_option("select[name=hintlimit]", "3")
    server.wait(lambda st: st["fields"]["hintlimit"] == "3")
    want = {"computer": "G", "level": "2", "assist": "1", "hintlimit": "3"}
    page.reload()
    page.wait_for_selector("#link.ok")
    assert _selects(page) == want  # the page as it loads (the server's)
    _type(page, "confirm")
    server.wait(lambda st: st["phase"] == "play", 20)
    page.reload()
    page.wait_for_selector("#link.ok")
    page.wait_for_function("document.getElementById('phase').textContent == 'match in play'")
    assert _selects(page) == want  # during the match against the computer
    # a setting typed as a command: the select follows without a reload
    _type(page, "hintlimit 5")
    page.wait_for_function(
        "document.querySelector('select[name=hintlimit]').value == '5'", timeout=5000
    )


def test_the_board_stays_in_view_while_commands_are_typed(server, page):
    for line in ("help", "hands", "status", "mode", "mode", "mode"):
        _type(page, line)
        box = page.locator("#board").bounding_box()
        assert box and box["height"] > 300, box
        assert box["y"] >= 0 and box["y"] + box["height"] <= VIEW["height"], (line, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= VIEW["width"], (line, box)

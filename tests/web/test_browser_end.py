"""The end of a match on the live page, in a real Chromium, against a board
that ended it (tests/e2e/fakeboard.py on a pty: STATUS phase=over with
winner= and the rule that ended it, end=): the page says who won and why
where the board's words go, and in the events, not a bare dash."""

import fakeboard
import pytest
from smartboard import proto
from webkit import Server

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")

STATUS = fakeboard.STATUS.replace("watch=0", "watch=1").replace(
    "phase=setup", "phase=over moves=15 ply=14 to_play=G last=B_17_G3 winner=B"
) + (" end=two-sequences-of-4 start=black option=none")
EVENTS = [("move", "15 B 17 G3"), ("phase", "over")]
SAID = (
    "the match is over: Black (blue) wins — two distinct sequences of 4 end the match at once"
    " (RULES §3.3)"
)


@pytest.fixture(scope="module")
def board():
    def watch(b, seq, args):
        out = proto.reply_ok(seq)
        if args == ["1"]:
            out += b"".join(proto.event(k, t) for k, t in EVENTS)
        return out

    with fakeboard.FakeBoard(status=STATUS) as b:
        b.answer["WATCH"] = watch
        yield b


@pytest.fixture(scope="module")
def server(board, tmp_path_factory):
    s = Server(board.port, str(tmp_path_factory.mktemp("db") / "m.sqlite")).start()
    s.wait(lambda st: st["connected"] and st["phase"] == "over")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def page(server, browser):
    ctx = browser.new_context(bypass_csp=True)
    yield ctx.new_page()
    ctx.close()


def test_the_end_says_who_won_and_the_rule_that_ended_it(server, page):
    page.goto(server.url + "/")
    page.wait_for_selector("#link.ok")
    page.wait_for_function(
        "document.getElementById('message').textContent.startsWith('the match is over')"
    )
    assert page.locator("#message").text_content() == SAID  # was "—"
    page.wait_for_function("document.getElementById('events').textContent.includes('RULES')")
    ends = [t for t in page.locator("#events li").all_text_contents() if "is over" in t]
    assert len(ends) == 1 and ends[0].endswith(SAID), ends  # once, in words

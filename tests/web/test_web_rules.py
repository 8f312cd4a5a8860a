"""The web page's How to play: every page links to /rules, which shows the
rules in short (the companion's `help rules` text, rules_summary) and
points to the manual's How to play page, linked when the manual is built."""

import html

from apixagon_host import rules_summary
from webkit import get


def test_every_page_links_how_to_play_and_it_shows_the_summary(tmp_path, serve):
    s = serve(str(tmp_path / "not-built"))
    code, body = get(s, "/library")
    assert code == 200 and '<a href="/rules" >How to play</a>' in body
    code, body = get(s, "/rules")
    assert code == 200 and 'href="/rules" aria-current="page"' in body
    text = html.unescape(body)
    for line in rules_summary.summary_lines():
        assert line in text, line
    for _name, lines in rules_summary.topics():
        assert "\n".join(lines) in text
    # no manual built: said how to get it, no dead link
    assert "make docs" in text and "/manual/" not in body
    # the page's own words are rules_summary's, marked for translation
    for value in rules_summary.page_words(False).values():
        assert value in text, value


def test_the_manual_page_is_linked_once_built(tmp_path, serve):
    site = tmp_path / "site"
    page = site / "guide" / "how-to-play"
    page.mkdir(parents=True)
    (site / "index.html").write_text("<h1>the manual</h1>")
    (page / "index.html").write_text("<h1>How to play</h1>")
    s = serve(str(site))
    code, body = get(s, "/rules")
    assert code == 200 and 'href="/manual/guide/how-to-play/"' in body
    assert html.unescape(body).count(rules_summary.page_words(True)["manual_text"]) == 1
    assert get(s, "/manual/guide/how-to-play/") == (200, "<h1>How to play</h1>")


def test_the_rules_page_and_the_longer_header_fit_a_phone(tmp_path, serve, browser):
    s = serve(str(tmp_path / "not-built"))
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = ctx.new_page()
        for path in ("/rules", "/library"):
            page.goto(s.url + path)
            inner = page.evaluate(
                "[document.querySelector('main').scrollWidth,"
                " document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert max(inner[:2]) <= inner[2] + 1, (path, inner)
    finally:
        ctx.close()

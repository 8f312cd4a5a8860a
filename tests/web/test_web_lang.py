"""The web page in English and Italian: each request in its own language
(`?lang=it`, then remembered in a cookie; else the cookie; else the
browser's Accept-Language; else English), the language in use elsewhere
(another person's request, the server's own) unchanged; every word of the
templates marked for translation and extractable with babel.cfg's mapping;
the scripts' words from the server, none of their own.

The Italian catalogue is filled by the translators: the tests here give
the server a stand-in catalogue ('[it] ' before every message) so that
they prove the plumbing whatever the catalogue holds."""

import gettext
import html
import json
import os
import re
import urllib.request

import pytest
from apixagon_host import i18n
from apixagon_host.web import lang as L
from webkit import Server

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WEB = os.path.join(ROOT, "host", "apixagon_host", "web")


class Marked(gettext.NullTranslations):
    """A stand-in Italian catalogue: every message with '[it] ' before it."""

    def gettext(self, message):
        return "[it] " + message

    def ngettext(self, singular, plural, n):
        return "[it] " + (singular if n == 1 else plural)


@pytest.fixture
def italian(monkeypatch):
    monkeypatch.setitem(i18n._catalogues, "it", Marked())


@pytest.fixture
def server(tmp_path, italian):
    s = Server(str(tmp_path / "no-board"), str(tmp_path / "m.sqlite")).start()
    yield s
    s.stop()


def get(server, path, headers=None):
    req = urllib.request.Request(server.url + path, headers=headers or {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.read().decode(), r.headers


def page_words(body):
    m = re.search(r'<script id="page-words" type="application/json">(.*?)</script>', body, re.S)
    return json.loads(m.group(1))


def test_accept_language_picks_our_first_by_weight():
    assert L.accepted("it-IT,it;q=0.9,en;q=0.8") == "it"
    assert L.accepted("fr-FR,fr;q=0.9,en;q=0.5,it;q=0.7") == "it"
    assert L.accepted("de, fr") is None and L.accepted("") is None
    assert L.accepted("it;q=0, en") == "en"
    assert L.choose("it", "en", "en") == ("it", True)
    assert L.choose("xx", "it", "en") == ("it", False)  # an unknown ?lang= is not kept
    assert L.choose(None, None, "it") == ("it", False)
    assert L.choose(None, "nonsense", None) == ("en", False)


def test_lang_in_the_query_is_used_and_remembered(server):
    body, headers = get(server, "/library?lang=it")
    assert '<html lang="it">' in body
    assert ">[it] Library</a>" in body and "[it] Match library" in body
    cookie = headers["set-cookie"]
    assert cookie.startswith("lang=it;") and "SameSite=Strict" in cookie
    # the cookie alone, later: Italian; another person meanwhile: English
    body, _ = get(server, "/library", {"Cookie": "lang=it"})
    assert "[it] Match library" in body
    body, headers = get(server, "/library")
    assert '<html lang="en">' in body and "[it]" not in body
    assert "set-cookie" not in headers
    assert i18n.lang() == "en"  # the server's own language untouched


def test_the_browser_language_is_the_default(server):
    body, _ = get(server, "/library", {"Accept-Language": "it-IT,it;q=0.9,en;q=0.8"})
    assert '<html lang="it">' in body and "[it] Match library" in body
    body, _ = get(server, "/library", {"Accept-Language": "it", "Cookie": "lang=en"})
    assert '<html lang="en">' in body  # the switch's choice wins over the browser's


def test_the_switch_links_keep_the_page_and_its_query(server):
    body, _ = get(server, "/library?lang=it")
    links = dict(
        (code, html.unescape(href))
        for href, code in re.findall(r'<a href="([^"]+)" lang="(\w+)" hreflang', body)
    )
    assert links == {"en": "/library?lang=en", "it": "/library?lang=it"}
    assert re.search(r'lang="it" hreflang="it" aria-current="true">Italiano</a>', body)


def test_the_scripts_words_come_from_the_server_in_the_page_language(server):
    en = page_words(get(server, "/library")[0])
    it = page_words(get(server, "/library?lang=it")[0])
    assert en["saved"] == "saved" and it["saved"] == "[it] saved"
    assert set(en) == set(it)
    # the live state (the page's script shows it as it comes) in the request's language too
    with urllib.request.urlopen(
        urllib.request.Request(server.url + "/api/state", headers={"Cookie": "lang=it"}), timeout=10
    ) as r:
        assert json.load(r)["link_text"] == "[it] no board: looking for one…"


def test_the_live_stream_speaks_the_page_language(server):
    # the page's updates (server-sent events), one stream per page
    req = urllib.request.Request(server.url + "/events", headers={"Cookie": "lang=it"})
    with urllib.request.urlopen(req, timeout=10) as r:
        for raw in r:
            line = raw.decode()
            if line.startswith("data: "):
                assert json.loads(line[6:])["link_text"] == "[it] no board: looking for one…"
                break


def test_every_key_the_scripts_ask_for_is_given():
    from apixagon_host.web.pagewords import PAGE_WORDS

    asked = set()
    for name in os.listdir(os.path.join(WEB, "static")):
        if name.endswith(".js"):
            with open(os.path.join(WEB, "static", name)) as f:
                text = f.read()
            asked |= set(re.findall(r'\bwords\("(\w+)"[,)]', text))
            # jobs.js: "job_" + the job's name (bridge.run_job's: pull, update)
            if 'words("job_" + job.name)' in text:
                asked |= {"job_pull", "job_update"}
    assert asked and asked <= set(PAGE_WORDS), asked - set(PAGE_WORDS)


# Text in the templates that is not a word to translate: the brand, the
# companion's commands (typed as they are in any language), separators.
NOT_WORDS = (
    "APIXAGON",
    "JSON",
    "(put E4 B12 · lift E4 · clear · tap Gbee · confirm · declare · mode · pass · out 3)",
)


def _bare_text(source):
    """The text and the words in attributes a person reads that a template
    shows as it is written (not through _() or {% trans %})."""
    source = re.sub(r"\{%-? *trans\b.*?endtrans *-?%\}", " ", source, flags=re.S)
    source = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", source, flags=re.S)
    source = re.sub(r"<script\b.*?</script>|<style\b.*?</style>", " ", source, flags=re.S)
    found = re.findall(r'\b(?:aria-label|alt|title|placeholder)="([^"]*)"', source)
    found += re.split(r"<[^>]*>", source)
    out = []
    for text in found:
        for keep in NOT_WORDS:
            text = text.replace(keep, " ")
        if re.search(r"[A-Za-z]{2,}", text):
            out.append(" ".join(text.split()))
    return out


def test_every_template_string_is_marked():
    folder = os.path.join(WEB, "templates")
    bare = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as f:
            left = _bare_text(f.read())
        if left:
            bare[name] = left
    assert not bare, "mark them with _() or {%% trans %%}: %s" % bare


def test_the_templates_are_extractable_with_babel_cfg():
    extract = pytest.importorskip("babel.messages.extract")
    from babel.messages.frontend import parse_mapping_cfg

    # babel.cfg's map, run on host/ as make i18n runs it, with its keywords
    with open(os.path.join(ROOT, "babel.cfg")) as f:
        method_map, options_map = parse_mapping_cfg(f)
    assert ("jinja2", {"extensions": "jinja2.ext.i18n"}) in [
        (m, options_map.get(p)) for p, m in method_map
    ]
    keywords = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
    ids = set()
    for path, _line, message, _comments, _ctx in extract.extract_from_dir(
        os.path.join(ROOT, "host"),
        method_map=method_map,
        options_map=options_map,
        keywords=keywords,
    ):
        if path.endswith(".html"):
            ids.add(message if isinstance(message, str) else message[0])
    for want in ("Live", "Keep the names", "Match library", "Skip to content", "Firmware update"):
        assert want in ids, want


def test_a_script_shows_the_page_language_in_a_browser(tmp_path, italian, browser):
    # the replay's slider: match.js words the position from the page's words
    from apixagon_host.store import Store
    from test_web_library import COMPUTER, log_bytes

    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(COMPUTER))
    srv = Server(str(tmp_path / "no-board"), db).start()
    ctx = browser.new_context(bypass_csp=True)
    try:
        page = ctx.new_page()
        page.goto(srv.url + "/match/1?lang=it")
        page.wait_for_selector("#match[data-ready]")
        assert page.locator("#ply-text").text_content() == "[it] move 1 of 1"  # the server's
        page.locator("body").press("Home")
        page.wait_for_selector('#position[data-ply="0"]')
        assert page.locator("#ply-text").text_content() == "[it] move 0 of 1"  # the script's
        # the choice is remembered: the next page, without ?lang=, in Italian
        page.goto(srv.url + "/library")
        assert page.locator("html").get_attribute("lang") == "it"
        page.locator('header nav.lang a[lang="en"]').click()
        page.wait_for_function("document.documentElement.lang == 'en'")
        assert page.locator("h1").text_content() == "Match library"
    finally:
        ctx.close()
        srv.stop()

"""The host's words in English and Italian (docs/development/i18n.md).

The catalogue test extracts every marked string as `make i18n` does (into
a temporary .pot) and fails when a catalogue lacks one, holds it fuzzy,
leaves its Italian empty or changes its placeholders: run `make i18n`,
then translate what it added in host/apixagon_host/locale/it/LC_MESSAGES/
apixagon.po. The language tests run the `apixagon` command as a person
does: --lang, APIXAGON_LANG, the system's LANG."""

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("babel")

from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOCALE = os.path.join(ROOT, "host", "apixagon_host", "locale")
LANGS = ("en", "it")
# The Makefile's `make i18n` extract, word for word (its keywords and map).
EXTRACT = [
    "extract",
    "-F",
    "babel.cfg",
    "--no-default-keywords",
    "-k",
    "_",
    "-k",
    "N_",
    "-k",
    "ngettext:1,2",
    "-k",
    "gettext",
    "host",
]


def po_path(lang):
    return os.path.join(LOCALE, lang, "LC_MESSAGES", "apixagon.po")


def read(path, locale=None):
    with open(path, "rb") as f:
        return read_po(f, locale=locale)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    pot = str(tmp_path_factory.mktemp("i18n") / "apixagon.pot")
    r = subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q"] + EXTRACT + ["-o", pot],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return read(pot)


def _ids(message):
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _strings(message):
    s = message.string
    return s if isinstance(s, (tuple, list)) else (s,)


# %-placeholders (%s, %d, %(name)s, %5.1f, %r; %% is a literal) and
# str.format's named ones ({name}).
_PERCENT = re.compile(r"%(?:\((\w+)\))?[#0 +-]*(?:\d+|\*)?(?:\.(?:\d+|\*))?([diouxXeEfFgGcrsa%])")
_BRACE = re.compile(r"(?<!\{)\{(\w*)(?:[!:][^}]*)?\}(?!\})")


def placeholders(text, python_format=True):
    """The placeholders of a message: named ones as a sorted list (their
    order may change in a translation), positional ones in order."""
    named, positional = [], []
    if python_format:
        for m in _PERCENT.finditer(text):
            if m.group(2) == "%":
                continue
            if m.group(1):
                named.append("%%(%s)%s" % (m.group(1), m.group(2)))
            else:
                positional.append("%" + m.group(2))
    named += ["{%s}" % n for n in _BRACE.findall(text)]
    return sorted(named), positional


def _problems(template, lang):
    catalog = read(po_path(lang), lang)
    out = []
    for msg in template:
        if not msg.id:
            continue
        have = catalog.get(msg.id)
        if have is None:
            out.append("missing: %r" % (msg.id,))
            continue
        if have.fuzzy:
            out.append("fuzzy (check it, then remove the fuzzy flag): %r" % (msg.id,))
        strings = _strings(have)
        if lang == "it" and not all(strings):
            out.append("no Italian: %r" % (msg.id,))
        pyfmt = "python-format" in msg.flags
        for source, text in zip(_ids(msg) * 2, strings):
            if text and placeholders(text, pyfmt) != placeholders(_ids(msg)[0], pyfmt):
                if len(_ids(msg)) == 2 and placeholders(text, pyfmt) == placeholders(
                    _ids(msg)[1], pyfmt
                ):
                    continue  # a plural form with the plural's placeholders
                out.append("placeholders differ: %r -> %r" % (_ids(msg)[0], text))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_string_is_in_the_catalogue_and_translated(template, lang):
    assert len(template) > 50  # the extraction found the marked strings
    problems = _problems(template, lang)
    assert not problems, (
        "%s catalogue (%s): %d problem(s); run make i18n, translate, remove fuzzy flags:\n  %s"
        % (lang, po_path(lang), len(problems), "\n  ".join(problems[:40]))
    )


def test_placeholders_are_compared_by_name_and_order():
    p = placeholders
    assert p("%(n)d of %(total)d") == p("%(total)d: %(n)d")  # named: any order
    assert p("%s on %s") == ([], ["%s", "%s"])
    assert p("%s then %d") != p("%d then %s")
    assert p("100%% done") == ([], [])
    assert p("{name} wins") != p("{nome} vince")
    assert p("%(n)d card") != p("%(n)s card")


@pytest.fixture(scope="module")
def compiled():
    """The .mo files, compiled from the .po when missing or older (what
    make does before run, test and install), so this file runs alone."""
    for lang in LANGS:
        po = po_path(lang)
        mo = po[:-3] + ".mo"
        if not os.path.exists(mo) or os.path.getmtime(mo) < os.path.getmtime(po):
            with open(mo, "wb") as f:
                write_mo(f, read(po, lang))
    return True


def apixagon(*argv, **env):
    """Run `apixagon ARGV` with the environment's language variables set
    to env's only (None: left out): (exit code, stdout, stderr)."""
    e = {
        k: v
        for k, v in os.environ.items()
        if k not in ("APIXAGON_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
    }
    e.update({k: v for k, v in env.items() if v is not None})
    r = subprocess.run(
        [sys.executable, "-m", "apixagon_host.cli"] + list(argv),
        capture_output=True,
        text=True,
        env=e,
        timeout=60,
    )
    return r.returncode, r.stdout, r.stderr


def test_lang_it_gives_the_help_in_italian_argparse_words_too(compiled):
    code, out, err = apixagon("--lang", "it", "--help")
    assert code == 0, err
    assert out.startswith("utilizzo: apixagon")
    assert "mostra questo messaggio di aiuto ed esci" in out
    assert "convalida un registro di partita .apx" in out  # check's help
    assert "usage:" not in out and "show this help" not in out


def test_english_without_a_language_asked_for(compiled):
    code, out, err = apixagon("--help")
    assert code == 0, err
    assert out.startswith("usage: apixagon")
    assert "validate an .apx match record" in out


def test_apixagon_lang_chooses_italian(compiled):
    code, out, err = apixagon("--help", APIXAGON_LANG="it")
    assert code == 0 and out.startswith("utilizzo: apixagon")


def test_the_system_locale_chooses_italian(compiled):
    code, out, err = apixagon("--help", LANG="it_IT.UTF-8")
    assert code == 0 and out.startswith("utilizzo: apixagon")


def test_lang_overrides_the_environment(compiled):
    code, out, err = apixagon("--lang", "en", "--help", APIXAGON_LANG="it", LANG="it_IT.UTF-8")
    assert code == 0 and out.startswith("usage: apixagon")


def test_lang_after_the_command_and_a_usage_error_in_italian(compiled):
    code, out, err = apixagon("logs", "show", "--lang=it")
    assert code == 2
    assert "sono richiesti i seguenti argomenti: id" in err
    assert "utilizzo: apixagon logs show" in err


def test_an_error_in_italian(compiled, tmp_path):
    code, out, err = apixagon("--lang", "it", "check", str(tmp_path / "none.apx"))
    assert code == 2
    assert err.startswith("apixagon: impossibile leggere ")


def test_unknown_lang_is_refused_in_words():
    from apixagon_host.errors import EXIT_USAGE

    code, out, err = apixagon("--lang", "xx", "status")
    assert code == EXIT_USAGE
    assert out == ""
    assert err == "apixagon: unknown language 'xx': --lang takes en (English) or it (Italian)\n"
    code, out, err = apixagon("status", "--lang")
    assert code == EXIT_USAGE and "--lang needs a language: en or it" in err


def test_a_language_chosen_in_process_does_not_outlive_main(compiled):
    """cli.main() sets the language of each run (--lang, else the
    environment's), and hands argparse back its own words after."""
    import argparse
    import io

    from apixagon_host import cli, i18n

    saved = argparse._
    out = io.StringIO()
    try:
        assert cli.main(["--lang", "it", "--version"], cli.State(out=out)) == 0
        assert i18n.lang() == "it"
        assert argparse._ is saved
        assert cli.main(["--version"], cli.State(out=out)) == 0
        assert i18n.lang() == "en"  # tests/conftest.py: APIXAGON_LANG=en
    finally:
        i18n.set_lang(None)

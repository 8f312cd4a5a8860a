"""The language a person reads: gettext catalogues (Babel extracts, updates
and compiles them in `make`; host/apixagon_host/locale/<lang>/LC_MESSAGES/
apixagon.mo), chosen by `--lang`, then APIXAGON_LANG, then the system's
locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), English when none is ours.

Strings are marked with `_()` where they are shown; a table built at import
marks its strings with `N_()` and translates them where they are read, so
a language chosen after the import (`--lang`) still applies.

A server that serves several people (the web page) reads each one's in a
context of its own (`using(lang)`: a contextvars context, one request's
task or thread), the language in use elsewhere unchanged."""

import contextlib
import contextvars
import gettext
import os

DOMAIN = "apixagon"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
LANGS = ("en", "it")
DEFAULT = "en"

_state = {"lang": None, "tr": None}
_catalogues = {}  # lang -> its translation, loaded once (translation())
# (lang, translation) of the context using() set, or None: the language in use
_here = contextvars.ContextVar("apixagon_lang", default=None)


def system_lang(environ=None):
    """The first of our languages the environment asks for, else None."""
    env = os.environ if environ is None else environ
    for key in ("APIXAGON_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        for part in (env.get(key) or "").split(":"):
            code = part.split(".")[0].split("_")[0].split("-")[0].lower()
            if code in LANGS:
                return code
            if code in ("c", "posix"):
                break
    return None


def code_of(lang):
    """Our code of a language tag ('it_IT.UTF-8', 'it-IT', 'IT': 'it'); an
    unknown one is refused in words (ValueError)."""
    code = lang.lower().split(".")[0].split("_")[0].split("-")[0]
    if code not in LANGS:
        raise ValueError("unknown language %r: %s" % (lang, ", ".join(LANGS)))
    return code


def translation(lang):
    """The catalogue of `lang` (a gettext translation: gettext, ngettext),
    without changing the language in use: a server hands each person's
    request its own. ValueError for a language we have none of."""
    code = code_of(lang)
    if code not in _catalogues:
        _catalogues[code] = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    return _catalogues[code]


@contextlib.contextmanager
def using(lang):
    """_() and ngettext() in `lang` within this context (contextvars: the
    request's task, and the threads it hands work to with its context);
    the language in use elsewhere is unchanged."""
    token = _here.set((code_of(lang), translation(lang)))
    try:
        yield
    finally:
        _here.reset(token)


def set_lang(lang=None):
    """Use `lang` ('en', 'it'), or the environment's when None; the code
    in use. An unknown code is refused in words (ValueError)."""
    if lang is None:
        lang = system_lang() or DEFAULT
    lang = code_of(lang)
    _state["lang"] = lang
    _state["tr"] = translation(lang)
    return lang


def lang():
    """The language in use (chosen from the environment on first use), or
    the one using() set in this context."""
    here = _here.get()
    if here is not None:
        return here[0]
    if _state["lang"] is None:
        set_lang()
    return _state["lang"]


def _tr():
    here = _here.get()
    if here is not None:
        return here[1]
    if _state["tr"] is None:
        set_lang()
    return _state["tr"]


def _(message):
    """`message` in the language in use."""
    return _tr().gettext(message)


def ngettext(singular, plural, n):
    """The singular or plural of a counted message, translated."""
    return _tr().ngettext(singular, plural, n)


def N_(message):
    """Mark a string for extraction only: translated where it is shown."""
    return message

"""The language a person reads: gettext catalogues (Babel extracts, updates
and compiles them in `make`; host/apixagon_host/locale/<lang>/LC_MESSAGES/
apixagon.mo), chosen by `--lang`, then APIXAGON_LANG, then the system's
locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), English when none is ours.

Strings are marked with `_()` where they are shown; a table built at import
marks its strings with `N_()` and translates them where they are read, so
a language chosen after the import (`--lang`) still applies."""

import gettext
import os

DOMAIN = "apixagon"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
LANGS = ("en", "it")
DEFAULT = "en"

_state = {"lang": None, "tr": None}


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


def set_lang(lang=None):
    """Use `lang` ('en', 'it'), or the environment's when None; the code
    in use. An unknown code is refused in words (ValueError)."""
    if lang is None:
        lang = system_lang() or DEFAULT
    lang = lang.lower().split("_")[0].split("-")[0]
    if lang not in LANGS:
        raise ValueError(
            "unknown language %r: %s" % (lang, ", ".join(LANGS))
        )
    _state["lang"] = lang
    _state["tr"] = gettext.translation(
        DOMAIN, LOCALE_DIR, languages=[lang], fallback=True
    )
    return lang


def lang():
    """The language in use (chosen from the environment on first use)."""
    if _state["lang"] is None:
        set_lang()
    return _state["lang"]


def _tr():
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

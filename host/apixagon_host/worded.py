"""A line in words kept as what it says (a wording function and its
arguments), so that each reader words it in their own language: the
monitor's events are worded once as they come, in the language of the
program that hears them, and the web page, where each page has its own
language (web/lang.py), words them again for each page (i18n.using)."""

from . import i18n


class Worded(str):
    """fn(*args, **kw) in the language in use when it was made (a str, so a log
    or a terminal shows it as it is); again() words it in the language in
    use now. fn must word its arguments alone (_() and the words.py
    functions), without state that changes afterwards."""

    __slots__ = ("fn", "args", "kw", "_said")

    def __new__(cls, fn, *args, **kw):
        text = fn(*args, **kw)
        self = super().__new__(cls, text)
        self.fn = fn
        self.args = args
        self.kw = kw
        self._said = {i18n.lang(): text}
        return self

    def again(self):
        lang = i18n.lang()
        if lang not in self._said:
            self._said[lang] = self.fn(*self.args, **self.kw)
        return self._said[lang]


def message(msgid, **fields):
    """A message (marked N_() where it is written) translated and filled
    in: Worded(message, N_("lost the board ({why})"), why=...)."""
    return i18n._(msgid).format(**fields)


def again(text):
    """text in the language in use now: a Worded worded again, any other
    text (the board's own words, a code) as it is."""
    return text.again() if isinstance(text, Worded) else text

"""Text from a board or a database made safe to print on a terminal.

A log's lines, a match's board and name, a board's messages are the
board's (or another program's) text: a hostile or broken one may hold
escape sequences that recolour, clear or retitle the user's terminal, hide
what follows, or answer back. What the host prints for a person goes
through clean(): each control character (C0, DEL, C1, Unicode format
characters such as the bidirectional overrides, line and paragraph
separators, surrogates, unassigned code points) is shown escaped, `\\x1b`,
`\\u202e`, so the user sees that something was there and the terminal
acts on none of it. Printable text, accents included, is left alone."""

import unicodedata

_UNSAFE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def clean(text):
    """text with every control character written as a visible escape."""
    if text.isprintable():  # the common case: nothing to look at
        return text
    return "".join(_escape(c) for c in text)


def _escape(c):
    if c == " " or unicodedata.category(c) not in _UNSAFE:
        return c
    n = ord(c)
    return "\\x%02x" % n if n < 0x100 else "\\u%04x" % n if n < 0x10000 else "\\U%08x" % n


def clean_lines(text):
    """clean() each line of text, keeping its newlines."""
    return "\n".join(clean(line) for line in text.split("\n"))


# What a person typed, echoed back in an error (`unknown command 'fly'`):
# this much at most, so that a pasted 5,000-character line makes one short
# line, not a screen of them.
ECHO = 40


def cap(text, n=ECHO):
    """text cut to n characters, "…" after it when it was longer."""
    return text if len(text) <= n else text[:n] + "…"


def typed(text, n=ECHO):
    """What a person typed, quoted as %r quotes it, cut to n characters."""
    return repr(cap(text, n))

"""A small reader for KiCad's S-expression files (the netlist SKiDL writes,
the DRC report's neighbours): nested lists of strings, nothing more.

Pure Python with no imports of ours, so that both the project's Python and
Debian's (the one with KiCad's pcbnew module) can use it."""

import re

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def parse(text):
    """The first S-expression in text, as nested lists of strings."""
    stack = [[]]
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip():
                raise ValueError(
                    "s-expression: cannot read at %d: %r" % (pos, text[pos : pos + 20])
                )
            break
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            done = stack.pop()
            if not stack:
                raise ValueError("s-expression: ')' without '(' at %d" % pos)
            stack[-1].append(done)
        elif m.group(3) is not None:
            stack[-1].append(m.group(3).replace('\\"', '"').replace("\\\\", "\\"))
        else:
            stack[-1].append(m.group(4))
    if len(stack) != 1 or not stack[0]:
        raise ValueError("s-expression: unbalanced")
    return stack[0][0]


def find(node, key):
    """The children of node whose head is key."""
    return [c for c in node if isinstance(c, list) and c and c[0] == key]


def first(node, key, default=None):
    got = find(node, key)
    return got[0] if got else default


def value(node, key, default=None):
    """The string after key in node's child (key value), or default."""
    got = first(node, key)
    return got[1] if got and len(got) > 1 else default


def read_netlist(text):
    """A KiCad netlist's parts and nets: ({ref: {value, footprint, fields}},
    {net name: [(ref, pin), ...]})."""
    root = parse(text)
    comps = {}
    for c in find(first(root, "components", []), "comp"):
        fields = {}
        for f in find(first(c, "fields", []), "field"):
            name = value(f, "name")
            fields[name] = f[2] if len(f) > 2 and isinstance(f[2], str) else ""
        comps[value(c, "ref")] = {
            "value": value(c, "value", ""),
            "footprint": value(c, "footprint", ""),
            "fields": fields,
        }
    nets = {}
    for n in find(first(root, "nets", []), "net"):
        nodes = [(value(x, "ref"), value(x, "pin")) for x in find(n, "node")]
        nets[value(n, "name")] = nodes
    return comps, nets

"""The card symbols' names and art, read once from data/symbols.json.

RULES.md §1: "Symbol names are data, not code (the printed art may
change)". The rules core knows symbols only as numbers 0..30; the file
gives each a name in English and Italian, a colour and a pictogram drawn
in a small box, and the special cards' icons. The ten names the manual
gives are marked; the other 21 are placeholders until the printed art is
known. Read through importlib.resources so that an installed package
(wheel or editable) finds its own copy.
"""

import json
from importlib import resources
from xml.sax.saxutils import quoteattr

NSYMBOLS = 31
SPECIAL_KINDS = ("rain", "beekeeper", "smoker")

_cache = None


def load():
    """The parsed file (a dict: 'box', 'symbols', 'specials'), read and
    checked on the first call only."""
    global _cache
    if _cache is None:
        text = resources.files(__package__).joinpath("data/symbols.json").read_text("utf-8")
        _cache = _checked(json.loads(text))
    return _cache


def _checked(data):
    # A broken art file should fail here, by name, not as a KeyError deep
    # in the renderer.
    syms = data["symbols"]
    if [s["id"] for s in syms] != list(range(NSYMBOLS)):
        raise ValueError("symbols.json: symbols must be ids 0..30 in order")
    for s in syms:
        for key in ("en", "it", "color", "layers"):
            if key not in s:
                raise ValueError("symbols.json: symbol %d has no %r" % (s["id"], key))
    for kind in SPECIAL_KINDS:
        if kind not in data["specials"]:
            raise ValueError("symbols.json: no icon for the special %r" % kind)
    return data


def name(sym, lang="en"):
    """'Queen Bee' (or 'Ape Regina' with lang='it') for a symbol number."""
    return load()["symbols"][sym][lang]


def svg_paths(layers, colour=None, background=None):
    """A glyph's layers as SVG <path> elements in its box. Each layer has
    'd' and a 'fill' and/or a 'stroke' with 'width'. colour: draw every
    layer in that one colour (the specials' icons: a layer with a 'width'
    is a stroke); 'knockout' layers take the background colour instead
    (a veil's mesh)."""
    out = []
    for layer in layers:
        d = quoteattr(layer["d"])
        if colour is not None:
            ink = background if layer.get("knockout") else colour
            if "width" in layer:
                out.append(
                    '<path d=%s fill="none" stroke="%s" stroke-width="%s" '
                    'stroke-linecap="round" stroke-linejoin="round"/>'
                    % (d, ink, _num(layer["width"]))
                )
            else:
                out.append('<path d=%s fill="%s" fill-rule="evenodd"/>' % (d, ink))
            continue
        attrs = 'fill="%s" fill-rule="evenodd"' % layer.get("fill", "none")
        if "stroke" in layer:
            attrs += (
                ' stroke="%s" stroke-width="%s" stroke-linecap="round" stroke-linejoin="round"'
                % (layer["stroke"], _num(layer.get("width", 1)))
            )
        out.append("<path d=%s %s/>" % (d, attrs))
    return "".join(out)


def _num(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")

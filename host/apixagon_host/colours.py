"""Colour measures for the LED palettes and the labels drawn on them: sRGB
to CIELAB, the CIEDE2000 colour difference, colour vision deficiency
simulated, and the WCAG 2.x contrast ratio of a text on its ground. Pure
Python, no dependency: tests/host/test_colours.py holds the palettes to
the thresholds below, and render.py picks each label's ink with it.

What is measured is the palette entry as the web page and the pictures
draw it: its three bytes taken as sRGB. They are the board's "eye-linear"
colours (smartboard.view): the painter then applies gamma 2.6, the
brightness setting and the current limit before the LEDs light, so an LED
is a dimmer, more saturated light than the swatch; the differences between
the entries are what the palette decides, and what is held here.

The thresholds, and why (checked by tests/host/test_colours.py; ΔE00 1 is
about the smallest difference seen side by side, up to 10 one seen at a
glance, beyond that two colours read as different colours rather than
shades of one):
- MIN_DE00 = 20: in the standard palette any two entries the board can
  show, dark included, are at least ΔE00 20 apart. A player matches a cell
  against the legend held in memory, not side by side, and colour memory
  is several times coarser than a side-by-side look; twice the "at a
  glance" 10 keeps two meanings apart that way, with a margin for the
  LEDs' own error. It is also about the most that 25 entries can keep
  inside sRGB with their usual hues (red for an error, green for a legal
  cell, blue and gold for the sides, a neutral last move): a search of
  the gamut (coordinate ascent from random starts, 18 levels a channel)
  found no such set past 21.
- MIN_DE00_CB = 15 and MIN_DE00_CVD = 10: the colour-blind palette keeps
  every pair 15 apart for normal vision and 10 apart for protanopia and
  deuteranopia, simulated after Machado, Oliveira and Fernandes (2009) at
  severity 1.0 (the full dichromacies, the hardest case of each). A
  dichromat's colours lie on a surface, lightness and one blue-yellow
  axis, not in a volume: the same search found no set of 25 past 10.4
  under both simulations while keeping 15 for normal eyes. Where two entries are
  nearest, their blinking (steady, slow, fast) is a second cue, never the
  only one.
- MIN_CONTRAST = 4.5: a text label on a fill (a cell's name and the Royal
  Cell's word on a live board's LED colour, the legend's blink marks, the
  pictures' own labels) reaches WCAG 2.x's AA ratio for normal text: on
  an LED colour the label is black or white, whichever reads better
  (ink_on: at least 4.58 on any fill).
- MIN_CHANNEL = 128: every entry but dark has a channel of at least 128,
  which the painter's gamma 2.6 still drives at 6 of 255 at the lowest
  brightness (40): a meaning never goes dark when the board is dimmed.
"""

import math

MIN_DE00 = 20.0  # the standard palette, any two entries
MIN_DE00_CB = 15.0  # the colour-blind palette, normal vision
MIN_DE00_CVD = 10.0  # the colour-blind palette, protanopia and deuteranopia
MIN_CONTRAST = 4.5  # a label on its fill (WCAG 2.x AA, normal text)
MIN_CHANNEL = 128  # the brightest channel of every entry but dark

# sRGB (IEC 61966-2-1) linear RGB -> CIE XYZ, D65 white
_RGB_XYZ = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
_WHITE = (0.95047, 1.0, 1.08883)  # D65, Y = 1

# Machado, Oliveira and Fernandes (2009), "A physiologically-based model
# for simulation of color vision deficiency", the severity 1.0 matrices
# (protanopia, deuteranopia), applied to linear RGB.
CVD = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}


def linear(c):
    """An sRGB byte (0..255) as linear light, 0..1."""
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def encoded(v):
    """Linear light (clipped to 0..1) as an sRGB value 0..255 (a float)."""
    v = min(1.0, max(0.0, v))
    v = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return 255.0 * v


def _mul(m, v):
    return tuple(m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2] for i in range(3))


def lab(rgb):
    """CIELAB (D65) of an sRGB colour given as three bytes."""
    x, y, z = _mul(_RGB_XYZ, [linear(c) for c in rgb])

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x / _WHITE[0]), f(y / _WHITE[1]), f(z / _WHITE[2])
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def simulate(rgb, kind):
    """The sRGB colour (floats 0..255) a dichromat of kind (a key of CVD)
    sees for rgb, after Machado et al. (2009) at severity 1.0."""
    return tuple(encoded(v) for v in _mul(CVD[kind], [linear(c) for c in rgb]))


def ciede2000(lab1, lab2, kl=1.0, kc=1.0, kh=1.0):
    """ΔE00 between two CIELAB colours: CIE 142-2001, as written out by
    Sharma, Wu and Dalal (2005), whose test pairs tests/host/test_colours.py
    checks it against (the hue wrap-arounds included)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    c7 = cbar**7
    g = 0.5 * (1 - math.sqrt(c7 / (c7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)

    def hue(b, ap):
        if b == 0 and ap == 0:
            return 0.0
        return math.degrees(math.atan2(b, ap)) % 360.0

    h1p, h2p = hue(b1, a1p), hue(b2, a2p)
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dhhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))

    lbarp = (l1 + l2) / 2
    cbarp = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbarp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbarp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbarp = (h1p + h2p + 360) / 2
    else:
        hbarp = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbarp - 30))
        + 0.24 * math.cos(math.radians(2 * hbarp))
        + 0.32 * math.cos(math.radians(3 * hbarp + 6))
        - 0.20 * math.cos(math.radians(4 * hbarp - 63))
    )
    dtheta = 30 * math.exp(-(((hbarp - 275) / 25) ** 2))
    cbarp7 = cbarp**7
    rc = 2 * math.sqrt(cbarp7 / (cbarp7 + 25.0**7))
    sl = 1 + 0.015 * (lbarp - 50) ** 2 / math.sqrt(20 + (lbarp - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    dl = dlp / (kl * sl)
    dc = dcp / (kc * sc)
    dh = dhhp / (kh * sh)
    return math.sqrt(dl * dl + dc * dc + dh * dh + rt * dc * dh)


def delta_e(rgb1, rgb2):
    """ΔE00 between two sRGB colours (three bytes or floats 0..255)."""
    return ciede2000(lab(rgb1), lab(rgb2))


def luminance(rgb):
    """WCAG 2.x relative luminance of an sRGB colour (0 black, 1 white)."""
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(rgb1, rgb2):
    """WCAG 2.x contrast ratio of two sRGB colours, 1 to 21."""
    a, b = luminance(rgb1), luminance(rgb2)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


BLACK = (0, 0, 0)
WHITE = (255, 255, 255)


def ink_on(fill):
    """Black or white, whichever reads better on fill (its contrast
    ratio is the higher: at least 4.58 for any fill)."""
    return BLACK if contrast(BLACK, fill) >= contrast(WHITE, fill) else WHITE


def rgb_of(text):
    """(r, g, b) of '#rrggbb'."""
    text = text.lstrip("#")
    return tuple(int(text[i : i + 2], 16) for i in (0, 2, 4))


def hex_of(rgb):
    return "#%02x%02x%02x" % tuple(int(round(c)) for c in rgb)


def entries(pal):
    """The palette bytes as a list of (r, g, b), one per entry."""
    return [tuple(pal[i : i + 3]) for i in range(0, len(pal), 3)]


def closest(colours, sim=None):
    """(ΔE00, i, j) of the two closest colours in the list (as seen by a
    dichromat sim, a key of CVD, or by normal vision when None)."""
    if sim:
        colours = [simulate(c, sim) for c in colours]
    labs = [lab(c) for c in colours]
    best = (float("inf"), -1, -1)
    for i in range(len(labs)):
        for j in range(i + 1, len(labs)):
            d = ciede2000(labs[i], labs[j])
            if d < best[0]:
                best = (d, i, j)
    return best


def report(palettes, names=None):
    """Lines of text: each palette's closest pair for normal vision and
    under each simulation. palettes: name -> palette bytes; names: the
    entries' names, by index."""
    out = []
    for name, pal in palettes.items():
        cols = entries(pal)
        for sim in (None,) + tuple(CVD):
            d, i, j = closest(cols, sim)
            i, j = (names[i], names[j]) if names else (i, j)
            out.append("%-13s %-13s ΔE00 %5.1f  %s - %s" % (name, sim or "normal", d, i, j))
    return out


if __name__ == "__main__":  # python -m apixagon_host.colours: the palettes' figures
    from smartboard import cbpalette, view
    from smartboard.sim.legend import LEGEND

    names = ["dark"] + ["?"] * (view.NCOLOURS - 1)
    for v, text in reversed(LEGEND):
        names[v & 0x3F] = text
    pals = {"standard": bytes(view.PALETTE), "colour-blind": cbpalette.PALETTE_CB}
    print("\n".join(report(pals, names)))

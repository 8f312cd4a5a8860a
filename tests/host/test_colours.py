"""The LED palettes held to measured colour differences, and the labels
drawn on them to a contrast ratio (apixagon_host.colours, which states the
thresholds and why); the colour science itself checked against published
values; every legend drawn from the one table, which names every entry."""

import xml.etree.ElementTree as ET

import pytest
from apixagon.game import Game
from apixagon_host import colours as C
from apixagon_host import position as P
from apixagon_host import render
from smartboard import cbpalette, view
from smartboard.sim import legend

PALETTES = {"standard": bytes(view.PALETTE), "colour-blind": cbpalette.PALETTE_CB}
ENTRY = {
    getattr(view, n): n
    for n in (
        "OFF SIDE0 SIDE1 LEGAL EXTEND BLOCKS THREAT ROYAL_LOCKED ROYAL_OPEN SEALED_RUN LAST "
        "ERR_RED ERR_AMBER ERR_UNKNOWN ERR_TAP RESERVED CLEAR SETTING STORAGE POOR"
    ).split()
}
SEATS = ("A1", "A2", "A3", "B1", "B2", "B3")
ENTRY.update({view.SEAT + i: "SEAT_" + s for i, s in enumerate(SEATS)})

# Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula:
# implementation notes, supplementary test data, and mathematical
# observations", Table 1: (L*a*b* 1, L*a*b* 2, ΔE00)
SHARMA = (
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
)


# ---- the measures ---------------------------------------------------------


def test_ciede2000_gives_the_published_differences_of_sharmas_34_pairs():
    assert len(SHARMA) == 34
    for lab1, lab2, want in SHARMA:
        # the table's 4 decimals; either order (the formula is symmetric)
        assert C.ciede2000(lab1, lab2) == pytest.approx(want, abs=1e-4)
        assert C.ciede2000(lab2, lab1) == pytest.approx(want, abs=1e-4)


def test_cielab_of_srgb_white_black_and_the_primaries():
    assert C.lab((255, 255, 255)) == pytest.approx((100, 0, 0), abs=1e-3)
    assert C.lab((0, 0, 0)) == pytest.approx((0, 0, 0), abs=1e-9)
    # D65, as every sRGB to CIELAB conversion without adaptation gives them
    assert C.lab((255, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.01)
    assert C.lab((0, 255, 0)) == pytest.approx((87.73, -86.18, 83.18), abs=0.01)
    assert C.lab((0, 0, 255)) == pytest.approx((32.30, 79.19, -107.86), abs=0.01)
    assert C.lab((119, 119, 119))[0] == pytest.approx(50.0, abs=0.1)


def test_the_dichromat_simulations_keep_greys_and_merge_red_with_green():
    for kind in C.CVD:
        for grey in (0, 119, 255):
            got = C.simulate((grey, grey, grey), kind)
            assert got == pytest.approx((grey, grey, grey), abs=0.6)  # rows sum to 1
        # red and green, 86 apart, come within a third of it
        assert C.delta_e(C.simulate((255, 0, 0), kind), C.simulate((0, 160, 0), kind)) < 30
        # blue and yellow stay far apart: the axis a dichromat keeps
        assert C.delta_e(C.simulate((0, 0, 255), kind), C.simulate((255, 255, 0), kind)) > 80
    assert C.delta_e((255, 0, 0), (0, 160, 0)) > 70


def test_contrast_ratio_is_wcags():
    assert C.contrast(C.BLACK, C.WHITE) == pytest.approx(21.0)
    assert C.contrast((90, 90, 90), (90, 90, 90)) == 1.0
    assert C.contrast((0x77, 0x77, 0x77), C.WHITE) == pytest.approx(4.48, abs=0.01)
    for fill in ((0, 0, 0), (255, 0, 0), (0, 114, 178), (118, 118, 118), (255, 255, 0)):
        ink = C.ink_on(fill)
        assert C.contrast(ink, fill) >= 4.58  # the worst ground has 4.58 with both
        r, g, b = fill
        assert legend.ink(r, g, b) == (ink == C.BLACK)  # the console's own choice


# ---- the palettes ---------------------------------------------------------


def _close_pairs(colours, threshold, sim=None):
    # every pair nearer than threshold, worst first, named
    if sim:
        colours = [C.simulate(c, sim) for c in colours]
    labs = [C.lab(c) for c in colours]
    out = []
    for i in range(len(labs)):
        for j in range(i + 1, len(labs)):
            d = C.ciede2000(labs[i], labs[j])
            if d < threshold:
                out.append((round(d, 1), ENTRY[i], ENTRY[j]))
    return sorted(out)


def test_every_meaning_has_its_own_colour_in_the_standard_palette():
    # colours.MIN_DE00: any two entries the board can show, dark included
    pal = C.entries(view.PALETTE)
    assert len(pal) == view.NCOLOURS == len(ENTRY)
    assert _close_pairs(pal, C.MIN_DE00) == []


def test_every_meaning_has_its_own_colour_in_the_colour_blind_palette_for_every_eye():
    pal = C.entries(cbpalette.PALETTE_CB)
    assert _close_pairs(pal, C.MIN_DE00_CB) == []
    for sim in C.CVD:
        assert _close_pairs(pal, C.MIN_DE00_CVD, sim) == [], sim


def test_every_colour_lights_at_the_lowest_brightness():
    # a channel of 128 or more: at brightness 40 the painter's gamma 2.6
    # still drives it at 6 of 255, where a dimmer entry could stay dark
    for name, pal in PALETTES.items():
        for k, rgb in enumerate(C.entries(pal)):
            assert k == view.OFF or max(rgb) >= C.MIN_CHANNEL, (name, ENTRY[k], rgb)


def test_the_thresholds_are_the_stated_ones():
    # docs/guide/web.md and colours.py say these; a change is a decision, made there
    assert (C.MIN_DE00, C.MIN_DE00_CB, C.MIN_DE00_CVD, C.MIN_CONTRAST) == (20, 15, 10, 4.5)


# ---- the legend -----------------------------------------------------------


def test_the_legend_names_every_colour_the_board_lights_once_each():
    shown = set(v & 0x3F for v, _ in legend.LEGEND)
    assert shown == set(range(1, view.NCOLOURS))  # every entry but dark
    names = [name for _, name in legend.LEGEND]
    assert len(set(names)) == len(names)
    # the layer values the board gives these meanings
    rows = dict((name, v) for v, name in legend.LEGEND)
    assert rows["threat of 3"] == view.THREAT | view.SLOW
    assert rows["illegal: lift"] == view.ERR_RED | view.FAST
    assert rows["set-up: lift card"] == view.CLEAR | view.SLOW
    assert rows["storage low"] == view.STORAGE | view.SLOW
    assert rows["reader down"] == view.ERR_UNKNOWN | view.SLOW
    for n in range(1, 7):
        assert [v for v, name in legend.LEGEND if name.endswith("player %d" % n)] == [
            view.player_colour(n)
        ]


def test_every_legend_is_drawn_from_the_one_table(monkeypatch):
    from apixagon_host import liveview
    from apixagon_host.web import live
    from smartboard.sim.console import Console

    rows = ((view.LEGAL, "legal-x"), (view.THREAT | view.SLOW, "threat-y"))
    monkeypatch.setattr(legend, "LEGEND", rows)
    import smartboard.sim.console as console

    monkeypatch.setattr(console, "LEGEND", rows)
    monkeypatch.setattr(liveview, "LEGEND", rows)
    monkeypatch.setattr(live, "LEGEND", rows)

    class Out:
        text = ""

        def write(self, s):
            self.text += s

    out = Out()
    Console(None, out=out).legend()
    assert "legal-x" in out.text and "threat-y*" in out.text
    assert "threat-y*" in "".join(liveview.legend())
    assert [name for _, name, _ in live.legend()] == ["legal-x", "threat-y"]
    svg = render.led_legend_svg(live.legend("colour-blind"))
    assert "legal-x" in svg and "threat-y" in svg


# ---- labels on the fills --------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def _texts_on_lit_board(colour, royal):
    # the board drawn as the live page draws it, every cell lit in colour
    game = Game(0)
    real = P.royal_state
    P.royal_state = lambda g: (royal, (0,))
    try:
        svg = render.render_svg(game, fills=lambda x: (colour, ""), chrome=False)
    finally:
        P.royal_state = real
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(SVG + "g"):
        if g.get("class") in ("cells", "royal"):
            out += [t.get("fill") for t in g.iter(SVG + "text")]
    return out


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_labels_read_on_every_led_colour(name):
    for k, rgb in enumerate(C.entries(PALETTES[name])):
        if k == view.OFF:
            continue  # a dark cell is drawn in the board's own colour
        colour = C.hex_of(rgb)
        for royal in ("open", "locked"):
            inks = _texts_on_lit_board(colour, royal)
            assert len(inks) == 61  # 60 cell names and the royal cell's word
            for ink in set(inks):
                ratio = C.contrast(C.rgb_of(ink), rgb)
                assert ratio >= C.MIN_CONTRAST, (name, ENTRY[k], ink, ratio)
        # the console's and companion's terminal label: exact black or white
        r, g, b = rgb
        ink = C.BLACK if legend.ink(r, g, b) else C.WHITE
        assert C.contrast(ink, rgb) >= C.MIN_CONTRAST, (name, ENTRY[k])


@pytest.mark.parametrize("name", sorted(PALETTES))
def test_the_svg_legend_marks_read_on_their_swatches(name):
    from apixagon_host.web import live

    rows = live.legend(name)
    root = ET.fromstring(render.led_legend_svg(rows))
    entries = [g for g in root.iter(SVG + "g") if g.get("class") == "entry"]
    assert len(entries) == len(legend.LEGEND)
    for g, (colour, label, blink) in zip(entries, rows):
        swatch = g.find(SVG + "polygon").get("fill")
        mark, text = g.findall(SVG + "text")
        assert swatch == colour and text.text == label
        assert (mark.text or "") == {"": "", "slow": "*", "fast": "**"}[blink]
        assert C.contrast(C.rgb_of(mark.get("fill")), C.rgb_of(colour)) >= C.MIN_CONTRAST
        assert C.contrast(C.rgb_of(text.get("fill")), C.rgb_of(render.PAPER)) >= C.MIN_CONTRAST


def test_the_pictures_own_labels_read_on_their_grounds():
    pairs = {
        "cell name": (render.CELL_TEXT, render.CELL),
        "row letters and numbers": (render.COORD, render.FRAME),
        "royal cell open": (render.ROYAL_COLOUR, render.ROYAL_PALE),
        "royal cell locked": (render.ROYAL_LOCKED_TEXT, render.ROYAL_PALE),
        "black card's number": (render.SIDE_TEXT[0], render.SIDE_FILL[0]),
        "gold card's number": (render.SIDE_TEXT[1], render.SIDE_FILL[1]),
        "royal card's number": ("#ffffff", render.ROYAL_COLOUR),
        "title and legend": (render.INK, render.PAPER),
        "legend notes": (render.LABEL, render.PAPER),
    }
    for what, (text, ground) in pairs.items():
        ratio = C.contrast(C.rgb_of(text), C.rgb_of(ground))
        assert ratio >= C.MIN_CONTRAST, (what, ratio)


# the hues (degrees) a colour word a side's name uses covers
HUES = {"blue": (200, 250), "gold": (30, 52)}


def test_a_sides_name_says_the_colour_the_board_lights_it_in():
    # RULES §1: Black's cells light blue (an LED cannot show black) and
    # Gold's gold, in both palettes; the name players read ("Black (blue)
    # to play", "Gold wins") says that colour, not the manual's Reds and
    # Greens (the cards' insides), which no light shows
    import colorsys

    from apixagon_host import words

    for letter, entry, word in (("B", view.SIDE0, "blue"), ("G", view.SIDE1, "gold")):
        name = words.side_name(letter).lower()
        assert word in name and "red" not in name and "green" not in name, name
        for palette, colours in PALETTES.items():
            r, g, b = colours[3 * entry : 3 * entry + 3]
            hue = colorsys.rgb_to_hsv(r / 255, g / 255, b / 255)[0] * 360
            lo, hi = HUES[word]
            assert lo <= hue <= hi, (palette, letter, hue)

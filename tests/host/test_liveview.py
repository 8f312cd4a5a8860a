"""The live view's drawing (apixagon_host.liveview) from the bytes the
board sends, in the board's own palette; and the monitor's handling of
events, including malformed ones."""

from apixagon.geometry import NCELLS, parse_cell
from apixagon_host.liveview import cells_text, hexagon, led_text, status_line
from apixagon_host.monitor import Session
from smartboard import proto, tag, view


def cells_with(**cards):
    b = bytearray(NCELLS)
    for name, code in cards.items():
        b[parse_cell(name)] = code
    return bytes(b)


def test_a_card_is_drawn_on_its_cell_in_its_led_colour():
    cells = cells_with(E4=1 + tag.code(0, tag.NORMAL, 12), E6=0xFC)
    layer = bytearray(NCELLS)
    layer[parse_cell("E4")] = view.LAST
    layer[parse_cell("E5")] = view.THREAT | view.SLOW
    rows = hexagon(layer, cells, "BG")
    assert len(rows) == 9 and rows[0].startswith("I ") and rows[-1].startswith("A ")
    e = rows[4]
    r, g, b = view.colour_of(view.LAST)
    assert "48;2;%d;%d;%dmB12 " % (r, g, b) in e  # the board's palette entry
    assert "\x1b[5m" in e and "e5 *" in e  # blinking: SGR 5 and the console's '*'
    assert " ? " in e  # a card the board cannot name yet
    plain = hexagon(layer, cells, "BG", colour=False)
    assert "\x1b" not in "".join(plain) and "B12" in plain[4]


def test_plain_log_forms():
    cells = cells_with(E4=1 + tag.code(1, tag.SMOKER, 0), A1=0xFE)
    assert cells_text(cells, "BG") == "A1=? E4=Gsm"
    assert cells_text(bytes(NCELLS), "AB") == "-"
    layer = bytearray(NCELLS)
    layer[0] = view.ERR_RED | view.FAST
    layer[1] = view.SIDE0
    assert led_text(layer) == "lB" + "." * (NCELLS - 2)


def test_status_line():
    st = {"phase": "play", "mode": "beehive", "to_play": "A2", "ply": "7", "last": "B1_3_E4"}
    assert status_line(st) == "[play]  mode beehive  to play: A2  moves 7  last: B1 3 E4"
    assert "B wins" in status_line({"phase": "over", "winner": "B"})
    assert "STORAGE LOW" in status_line({"phase": "setup", "low": "1"})


def test_events_update_what_the_monitor_knows_and_bad_ones_are_ignored():
    heard = []
    s = Session(None, lambda kind, text: heard.append((kind, text)))
    cells = cells_with(E4=13)
    s._on_event("cells " + proto.hex_text(cells))
    assert s.cells == cells and heard[-1][0] == "cells"
    s._on_event("cells " + proto.hex_text(cells))  # the same again (a re-WATCH)
    assert len(heard) == 1
    for bad in ("cells 00", "leds " + "zz" * NCELLS, "cells"):
        s._on_event(bad)
        assert heard[-1] == ("link", "ignored a malformed %s event" % bad.split()[0])
    assert s.cells == cells and s.layer is None
    s._on_event("say refused: royal-locked")
    assert s.message == "refused: royal-locked"
    s._on_event("move 11 B 12 E4")
    assert s.stale and s.message == ""  # STATUS again at the next tick

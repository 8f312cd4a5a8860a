# A SET from a host changes what the LEDs show at once, as the buttons do
# (a parent switching a child to the hint mode from the web page saw
# nothing until the next card was placed). Plain functions: also run
# under the MicroPython unix port.
from eventkit import evs, started, watched
from smartboard import view


def test_set_display_repaints_the_match_at_once():
    bd = started("set-display")
    layer = bd.r.board.view.layer
    assert bd.ask("SET display 0") == (True, "display=0")  # adult: no hints
    adult = bytes(layer)
    assert evs(bd) == [("changed", "")]
    assert bd.ask("SET display 1") == (True, "display=1")  # hint: the legal cells
    hint = bytes(layer)
    assert hint != adult and view.LEGAL in [v & 0x3F for v in hint]
    assert evs(bd) == [("changed", "")]
    bd.ask("SET display 0")
    assert bytes(layer) == adult


def test_set_up_and_brightness_from_the_host_show_at_once():
    bd = watched("set-setup")
    layer = bd.r.board.view.layer
    before = bytes(layer)
    assert bd.ask("SET mode 2")[0]  # beehive: the set-up picture changes
    assert bytes(layer) != before and evs(bd) == [("changed", "")]
    painter = bd.r.board.hw.painter
    b = painter.brightness
    assert bd.ask("SET bright 1")[0]
    assert painter.brightness != b and bd.r.board.view.dirty

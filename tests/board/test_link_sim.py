# The simulated board's own link (smartboard.sim.serial_main): its HAND
# commands and the pacing of its simulated clock to the wall's, driven as
# serial_main's loop drives it (a fake wall clock, the loop sleeping what
# Pace says). Plain functions: also run under MicroPython at 96 wK.
from boardkit import card, rig
from smartboard import buttons, loop, proto, tag, view
from smartboard.sim import serial_main
from test_link_cells import Port, events


class InPort(Port):
    """A port with bytes for the board to read (a host's requests)."""

    def __init__(self):
        Port.__init__(self)
        self.inp = bytearray()

    def read_byte(self):
        if not self.inp:
            return -1
        b = self.inp[0]
        self.inp = self.inp[1:]
        return b


def sim_link(name, display=view.QUERY):
    r = rig(name)
    r.board.settings.set(0, display, 0)  # settings.DISPLAY
    r.press(buttons.CONFIRM)
    port = InPort()
    lk = serial_main.SimLink(port, r, None, "A")
    r.board.listener = lk
    lk.handle("@1 WATCH 1")
    return r, lk, port


def paced(r, lk, pace, wall, until):
    # serial_main.main's loop on a fake wall clock: a step, then a sleep of
    # what Pace says (each pass costs the wall 1 ms besides)
    while wall < until:
        loop.step(r.board, lk, wall, r.tick)
        wall += 1 + max(pace.ahead(r.now(), wall), 0)
    return wall


def test_a_hand_tap_leaves_the_card_query_lit_its_15_s_of_wall_time():
    r, lk, port = sim_link("sim-query")
    pace = serial_main.Pace()
    wall = paced(r, lk, pace, 0, 1000)
    del port.frames[:]
    dark = bytes(r.board.view.layer)
    port.inp += proto.frame("@2 HAND tap %d" % card(1, 11))
    t = wall
    wall = paced(r, lk, pace, wall, t + 3000)
    assert "=2 OK ok" in port.frames
    lit = events(port, "leds")
    assert len(lit) == 1 and lit[0] != proto.hex_text(dark)  # lit, and still lit
    wall = paced(r, lk, pace, wall, t + 14000)
    assert events(port, "leds") == []
    paced(r, lk, pace, wall, t + 17000)
    assert events(port, "leds") == [proto.hex_text(dark)]  # 15 s later: dark again


def test_pace_reanchors_a_simulation_ahead_or_behind_the_wall():
    pace = serial_main.Pace()
    assert pace.ahead(800, 0) == serial_main.AHEAD_MS  # a HAND ran 800 ms ahead
    assert pace.ahead(800, 0) == serial_main.AHEAD_MS  # .. re-anchored once, not again
    assert pace.ahead(800, 20) == 0  # the wall caught up: no sleep
    assert pace.ahead(800, 5000) == -serial_main.BEHIND_MS  # a busy spell
    assert pace.ahead(850, 5050) == -serial_main.BEHIND_MS  # never raced through


def test_hand_put_on_a_card_is_refused_and_changes_nothing():
    r, lk, port = sim_link("sim-put")
    lk.handle("@2 HAND put E4 %d" % card(0, 12))
    assert port.frames[-1] == "=2 OK ok"
    lk.handle("@3 HAND put E4 %d" % card(0, 13))
    assert port.frames[-1] == "=3 ERR 6 bad arguments: E4 holds a card: lift it first"
    assert r.board.ref.game.nmoves() == 1
    lk.handle("@4 HAND lift E4")
    lk.handle("@5 HAND put E4 %d" % card(0, 13))  # lifted first: fine
    assert port.frames[-1] == "=5 OK ok"


def test_hand_put_of_a_card_on_another_cell_is_refused_and_changes_nothing():
    # A card is in one place: the same card put on a second cell was taken
    # (both cells then read a card the board could not place)
    r, lk, port = sim_link("sim-twice")
    cells = r.cells.cells
    lk.handle("@2 HAND put E4 %d" % card(0, 12))
    before = bytes(cells)
    lk.handle("@3 HAND put F5 %d" % card(0, 12))
    assert port.frames[-1] == "=3 ERR 6 bad arguments: card on E4"
    assert bytes(cells) == before and r.board.ref.game.nmoves() == 1
    # a side's two Rains: the first's name, that one on the board, puts the
    # other; a third is refused
    rain = tag.code(1, tag.RAIN, 0)
    lk.handle("@4 HAND put A1 %d" % rain)
    lk.handle("@5 HAND put A2 %d" % rain)
    assert port.frames[-1] == "=5 OK ok"
    assert cells[r.layout.sensor[0]] == 1 + rain
    assert cells[r.layout.sensor[1]] == 1 + tag.code(1, tag.RAIN, 1)
    lk.handle("@6 HAND put A3 %d" % rain)
    assert port.frames[-1] == "=6 ERR 6 bad arguments: card on A1"


def test_hand_clear_lifts_every_card_in_set_up_and_none_in_a_match():
    # the players take every card off, one after the other, each lift
    # sensed through the board's loop; in a match a lift is a take-back:
    # refused there, nothing lifted
    r, lk, port = sim_link("sim-clear")
    lk.handle("@2 HAND put E4 %d" % card(0, 12))
    lk.handle("@3 HAND put E6 %d" % card(1, 3))
    g = r.board.ref.game
    assert g.nmoves() == 2
    lk.handle("@4 HAND clear")
    assert port.frames[-1].startswith("=4 ERR 8 ") and port.frames[-1].endswith(
        "clear in set-up only"
    ), port.frames[-1]
    assert g.nmoves() == 2 and sum(1 for c in r.cells.cells if c) == 2
    r.press(buttons.CONFIRM, True)  # abandoned: set-up, the cards still down
    assert r.board.ref is None and sum(1 for c in r.board.sensed if c) == 2
    lk.handle("@5 HAND clear")
    assert port.frames[-1] == "=5 OK lifted 2"
    assert not any(r.cells.cells) and not any(r.board.sensed)  # the board saw them go
    r.press(buttons.CONFIRM)  # and takes CONFIRM: a clear board
    assert r.board.ref is not None, r.board.message

# The cells and leds events of the serial link (smartboard.link): sent
# when watching, once per change, nothing on a quiet tick (and, under
# MicroPython, nothing allocated); CELLS answers the same bytes. Plain
# functions: also run under the MicroPython unix port at 96 wK.
import gc

from apixagon.geometry import NCELLS, parse_cell
from boardkit import card, rig
from smartboard import buttons, cbpalette, link, proto, referee, view


class Port:
    """A link port that keeps what the board writes, frame by frame (a
    frame may come in several writes: a GET reply does)."""

    def __init__(self):
        self.frames = []
        self._part = b""

    def read_byte(self):
        return -1

    def write(self, data):
        data = self._part + bytes(data)
        while b"\n" in data:
            i = data.index(b"\n")
            self.frames.append(proto.body(data[:i]))
            data = data[i + 1 :]
        self._part = data


def watched(name, profile="A"):
    r = rig(name, profile)
    port = Port()
    lk = link.Link(port, r.board, None, profile=profile)
    lk.handle("@1 WATCH 1")
    assert port.frames.pop() == "=1 OK watch=1"
    return r, lk, port


def events(port, kind):
    out = []
    for f in port.frames:
        if f.startswith("! EV " + kind + " "):
            out.append(f[6 + len(kind) :])
    del port.frames[:]
    return out


def want(cards, unknown=()):
    b = bytearray(NCELLS)
    for name, code in cards:
        b[parse_cell(name)] = 1 + code
    for name in unknown:
        b[parse_cell(name)] = referee.UNPAIRED
    return proto.hex_text(b)


def test_whole_state_first_then_only_changes():
    r, lk, port = watched("cells-changes")
    lk.send_changes()
    sent = port.frames[:]
    assert [f.split()[2] for f in sent] == ["cells", "leds"]
    assert events(port, "cells") == [want(())]
    lk.send_changes()
    assert port.frames == []  # nothing changed: nothing sent
    r.put("E4", card(0, 12))
    r.settle()
    lk.send_changes()
    assert events(port, "cells") == [want((("E4", card(0, 12)),))]
    for i in range(5):
        r.tick()
        lk.send_changes()
    assert events(port, "cells") == []


def test_cells_command_answers_the_event_bytes_and_refuses_arguments():
    r, lk, port = watched("cells-cmd")
    r.put("E4", card(1, 3))
    r.settle()
    lk.handle("@2 CELLS")
    assert port.frames.pop() == "=2 OK " + want((("E4", card(1, 3)),))
    lk.handle("@3 CELLS 1")
    assert port.frames.pop() == "=3 ERR 6 bad arguments: CELLS"
    lk.handle("@4 WATCH yes")
    assert port.frames.pop() == "=4 ERR 6 bad arguments: WATCH"
    assert lk.watching  # the bad WATCH changed nothing


def test_not_watching_sends_nothing():
    r, lk, port = watched("cells-off")
    lk.handle("@2 WATCH 0")
    del port.frames[:]
    r.put("E4", card(0, 1))
    r.settle()
    lk.send_changes()
    assert port.frames == []


def test_profile_b_cards_are_unidentified_until_tapped():
    r, lk, port = watched("cells-b", "B")
    r.put("E4", card(0, 12))
    r.settle()
    lk.send_changes()
    assert events(port, "cells") == [want((), ("E4",))]  # occupancy only
    r.lift("E4")
    r.settle()
    r.press(buttons.CONFIRM)
    r.tap(card(0, 12))
    r.put("E4", card(0, 12))
    r.settle()
    lk.send_changes()
    assert events(port, "cells")[-1] == want((("E4", card(0, 12)),))


def test_a_quiet_watched_tick_allocates_nothing():
    r, lk, port = watched("cells-alloc")
    lk.send_changes()
    del port.frames[:]
    if not hasattr(gc, "mem_alloc"):
        return  # CPython: the MicroPython run checks this
    gc.collect()
    before = gc.mem_alloc()
    for i in range(100):
        lk.send_changes()
    assert gc.mem_alloc() == before
    assert port.frames == []


def test_set_palette_recolours_the_leds_at_once():
    # the colour-blind-safe palette (setting `palette`, smartboard.cbpalette):
    # SET repaints the strip with it, no restart needed
    r, lk, port = watched("palette")
    cbpalette.follow(lk)  # as the start-up code does
    r.run(300)
    strip = r.board.hw.painter.strip
    before = bytes(strip.buf)
    lk.handle("@2 SET palette 1")
    assert port.frames.pop() == "=2 OK palette=1"
    r.run(300)
    assert bytes(view.PALETTE) == cbpalette.PALETTE_CB and bytes(strip.buf) != before
    lk.handle("@3 SET palette 2")  # no third palette: nothing changes
    assert port.frames.pop().startswith("=3 ERR 6")
    lk.handle("@4 SET palette 0")
    port.frames.pop()
    r.run(300)
    assert bytes(strip.buf) == before

# Helpers for the link's event tests (test_link_refused, test_link_status,
# test_link_hands, test_link_want): the board wired as serial_main wires it
# (storekit), watched, and the events the link sent. Plain functions: also
# run under MicroPython at 96 wK. The link imports smartboard.report (and
# .hands) the first time it has something to tell: a test that makes it
# tell imports it first, so that it lies below the boards the tests build
# and drop, not amid them (a module loaded mid-test split the 96 wK heap:
# the next board's 2.7 KB link buffer found no room).
from smartboard import board as B
from smartboard import buttons, proto, settings
from smartboard.sim.flash import SimFlash
from storekit import Board


def watched(name, mode=0):
    bd = Board(name, SimFlash())
    bd.r.board.settings.set(settings.GAME_MODE, mode, 0)
    assert bd.ask("WATCH 1") == (True, "watch=1")
    return bd


def started(name, mode=0):
    bd = watched(name, mode)
    bd.r.press(buttons.CONFIRM)
    assert bd.r.board.phase == B.PLAY
    evs(bd)
    return bd


def evs(bd):
    """The events the link sent since last asked: (kind, text)."""
    out = []
    for line in b"".join(bd.port.out).split(b"\n"):
        body = proto.body(line) if line else ""
        if body.startswith("! EV "):
            kind, _, text = body[5:].partition(" ")
            out.append((kind, text))
    del bd.port.out[:]
    return out

"""CELLS and the cells event (docs/protocol.md) against the cards the
simulated board's hands put down: the firmware (.mpy) in the MicroPython
unix port on a pty, pyserial on this side."""

import time

import devboard
import pytest
from apixagon.geometry import NCELLS, parse_cell
from apixagon_host.link import BoardError
from e2ekit import connect
from smartboard import proto, tag

B12 = tag.code(0, tag.NORMAL, 12)
G5 = tag.code(1, tag.NORMAL, 5)


def expected(cards):
    want = bytearray(NCELLS)
    for name, code in cards.items():
        want[parse_cell(name)] = 1 + code
    return bytes(want)


def cells(link):
    got = proto.unhex(link.request("CELLS"), NCELLS)
    assert got is not None
    return got


def wait_event(link, kind, want=None, timeout=10):
    """The payload of the next `kind` event (equal to want, if given)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        while link.events:
            k, _, rest = link.events.pop(0).partition(" ")
            if k == kind and (want is None or rest == want):
                return rest
        link.read_frame(min(end, time.monotonic() + 0.2))
    raise AssertionError("no %s event %s; noise %r" % (kind, want or "", link.noise))


def test_cells_and_the_cells_event_follow_the_hands(board):
    with connect(board) as link:
        assert cells(link) == bytes(NCELLS)
        assert link.request("WATCH", 1) == "watch=1"
        # the whole state first, then a change per hand
        assert proto.unhex(wait_event(link, "cells"), NCELLS) == bytes(NCELLS)
        link.request("HAND", "put", "E4", B12)  # set-up: a card on the board
        assert cells(link) == expected({"E4": B12})
        wait_event(link, "cells", proto.hex_text(expected({"E4": B12})))
        link.request("HAND", "lift", "E4")
        link.request("HAND", "press", "confirm")  # the match starts
        link.request("HAND", "put", "E4", B12)
        link.request("HAND", "put", "E6", G5)
        want = expected({"E4": B12, "E6": G5})
        assert cells(link) == want
        wait_event(link, "cells", proto.hex_text(want))
        st = link.status()
        assert st["phase"] == "play" and st["last"] == "G_5_E6" and st["to_play"] == "B"
        assert st["sides"] == "BG" and st["watch"] == "1"
        link.request("HAND", "lift", "E6")  # the last card taken back
        wait_event(link, "cells", proto.hex_text(expected({"E4": B12})))
        assert link.status()["last"] == "B_12_E4"


def test_bad_arguments_get_the_error_reply_and_change_nothing(board):
    with connect(board) as link:
        link.request("HAND", "put", "E4", B12)
        for req in (
            ("CELLS", "now"),
            ("WATCH", "2"),
            ("WATCH",),
            ("STATUS", "x"),
            ("HAND", "put", "E4", 300),  # no such card
            ("HAND", "put", "E4", tag.code(1, tag.NORMAL, 31)),
            ("HAND", "put", "Z9", B12),
            ("HAND", "put", "e5", B12),
            ("HAND", "lift", "E"),
            ("HAND", "tap", "x"),
            ("HAND", "press", "mode", "twice"),
            ("HAND", "wave"),
            ("HAND", "lift"),  # no cell at all
            ("HAND", "wait"),
            ("HAND", "wait", 0),
            ("HAND", "wait", 60001),
            ("HAND", "wait", "soon"),
        ):
            with pytest.raises(BoardError, match="bad arguments") as e:
                link.request(*req)
            assert e.value.board_code == proto.E_ARGS
        assert cells(link) == expected({"E4": B12})
        assert link.status()["watch"] == "0"
        assert link.request("HAND", "wait", 500) == "ok"  # time goes by, nothing changes
        assert cells(link) == expected({"E4": B12})
    assert board.boots == 1


@pytest.fixture
def board_b(tmp_path, firmware_mpy):
    flash = tmp_path / "flash"
    flash.mkdir()
    devboard.install(str(flash), firmware_mpy)
    with devboard.DevBoard(str(flash), "B") as b:
        yield b


def test_profile_b_sends_unidentified_cards_then_the_tapped_identity(board_b):
    with connect(board_b) as link:
        link.request("HAND", "put", "E4", B12)  # set-up: reeds see a card
        unknown = bytearray(NCELLS)
        unknown[parse_cell("E4")] = 0xFC
        assert cells(link) == bytes(unknown)
        link.request("HAND", "lift", "E4")
        link.request("HAND", "press", "confirm")
        link.request("WATCH", 1)
        link.request("HAND", "tap", B12)  # the pad lends the next card its name
        link.request("HAND", "put", "E4", B12)
        wait_event(link, "cells", proto.hex_text(expected({"E4": B12})))
        assert cells(link) == expected({"E4": B12})

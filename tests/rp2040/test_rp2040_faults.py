"""A board with a broken part, on the emulated RP2040: the real PN532 driver
over the rp2 port's I2C block, the modelled readers made to fail. Whatever
is broken at power-on — a cell reader that does not answer, the action pad,
a cell bus held low, an unplugged strip — the image still boots its
main.py, answers the host, says what is wrong (STATUS hw=) and plays with
what it has; a part that comes back is noticed; a card with a corrupt tag
is never taken for a card."""

import emukit
from apixagon.geometry import NCELLS, cell_name, parse_cell
from apixagon_host import link as L
from emukit import card


def status(link):
    return L.fields(link.request("STATUS"))


def lane_cells(board, k):
    lay = board.layout
    return [x for x in range(NCELLS) if lay.sensor[x] // 16 == k]


def magenta(board, grb, x):
    """Does cell x show ERR_UNKNOWN (either blink phase counts as lit)?"""
    r, g, b = board.leds(grb)[x]
    return r > 0 and g == 0 and b > 0


def test_dead_reader_at_power_on_boots_says_so_and_plays_the_other_cells(tmp_path):
    board = emukit.boot("rev_a", tmp_path, before=lambda b: b.reader(1, dead=True))
    try:
        with L.connect(board.port, timeout=30) as link:
            assert L.fields(link.request("HELLO", "1"))["profile"] == "A"
            board.wait_ms(1500)
            assert status(link)["hw"] == "reader2"
            # its cells blink ERR_UNKNOWN, over the set-up screen
            dead = lane_cells(board, 1)
            lit = [f for c, f in board.frames[-8:]]
            for x in dead:
                assert any(magenta(board, f, x) for f in lit), cell_name(x)
            # a match on the cells the other readers see
            board.press("confirm")
            free = [x for x in lane_cells(board, 0) if cell_name(x) == "E4"] or [
                x for x in lane_cells(board, 0) if x != parse_cell("E5")
            ]
            board.put(free[0], card("B12"))
            board.wait_ms(1200)
            assert status(link)["moves"] == "1"
            # a card whose tag fails its checksum is never taken for a card:
            # no move, and its cell shows an error
            spot = [x for x in lane_cells(board, 0) if x not in (free[0], parse_cell("E5"))][0]
            board.put(spot, card("G3"), corrupt=True)
            board.wait_ms(1500)
            assert status(link)["moves"] == "1"
            assert any(magenta(board, f, spot) for c, f in board.frames[-8:])
            board.lift(spot)
            # plugged back: the reader is set up again and the board says so
            link.request("WATCH", "1")
            board.reader(1, dead=False)
            board.wait_ms(2500)
            assert status(link)["hw"] == "ok"
            assert any("cell reader 2 answers again" in e for e in link.events), link.events
    finally:
        board.close()


def test_bus_held_low_and_pad_dead_still_boot_and_answer(tmp_path):
    def broken(b):
        b.bus(0, stuck=True)  # the four cell readers' bus (I2C0)
        b.reader("pad", dead=True)

    board = emukit.boot("rev_a", tmp_path, before=broken)
    try:
        with L.connect(board.port, timeout=30) as link:
            assert L.fields(link.request("HELLO", "1"))["profile"] == "A"
            board.wait_ms(1500)
            st = status(link)
            assert st["hw"] == "reader1,reader2,reader3,reader4,pad", st
            assert st["phase"] == "setup"
            # the bus let go and the pad back: everything answers again
            board.bus(0, stuck=False)
            board.reader("pad", dead=False)
            board.wait_ms(4000)
            assert status(link)["hw"] == "ok"
    finally:
        board.close()


def test_unplugged_strip_is_reported_and_comes_back(tmp_path):
    board = emukit.boot("rev_b", tmp_path, before=lambda b: b.strip(plugged=False))
    try:
        with L.connect(board.port, timeout=30) as link:
            board.wait_ms(1500)
            assert status(link)["hw"] == "strip"
            assert not board.frames  # nothing reaches a strip that is not there
            board.strip(plugged=True)
            board.wait_ms(1500)
            assert status(link)["hw"] == "ok"
    finally:
        board.close()

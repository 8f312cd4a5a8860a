# Rev A's readers on the simulated board: a PN532 sends its request the
# moment it gets InListPassiveTarget, and the tag on an antenna just
# switched to needs scan.SETTLE_US of field to power up (ISO/IEC 14443-3,
# 5.1). The twins answer a request sent sooner with no tag
# (sim/sensors.py SimNfcReader.early): the board's cards are read only
# because the firmware holds each command until the tag has power.
from apixagon.geometry import NCELLS, cell_name
from boardkit import card, play, started, x


def test_cards_are_read_and_no_request_goes_out_before_the_tag_has_power():
    r = started("settle")
    play(r, [("put", "A1", card(0, 0))])
    g = r.board.ref.game
    assert g.owner(x("A1")) == 0 and g.side_to_play() == 1
    out = bytearray(NCELLS)
    g.legal_cells(1, out)
    to = [c for c in range(NCELLS) if out[c]][-1]
    play(r, [("put", cell_name(to), card(1, 0))])
    assert g.owner(to) == 1 and g.side_to_play() == 0
    assert r.reads > 100 and sum(t.early for t in r.readers) == 0

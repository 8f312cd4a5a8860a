# The card tag payload (firmware/smartboard/tag.py): every card round-trips,
# and damaged or foreign payloads are errors, never another card.
from smartboard import tag


def all_cards():
    for side in (0, 1):
        for i in range(31):
            yield side, tag.NORMAL, i
        yield side, tag.RAIN, 0
        yield side, tag.RAIN, 1
        yield side, tag.BEEKEEPER, 0
        yield side, tag.SMOKER, 0


def test_every_card_round_trips():
    seen = []
    for side, kind, index in all_cards():
        c = tag.decode(tag.encode(side, kind, index))
        assert c >= 0
        assert (tag.side_of(c), tag.kind_of(c), tag.index_of(c)) == (side, kind, index)
        seen.append(c)
    assert len(set(seen)) == 70


def test_any_single_bit_flip_is_caught():
    for side, kind, index in all_cards():
        good = tag.encode(side, kind, index)
        for byte in range(4):
            for bit in range(8):
                bad = bytearray(good)
                bad[byte] ^= 1 << bit
                assert tag.decode(bad) < 0, (side, kind, index, byte, bit)


def test_foreign_short_and_impossible_payloads():
    assert tag.decode(b"") == tag.LENGTH
    assert tag.decode(b"\xa7\x10\x00") == tag.LENGTH
    assert tag.decode(b"\x00\x00\x00\x00") == tag.NOT_OURS  # blank tag
    assert tag.decode(b"\x04\x13\x55\x21") == tag.NOT_OURS  # somebody's transit card
    for fields in ((2, 0, 0), (0, 0, 31), (1, 1, 2), (0, 2, 1), (1, 3, 5)):
        b = bytearray(4)
        b[0] = tag.MAGIC
        b[1] = tag.VERSION << 4 | fields[0]
        b[2] = fields[1] << 5 | fields[2]
        b[3] = tag.crc8(b, 3)
        assert tag.decode(b) == tag.BAD_FIELD, fields
    b = tag.encode(0, 0, 5)
    b[1] = 2 << 4
    b[3] = tag.crc8(b, 3)
    assert tag.decode(b) == tag.NOT_OURS  # a future payload version

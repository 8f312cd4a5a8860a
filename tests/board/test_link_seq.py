# Sequence numbers are 1..999999 without leading zeros (docs/protocol.md):
# anything else is a malformed frame, answered with seq 0, and changes
# nothing (a DEL or a SET was carried out on "@0", "@1000001", "@00002").
# Plain functions: also run under the MicroPython unix port.
from smartboard import proto
from smartboard import settings as S
from smartboard.sim.flash import SimFlash
from storekit import Board


def raw(bd, body):
    """(seq, ok, rest) of the board's reply to one request body."""
    del bd.port.out[:]
    bd.link.handle(body)
    line = b"".join(bd.port.out)[:-1].split(b"\n")[-1]
    kind, seq, ok, rest = proto.parse_reply(proto.body(line))
    return seq, ok, rest


def test_sequence_numbers_out_of_range_or_with_leading_zeros_change_nothing():
    flash = SimFlash()
    bd = Board("seq", flash)
    bd.play(2)
    bd.abandon()
    assert bd.ask("PULLED 0001.alog")[0]  # DEL would now delete it
    bright = bd.r.board.settings.get(S.BRIGHT)
    other = "1" if bright != 1 else "2"
    for seq in ("0", "1000000", "1000001", "00002", "02", "-1", "+3", "1e3"):
        for req in ("SET bright " + other, "DEL 0001.alog"):
            got = raw(bd, "@%s %s" % (seq, req))
            assert got[0] == 0 and not got[1], (seq, req, got)
            assert int(got[2].split()[0]) == proto.E_FRAME, (seq, req, got)
    assert "logs/0001.alog" in flash.files
    assert bd.r.board.settings.get(S.BRIGHT) == bright
    assert raw(bd, "@999999 SET bright " + other)[:2] == (999999, True)
    assert raw(bd, "@1 DEL 0001.alog")[:2] == (1, True)
    assert "logs/0001.alog" not in flash.files

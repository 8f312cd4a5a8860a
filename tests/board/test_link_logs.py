# LOGS and GET read the match logs through the flash interface
# (smartboard.matchlog.Flash, here its twin SimFlash): sizes as listed,
# chunks byte for byte across the twin's 128-byte blocks, the end of a
# file, a log that is not there. Plain functions: also run under the
# MicroPython unix port at 96 wK.
import binascii

from logkit import ROOT
from smartboard import proto
from smartboard.sim.flash import SimFlash
from storekit import Board


def _get(bd, name, off, n):
    ok, rest = bd.ask("GET %s %d %d" % (name, off, n))
    if not ok:
        return int(rest.split()[0])
    return _data(rest, off)


def _data(rest, off):
    # the bytes of a GET reply frame at off, checked
    o, k, crc, b64 = rest.split()
    data = b"" if b64 == "-" else binascii.a2b_base64(b64)
    assert int(o) == off and int(k) == len(data) and int(crc, 16) == proto.crc16(data)
    return data


def _one_log(tag):
    # a board with one finished match: (board, its log's name, its bytes)
    flash = SimFlash()
    bd = Board(tag, flash)
    bd.play(8)
    bd.abandon()
    name = bd.ask("LOGS")[1].split()[0].split(":")[0]
    return bd, name, flash.contents(ROOT + "/" + name)


def test_logs_and_get_go_through_the_flash_interface():
    flash = SimFlash()
    bd = Board("link-logs", flash)
    bd.play(8)
    bd.abandon()
    ok, text = bd.ask("LOGS")
    assert ok, text
    name, size, state = text.split()[0].split(":")
    whole = flash.contents(ROOT + "/" + name)
    assert int(size) == len(whole) > 200 and state == "done"
    got = bytearray()
    for off in range(0, len(whole), 100):  # chunks that straddle blocks
        got += _get(bd, name, off, 100)
    assert got == whole
    assert _get(bd, name, 127, 2) == whole[127:129]
    assert _get(bd, name, len(whole) - 3, 50) == whole[-3:]  # what is left
    assert _get(bd, name, len(whole), 10) == b""  # the end: "-"
    assert _get(bd, "0099.alog", 0, 10) == proto.E_NOT_FOUND
    assert _get(bd, name, 0, proto.MAX_CHUNK + 1) == proto.E_ARGS


def test_a_get_with_the_longest_head_a_board_takes():
    # the reply is made in the link's one buffer, its head in the room
    # before the text: a 9-digit seq (parse_request's most) and a whole chunk
    bd, name, whole = _one_log("link-logs-head")
    del bd.port.out[:]
    bd.link.handle("@999999999 GET %s 0 %d" % (name, proto.MAX_CHUNK))
    line = b"".join(bd.port.out)
    assert line.endswith(b"\n") and proto.check(line[:-1]) == 0
    kind, seq, ok, rest = proto.parse_reply(proto.body(line[:-1]))
    assert (kind, seq, ok) == ("=", 999999999, True)
    o, k, crc, b64 = rest.split()
    assert binascii.a2b_base64(b64) == whole[: proto.MAX_CHUNK] and int(crc, 16) == proto.crc16(
        whole[: proto.MAX_CHUNK]
    )


def _frames(bd, text):
    # every reply frame to one request: [(ok, rest)]
    del bd.port.out[:]
    bd.link.handle("@1 " + text)
    out = []
    for line in b"".join(bd.port.out).split(b"\n")[:-1]:
        assert proto.check(line) == 0
        kind, seq, ok, rest = proto.parse_reply(proto.body(line))
        assert (kind, seq) == ("=", 1)
        out.append((ok, rest))
    return out


def test_fetch_answers_a_frame_per_chunk_and_checks_all_items_first():
    # protocol 2: several GETs in one request, a GET reply frame per chunk
    bd, name, whole = _one_log("link-fetch")
    n = len(whole)
    got = _frames(bd, "FETCH %s 0 100 %s 100 %d %s %d 5" % (name, name, n, name, n))
    want = [(0, whole[:100]), (100, whole[100:]), (n, b"")]
    assert len(got) == 3
    for (ok, rest), (off, data) in zip(got, want):
        assert ok and _data(rest, off) == data
    # one error frame and nothing else: a bad form, a log not there, too much
    e = "%s 0 10 " % name
    for text, code in (
        ("FETCH", proto.E_ARGS),
        ("FETCH %s 0" % name, proto.E_ARGS),
        ("FETCH " + e + "../x.alog 0 10", proto.E_ARGS),
        ("FETCH " + e + "%s 0 0" % name, proto.E_ARGS),
        ("FETCH " + e + "%s 0 16380" % name, proto.E_ARGS),
        ("FETCH " + e + "0099.alog 0 10", proto.E_NOT_FOUND),
        ("FETCH " + e + "x.alog 0 10", proto.E_NOT_FOUND),
    ):
        got = _frames(bd, text)
        assert len(got) == 1 and not got[0][0] and int(got[0][1].split()[0]) == code, (text, got)

# LOGS and GET read the match logs through the flash interface
# (smartboard.logstore.flash.Flash, here its twin SimFlash): sizes as listed,
# chunks byte for byte across the twin's 128-byte blocks, the end of a
# file, a log that is not there. Plain functions: also run under the
# MicroPython unix port at 96 wK.
import binascii
import os

from logkit import ROOT
from pagekit import Host
from scalekit import folder
from smartboard import link, proto
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
    # before the text: a 6-digit seq (parse_request's most) and a whole chunk
    bd, name, whole = _one_log("link-logs-head")
    del bd.port.out[:]
    bd.link.handle("@999999 GET %s 0 %d" % (name, proto.MAX_CHUNK))
    line = b"".join(bd.port.out)
    assert line.endswith(b"\n") and proto.check(line[:-1]) == 0
    kind, seq, ok, rest = proto.parse_reply(proto.body(line[:-1]))
    assert (kind, seq, ok) == ("=", 999999, True)
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
        ("FETCH " + e + "%s 0 %d" % (name, link.MAX_FETCH - 4), proto.E_ARGS),
        ("FETCH " + e + "0099.alog 0 10", proto.E_NOT_FOUND),
        ("FETCH " + e + "x.alog 0 10", proto.E_NOT_FOUND),
    ):
        got = _frames(bd, text)
        assert len(got) == 1 and not got[0][0] and int(got[0][1].split()[0]) == code, (text, got)


def _logs_of(name, sizes):
    """A Host over a folder of the PC's own (no simulated flash in a small
    heap) holding logs 1, 2, ... of these sizes: each of its number's byte
    (not a match's: FETCH reads any bytes), written a KB at a time."""
    root = folder(name) + "/logs"
    os.mkdir(root)
    for n, size in enumerate(sizes, 1):
        piece = bytes([n]) * 1024
        with open("%s/%04d.alog" % (root, n), "wb") as f:
            while size > 0:
                f.write(piece[: min(size, 1024)])
                size -= 1024
    return Host(None, root)


class _Tally:
    """A port that checks a protocol-4 FETCH reply as it is written, each
    raw chunk against its head, and keeps (offset, length, first byte) of
    each chunk: 16 KB of replies never held at once in a small heap."""

    def __init__(self):
        self.got = []
        self.code = 0
        self.head = None  # (offset, length, CRC-32) of the raw chunk to come

    def read_byte(self):
        return -1

    def write(self, data):
        if self.head is not None:
            off, n, crc = self.head
            assert len(data) == n and binascii.crc32(data) & 0xFFFFFFFF == crc
            self.got.append((off, n, data[0]))
            self.head = None
            return
        # a frame; a raw chunk's head and its bytes come in one write
        data = bytes(data)
        i = data.index(b"\n")
        line, data = data[:i], data[i + 1 :]
        assert proto.check(line) == 0 and not self.code, line
        kind, seq, ok, rest = proto.parse_reply(proto.body(line))
        if not ok:
            self.code = int(rest.split()[0])
            return
        off, n, crc, mark = rest.split()
        if mark == "+":
            self.head = (int(off), int(n), int(crc, 16))
            assert data, "a raw chunk's head written without its bytes"
            self.write(data)
        else:
            self.got.append((int(off), 0, None))


def _chunks(h, text):
    """([(offset, length, first byte)], error code or 0) of a FETCH reply
    to a link of protocol 4 (chunks raw after their head)."""
    h.link.version = 4
    h.link.port = t = _Tally()
    h.link.handle("@1 " + text)
    assert t.head is None
    return t.got, t.code


def test_fetch_of_a_range_sends_each_log_whole_in_the_boards_chunks():
    # protocol 4: "N+K", the logs numbered N .. N+K-1 from 0 to their end,
    # in MAX_CHUNK chunks; a log ending on a chunk's end sends no empty frame
    c = proto.MAX_CHUNK
    h = _logs_of("link-range", (300, c, c + 1))
    got, code = _chunks(h, "FETCH 1+3")
    assert not code and got == [
        (0, 300, 1),
        (0, c, 2),
        (0, c, 3),
        (c, 1, 3),
    ]
    # ranges and items mixed, in the order asked
    got, code = _chunks(h, "FETCH 3+1 0001.alog 5 10 2+1")
    assert not code and got == [(0, c, 3), (c, 1, 3), (5, 10, 1), (0, c, 2)]
    # one error frame and nothing else: a range of a log not there, or of
    # a bad form
    for text, want in (
        ("FETCH 1+4", proto.E_NOT_FOUND),
        ("FETCH 0001.alog 0 10 5+1", proto.E_NOT_FOUND),
        ("FETCH 0+1", proto.E_ARGS),
        ("FETCH 1+0", proto.E_ARGS),
        ("FETCH 1+", proto.E_ARGS),
        ("FETCH 1+x", proto.E_ARGS),
        ("FETCH 3", proto.E_ARGS),
        ("FETCH 9999+2", proto.E_ARGS),
    ):
        assert _chunks(h, text) == ([], want), text


def test_a_range_past_the_most_a_fetch_sends_ends_in_an_error():
    # a range's logs start only while the reply is under MAX_FETCH, and a
    # log longer than that is refused after it: the host asks for the
    # rest by their bytes (its listing's sizes keep it from asking so)
    c = proto.MAX_CHUNK
    big = link.MAX_FETCH * 5 // 8  # two of them pass MAX_FETCH
    h = _logs_of("link-range-most", (big, big, 100, link.MAX_FETCH + 1))
    got, code = _chunks(h, "FETCH 1+3")
    assert code == proto.E_ARGS and sum(n for _, n, _ in got) == 2 * big
    got, code = _chunks(h, "FETCH 4+1")
    assert code == proto.E_ARGS and len(got) == link.MAX_FETCH // c
    got, code = _chunks(h, "FETCH 3+1")  # alone: whole
    assert not code and got == [(0, 100, 3)]


class _SpanTally(_Tally):
    """A port that checks a protocol-5 FETCH reply as it is written: a span
    frame's entries (each head's CRC-16, each log's CRC-32) taken apart as
    their bytes come, whatever the writes; (log number, length, first
    byte) kept of each log of a span, (offset, length, first byte) of a
    chunk frame."""

    def __init__(self):
        _Tally.__init__(self)
        self.left = 0  # bytes of the span still to come
        self.hb = bytearray()  # the entry head being read
        self.body = 0  # bytes of the entry's log still to come
        self.spans = []  # (first, k, bytes) of each span head

    def write(self, data):
        if not self.left:
            if self.head is not None or not data or data[:1] != b"=":
                return _Tally.write(self, data)
            i = bytes(data).index(b"\n")
            line = bytes(data[:i])
            assert proto.check(line) == 0 and not self.code, line
            _, _, ok, rest = proto.parse_reply(proto.body(line))
            if not ok or "+" not in rest.split()[0]:
                return _Tally.write(self, data)
            first, n, mark = rest.split()
            lo, k = first.split("+")
            assert mark == "+" and int(n) <= proto.MAX_SPAN
            self.spans.append((int(lo), int(k), int(n)))
            self.left = int(n)
            self.next = int(lo)
            data = data[i + 1 :]
            assert data, "a span's head written without its first bytes"
        data = memoryview(bytes(data))
        assert len(data) <= self.left, "more bytes than the span's head said"
        self.left -= len(data)
        while len(data):
            if not self.body and len(self.hb) < 14:
                t = min(14 - len(self.hb), len(data))
                self.hb += data[:t]
                data = data[t:]
                if len(self.hb) == 14:
                    h = self.hb
                    assert h[0] == 0xA6 and h[1] == ord("L")
                    assert proto.crc16(h, 0xFFFF, 12) == (h[12] << 8) | h[13]
                    assert (h[2] << 8) | h[3] == self.next
                    self.body = int.from_bytes(h[4:8], "big")
                    self.crc = 0
                    self.ln = self.body
                    self.first = None
                continue
            t = min(self.body, len(data))
            if self.first is None:
                self.first = data[0]
            self.crc = binascii.crc32(data[:t], self.crc)
            self.body -= t
            data = data[t:]
            if not self.body:
                assert self.crc & 0xFFFFFFFF == int.from_bytes(self.hb[8:12], "big")
                self.got.append((self.next, self.ln, self.first))
                self.next += 1
                self.hb = bytearray()
        if not self.left:
            assert not self.body and not self.hb, "a span ending amid an entry"


def _spans(h, text):
    """([(n, length, first byte) or (offset, length, first byte)], error
    code or 0, [(first, k, bytes) of each span]) of a FETCH reply to a
    link of protocol 5."""
    h.link.version = 5
    h.link.port = t = _SpanTally()
    h.link.handle("@1 " + text)
    assert t.head is None and not t.left
    return t.got, t.code, t.spans


def test_a_range_of_logs_that_are_their_own_files_comes_a_span_of_one_each():
    # protocol 5: each of them whole behind one head frame, the archive
    # entry head it would have (its length, its CRC-32) made for it; items
    # of bytes still come as chunk frames, in the order asked
    c = proto.MAX_CHUNK
    h = _logs_of("link-span-whole", (300, c, 3 * c + 5))
    got, code, spans = _spans(h, "FETCH 1+3")
    assert not code and got == [(1, 300, 1), (2, c, 2), (3, 3 * c + 5, 3)]
    assert spans == [(1, 1, 314), (2, 1, c + 14), (3, 1, 3 * c + 19)]
    got, code, spans = _spans(h, "FETCH 3+1 0001.alog 5 10 2+1")
    assert not code and got == [(3, 3 * c + 5, 3), (5, 10, 1), (2, c, 2)]
    # the same errors as protocol 4's, nothing sent before them
    for text, want in (
        ("FETCH 1+4", proto.E_NOT_FOUND),
        ("FETCH 0+1", proto.E_ARGS),
        ("FETCH 9999+2", proto.E_ARGS),
    ):
        assert _spans(h, text)[:2] == ([], want), text


def test_a_log_longer_than_a_fetch_in_a_range_of_protocol_5_is_refused_whole():
    # its length is known before a byte of it goes (it is summed first):
    # the logs before it come, then ERR 6 and nothing of it; the host asks
    # for it by its bytes
    big = link.MAX_FETCH * 5 // 8
    h = _logs_of("link-span-most", (big, big, 100, link.MAX_FETCH + 1))
    got, code, _ = _spans(h, "FETCH 1+3")
    assert code == proto.E_ARGS and got == [(1, big, 1), (2, big, 2)]
    got, code, _ = _spans(h, "FETCH 4+1")
    assert code == proto.E_ARGS and got == []
    got, code, _ = _spans(h, "FETCH 3+1")
    assert not code and got == [(3, 100, 3)]


def _varied_logs(name, sizes):
    # as _logs_of, but bytes that differ along each log (a byte sent from
    # the wrong place breaks its log's CRC-32, which the tally checks)
    root = folder(name) + "/logs"
    os.mkdir(root)
    for n, size in enumerate(sizes, 1):
        piece = bytearray(256)  # a piece at a time: a small heap
        with open("%s/%04d.alog" % (root, n), "wb") as f:
            for at in range(0, size, 256):
                k = min(256, size - at)
                for i in range(k):
                    piece[i] = ((at + i) * 7 + n) % 251
                f.write(memoryview(piece)[:k])
    return Host(None, root)


def test_a_log_of_its_own_is_sent_whole_from_one_read_or_from_two():
    # fetch.whole: a log within the link's chunk or WHOLE_BUF read once
    # and sent from there; a longer one, or a heap without WHOLE_BUF's
    # block, summed in a first read and sent from a second: the same bytes
    from smartboard import fetch

    c = proto.MAX_CHUNK
    sizes = (300, c, c + 1, 3 * c + 5, fetch.WHOLE_BUF, fetch.WHOLE_BUF + 1, 20000)
    h = _varied_logs("link-whole-reads", sizes)
    want = [(n, size, n % 251) for n, size in enumerate(sizes, 1)]
    got, code, spans = _spans(h, "FETCH 1+4 5+1 6+1 7+1")
    assert not code and got == want
    big = fetch._bigger
    fetch._bigger = lambda chunk, longest: None  # no such block free
    try:
        got, code, spans = _spans(h, "FETCH 1+4 5+1 6+1 7+1")
    finally:
        fetch._bigger = big
    assert not code and got == want

# Framing of the serial protocol (docs/protocol.md): the same code on the
# board and the PC. Bad input gets a clear error code, never a frame.
from smartboard import proto


def test_crc16_is_ccitt_false():
    assert proto.crc16(b"123456789") == 0x29B1  # the standard check value
    assert proto.crc16_table(b"123456789") == 0x29B1


def test_the_fast_crc_is_the_table_crc():
    # CPython takes binascii.crc_hqx, the board the table: the same numbers
    # for every length, start value and prefix.
    data = bytearray((i * 37 + 11) & 255 for i in range(300))
    for n in (0, 1, 2, 7, 64, 299, 300):
        for start in (0xFFFF, 0, 0x1D0F):
            assert proto.crc16(data, start, n) == proto.crc16_table(data, start, n)
            assert proto.crc16(memoryview(data)[:n], start) == proto.crc16_table(data, start, n)
        assert proto.crc16(bytes(data[:n])) == proto.crc16_table(bytes(data[:n]))


def test_frame_round_trip_and_only_printable_bytes():
    f = proto.request(7, "GET", "0001.alog", 0, 2048)
    assert f.endswith(b"\n") and all(32 <= b <= 126 for b in f[:-1])
    line = f[:-1]
    assert proto.check(line) == 0
    assert proto.parse_request(proto.body(line)) == (7, "GET", ["0001.alog", "0", "2048"])


def test_bad_frames_are_named():
    good = proto.request(1, "HELLO")[:-1]
    bad_crc = bytearray(good)
    bad_crc[2] = ord("9")
    assert proto.check(bad_crc) == proto.E_CRC
    assert proto.check(b"hello") == proto.E_FRAME
    assert proto.check(b"@1 HELLO*zzzz") == proto.E_FRAME
    assert proto.check(b"@1 H\x01LO" + good[-5:]) == proto.E_FRAME


def feed(d, data, now=0):
    out = []
    for b in data:
        r = d.feed(b, now)
        if r == proto.READY:
            out.append(proto.body(d.line, d.n))
            d.taken()
        elif r:
            out.append(r)
    return out


def test_deframer_splits_frames_and_reports_errors_once():
    d = proto.Deframer(64)
    a = proto.request(1, "HELLO")
    b = proto.request(2, "STATUS")
    assert feed(d, a + b"\r\n" + b) == ["@1 HELLO", "@2 STATUS"]
    assert feed(d, b"x" * 200 + b"\n" + a) == [proto.E_LONG, "@1 HELLO"]
    assert feed(d, b"garbage\n") == [proto.E_FRAME]
    assert feed(d, b"@3 STA", 100) == []
    # a second from the first poll that found nothing
    assert d.stale(600) == 0 and d.stale(1600) == 0 and d.stale(1601) == proto.E_TRUNCATED
    assert feed(d, b) == ["@2 STATUS"]  # the partial frame is gone


def test_replies_parse_on_the_host_side():
    ok = proto.body(proto.reply_ok(5, "a b")[:-1])
    assert proto.parse_reply(ok) == ("=", 5, True, "a b")
    err = proto.body(proto.reply_err(5, proto.E_ARGS, "GET")[:-1])
    assert proto.parse_reply(err) == ("=", 5, False, "6 bad arguments: GET")
    ev = proto.body(proto.event("move", "A 12 C4")[:-1])
    assert proto.parse_reply(ev) == ("!", 0, True, "move A 12 C4")
    assert proto.parse_reply("MicroPython v1.29") == ("", 0, False, "")


def test_base64_in_place_is_base64():
    # a GET's text is written over its chunk (smartboard.link.cmd_get):
    # every length up to a whole chunk, every padding, under CPython and
    # the unix port's viper
    import binascii

    for n in (0, 1, 2, 3, 4, 5, 6, 100, 383, 384, 385, 2046, 2047, proto.MAX_CHUNK):
        data = bytes((i * 151 + n) & 255 for i in range(n))
        buf = bytearray(proto.GET_BUFFER)
        buf[proto.B64_AT : proto.B64_AT + n] = data
        m = proto.b64_in_place(buf, proto.B64_AT, n)
        assert bytes(buf[:m]) == binascii.b2a_base64(data)[:-1], n

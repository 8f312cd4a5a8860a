"""Protocol 5's span frames as the host reads them (apixagon_host.link):
"N+k n +" and n raw bytes, the archive entries of logs N .. N+k-1
(smartboard/logstore/archive.py). Every head and every log's CRC-32 is
checked; a damaged log is asked for again on its own, the others kept; a
span that is not the logs asked for, or too long to be one, is the board's
error and never taken for logs."""

import pytest
from apixagon_host import link as L
from apixagon_host.link import BoardError
from smartboard import proto
from smartboard.logstore import archive


def _entry(n, body):
    return (
        bytes(
            archive.head(bytearray(archive.ENTRY), archive.LOG, n, len(body), archive.crc32(body))
        )
        + body
    )


def _asked(*logs):
    # the chunk requests of whole logs, as fetch_many keeps them
    g = []
    for name, size in logs:
        for off in range(0, size, proto.MAX_CHUNK):
            g.append((name, off, min(proto.MAX_CHUNK, size - off)))
    return g


def test_a_span_answers_each_logs_chunks_from_its_entries():
    a, b = b"x" * 300, bytes(range(256)) * 20  # b: three chunks
    raw = _entry(7, a) + _entry(8, b)
    g = _asked(("0007.alog", len(a)), ("0008.alog", len(b)), ("0009.alog", 10))
    got = L._span("7+2 %d +" % len(raw), g, raw)
    assert [r for r, _ in got] == _asked(("0007.alog", len(a)), ("0008.alog", len(b)))
    assert [d for _, d in got] == [a, b[:2048], b[2048:4096], b[4096:]]
    assert g == [("0009.alog", 0, 10)]  # what the span did not answer waits
    assert L._raw_head("7+2 %d +" % len(raw)) == len(raw)


def test_a_damaged_log_comes_back_none_and_the_others_are_kept():
    a, b, c = b"a" * 100, b"b" * 100, b"c" * 100
    raw = bytearray(_entry(1, a) + _entry(2, b) + _entry(3, c))
    raw[archive.ENTRY + 100 + archive.ENTRY + 5] ^= 1  # a byte of log 2's
    got = L._span(
        "1+3 %d +" % len(raw),
        _asked(("0001.alog", 100), ("0002.alog", 100), ("0003.alog", 100)),
        bytes(raw),
    )
    assert [d for _, d in got] == [a, None, c]
    # a damaged head: the entries after it cannot be found
    raw = bytearray(_entry(1, a) + _entry(2, b) + _entry(3, c))
    raw[archive.ENTRY + 100 + 6] ^= 1  # log 2's length, its head's CRC-16 wrong
    got = L._span(
        "1+3 %d +" % len(raw),
        _asked(("0001.alog", 100), ("0002.alog", 100), ("0003.alog", 100)),
        bytes(raw),
    )
    assert [d for _, d in got] == [a, None, None]
    # no bytes at all (they did not come in time)
    got = L._span("1+1 114 +", _asked(("0001.alog", 100)), None)
    assert [d for _, d in got] == [None]


@pytest.mark.parametrize(
    "rest, g",
    [
        ("2+1 114 +", _asked(("0001.alog", 100))),  # not the log asked for
        ("1+2 228 +", _asked(("0001.alog", 100))),  # more logs than asked
        ("1+0 0 +", _asked(("0001.alog", 100))),  # none
        ("x+1 114 +", _asked(("0001.alog", 100))),
    ],
)
def test_a_span_of_logs_not_asked_for_is_the_boards_error(rest, g):
    with pytest.raises(BoardError):
        L._span(rest, g, _entry(1, b"a" * 100))


def test_a_span_longer_than_a_board_sends_is_no_raw_head():
    # past MAX_SPAN the host reads no raw bytes for it: never a read of
    # megabytes a broken board announced
    assert L._raw_head("1+3 %d +" % proto.MAX_SPAN) == proto.MAX_SPAN
    assert L._raw_head("1+3 %d +" % (proto.MAX_SPAN + 1)) == -1
    assert L._raw_head("1+3 999999 +") == -1
    # a chunk's head keeps its own limit
    assert L._raw_head("0 %d 00000000 +" % (proto.MAX_CHUNK + 1)) == -1

# A board that holds a thousand matches (a family board that is never
# pulled gets there by playing; the board never deletes a match itself):
# 999 finished logs and the newest one unfinished, 400 of them pulled, in a
# real folder read by the firmware's own filesystem code (logstore.flash.Flash:
# os.ilistdir, one entry at a time), through the serial link's handlers:
# LOGS lists every one through all its pages (each log once, in order, its
# size and state right), GET gives every byte of a few, PULLED and DEL
# work and STATUS counts them at once. The board itself boots and resumes
# with them in test_matchlog_thousand.py. Plain functions: also run under
# the MicroPython unix port at 96 wK.
import binascii

from logkit import collect
from pagekit import Host, logs_page
from scalekit import PULLED, N, log_size, thousand
from smartboard import link, proto

K = link.LOGS_PER_REPLY  # entries a LOGS page


def _pages(bd, check):
    """Every LOGS page, from the start, following the +next marker;
    check(i, name, size, state) for each entry in the order listed (none
    kept: a thousand entries would crowd the heap). How many pages, and
    entries."""
    seen = [0]

    def each(name, size, state):
        check(seen[0], name, size, state)
        seen[0] += 1

    start = 0
    pages = 0
    while True:
        last = start
        start = logs_page(bd, start, each)[1]
        pages += 1
        if not start:
            return pages, seen[0]
        assert start > last


def _get_all(bd, name, path):
    """GET every byte of a log, chunk after chunk, each reply read in the
    parts the board wrote it (CRCs checked), compared with the file on
    disk as it comes."""
    off = 0
    with open(path, "rb") as f:
        while True:
            del bd.port.out[:]
            bd.link.handle("@1 GET %s %d %d" % (name, off, proto.MAX_CHUNK))
            parts = bd.port.out
            head = parts[0].split()
            assert head[:2] == [b"=1", b"OK"] and int(head[2]) == off, parts[0]
            if head[3] == b"0":  # the end: one frame, "- " for no bytes
                assert head[5].startswith(b"-*") and off == log_size(path), parts[0]
                return off
            c = proto.crc16(parts[0])
            chunk = 0xFFFF
            for k in range(1, len(parts) - 1):
                c = proto.crc16(parts[k], c)
                data = binascii.a2b_base64(parts[k])
                chunk = proto.crc16(data, chunk)
                assert data == f.read(len(data))
                off += len(data)
            assert parts[-1] == proto.crc_tail(c) and chunk == int(head[4], 16)


def _status(h):
    ok, text = h.ask("STATUS")
    assert ok, text
    out = {}
    for w in text.split():
        k, v = w.split("=", 1)
        out[k] = v
    return out


def test_a_thousand_logs_listed_pulled_and_counted():
    root = thousand("scale-list")
    collect()
    h = Host(None, root)  # the real filesystem: smartboard.logstore.flash.Flash
    st = _status(h)
    assert st["logs"] == str(N) and st["unpulled"] == str(N - PULLED), st
    small = log_size(root + "/0001.alog")

    def check(i, name, size, state):
        assert name == "%04d.alog" % (i + 1), (i, name)
        assert size == (small if i < N - 1 else log_size(root + "/" + name)), (name, size)
        # the newest is unfinished: the match in play (resumed at boot)
        want = "pulled" if i < PULLED else "play" if i == N - 1 else "done"
        assert state == want, (name, state)

    assert _pages(h, check) == ((N + K - 1) // K, N)
    collect()
    # a pull: every byte of the first, a middle one and the newest
    for name in ("0001.alog", "0500.alog", "%04d.alog" % N):
        assert _get_all(h, name, root + "/" + name) == log_size(root + "/" + name)
    # marked pulled, deleted: counted at once, without a listing
    assert h.ask("PULLED 0500.alog") == (True, "0500.alog")
    assert h.ask("DEL 0500.alog") == (True, "0500.alog")
    assert h.ask("DEL 0501.alog")[0] is False  # not pulled: never deleted
    st = _status(h)
    assert st["logs"] == str(N - 1) and st["unpulled"] == str(N - PULLED - 1), st
    # a listing from the start lists the folder afresh: the same
    assert _pages(h, lambda i, name, size, state: None) == ((N - 1 + K - 1) // K, N - 1)

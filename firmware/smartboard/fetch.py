# A download's replies of protocol 5 (docs/protocol.md, "Version 5"): a
# FETCH range's logs as span frames, and LOGS' entries in machine code.
# Its own module, loaded by the link at the first download (link.py: a
# lazy import): a match never needs it, and on a stock board, where the
# firmware is deployed as .mpy, bytecode is heap (the memory budget of a
# match: ~2 KB).
import binascii

from apixagon.compat import const, micropython, ptr8

from . import proto
from .logstore import archive

# A LOGS entry's words (listed_into): ".alog:" at 0, then the states,
# done at 6, pulled at 10, play at 16
_LISTED = b".alog:donepulledplay"
LISTED_MAX = const(26)  # " 9999.alog:16777216:pulled": an entry's bytes at most


@micropython.viper
def listed_into(buf: ptr8, k: int, n: int, size: int, st: int) -> int:
    """A LOGS entry " NNNN.alog:size:state" (st 0 done, 1 pulled, 2 play;
    n 1..9999, 0 <= size < 10^8) written into buf at k: where it ends. In
    machine code: as bytes formatting (its own object an entry, the state
    words chosen in bytecode) a page of 36 logs cost the RP2040 ~13 ms."""
    w = ptr8(_LISTED)
    buf[k] = 32
    buf[k + 1] = 48 + (n // 1000) % 10
    buf[k + 2] = 48 + (n // 100) % 10
    buf[k + 3] = 48 + (n // 10) % 10
    buf[k + 4] = 48 + n % 10
    i = k + 5
    j = 0
    while j < 6:
        buf[i] = w[j]
        i += 1
        j += 1
    d = 1
    while d * 10 <= size:
        d = d * 10
    while d:
        buf[i] = 48 + (size // d) % 10
        d = d // 10
        i += 1
    buf[i] = 58  # ":"
    i += 1
    j = 6
    e = 10
    if st == 1:
        j = 10
        e = 16
    elif st == 2:
        j = 16
        e = 20
    while j < e:
        buf[i] = w[j]
        i += 1
        j += 1
    return i


def span_head_into(buf, end, seq, first, k, n):
    """The head frame of a span: "=seq OK first+k n +", the n bytes of the
    archive entries of logs first .. first+k-1 to follow it raw
    (logstore/archive.py: each head carries its log's length and CRC-32);
    written into buf just before end, as proto.chunk_head_into: where it
    starts."""
    return proto.head_into(buf, end, b"=%d OK %d+%d %d +" % (seq, first, k, n))


def span(link, log, num, most, room):
    """One span frame on link: the archive entries of the packed logs num
    .. num+k-1 (k <= most, each starting while the logs' bytes before it
    are under room), read into the link's buffer a chunk at a time, the
    first behind the head frame in one write. (k, the logs' bytes sent);
    (0, 0): log num is not packed (whole() or a chunk frame sends it);
    (-code, 0) to end the reply with. Every byte the head promises goes
    out: a read that fails amid the span sends zeros for the rest (the
    host finds those logs' CRCs wrong and asks them again)."""
    try:
        sp = log.span(num, most, room)
    except OSError:
        return -proto.E_INTERNAL, 0
    if sp is None:
        return 0, 0
    k, off, n = sp
    buf = link._buf
    chunk = link._chunk
    at = -1  # the head's start, until it is sent
    left = n
    while left:
        m = left if left < proto.MAX_CHUNK else proto.MAX_CHUNK
        part = chunk[:m]
        try:
            got = log.read_arc(off, part)
        except OSError:
            got = 0
        for j in range(got, m):
            part[j] = 0
        if at < 0:
            at = span_head_into(buf, proto.B64_AT, link._seq, num, k, n)
            link._send(memoryview(buf)[at : proto.B64_AT + m])
        else:
            link._send(part)
        off += m
        left -= m
    return k, n - k * archive.ENTRY


# A log of its own sent whole is read once into a buffer of this size
# when it fits (the longest match's log, writer.LONGEST), made for the
# request and let go after it: summed and sent from there, where reading
# it twice (its CRC-32 first, for the head) cost the RP2040 ~2 ms a 7 KB
# log in the real-chip model (every read goes through the XIP cache)
WHOLE_BUF = const(8192)


def whole(link, log, num, room, longest):
    """A log of a range that is its own file, as a span of one: the
    archive entry head it would have (archive.head: its length and CRC-32)
    and its bytes, one head frame for the whole log where chunk frames
    cost the RP2040 ~1.9 ms each (a long match never fits an archive).
    Read once where it fits the link's chunk or WHOLE_BUF (a heap without
    that block: read twice, summed in a first read). (1, its bytes);
    (0, 0): nothing sent (no such log, or empty: the link's chunk frames
    say so); (-code, 0) to end the reply with: no room left, or longer than
    longest (the host asks it by its bytes)."""
    if room <= 0:
        return -proto.E_ARGS, 0
    path = log.own_file(num)
    if path is None:
        return 0, 0
    fs = log.fs
    chunk = link._chunk
    held = None  # the log's bytes, when read whole (chunk or a buffer)
    crc = n = 0
    try:
        while True:
            if held is None and n == len(chunk):
                held = _bigger(chunk, longest)
            buf = chunk if held is None else memoryview(held)[n:]
            got = fs.read_into(path, n, buf)
            if got:
                crc = binascii.crc32(buf[:got], crc)
                n += got
            if got < len(buf) or n > longest:
                break
            if held is not None:
                held = None  # longer than the buffer: read twice
    except OSError:
        return 0, 0
    if not n:
        return 0, 0
    if n > longest:
        return -proto.E_ARGS, 0
    if held is None and n < len(chunk):
        held = chunk
    E = archive.ENTRY
    buf = link._buf
    B = proto.B64_AT
    archive.head(memoryview(buf)[B - E : B], archive.LOG, num, n, crc & 0xFFFFFFFF)
    at = span_head_into(buf, B - E, link._seq, num, 1, n + E)
    if held is not None:  # the chunk (the first one) follows the head in the link's buffer
        c = n if n < len(chunk) else len(chunk)
        link._send(memoryview(buf)[at : B + c])
        if n > c:
            link._send(memoryview(held)[c:n])
        return 1, n
    off = 0
    while off < n:
        try:
            got = fs.read_into(path, off, chunk)
        except OSError:
            got = 0
        m = n - off if n - off < got else got
        if not m:  # (cannot shrink amid one request): zeros, never short
            m = n - off if n - off < len(chunk) else len(chunk)
            for j in range(m):
                chunk[j] = 0
        if at >= 0:
            link._send(memoryview(buf)[at : B + m])
            at = -1
        else:
            link._send(chunk[:m])
        off += m
    return 1, n


def _bigger(chunk, longest):
    # WHOLE_BUF with the chunk's bytes at its start, or None (no such
    # block free, or no room for it under longest)
    if longest < WHOLE_BUF:
        return None
    try:
        b = bytearray(WHOLE_BUF)
    except MemoryError:
        return None
    b[: len(chunk)] = chunk
    return b

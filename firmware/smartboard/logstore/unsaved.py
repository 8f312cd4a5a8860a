# What a power cut would lose, kept on flash (writer.py): UNSAVED written
# or removed, SPARE made, and given up for UNSAVED when the flash refuses
# it, and UNSAVED read at boot. Steps a match rarely takes (a full flash, a
# match played unsaved, the boot after a cut, a board's first logged
# match), so the writer loads this module for the step and lets it go after
# (MatchLog._rare): where the firmware is .mpy in a littlefs slot, its
# bytecode is heap (the 96 KB budget of the deployed board).
from apixagon.compat import const

from .names import SPARE, TMP, UNSAVED

# the bytes that take two littlefs blocks (lfs.bytes_in(2)): what a folder's
# metadata pair needs to split when UNSAVED goes into a full one
SPARE_BYTES = const(8188)


def write(log, want):
    """UNSAVED made to say want (b"": removed), written whole (tmp, then
    renamed); on a flash that refuses it, SPARE removed and UNSAVED
    written into its blocks. OSError if the flash still refuses it (the
    file is then as it was)."""
    path = log.file(UNSAVED)
    if not want:
        log.fs.remove(path)
        return
    try:
        _put(log, path, want)
    except OSError:
        if not log.spare:
            raise
        log.spare = False
        log._drop(log.file(SPARE))
        log.space += 1
        _put(log, path, want)


def _put(log, path, want):
    try:
        log.fs.write(path + TMP, want)
        log.fs.rename(path + TMP, path)
    except OSError:
        log._drop(path + TMP)
        raise


def make_spare(log):
    """SPARE made whole (tmp, renamed: a cut leaves a stray .tmp)."""
    path = log.file(SPARE)
    fs = log.fs
    try:
        fs.reserve(path + TMP, SPARE_BYTES)
        fs.rename(path + TMP, path)
    except OSError:
        log._drop(path + TMP)
        raise
    log.spare = True


def read(log):
    """At boot: UNSAVED's bytes, what the cut lost (None: unreadable)."""
    w = memoryview(log._window())[:64]
    try:
        k = log.fs.read_into(log.file(UNSAVED), 0, w)
    except OSError:
        return None
    return bytes(w[:k])

# What the logs folder needs only now and then (formerly smartboard.logfs):
# the copy that cuts a torn tail off, and the repairs of a logs folder that
# is not as the board left it (Folder.rescan: fix_root, aside, tell). Apart
# so that the simulated board under the unix port, where a module's
# bytecode takes heap, loads it only when it is needed; on the board the
# code is frozen into flash.
#
# Repairs never delete what the board did not make: an entry of logs/ that
# is not a log, its marker or LAST (a folder named like a log, a file
# someone put there) is moved into <root>.junk/ (logs.junk/), and so is a
# file named logs, whose place the folder then takes. What cannot be moved
# (logs.junk is itself a file, the name is taken there) stays and is
# ignored by the listing: it never stops the board. The board says what
# it moved (the folder's note, said by the board as a message).
#
# Given the folder (log: its fs, root, note and space), never importing
# the module that made it: folder.py imports this, not the other way.
from .names import JUNK, join


def copy(fs, src, dst, n, buf):
    """The first n bytes of src into a new file dst: the filesystem's own
    copy where it has one (the flash's twin), else copy_files."""
    if hasattr(fs, "copy"):
        fs.copy(src, dst, n, buf)
    else:
        copy_files(src, dst, n, buf)


def copy_files(src, dst, n, buf):
    """The first n bytes of file src into a new file dst, through buf, both
    opened once (a repair of a long log in a folder of a thousand looks up
    no name per chunk)."""
    mv = memoryview(buf)
    with open(src, "rb") as f:
        with open(dst, "wb") as g:
            while n > 0:
                k = f.readinto(mv if n >= len(buf) else mv[:n])
                if not k:
                    raise OSError(5)  # EIO: shorter than its good records
                w = g.write(mv[:k])
                if w is not None and w != k:
                    raise OSError(28)
                n -= k


def _isdir(fs, path):
    if hasattr(fs, "isdir"):
        return fs.isdir(path)
    return True  # not known: a folder, never moved


def fix_root(log):
    """The log's folder could not be listed: made if it is missing, moved
    aside if it is a file. False when there is nothing to put right (a
    folder that fails to list: the error is the caller's)."""
    fs = log.fs
    root = log.root
    if fs.exists(root):
        if _isdir(fs, root):
            return False
        where = _aside(log, root, root[root.rfind("/") + 1 :])
        if where is None:
            _tell(log, "%s is a file, not a folder, and cannot be moved: no match logs" % root)
            return False
        _tell(log, "%s was a file, not a folder: moved to %s" % (root, where))
    fs.mkdir(root)
    return True


def aside(log, name):
    """An entry of the log's folder that is not the board's moved aside:
    whether it could be."""
    return _aside(log, join(log.root, name), name) is not None


def tell(log, seen, moved):
    """What a listing found and moved, for the players."""
    text = "%s: %d unknown entr%s" % (log.root, seen, "y" if seen == 1 else "ies")
    if moved:
        text += ", %d moved to %s%s" % (moved, log.root, JUNK)
    if moved < seen:
        text += ", %d left where they are (ignored)" % (seen - moved)
    _tell(log, text)


def _tell(log, text):
    # for the players: the board says it (the folder's note) when it judges
    # the storage again (space moved)
    log.note = text
    log.space += 1


def _aside(log, path, name):
    # path moved into <root>.junk/ under its name (.1 .. .9 if taken):
    # where it went, or None
    fs = log.fs
    d = log.root + JUNK
    try:
        fs.mkdir(d)
    except OSError:
        pass  # there already (or not a folder: the rename fails below)
    dst = join(d, name)
    for k in range(10):
        to = dst
        if k:
            to = dst + (".%d" % k if isinstance(dst, str) else (".%d" % k).encode())
        if not fs.exists(to):
            try:
                fs.rename(path, to)
            except OSError:
                return None
            return to
    return None

"""Writing an output file whole or not at all."""

import os

from .errors import EXIT_USAGE, CommandError


def write_atomic(path, data):
    """Write data (bytes) to path through a temporary file in the same
    directory, renamed over path once complete: a failure (disk full, an
    interrupt, a directory named path) leaves no partial file and an
    existing file untouched. An unwritable path is a usage error (the -o
    argument is wrong), reported without a traceback."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    try:
        # O_EXCL: never write through someone else's file or link; mode
        # 0o666 so the umask decides the permissions, as for open().
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:
        raise CommandError("cannot write %s: %s" % (path, e.strerror or e), EXIT_USAGE)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise CommandError("cannot write %s: %s" % (path, e.strerror or e), EXIT_USAGE)
        raise

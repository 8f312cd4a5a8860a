"""A program on a real pseudo-terminal, as a user's terminal runs it: what
it draws (escape sequences stripped) and keys typed into it; every wait
has a deadline, so a test fails instead of hanging."""

import errno
import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    def __init__(self, argv, cwd=None, env=None, cols=100, rows=40):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the program, on the pty's other end
            try:
                if cwd:
                    os.chdir(cwd)
                os.execve(argv[0], argv, env or os.environ)
            finally:
                os._exit(127)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.raw = b""
        self.seen = 0  # wait_for() looks past this point
        self.status = None

    @property
    def text(self):
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def _read(self, timeout):
        r = select.select([self.fd], [], [], timeout)[0]
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError as e:  # EIO: the program ended and closed the pty
            if e.errno != errno.EIO:
                raise
            data = b""
        if not data:
            return False
        self.raw += data
        return True

    def wait_for(self, pattern, timeout=30, anywhere=False):
        """The match once pattern (a regex) shows up after the last match
        (anywhere: in all that was drawn, for things drawn above the
        last match on the same screen)."""
        end = time.monotonic() + timeout
        while True:
            m = self._find(pattern, anywhere)
            if m:
                return m
            left = end - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.2)):
                m = self._find(pattern, anywhere)
                if m:
                    return m
                raise AssertionError(
                    "%r did not show up; the screen said:\n%s" % (pattern, self.text[-3000:])
                )

    def _find(self, pattern, anywhere):
        start = 0 if anywhere else self.seen
        m = re.search(pattern, self.text[start:])
        if m and not anywhere:
            self.seen += m.end()
        return m

    def type(self, keys):
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)

    def wait_exit(self, timeout=30):
        """The exit status (0..255, or -signal), reading what it still draws."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(st)
                # what it drew last may still be in the pty when it is reaped
                # (on a loaded PC the screen's restore came after): read to
                # the pty's end (EIO), a second at most
                drain = time.monotonic() + 1.0
                while time.monotonic() < drain and self._read(0.1):
                    pass
                return self.status
            self._read(0.1)
        raise AssertionError("still running after %ss:\n%s" % (timeout, self.text[-2000:]))

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except OSError:
                pass
        os.close(self.fd)


def processes_in(directory):
    """Pids of the processes whose working directory is directory (a
    simulated board runs in its flash directory)."""
    want = os.path.realpath(directory)
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink("/proc/%s/cwd" % pid) == want:
                    out.append(int(pid))
            except OSError:
                pass
    return out

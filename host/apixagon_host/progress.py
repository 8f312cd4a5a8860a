"""The CLI's progress bar: one line on stderr, redrawn in place, only on a
terminal (or when --progress forces it), so pipes and logs stay clean."""

import sys
import time

WIDTH = 30


class Progress:
    def __init__(self, total, force=False):
        """force: draw even when stderr is not a terminal; or a function
        told (done, total) at each step instead of a bar (the web
        companion's progress bars)."""
        self.total = max(total, 1)
        self.done = 0
        self.watch = force if callable(force) else None
        self.on = not self.watch and (force or sys.stderr.isatty())
        self.t0 = time.monotonic()

    def add(self, n):
        """Count n more done; whether to draw."""
        self.done += n
        if self.watch:
            self.watch(self.done, self.total)
        return self.on

    def draw(self, label, tail):
        """\\r label [#####     ] tail"""
        n = WIDTH * min(self.done, self.total) // self.total
        sys.stderr.write("\r%s [%-*s] %s" % (label, WIDTH, "#" * n, tail))
        sys.stderr.flush()

    def seconds(self):
        return max(time.monotonic() - self.t0, 1e-6)

    def end(self):
        if self.on:
            sys.stderr.write("\n")

# The serial link's port on the board and on the unix port (smartboard.link
# takes any port): its own module, which only the start-up code imports, so
# the tests' small heaps never hold it.


class StdioPort:
    """USB CDC (the board) or the unix port's stdin/stdout: a non-blocking
    byte source through select.poll, and a writer."""

    def __init__(self):
        import select
        import sys

        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self._one = bytearray(1)  # a byte read into it: nothing allocated a byte

    def read_byte(self):
        # ipoll, not poll: poll() makes a new list at every call, and this
        # runs at least once a loop pass; ipoll hands back one tuple of its
        # own, made once.
        for _ in self.poller.ipoll(0):
            if self.inp.readinto(self._one):
                return self._one[0]
        return -1

    def write(self, data):
        self.out.write(data)

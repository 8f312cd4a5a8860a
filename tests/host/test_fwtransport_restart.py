"""The deploy's restart of a board never blocks on a port that reads
nothing: a board whose power went under a script keeps its port (a USB
hub's, the simulator's pseudo-terminal) while the script's bytes fill its
buffer, and an unbounded write there hung `apixagon deploy` for ever (CI
saw it as a deploy that never gave up)."""

import os
import pty
import threading
import time
import tty

import pytest
from apixagon_host import fwtransport as T
from apixagon_host import link as L


def test_restart_gives_up_on_a_port_whose_buffer_nobody_reads():
    master, slave = pty.openpty()
    try:
        tty.setraw(slave)
        os.set_blocking(slave, False)
        try:
            while True:  # what a cut-off script left unread
                os.write(slave, b"x" * 1024)
        except BlockingIOError:
            pass
        got = []

        def run():
            with pytest.raises(L.BoardError) as e:
                T.restart(os.ttyname(slave))
            got.append(str(e.value))

        t0 = time.monotonic()
        th = threading.Thread(target=run, daemon=True)
        th.start()
        th.join(15)
        assert not th.is_alive(), "restart blocked on a port that reads nothing"
        assert got and "reads nothing" in got[0], got
        assert time.monotonic() - t0 < 5
        os.read(master, 1)  # (the master end kept open, unread, until here)
    finally:
        os.close(slave)
        os.close(master)

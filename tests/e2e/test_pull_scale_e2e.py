"""A thousand matches end to end: the simulated board (the firmware in the
MicroPython unix port, 96 wK, on a pseudo-terminal) boots with a thousand
logs on its flash, its newest unfinished, and the real `apixagon logs
pull` (the console script, pyserial) stores every one of them, byte for
byte, in 42 LOGS pages; the board counts them pulled; a second pull asks
only for the match in play; `--delete` frees the board of all it stored
and keeps the match in play. The finished logs are short (~70 bytes, as
in tests/rp2040/test_rp2040_scale.py): a thousand loose logs fit a Pico's
littlefs, which the simulated board's flash counts as the board does,
only inline in the folder's metadata."""

import os
import sqlite3
import subprocess
import sys
import time

from e2ekit import RECORD, connect
from smartboard.logstore import records

APIXAGON = os.path.join(os.path.dirname(sys.executable), "apixagon")
N = 1000


def log_bytes(moves, end="abandoned"):
    """A log of the scripted game's header and first `moves` moves, then its
    end (None: unfinished), as the board writes it."""
    out = bytearray()
    link = records.SEED
    n = 0
    with open(RECORD) as f:
        for line in f:
            line = line.strip()
            move = len(line) > 1 and line[0] in "ABGJ" and line[1] in " 123"
            if move:
                if n == moves:
                    break
                n += 1
            kind = records.MOVE if move else records.HEADER
            rec, link = records.encode(link, kind, line.encode())
            out += rec
    if end is not None:
        rec, link = records.encode(link, records.END, end.encode())
        out += rec
    return bytes(out)


def short_log(i):
    """A short abandoned match: its mode, one move and its end."""
    out = bytearray()
    link = records.SEED
    lines = ((records.HEADER, "mode queens-gambit"), (records.MOVE, "B %d E4" % (i % 31)))
    for kind, text in lines + ((records.END, "abandoned"),):
        rec, link = records.encode(link, kind, text.encode())
        out += rec
    return bytes(out)


def cli(*args, timeout=600):
    t = time.monotonic()
    r = subprocess.run([APIXAGON, *args], capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr, time.monotonic() - t


def test_a_thousand_logs_pulled_from_the_board(board, tmp_path):
    # the power off, the flash gets its thousand logs, the board boots
    board.power_cut(hold=True)
    d = os.path.join(board.flash, "logs")
    os.makedirs(d, exist_ok=True)
    finished = [short_log(i) for i in range(5)]
    for i in range(1, N):
        with open(os.path.join(d, "%04d.alog" % i), "wb") as f:
            f.write(finished[i % 5])
    newest = log_bytes(4, None)
    with open(os.path.join(d, "%04d.alog" % N), "wb") as f:
        f.write(newest)
    board.power_on()
    assert board.wait_boot(2)
    with connect(board) as link:
        link.timeout = 30
        st = link.status()
        assert st["phase"] == "resume" and st["moves"] == "4", st
        assert st["logs"] == str(N) and st["unpulled"] == str(N), st
    db = str(tmp_path / "m.sqlite")
    rc, out, secs = cli("logs", "pull", "--port", board.port, "--db", db)
    assert rc == 0 and "%d logs pulled" % N in out, out
    print("apixagon logs pull of %d logs from the simulated board: %.1f s" % (N, secs))
    with sqlite3.connect(db) as c:
        rows = dict(c.execute("SELECT name, data FROM logs").fetchall())
    assert len(rows) == N
    for i in range(1, N):
        assert rows["%04d.alog" % i] == finished[i % 5], i
    assert rows["%04d.alog" % N] == newest
    with connect(board) as link:
        st = link.status()
        # every finished one marked pulled; the match in play is pulled again later
        assert st["unpulled"] == "1" and st["logs"] == str(N), st
    # again: only the match in play is asked for (it may have grown)
    rc, out, secs = cli("logs", "pull", "--port", board.port, "--db", db)
    assert rc == 0 and "1 log pulled" in out and "%d up to date" % (N - 1) in out, out
    print("the second pull: %.1f s" % secs)
    rc, out, secs = cli("logs", "pull", "--port", board.port, "--db", db, "--delete")
    assert rc == 0 and "%d deleted from the board" % (N - 1) in out, out
    print("apixagon logs pull --delete of %d logs: %.1f s" % (N - 1, secs))
    assert sorted(n for n in os.listdir(d) if n.endswith(".alog")) == ["%04d.alog" % N]
    with connect(board) as link:
        st = link.status()
        assert st["logs"] == "1" and st["phase"] == "resume", st

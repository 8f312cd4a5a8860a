"""`apixagon monitor` with real parts: the firmware (.mpy) in the
MicroPython unix port on a pseudo-terminal, the installed console script,
and for the terminal view a real pty (python's pty module) on the other
side. Every wait has a generous deadline; none is a timing assertion."""

import os
import queue
import subprocess
import sys
import threading
import time

import fakeboard
import pytest
from ptykit import Terminal, processes_in
from smartboard import proto

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APIXAGON = os.path.join(os.path.dirname(sys.executable), "apixagon")


class PlainMonitor:
    """`apixagon monitor --plain` with commands on a pipe, its lines read
    by a thread (a line waited for never blocks past its deadline)."""

    def __init__(self, port, db):
        self.p = subprocess.Popen(
            [APIXAGON, "monitor", "--port", port, "--plain", "--db", db],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines = queue.Queue()
        self.log = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def expect(self, prefix, timeout=30):
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no %r line; got:\n%s" % (prefix, "\n".join(self.log)))
            self.log.append(line)
            if line.startswith(prefix):  # a str, or a tuple of them
                return line

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait(10)


def wait_logged(board, data, timeout=30):
    path = os.path.join(board.flash, "logs", "0001.alog")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if os.path.exists(path):
            with open(path, "rb") as f:
                if data in f.read():
                    return
        time.sleep(0.05)
    raise AssertionError("%r never reached %s" % (data, path))


def test_plain_log_prints_moves_leds_and_cells_and_survives_a_reboot(board, tmp_path):
    m = PlainMonitor(board.port, str(tmp_path / "m.sqlite"))
    try:
        m.expect("link  connected to APIXAGON_simulator sim-A")
        assert m.expect("cells ") == "cells -"
        assert len(m.expect("leds  ").split()[1]) == 61  # a character per cell
        m.send("confirm")
        m.expect("phase start")
        m.send("put E4 B12")
        assert m.expect("move ").split()[2:] == ["B", "12", "E4"]
        assert m.expect("cells ") == "cells E4=B12"
        m.send("fly E4")
        m.expect("error: unknown command 'fly'")
        m.send("confirm long")  # abandoned: nothing to resume after the cut
        m.expect("phase abandoned")
        m.send("fly")  # answered once the HAND before it was: the link is idle
        m.expect("error: unknown command 'fly'")
        wait_logged(board, b"abandoned")  # on flash (a quiet tick writes it)
        board.power_cut()  # SIGKILL; it boots again, knowing no watcher
        assert board.wait_boot(2)
        # Seen by the heartbeat: STATUS says watch=0 (watch again), or a
        # request sent while it was down never got its answer (reconnect).
        m.expect(("link  the board restarted: watching again", "link  connected to"))
        m.send("confirm")
        m.expect("phase start")
        m.send("put E6 B5")
        assert m.expect("move ").split()[2:] == ["B", "5", "E6"]
        assert m.expect("cells ") == "cells E6=B05"  # the cut took E4's card
        m.send("quit")
        assert m.p.wait(30) == 0
    finally:
        m.close()


@pytest.fixture
def term():
    opened = []

    def start(argv, **kw):
        t = Terminal(argv, **kw)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def test_companion_on_a_terminal_draws_the_card_and_the_move(board, term, tmp_path):
    t = term([APIXAGON, "monitor", "--port", board.port, "--db", str(tmp_path / "m.sqlite")])
    t.wait_for(r"APIXAGON live view  APIXAGON_simulator sim-A")
    t.wait_for(r"\[setup\]")
    t.type("mode beehive\r")  # SET mode 2: the status line names it
    t.wait_for(r"\[setup\]  mode beehive", anywhere=True)
    t.type("mode queens-gambit\r")
    t.wait_for(r"\[setup\]  mode queens-gambit", anywhere=True)
    t.type("confirm\r")
    t.wait_for(r"phase start")
    t.type("put E4 B12\r")
    t.wait_for(r"E e1 .* B12 ")  # row E: the card drawn on its cell
    t.wait_for(r"move  \d+ B 12 E4")
    t.wait_for(r"last: B 12 E4", anywhere=True)  # the status line, above the events
    t.type("put E6 B99\r")  # no such card: a message, nothing sent
    t.wait_for(r"error: no card 'B99'")
    t.type("lift\r")
    t.wait_for(r"error: usage: lift CELL")
    t.type("help\r")
    t.wait_for(r"put CELL CARD")
    t.type("status\r")  # the CLI's own status, the live link paused meanwhile
    t.wait_for(r"last +B 12 E4")
    t.type("put E6 G5\r")  # and the live link is back
    t.wait_for(r"move  \d+ G 5 E6")
    t.type("put E6 B3\r")  # a card on a card: the board refuses, the companion names it
    t.wait_for(r"error: E6 holds G5: lift it first")
    t.type("lift E6\r")  # a take-back reads as one, not as a move
    t.wait_for(r"take-back: G 5 E6 taken back \(1 move\)")
    t.type("quit\r")
    assert t.wait_exit() == 0


def test_companion_pull_then_list(board, term, tmp_path):
    db = str(tmp_path / "m.sqlite")
    t = term([APIXAGON, "monitor", "--port", board.port, "--db", db])
    t.wait_for(r"\[setup\]")
    for keys in ("confirm\r", "put E4 B12\r", "put E6 G5\r"):
        t.type(keys)
    t.wait_for(r"move  \d+ G 5 E6")
    t.type("pull\r")
    t.wait_for(r"1 log pulled from sim-A")
    t.type("list\r")
    t.wait_for(r"1  sim-A +0001.alog")
    t.type("\x04")  # Ctrl-D on an empty line leaves
    assert t.wait_exit() == 0
    assert os.path.exists(db)
    # the companion saw the match begin: it is dated today, not by the pull
    cmd = [APIXAGON, "logs", "export", "1", "--db", db]
    r = subprocess.run(cmd, capture_output=True, text=True)
    out = r.stdout
    assert r.returncode == 0 and '[Date "%s"]' % time.strftime("%Y.%m.%d") in out, out


@pytest.mark.parametrize("keys", ["quit\r", "\x03", "\x04"], ids=["quit", "ctrl-c", "ctrl-d"])
def test_make_run_entry_ends_cleanly_and_leaves_no_board_behind(term, tmp_path, keys):
    # What `make run` runs: tools/devboard.py --companion (the board on a
    # pty, the companion on this terminal).
    flash = tmp_path / "flash"
    db = tmp_path / "matches.sqlite"
    t = term(
        [sys.executable, os.path.join(ROOT, "tools", "devboard.py"), "--companion"]
        + ["--flash", str(flash), "--db", str(db)],
        cwd=ROOT,
    )
    t.wait_for(r"APIXAGON live view  APIXAGON_simulator sim-A", timeout=60)
    t.wait_for(r"\[setup\]")
    assert processes_in(flash), "the simulated board runs in its flash directory"
    t.type("put E4 B12\r")
    t.wait_for(r"B12")
    t.type(keys)
    assert t.wait_exit() == 0
    end = time.monotonic() + 10
    while processes_in(flash) and time.monotonic() < end:
        time.sleep(0.1)
    assert processes_in(flash) == []
    assert os.path.isdir(flash / "logs") or os.path.isdir(flash / "lib")  # flash kept


def test_plain_log_in_words_from_a_board_of_the_new_events(tmp_path):
    # A board that speaks the newer events (refused, want, a take-back's
    # lower count) and STATUS fields, and an old one's HANDS: the plain log
    # says them in words, set-up names become SETs.
    events = [
        ("move", "1 B 12 E4"),
        ("move", "2 G 3 F5"),
        ("move", "1 B 12 E4"),  # `lift F5`
        ("refused", "adjacent-opponent G 3 E6"),
        ("want", "E4:B12 F5:G3"),
        ("changed", ""),
    ]

    def watch(b, seq, args):
        out = proto.reply_ok(seq)
        if args == ["1"]:
            out += b"".join(proto.event(k, t) for k, t in events)
        return out

    status = fakeboard.STATUS.replace("phase=setup", "phase=play moves=0")
    with fakeboard.FakeBoard(status=status) as board:
        board.answer["WATCH"] = watch
        board.answer["SET"] = lambda b, seq, args: proto.reply_ok(seq, "%s=%s" % tuple(args))
        m = PlainMonitor(board.port, str(tmp_path / "m.sqlite"))
        try:
            m.expect("link  connected to fake fake-1")
            assert m.expect("move ") == "move  1 B 12 E4"
            assert m.expect("take-back") == "take-back: G 3 F5 taken back (1 move)"
            assert m.expect("refused") == (
                "refused: G3 on E6: beside an opponent card without blocking or extending a run"
                " (adjacent-opponent)"
            )
            assert m.expect("put back") == "put back: E4 B12, F5 G3"
            m.send("hands")
            m.expect("error: this board's firmware cannot tell the hands (update it)")
            m.send("mode chess")
            m.expect("error: mode 'chess'? choose one of: queens-gambit")
            m.send("mode beehive")
            m.send("fly")  # answered after the SET was
            m.expect("error: unknown command 'fly'")
            assert ("SET", ("mode", "2")) in board.asked
            assert board.verbs().count("SET") == 1
            m.send("quit")
            assert m.p.wait(30) == 0
        finally:
            m.close()

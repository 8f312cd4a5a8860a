"""`apixagon online host|join CODE` as a user runs it: two processes, two
simulated boards, one mosquitto; and its bad input (a bad code, a bad
broker URL, an unknown match, a board with no match), each a clear
message and its exit code."""

import os
import signal
import subprocess
import sys
import threading
import time

import devboard
from apixagon_host import link as L
from apixagon_host.online import seal

CLI = [sys.executable, "-m", "apixagon_host.cli", "online"]


def board(tmp_path, fw, name, start=True):
    flash = os.path.join(str(tmp_path), name)
    os.makedirs(flash)
    devboard.install(flash, fw)
    b = devboard.DevBoard(flash, "A").start()
    if start:
        link = L.connect(b.port, timeout=5)
        link.request("HAND", "press", "confirm")
        link.close()
    return b


def run(*args, timeout=60):
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=timeout)


def test_host_and_join_meet_on_the_broker(tmp_path, firmware_mpy, mqtt):
    b = board(tmp_path, firmware_mpy, "b")
    g = board(tmp_path, firmware_mpy, "g")
    try:
        # the host draws the code and prints it in groups to read out
        host = subprocess.Popen(
            CLI + ["host", "--broker", mqtt.url, "-p", b.port, "--seconds", "8"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        first = [host.stdout.readline() for _i in range(2)]
        said = [x for x in first if "tell the other player this code" in x]
        assert said, first
        code = said[0].split("join ")[-1].strip()
        assert len(code) == 19 and code.count("-") == 3, code
        join = run("join", code.lower(), "--broker", mqtt.url, "-p", g.port, "--seconds", "3")
        # read on from the same buffered stream: communicate() reads the
        # pipe beneath it and loses what readline() had read ahead
        out = "".join(first) + host.stdout.read()
        err = host.stderr.read()
        host.wait(60)
        assert join.returncode == 0, join.stderr
        assert "a board joined: it plays Gold" in out
        assert (
            "spectators: give them the fingerprint" in out
            and code not in out.split("fingerprint")[-1]
        )
        assert "this board plays Gold" in join.stdout
        assert "the other side (Black) is here" in join.stdout
        assert host.returncode == 0, err
        assert "this board plays Black" in out and "the other side (Gold) is here" in out
        assert "the other side is away" in out  # the joiner left first
    finally:
        b.stop()
        g.stop()


def test_bad_input_is_said_with_its_exit_code(tmp_path, firmware_mpy, mqtt):
    b = board(tmp_path, firmware_mpy, "b", start=False)
    try:
        r = run("join", "no!", "--broker", mqtt.url, "-p", b.port)
        assert r.returncode == 2 and "bad match code" in r.stderr
        r = run("join", "--broker", mqtt.url, "-p", b.port)
        assert r.returncode == 2 and "join needs the match code" in r.stderr
        code = seal.group(seal.new_code())
        r = run("join", code[:-1] + ("A" if code[-1] != "A" else "B"), "-p", b.port)
        assert r.returncode == 2 and "mistyped" in r.stderr
        r = run("join", code, "--broker", "http://x", "-p", b.port)
        assert r.returncode == 4 and "bad broker URL" in r.stderr
        r = run("host", code, "--broker", mqtt.url, "-p", b.port)
        assert r.returncode == 2 and "no match on the board" in r.stderr
        link = L.connect(b.port, timeout=5)
        link.request("HAND", "press", "confirm")
        link.close()
        r = run("join", code, "--broker", mqtt.url, "-p", b.port, "--wait", "1")
        assert r.returncode == 2 and "no match %s on the broker" % code in r.stderr
        r = run("join", code, "--broker", "mqtt://127.0.0.1:9", "-p", b.port, "--wait", "1")
        assert r.returncode == 4 and "broker" in r.stderr, r.stderr
    finally:
        b.stop()


def test_a_killed_host_is_seen_away_by_its_last_will(tmp_path, firmware_mpy, mqtt):
    import signal
    import time

    b = board(tmp_path, firmware_mpy, "b")
    g = board(tmp_path, firmware_mpy, "g")
    code = seal.new_code()
    try:
        host = subprocess.Popen(
            CLI + ["host", code, "--broker", mqtt.url, "-p", b.port],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        join = subprocess.Popen(
            CLI + ["join", code, "--broker", mqtt.url, "-p", g.port, "--grace", "2"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(4)  # both connected and present
        host.send_signal(signal.SIGKILL)  # no goodbye: the broker's last will speaks
        host.wait(10)
        out, err = join.communicate(timeout=60)
        assert join.returncode == 1, err
        assert "the other side is away" in out
        assert "has been away for 2 s" in err
    finally:
        for p in (host, join):
            if p.poll() is None:
                p.kill()
        b.stop()
        g.stop()


class Lines:
    """A process's output lines, read as they come."""

    def __init__(self, stream):
        self.got = []
        threading.Thread(
            target=lambda: self.got.extend(iter(stream.readline, "")), daemon=True
        ).start()

    def wait(self, text, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if any(text in x for x in self.got):
                return
            time.sleep(0.05)
        raise AssertionError("no %r in %r" % (text, self.got[-6:]))


# The CLI as a terminal starts it, Ctrl-C (SIGINT) raising KeyboardInterrupt:
# a process inherits an ignored or blocked SIGINT from its parent (a test
# runner's worker may have either), and Python then never sees Ctrl-C.
CTRL_C_CLI = [
    sys.executable,
    "-c",
    "import runpy, signal, sys; "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT]); "
    "signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'apixagon'; "
    "runpy.run_module('apixagon_host.cli', run_name='__main__')",
    "online",
]


def test_the_hands_typed_at_two_simulated_boards(tmp_path, firmware_mpy, mqtt):
    b = board(tmp_path, firmware_mpy, "b")
    g = board(tmp_path, firmware_mpy, "g")
    code = seal.group(seal.new_code())
    procs = []
    # stderr to a file: a pipe nobody reads until the end would stop a
    # process that says much there (a full pipe blocks its write)
    errs = [tmp_path / ("%s.err" % role) for role in ("host", "join")]
    try:
        for (role, port), err in zip((("host", b.port), ("join", g.port)), errs):
            with open(err, "w") as f:
                procs.append(
                    subprocess.Popen(
                        CTRL_C_CLI + [role, code, "--broker", mqtt.url, "-p", port, "--hands"],
                        env=dict(os.environ, PYTHONFAULTHANDLER="1"),
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=f,
                        text=True,
                    )
                )
        host, join = procs
        said = [Lines(p.stdout) for p in procs]
        said[0].wait("the other side (Gold) is here")
        said[0].wait("type the players' hands here")
        host.stdin.write("put I9 nocard\nput I9 B11\n")  # MOVES[0]: B 11 I9
        host.stdin.flush()
        said[0].wait("no card nocard")
        said[1].wait("the other side played move 1: B 11 I9")
        # a line after it is answered once the put has gone to the board
        join.stdin.write("put I9 B11\nbad\n")
        join.stdin.flush()
        said[1].wait("'bad': type one of put CELL CARD")
        for p in procs:
            p.send_signal(signal.SIGINT)  # Ctrl-C: the match stays on the boards
        for p, lines, err in zip(procs, said, errs):
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                # where it hangs: faulthandler (PYTHONFAULTHANDLER) prints
                # every thread's stack on SIGABRT
                with open("/proc/%d/status" % p.pid) as f:
                    sigs = [x for x in f if x.startswith(("SigBlk", "SigIgn", "SigCgt"))]
                p.send_signal(signal.SIGABRT)
                p.wait(10)
                raise AssertionError(
                    "no exit 60 s after Ctrl-C: %r %s %s"
                    % (lines.got[-6:], sigs, err.read_text()[-6000:])
                )
            assert p.returncode == 0, err.read_text()
            lines.wait("stopped: the match stays on the board")
        for x in (b, g):
            link = L.connect(x.port, timeout=5)
            assert L.fields(link.request("STATUS"))["moves"] == "1"
            link.close()
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        b.stop()
        g.stop()

"""Helpers of the deploy tests on the simulated board (tools/devboard.py)
and the emulated RP2040 (tests/rp2040): firmware folders with another
version, a stock board's flash with a firmware deployed in a slot, the
`apixagon` command run to be killed, where the running firmware's
modules come from, and the stock board the deploy tests start from (the
`board` fixture: import stock_board into the test module)."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import devboard  # tools/ on the path (conftest.py)
import pytest
from apixagon_host import fwcheck
from apixagon_host import fwtransport as T

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OURS = ("apixagon", "smartboard", "boards")
BIN = os.path.join(os.path.dirname(sys.executable), "apixagon")


def copy_with_version(src, dest, version, broken=False):
    """The firmware folder src as dest, its FW_VERSION `version` (and, broken,
    a link.py that raises on import)."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__"))
    path = os.path.join(dest, "smartboard", "link.py")
    with open(path) as f:
        text = f.read()
    text, n = re.subn(r'^FW_VERSION = "[^"]*"', 'FW_VERSION = "%s"' % version, text, flags=re.M)
    assert n == 1
    if broken:
        text = 'raise ImportError("broken build for the deploy test")\n' + text
    with open(path, "w") as f:
        f.write(text)
    return dest


def stock_flash(flash, stage, slot="a"):
    """A stock MicroPython's flash with the firmware staged in `stage`
    (fwbuild.build) deployed in a slot: main.py, lib/bootsel.mpy, fw/BOOT."""
    shutil.copytree(os.path.join(stage, "slot"), os.path.join(flash, "fw", slot))
    shutil.copytree(os.path.join(stage, "boot"), flash, dirs_exist_ok=True)
    with open(os.path.join(flash, "fw", "BOOT"), "w") as f:
        json.dump({"cur": slot, "state": "ok", "prev": None, "image": None}, f)
    devboard.place_layout(flash)


@pytest.fixture(name="board")
def stock_board(tmp_path, fws):
    """A stock board that runs the test module's base firmware from fw/a:
    fws (the module's own fixture) gives its staged build (.stage) and
    version (.old)."""
    flash = str(tmp_path / "flash")
    stock_flash(flash, fws.stage)
    b = devboard.DevBoard(flash)
    b.start()
    try:
        assert fwcheck.await_firmware(b.port, 15)["fw"] == fws.old
        yield b
    finally:
        b.stop()


def record(flash):
    try:
        with open(os.path.join(flash, "fw", "BOOT")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def slot_version(flash, slot):
    with open(os.path.join(flash, "fw", slot, "FIRMWARE.json")) as f:
        return json.load(f)["fw"]


_MODULES = """\
import sys
bs = sys.modules.get('bootsel')
print('BOOTED', (bs.booted or '-') if bs else '?')
for k in sorted(sys.modules):
    if k.split('.')[0] in %r:
        print('M', k, getattr(sys.modules[k], '__file__', '?'))
""" % (OURS,)


def running_modules(port):
    """Take the board over: (the slot its selector booted, '-' for the
    board's own firmware, '?' with no selector; {module: file} of ours).
    The board is left at its REPL: restart it."""
    lines = T.mpremote(port, ["exec", _MODULES], timeout=T.SHORT)
    booted = "?"
    mods = {}
    for line in lines:
        if line.startswith("BOOTED "):
            booted = line[7:]
        elif line.startswith("M "):
            name, _, path = line[2:].partition(" ")
            mods[name] = path
    return booted, mods


def one_origin(booted, mods, factory=None):
    """The folder every module of ours comes from (fw/a/, fw/b/, /rom/ or
    the image's), or AssertionError naming the mix."""
    assert len(mods) >= 10, "hardly any module of ours loaded: %s" % mods
    origins = {}
    for name, path in mods.items():
        if path.startswith("fw/a/") or path.startswith("fw/b/"):
            where = path[:5]
        elif path.startswith("/rom/"):  # an image's ROMFS partition
            where = "/rom/"
        elif factory is not None and path.startswith(factory):
            where = "image"
        else:
            where = "elsewhere: " + path
        origins.setdefault(where, []).append(name)
    assert len(origins) == 1, "a mix of firmwares: %s" % origins
    where = next(iter(origins))
    want = "image" if booted == "-" else "/rom/" if booted == "rom" else "fw/%s/" % booted
    assert where == want, "the selector says %s, the modules come from %s" % (booted, where)
    return where


class Run:
    """`apixagon CMD -p PORT --firmware DIR` in its own process group (a
    kill takes its mpremote too), its output lines timed, and with
    progress=True how many files its copy has written (its bar)."""

    def __init__(self, cmd, port, firmware, timeout=10, progress=False):
        self.t0 = time.monotonic()
        self.lines = []
        self.files = 0  # files written, as the bar says ...
        self.total = None  # ... of so many
        argv = [BIN, cmd, "-p", port, "--firmware", firmware, "--timeout", str(timeout)]
        self.p = subprocess.Popen(
            argv + (["--progress"] if progress else []),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if progress else subprocess.STDOUT,
            text=True,
            start_new_session=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        self.cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        if progress:
            threading.Thread(target=self._read_bar, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            with self.cv:
                self.lines.append((time.monotonic(), line.rstrip("\n")))
                self.cv.notify_all()
        with self.cv:
            self.lines.append((time.monotonic(), None))  # the end
            self.cv.notify_all()

    def _read_bar(self):
        # "\rcopying [####   ]  12/49 smartboard/link.mpy", redrawn in place
        text = ""
        while True:
            c = self.p.stderr.read(1)
            if not c:
                break
            if c not in "\r\n":
                text += c
                continue
            m = re.search(r"\] +(\d+)/(\d+) ", text)
            if m:
                with self.cv:
                    self.files = int(m.group(1))
                    self.total = int(m.group(2))
                    self.cv.notify_all()
            elif text.strip():
                with self.cv:
                    self.lines.append((time.monotonic(), text))
            text = ""

    def when(self, prefix, timeout=30):
        """The time the line starting with prefix came (None: never came)."""
        end = time.monotonic() + timeout
        with self.cv:
            while True:
                for t, line in self.lines:
                    if line is None:
                        return None
                    if line.startswith(prefix):
                        return t
                if time.monotonic() > end:
                    return None
                self.cv.wait(0.05)

    def wait_files(self, n=None, left=0, timeout=120):
        """Until the copy has written n files, or with n=None all but
        `left` of them (False: it ended or timed out first)."""
        end = time.monotonic() + timeout
        with self.cv:
            while self.total is None or self.files < (self.total - left if n is None else n):
                if time.monotonic() > end or (self.lines and self.lines[-1][1] is None):
                    return False
                self.cv.wait(0.05)
            return True

    def output(self):
        with self.cv:
            return "\n".join(line for _, line in self.lines if line)

    def kill(self):
        try:
            os.killpg(self.p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.p.wait()

    def finish(self, timeout=60):
        """Its exit code and its whole output, once it has ended."""
        rc = self.p.wait(timeout)
        with self.cv:
            self.cv.wait_for(lambda: self.lines and self.lines[-1][1] is None, 10)
        return rc, self.output()

"""The simulated board as a USB serial device: the firmware (.mpy) runs in
the MicroPython unix port with a pseudo-terminal for its USB CDC, from a
directory that plays its flash (lib/ holds the firmware, logs/ the match
logs). When the firmware process ends — REBOOT, an mpremote soft reset, a
simulated power cut — it is started again, as a board would boot.

    python tools/devboard.py [--profile A|B] [--flash DIR]   # prints the port

Used by `make run`, the end-to-end tests and the link benchmark."""

import argparse
import os
import pty
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

HEAP = "96wK"


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


def install(flash, mpy_dir=None):
    """A fresh board: firmware in flash/lib, the layout beside it."""
    lib = os.path.join(flash, "lib")
    if mpy_dir is None:
        mpy_dir = os.path.join(ROOT, "build", "mpy")
        build_mpy.build_all(mpy_dir)
    if os.path.exists(lib):
        shutil.rmtree(lib)
    shutil.copytree(mpy_dir, lib)
    shutil.copy(os.path.join(ROOT, "hardware", "layout.json"), flash)


class DevBoard:
    def __init__(self, flash, profile="A", heap=HEAP):
        self.flash = flash
        self.profile = profile
        self.heap = heap
        self.proc = None
        self.boots = 0
        self._stop = False
        self._hold = False  # power_cut(hold=True): no boot until power_on()
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)  # pyserial opens it raw anyway; no echo before
        self.port = os.ttyname(self.slave)
        self._thread = None
        self.stderr = []

    def _spawn(self):
        env = dict(os.environ, MICROPYPATH=os.path.join(self.flash, "lib"))
        self.proc = subprocess.Popen(
            [micropython(), "-X", "heapsize=" + self.heap, "-i", "-m"]
            + ["smartboard.sim.serial_main", self.profile],
            stdin=self.master,
            stdout=self.master,
            stderr=subprocess.PIPE,
            cwd=self.flash,
            env=env,
        )
        self.boots += 1

    def start(self):
        self._spawn()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _watch(self):
        while not self._stop:
            p = self.proc
            err = p.stderr.read()
            p.wait()
            if err:
                self.stderr.append(err.decode(errors="replace"))
            while self._hold and not self._stop:
                time.sleep(0.02)
            if self._stop:
                break
            time.sleep(0.05)  # the board boots again
            self._spawn()

    def power_cut(self, hold=False):
        """SIGKILL the firmware, wherever it is. It boots again at once, or
        with hold=True only at power_on() (to look at the flash between)."""
        self._hold = hold
        self.proc.send_signal(signal.SIGKILL)
        if hold:
            self.proc.wait()
            time.sleep(0.1)

    def power_on(self):
        self._hold = False

    def wait_boot(self, n, timeout=10):
        end = time.time() + timeout
        while self.boots < n and time.time() < end:
            time.sleep(0.02)
        return self.boots >= n

    def stop(self):
        self._stop = True
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self._thread is not None:
            self._thread.join(5)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", choices=("A", "B"), default="A")
    ap.add_argument("--flash", default=os.path.join(ROOT, "build", "flash"))
    a = ap.parse_args(argv)
    os.makedirs(a.flash, exist_ok=True)
    install(a.flash)
    with DevBoard(a.flash, a.profile) as b:
        print("simulated board on %s (flash: %s); Ctrl-C stops it" % (b.port, a.flash), flush=True)
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

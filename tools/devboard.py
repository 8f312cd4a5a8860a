"""The simulated board as a USB serial device: the firmware (.mpy) runs in
the MicroPython unix port with a pseudo-terminal for its USB CDC, from a
directory that plays its flash (lib/ holds the firmware, logs/ the match
logs). When the firmware process ends — REBOOT, an mpremote soft reset, a
simulated power cut — it is started again, as a board would boot.

It boots as a board does, through the boot selector (firmware/bootsel.py)
when there is one: from a folder that plays an image's frozen modules
(factory=, made by install_image: the firmware, bootsel and fwimage), else
from the flash's lib/ (a stock MicroPython's /lib, where `apixagon deploy`
puts bootsel.mpy, and install() too unless told not to); with no selector
at all (install(selector=False), --no-selector), the firmware in lib/ runs
directly. The selector then picks a deployed slot in fw/, and watches a
host that takes the board over (its Ctrl-C): one that dies leaves the
board at its REPL only until the watchdog resets it, as on the product.

    python tools/devboard.py [--profile A|B] [--flash DIR]   # prints the port
    python tools/devboard.py --companion [--db FILE]         # `make run`

With --companion the live view and companion (`apixagon monitor`) runs on
this terminal against the board until quit, Ctrl-C or Ctrl-D; the board
process goes with it. Used by `make run`, the end-to-end tests and the
link benchmark."""

import argparse
import ctypes
import fcntl
import os
import pty
import shutil
import signal
import subprocess
import sys
import termios
import threading
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

# The simulated board's heap. It holds more than a board's: the simulator
# (its rig and parts) beside the firmware, and the firmware's bytecode,
# which a board with an image keeps in flash. At 96 wK a board whose new
# firmware failed part way through its import had no room left to start
# the previous one in the same boot (MemoryError, then the REPL), once the
# match log's index and window came in; 104 wK gave that room back. A
# firmware deployed into a slot then ran short at 104 wK too, once the link
# kept one 2.7 KB buffer for GET (the pull's speed) and the firmware grew
# its machine-code loops and their callers: 112 wK. The host's
# declarations (DECLARE, the pass and Junior's out on the buttons, the
# match's date) grew the firmware's bytecode by ~4.4 KB: at 112 wK a new
# firmware's failed import left the previous one 2.7 KB short (the link's
# GET buffer), and at 116 wK a deploy onto a board with an image, taken
# over in the middle of its loop, ran out (1.3 KB) writing the switch
# (tests/e2e/test_deploy_kills.py): 120 wK. The match logs' packing, its
# room rule and its flash counted in littlefs's blocks (the
# logstore package, ~6 KB more of .mpy, 69 files) left the board 2.7 KB
# short of its link's GET buffer at boot at 120 wK, and at 128 wK a
# firmware deployed into a slot from a pytest folder (the paths' length in
# the heap) did not start, nor did the old one after a failed update's
# rollback (tests/e2e/test_deploy*.py): 136 wK. A match against the computer
# loads the engine (apixagon.engine, dealer, smartboard.computer: their
# bytecode, which a board keeps frozen in flash, and its tables): 43 KB of
# this 64-bit heap, and a level's search allocates more: 160 wK.
# What a board has is measured on the emulated RP2040 (docs/figures.md: ~195 KB
# free with the image's firmware, a match in play).
HEAP = "160wK"
# The chip's watchdog on the simulated board: a file the firmware writes
# (firmware/bootsel.py, FileDog), which the supervisor below enforces.
WATCHDOG_FILE = ".watchdog"


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


def install(flash, mpy_dir=None, selector=True):
    """A fresh board: firmware in flash/lib, the layout beside it, and with
    selector the boot selector in lib/ (bootsel.mpy, as `apixagon deploy`
    leaves a stock board), so that the board boots through it as the
    product does: a host that takes it over and dies leaves it at its REPL
    only until the watchdog resets it (HOST_IDLE_MS + WDT_MS, ~38 s).
    selector=False: the firmware in lib/ runs directly, with no watchdog."""
    lib = os.path.join(flash, "lib")
    if mpy_dir is None:
        mpy_dir = os.path.join(ROOT, "build", "mpy")
        build_mpy.build_all(mpy_dir)
    if os.path.exists(lib):
        shutil.rmtree(lib)
    shutil.copytree(mpy_dir, lib)
    if selector:
        install_selector(lib)
    place_layout(flash)


def place_layout(flash):
    """The layout on the simulated board's flash (its cells, LEDs and
    sensor channels: sim/rig.py reads it there)."""
    shutil.copy(os.path.join(ROOT, "hardware", "layout.json"), flash)


def install_selector(lib):
    """lib/bootsel.mpy compiled from firmware/bootsel.py, named as deploy
    names it (the name is kept in the .mpy and in the board's heap)."""
    firmware = os.path.join(ROOT, "firmware")
    out = os.path.join(lib, "bootsel.mpy")
    subprocess.run(
        [build_mpy.mpy_cross(), "-march=" + build_mpy.unix_arch(), "-O2", "-s", "bootsel.py"]
        + ["-o", build_mpy.short_path(out, firmware), "bootsel.py"],
        check=True,
        cwd=firmware,
    )


def install_image(factory, firmware=None, rev="rev_a"):
    """The simulated board's image: the firmware compiled as `apixagon
    deploy` builds it, with the boot selector and an fwimage module (its
    ID: the manifest's sha256), in the folder `factory`, which DevBoard
    puts first on the path, as .frozen is on the board. Returns the build."""
    from apixagon_host import fwbuild

    firmware = firmware or os.path.join(ROOT, "firmware")
    stage = factory + ".build"
    shutil.rmtree(stage, ignore_errors=True)
    shutil.rmtree(factory, ignore_errors=True)
    b = fwbuild.build(firmware, stage, arch=build_mpy.unix_arch())  # the unix port runs it
    shutil.copytree(os.path.join(stage, "slot"), factory)
    os.remove(os.path.join(factory, fwbuild.MANIFEST))
    shutil.copy(b.local_boot(fwbuild.SELECTOR), os.path.join(factory, "bootsel.mpy"))
    with open(os.path.join(factory, "fwimage.py"), "w") as f:
        f.write("REV = %r\nFW = %r\nID = %r\n" % (rev, b.fw, b.files[fwbuild.MANIFEST][:16]))
    return b


# What the simulated board boots, in the place of a main.py: the selector
# with the simulator's loop as the firmware's entry; with no selector, that
# loop straight from lib/, called as a stock board's main.py calls
# start.run (not run as a script, `-m`: its module would stay __main__,
# and all it holds with it, after mpremote's Ctrl-C, where a board's heap
# is freed for the REPL).
_BOOT = 'import bootsel\nbootsel.boot("sim", "smartboard.sim.serial_main", "main", ["", %r])\n'
_PLAIN = 'from smartboard.sim import serial_main\nserial_main.main(["", %r])\n'


class DevBoard:
    def __init__(self, flash, profile="A", heap=HEAP, factory=None):
        self.flash = flash
        self.profile = profile
        self.heap = heap
        self.factory = factory  # a folder playing the image's frozen modules
        self.proc = None
        self.boots = 0
        self.watchdog_resets = 0
        self._stop = False
        self._hold = False  # power_cut(hold=True): no boot until power_on()
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)  # pyserial opens it raw anyway; no echo before
        self.port = os.ttyname(self.slave)
        self._thread = None
        self._lock = threading.Lock()  # no boot once stop() began
        self.stderr = []

    def _spawn(self):
        # a reset clears the chip's watchdog: so its twin's file
        try:
            os.remove(os.path.join(self.flash, WATCHDOG_FILE))
        except OSError:
            pass
        path = [os.path.join(self.flash, "lib")]
        if self.factory:
            path.insert(0, self.factory)
        if any(
            os.path.exists(os.path.join(d, "bootsel" + x)) for d in path for x in (".py", ".mpy")
        ):
            run = ["-c", _BOOT % self.profile]
        else:
            run = ["-c", _PLAIN % self.profile]
        env = dict(os.environ, MICROPYPATH=":".join(path))
        self.proc = subprocess.Popen(
            [micropython(), "-X", "heapsize=" + self.heap, "-i"] + run,
            stdin=self.master,
            stdout=self.master,
            stderr=subprocess.PIPE,
            cwd=self.flash,
            env=env,
            # Its own session: a Ctrl-C on the terminal is for the PC's
            # programs, not the board. And it dies with the thread that
            # started it, should this process be killed outright.
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        self.boots += 1

    def start(self):
        self._spawn()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        threading.Thread(target=self._watchdog, daemon=True).start()
        return self

    def _watchdog(self):
        """The chip's watchdog, played: the firmware's twin of it
        (bootsel.FileDog) keeps a file whose content is its timeout in ms
        and whose age is the time since it was last fed; once older than
        that, the board is reset (its process killed, then booted again)."""
        path = os.path.join(self.flash, WATCHDOG_FILE)
        while not self._stop:
            time.sleep(0.2)
            try:
                with open(path) as f:
                    ms = int(f.read().strip() or 0)
                age = time.time() - os.stat(path).st_mtime
            except (OSError, ValueError):
                continue
            p = self.proc
            if ms and age * 1000 > ms and p is not None and p.poll() is None:
                with self._lock:
                    if self._stop:
                        return
                    self.watchdog_resets += 1
                    try:
                        os.remove(path)
                    except OSError:
                        pass
                    p.send_signal(signal.SIGKILL)

    def _watch(self):
        while not self._stop:
            p = self.proc
            err = p.stderr.read()
            p.wait()
            if err:
                self.stderr.append(err.decode(errors="replace"))
            while self._hold and not self._stop:
                time.sleep(0.02)
            time.sleep(0.05)  # the board boots again
            with self._lock:
                if self._stop:
                    break
                # with empty buffers, as a reset leaves a board's USB: what
                # the PC sent the process that ended is not read by the next
                # (a killed mpremote's Ctrl-C would stop it at the REPL)
                try:
                    termios.tcflush(self.master, termios.TCIFLUSH)
                except termios.error:
                    pass
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
        with self._lock:
            self._stop = True
            p = self.proc
        if p is not None and p.poll() is None:
            p.kill()
        if self._thread is not None:
            self._thread.join(5)
        if p is not None:
            p.wait(5)  # reaped: no zombie, no stray micropython
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _libc_prctl():
    try:
        return ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None
    except (OSError, AttributeError):
        return None


_PRCTL = _libc_prctl()  # looked up here: the child after fork only calls it


def _die_with_parent():
    # Linux: SIGKILL this child when the thread that started it ends
    # (PR_SET_PDEATHSIG = 1), so a killed PC side never leaves a board
    # running.
    if _PRCTL is not None:
        _PRCTL(1, 9)


def companion(board, db, plain=False):
    """`apixagon monitor` on this terminal against the board: the exit code."""
    from apixagon_host import cli

    argv = ["monitor", "--port", board.port] + (["--db", db] if db else [])
    argv += ["--plain"] if plain else []
    return cli.main(argv)


def web(board, db, port=None):
    """`apixagon serve` on the board, opened in the default browser."""
    from apixagon_host import cli

    argv = ["serve", "--port", board.port, "--open"] + (["--db", db] if db else [])
    return cli.main(argv + (["--web-port", str(port)] if port is not None else []))


def web_port_free(port):
    """None, or what to say when `make web` cannot have port (it is busy)."""
    from apixagon_host.errors import CommandError
    from apixagon_host.web.serve import listen

    try:
        listen("127.0.0.1", port).close()
    except CommandError:
        return (
            "cannot serve on 127.0.0.1 port %d: it is in use (another `make web`?); "
            "make web WEB_PORT=%d chooses another" % (port, port + 1)
        )
    return None


class FlashLock:
    """One simulated board per flash folder: a second `make run` or `make
    web` on build/flash would boot a second "sim-A" whose match logs
    interleave with the first's. An exclusive lock on flash/.lock, held
    while the board runs (the kernel drops it when the process ends, even
    killed); it names who holds it."""

    def __init__(self, flash, what):
        self.path = os.path.join(flash, ".lock")
        self.what = what
        self.fd = None

    def take(self):
        """None when taken, else whom it belongs to."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held = os.read(fd, 200).decode(errors="replace").strip() or "another process"
            os.close(fd)
            return held
        os.ftruncate(fd, 0)
        os.write(fd, ("%s (pid %d)" % (self.what, os.getpid())).encode())
        self.fd = fd
        return None

    def release(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", choices=("A", "B"), default="A")
    ap.add_argument("--flash", default=os.path.join(ROOT, "build", "flash"))
    ap.add_argument("--companion", action="store_true", help="the live view on this terminal")
    ap.add_argument("--web", action="store_true", help="the web companion, in the browser")
    ap.add_argument(
        "--db",
        help="where the companion's (or the web companion's) pull stores matches (default: "
        "the user's database, the one `apixagon logs list` reads)",
    )
    ap.add_argument("--plain", action="store_true", help="companion: one line per event")
    ap.add_argument("--web-port", type=int, default=8765, help="web: the page's TCP port")
    ap.add_argument(
        "--no-selector",
        action="store_true",
        help="run the firmware directly, not through the boot selector (no watchdog: a host "
        "that takes the board over and dies leaves it at its REPL until it is restarted)",
    )
    a = ap.parse_args(argv)
    os.makedirs(a.flash, exist_ok=True)
    what = "make run" if a.companion else ("make web" if a.web else "tools/devboard.py")
    lock = FlashLock(a.flash, what)
    held = lock.take()
    if held is not None:
        print(
            "the simulated board's flash %s is in use by %s: one board per flash "
            "(stop that one, or --flash DIR for another board)" % (a.flash, held),
            file=sys.stderr,
        )
        return 2
    if a.web:
        busy = web_port_free(a.web_port)
        if busy is not None:
            print(busy, file=sys.stderr)
            return 2
    try:
        return _run(a)
    finally:
        lock.release()


def _run(a):
    # the firmware anew; logs/ and settings stay (a board's flash)
    install(a.flash, selector=not a.no_selector)

    def leave(signum, frame):  # a closed terminal or a kill: the board goes too
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, leave)
    with DevBoard(a.flash, a.profile) as b:
        if a.companion:
            return companion(b, a.db, a.plain)
        if a.web:
            return web(b, a.db, a.web_port)
        print("simulated board on %s (flash: %s); Ctrl-C stops it" % (b.port, a.flash), flush=True)
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

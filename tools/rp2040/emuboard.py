"""The APIXAGON board on an emulated RP2040, as a serial port and a pair of hands.

`board.js` (Node, rp2040js) runs the firmware image with models of the
board's parts; this module starts it, bridges its USB CDC to a
pseudo-terminal that `apixagon`, `mpremote` and pyserial open like the
board's /dev/ttyACM0, and drives the parts through the control channel:
put and lift cards, tap the action pad, press buttons, read the LEDs, kill
a reader, hold an I2C bus low, unplug the strip, cut the power (at a
cycle, or inside a flash operation), power on again. The flash image is a
file: it survives resets and power cuts.

    with EmuBoard(image="build/firmware/apixagon-rev_a.uf2", rev="rev_a") as b:
        b.wait_usb()
        ser = serial.Serial(b.port)        # the board's USB serial
        b.put("E4", card("B12")); b.wait_ms(300)
        b.leds()[cell]                     # (r, g, b) of the cell's LED

Times are the chip's: `wait_ms` waits for the emulated clock (125 MHz
cycles), which runs about ten times slower than the wall clock here.

Run by hand: `python tools/rp2040/emuboard.py --rev rev_a` prints the port
and takes hands on stdin (put E4 B12, lift E4, tap Gbee, press confirm,
leds, cut, on, quit).
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SHARED = os.environ.get("APIXAGON_RP2040_DIR", os.path.join(ROOT, "..", "shared", "rp2040"))
BOOTROM = os.path.join(SHARED, "bootrom-rp2040-b1.bin")
HZ = 125_000_000
# wait_for: a PC running the emulated chip slower than this (cycles of the
# chip a second of the PC's; an unloaded one runs 8-15 MHz of them) is
# loaded, and a wait is given more of its time, up to STRETCH times
SLOW_HZ = 4_000_000
STRETCH = 4
BUTTONS = ("mode", "confirm", "declare")  # the order of pins.BUTTONS
PRESS_MS = 150  # as the simulator's hands (smartboard/sim/rig.py)
LONG_PRESS_MS = 900
TAP_MS = 400


class EmuError(Exception):
    pass


def node():
    exe = shutil.which("node")
    if not exe:
        raise EmuError("node is not installed (Node.js runs the emulator)")
    return exe


def ensure_installed():
    """rp2040js from tools/rp2040/package-lock.json (npm ci), once."""
    if os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        return
    npm = shutil.which("npm")
    if not npm:
        raise EmuError("npm is not installed: it installs rp2040js (tools/rp2040/package.json)")
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=HERE,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def wiring_of(rev):
    """The revision's wiring as its circuit has it (hardware/<rev>/wiring.json,
    generated from the netlist by `make hardware`): what the emulated
    parts hang on, whatever the firmware's pin table believes."""
    with open(os.path.join(ROOT, "hardware", rev, "wiring.json")) as f:
        return json.load(f)


# The USB-C source the emulated board is plugged into, by the voltage its
# Rp makes across the board's 5.1 kOhm Rd (vRd, mV): Rp 56 k / 22 k / 10 k
# to 5 V advertise Default USB power / 1.5 A / 3.0 A (USB Type-C
# specification, source Rp). The default is a 1.5 A charger: rev A's five
# readers leave the strip little of a 500 mA port (hardware/README.md, power).
CC_MV = {"500mA": 5000 * 5.1 / 61.1, "1.5A": 5000 * 5.1 / 27.1, "3A": 5000 * 5.1 / 15.1}
CC_DEFAULT = "1.5A"


def pins_of(rev):
    """The revision's pin table (firmware/boards/<rev>/pins.py) as a dict."""
    ns = {}
    with open(os.path.join(ROOT, "firmware", "boards", rev, "pins.py")) as f:
        exec(f.read(), ns)
    return {k: v for k, v in ns.items() if k.isupper()}


def tested_flash(path, image):
    """The flash at path (made from image with an empty littlefs if there
    is none) holds a settings file, one whose first-boot self-test ran
    (smartboard.settings.SELFTEST) unless the board wrote its own: the
    board boots to its set-up, not into the self-test. A flash without a
    filesystem yet is left as it is."""
    import tempfile

    sys.path[:0] = [p for p in (HERE, os.path.join(ROOT, "firmware")) if p not in sys.path]
    import flashfs

    try:
        ffs = flashfs.FlashFs(path) if os.path.exists(path) else flashfs.FlashFs.new(path, image)
    except Exception:  # noqa: BLE001 - not a littlefs (yet): the board formats it
        return
    if ffs.exists("settings.bin"):
        return
    from smartboard import settings

    with tempfile.TemporaryDirectory() as d:
        st = settings.Settings(os.path.join(d, "settings.bin"))
        st.set(settings.SELFTEST, 1, 0)  # ran and passed
        st.save()
        with open(st.path, "rb") as f:
            ffs.write("settings.bin", f.read())
    ffs.save()


def _layout():
    sys.path[:0] = [p for p in (os.path.join(ROOT, "firmware"),) if p not in sys.path]
    from smartboard import layout

    return layout.load(os.path.join(ROOT, "hardware", "layout.json"))


def card(text, teams=False):
    """A card's tag code from its name (B12, Grain, Gbee, Bsmoker; A/B in teams)."""
    from smartboard.sim.console import card_code

    c = card_code(text, teams)
    if c < 0:
        raise ValueError("no card %r" % text)
    return c


def payload(code, corrupt=False):
    """Page 4 of a card's tag (smartboard/tag.py); corrupt flips a bit."""
    from smartboard import tag

    b = tag.encode(tag.side_of(code), tag.kind_of(code), tag.index_of(code))
    if corrupt:
        b[2] ^= 0x10
    return bytes(b)


def uid_of(code, deck=1):
    """A 7-byte NXP-style UID for a card of a deck (as the simulator's)."""
    return bytes((0x04, 0xA7, deck & 255, 0, code & 255, 0x80, 0x42))


class EmuBoard:
    def __init__(
        self,
        image,
        rev="rev_a",
        flash=None,
        workdir=None,
        start=True,
        powered=True,
        stderr=None,
        timing=None,
        spin=None,
        selftest=False,
    ):
        self.image = image
        self.rev = rev
        self.pins = wiring_of(rev)  # the parts are wired as the circuit says
        self.layout = _layout()
        self.workdir = workdir or os.path.join(ROOT, "build", "emu")
        os.makedirs(self.workdir, exist_ok=True)
        self.flash = flash or os.path.join(self.workdir, "flash-%s.bin" % rev)
        self.powered = powered  # False: the chip waits for power_on() (faults set first)
        self.stderr = stderr  # where the emulator's own messages go (None: inherited)
        # the real chip's timing (timing.js: ideal, typical, worst); None:
        # APIXAGON_TIMING, else ideal
        self.timing = timing or os.environ.get("APIXAGON_TIMING") or "ideal"
        # True: the SDK's polling loops jumped to their transfer's end
        # (board.js watchSpin), an experiment kept off; None: APIXAGON_SPIN=1
        self.spin = os.environ.get("APIXAGON_SPIN") == "1" if spin is None else bool(spin)
        # False: a board that has been through its first-boot self-test (its
        # flash given the settings record that says so: tested_flash), as
        # every test's board but the self-test's own; True: as flashed, it
        # runs the self-test at its first boot (smartboard.selftest)
        self.selftest = selftest
        self.proc = None
        self.port = None
        self.frames = []  # (cycle, grb bytes) as the strip latched them
        self.events = []  # every other event from the emulator
        self.on = False
        self.usb = False
        self._acks = {}
        self._next_id = 0
        self._cv = threading.Condition()
        self._threads = []
        if start:
            self.start()

    # ---- process --------------------------------------------------------------
    def start(self):
        ensure_installed()
        if not os.path.exists(BOOTROM):
            raise EmuError("no RP2040 bootrom at %s" % BOOTROM)
        if not os.path.exists(self.flash) and not os.path.exists(self.image):
            raise EmuError("no firmware image %s (make firmware)" % self.image)
        if not self.selftest:
            tested_flash(self.flash, self.image)
        ctl_parent, ctl_child = socket.socketpair()
        cfg = {
            "bootrom": BOOTROM,
            "image": os.path.abspath(self.image),
            "flash": os.path.abspath(self.flash),
            "pins": self.pins,
            "cc_mv": CC_MV[CC_DEFAULT],
            "nleds": self.layout.nleds,
            "ctl_fd": ctl_child.fileno(),
            "start_off": not self.powered,
            "timing": self.timing,
            "spin": self.spin,
        }
        cfg_path = os.path.join(self.workdir, "board-%s.json" % self.rev)
        with open(cfg_path, "w") as f:
            json.dump(cfg, f)
        master, slave = os.openpty()
        tty.setraw(slave)  # bytes as they are: no echo, no line discipline
        self._master = master
        self._slave = slave  # kept open: the port never hangs up between clients
        self.port = os.ttyname(slave)
        self.proc = subprocess.Popen(
            [node(), os.path.join(HERE, "board.js"), cfg_path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            pass_fds=(ctl_child.fileno(),),
            cwd=HERE,
            stderr=self.stderr,
        )
        ctl_child.close()
        self._ctl = ctl_parent
        self._ctl_file = ctl_parent.makefile("rb")
        for fn in (self._pump_in, self._pump_out, self._read_events):
            t = threading.Thread(target=fn, daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def _pump_in(self):
        # the PC -> the board: whatever an application writes to the port
        while True:
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            if not data:
                return
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (BrokenPipeError, ValueError):
                return

    def _pump_out(self):
        out = self.proc.stdout
        while True:
            data = out.read1(4096)
            if not data:
                return
            try:
                os.write(self._master, data)
            except OSError:
                return

    def _read_events(self):
        for line in self._ctl_file:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            kind = ev.get("ev")
            with self._cv:
                if kind == "ack" or kind == "error" and "id" in ev:
                    self._acks[ev.get("id")] = ev
                elif kind == "frame":
                    self.frames.append((ev["cycle"], bytes.fromhex(ev["grb"])))
                else:
                    self.events.append(ev)
                    if kind == "on":
                        self.on = True
                        self.usb = False
                    elif kind == "off":
                        self.on = False
                        self.usb = False
                    elif kind == "usb":
                        self.usb = True
                self._cv.notify_all()
        with self._cv:
            self.on = False
            self._cv.notify_all()

    def close(self):
        if self.proc is None:
            return
        try:
            self.request("quit", timeout=10)
        except (EmuError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self._ctl.close()
        self.proc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- control ------------------------------------------------------------
    def request(self, op, timeout=30.0, **args):
        """Send one control request; its acknowledgement (with the cycle at
        which it took effect)."""
        with self._cv:
            self._next_id += 1
            rid = self._next_id
        if "id" in args or "op" in args:
            raise ValueError("'id' and 'op' name the request itself")
        msg = dict(args, op=op, id=rid)
        self._ctl.sendall((json.dumps(msg) + "\n").encode())
        end = time.monotonic() + timeout
        with self._cv:
            while rid not in self._acks:
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise EmuError("the emulator did not answer %s" % op)
                self._cv.wait(min(left, 0.5))
            ack = self._acks.pop(rid)
        if ack.get("ev") == "error":
            raise EmuError(ack.get("text", "error"))
        return ack

    def wait_for(self, pred, timeout=60.0, what="the board"):
        """pred()'s first true value, asked each time the board says
        something. timeout: the PC's seconds on a PC that runs the chip at
        its usual pace; on a loaded one (tests beside a benchmark, more
        emulators than cores) a wait goes on while the chip ran slower
        than SLOW_HZ of its cycles a PC second (STRETCH times timeout at
        most): a board doing right is not failed for the PC's load."""
        t0 = time.monotonic()
        end = t0 + timeout
        c0 = None
        while True:
            with self._cv:
                while True:
                    r = pred()
                    if r:
                        return r
                    if self.proc.poll() is not None:
                        raise EmuError("the emulator exited (%s)" % self.proc.returncode)
                    left = end - time.monotonic()
                    if left <= 0:
                        break
                    self._cv.wait(min(left, 0.5))
            now = time.monotonic()
            c1 = self.cycle()
            slow = c0 is None or (c1 - c0[0]) < SLOW_HZ * (now - c0[1])
            if not slow or now - t0 >= STRETCH * timeout:
                raise EmuError(
                    "timed out waiting for %s (%.0f s of the PC's; the chip ran %.1f MHz of "
                    "its cycles in the last %.1f s)"
                    % (what, now - t0, (c1 - c0[0]) / (now - c0[1]) / 1e6, now - c0[1])
                )
            c0 = (c1, now)
            end = now + min(timeout, t0 + STRETCH * timeout - now)

    def wait_usb(self, timeout=120.0):
        """Until the board's USB device is up (after power-on or a reset)."""
        return self.wait_for(lambda: self.usb, timeout, "the USB device")

    def cycle(self):
        return self.request("wait", cycles=1)["cycle"]

    def profile(self, on):
        """Start counting every instruction's cycles at its PC (on), or
        stop and return the counts: {"pcs": {hex PC: cycles}, "idle":
        cycles asleep, "other": cycles elsewhere}; cycleprof.py names the
        functions. The emulator runs ~2x slower meanwhile; the chip's
        clock does not notice."""
        r = self.request("profile", on=bool(on), timeout=120.0)
        return None if on else {"pcs": r["pcs"], "idle": r["idle"], "other": r["other"]}

    def wait_ms(self, ms, timeout=None):
        """Let `ms` milliseconds of the board's time go by."""
        t = timeout if timeout is not None else 60 + ms / 50
        return self.request("wait", cycles=int(ms * HZ // 1000), timeout=t)

    # ---- hands ----------------------------------------------------------------
    def channel(self, cell):
        from apixagon.geometry import NONE, parse_cell

        x = parse_cell(cell) if isinstance(cell, str) else cell
        if x == NONE:
            raise ValueError("no cell %r" % cell)
        return self.layout.sensor[x]

    def put(self, cell, code, corrupt=False, deck=1, **when):
        """A card on a cell: its tag over the cell's antenna (rev A) or its
        magnet on the cell's reed (rev B). when: at_cycle=N (when the
        chip's clock reaches cycle N) or after_frame=N (N cycles after the
        next frame the strip latches); the acknowledgement, with the cycle
        the card landed at, comes then."""
        ch = self.channel(cell)
        if self.pins["PROFILE"] == "A":
            return self.request(
                "tag",
                ch=ch,
                page=payload(code, corrupt).hex(),
                uid=uid_of(code, deck).hex(),
                **when,
            )
        return self.request("reed", ch=ch, on=True, **when)

    def lift(self, cell, **when):
        ch = self.channel(cell)
        if self.pins["PROFILE"] == "A":
            return self.request("tag", ch=ch, **when)
        return self.request("reed", ch=ch, on=False, **when)

    def tap(self, code, hold_ms=TAP_MS, corrupt=False):
        """A card held on the action pad, then taken away."""
        self.request("pad", page=payload(code, corrupt).hex(), uid=uid_of(code).hex())
        self.wait_ms(hold_ms)
        return self.request("pad")

    def press(self, name, long=False):
        gpio = self.pins["BUTTONS"][BUTTONS.index(name)]
        self.request("button", gpio=gpio, down=True)
        self.wait_ms(LONG_PRESS_MS if long else PRESS_MS)
        ack = self.request("button", gpio=gpio, down=False)
        self.wait_ms(60)
        return ack

    # ---- faults and power ---------------------------------------------------
    def reader(self, k, dead=True):
        """Reader k (0..3 the cells' lanes, 'pad') stops answering, or comes back."""
        return self.request("reader", reader=k, dead=dead)

    def hang(self, k, mode="busy"):
        """Reader k (0..3, 'pad') hangs: "busy" (its answer never ready,
        commands ignored) or "sda" (it holds its bus's SDA low, through
        the switch while its port is on); only a reset pulse on its
        RSTPD_N clears it."""
        return self.request("hang", reader=k, mode=mode)

    def resets(self):
        """The reset pulses the parts took this boot ({"switch": n,
        "readers": {"0": n, .., "pad": n}}) and the readers that still hang."""
        return self.request("resets")

    def readers(self, mark=False):
        """Each reader's commands this boot, its lists sent before the tag
        on its antenna had power and its RF field ({"readers": {"0":
        {"commands": n, "early": n, "field": bool}, .., "pad": ..},
        "fields_most": n}): a list sent early finds no tag (board.js);
        fields_most, the most RF fields on at once since a call with
        mark (which starts counting again from those on now)."""
        return self.request("readers", mark=mark)

    def bus(self, i2c_id, stuck=True):
        """I2C block i2c_id's SDA held low (stuck), or let go."""
        return self.request("bus", bus=i2c_id, stuck=stuck)

    def supply(self, advert):
        """The USB-C source's current advertisement: "500mA", "1.5A" or "3A"
        (the voltage on the board's CC pin; the firmware's limit follows)."""
        return self.request("cc", mv=CC_MV[advert])

    def strip(self, plugged):
        return self.request("strip", plugged=plugged)

    def cut(self, cycle=None, flash_op=None, frac=0.0, kind=None):
        """A power cut: inside the flash_op-th flash operation from now
        (of that kind, "program" or "erase", if given) after `frac` of its
        bytes, at a cycle (with both: whichever comes first), or now."""
        args = {}
        if flash_op:
            args.update(flash_op=flash_op, frac=frac, kind=kind)
        if cycle:
            args["cycle"] = cycle
        return self.request("cut", **args)

    def adc_reads(self, gpio):
        """The conversions of the ADC input on GPIO gpio (26..29) since the
        emulator started: how often the firmware read it."""
        return self.request("adc")["reads"][gpio - 26]

    def power_on(self):
        return self.request("on")

    def timing_stats(self):
        """What the timing model charged since power-on (tools/rp2040/timing.js):
        its profile, flash reads through the XIP cache and misses, the
        misses' cycles, the flash programs and erases and their ns; and the
        SDK's polling loops jumped (spinJumps, spinCycles: board.js watchSpin)."""
        return self.request("timing")

    def load(self):
        """With the power off: the flash as its file holds it now (a PC
        wrote files there meanwhile, flashfs.FlashFs)."""
        return self.request("load")

    # ---- LEDs -------------------------------------------------------------------
    def frame(self):
        """The last frame the strip latched: (cycle, GRB bytes) or None."""
        with self._cv:
            return self.frames[-1] if self.frames else None

    def leds(self, grb=None):
        """(r, g, b) of each cell's LED, by cell index, from a frame."""
        if grb is None:
            f = self.frame()
            if f is None:
                return None
            grb = f[1]
        led = self.layout.led
        return [(grb[3 * led[x] + 1], grb[3 * led[x]], grb[3 * led[x] + 2]) for x in range(61)]


HELP = "put CELL CARD | lift CELL | tap CARD | press NAME [long] | wait MS | leds | cut | on | quit"


def _console(b):
    """Hands typed on stdin (for a person trying the emulated board)."""
    from apixagon.geometry import cell_name

    print("APIXAGON %s on an emulated RP2040: its serial port is %s" % (b.rev, b.port))
    print("(apixagon monitor -p %s, or mpremote connect %s resume)" % (b.port, b.port))
    print(HELP, flush=True)
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        try:
            if w[0] == "put":
                b.put(w[1].upper(), card(w[2]))
            elif w[0] == "lift":
                b.lift(w[1].upper())
            elif w[0] == "tap":
                b.tap(card(w[1]))
            elif w[0] == "press":
                b.press(w[1], len(w) > 2 and w[2] == "long")
            elif w[0] == "wait":
                b.wait_ms(int(w[1]))
            elif w[0] == "leds":
                leds = b.leds() or []
                print(
                    " ".join("%s:%02x%02x%02x" % ((cell_name(x),) + c) for x, c in enumerate(leds))
                )
            elif w[0] == "cut":
                b.cut()
            elif w[0] == "on":
                b.power_on()
            elif w[0] == "quit":
                break
            else:
                print(HELP)
        except (ValueError, IndexError, EmuError) as e:
            print("error: %s" % e)


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", default="rev_a", choices=("rev_a", "rev_b"))
    ap.add_argument("--image", help="UF2 or .bin (default build/firmware/apixagon-REV.uf2)")
    ap.add_argument("--flash", help="the flash image file (kept between runs)")
    a = ap.parse_args(argv)
    image = a.image or os.path.join(ROOT, "build", "firmware", "apixagon-%s.uf2" % a.rev)
    with EmuBoard(image, a.rev, a.flash) as b:
        _console(b)
    return 0


if __name__ == "__main__":
    sys.exit(main())

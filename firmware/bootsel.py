# The boot selector: which firmware the board runs. Every main.py calls
# boot(): the one an image carries frozen (boards/<rev>/main.py) and the
# one on a stock MicroPython's flash (firmware/main.py). It runs before any
# module of the firmware is imported, so that all of them come from one
# place: one slot on the flash, or the board's own firmware (the modules
# frozen in the image, or what `mpremote mip install` put in /lib).
#
# The flash holds up to two deployed firmwares (`apixagon deploy`), each
# whole in its own slot, fw/a and fw/b, with its manifest FIRMWARE.json
# ({"fw": version, "files": {path: [size, sha256]}}), and fw/BOOT, the boot
# record, which says which slot to run. A deploy writes the slot the board
# does not run, checks every file's sha256 on the board, and only then
# replaces fw/BOOT (written beside it, renamed over it: littlefs commits a
# rename whole) with {"cur": new slot, "state": "new", "prev": the slot
# that ran, "image": the image's ID, "sums": {slot: its manifest's
# sha256}}. So a power cut anywhere leaves either the old record or the
# new one, each naming slots that are whole.
#
# At boot:
# - no record (or one that does not parse): the board's own firmware;
# - a record written over another image than this one (an image flashed
#   after the deploy): the image's own firmware; the slots wait, unused;
# - state "new": the record goes to "trial" (on the flash), then the slot
#   starts; the first pass of its loop (Link.poll) makes it "ok". A boot
#   that finds "trial" was reset before that loop ran (a power cut, a
#   watchdog, a crash that reset the board): the slot is set aside and
#   "prev" becomes "cur" — a trial never runs twice;
# - the slot chosen is checked and started: its manifest must be the one
#   the record names (its sha256: a manifest torn or rewritten since the
#   deploy is not trusted to describe the slot), and every file it names
#   must be there with its size; on a trial boot every file's sha256 too
#   (a one-time cost: ~86 KB hashed). Later boots check sizes only: a
#   sha256 of every file at every boot would slow each boot for a damage
#   that littlefs's own checksums on its metadata and a size catch first.
#   If it is incomplete or raises before its loop runs, it is set aside
#   (the record names it "bad", with why), what its import left in
#   sys.modules goes, and the next one starts: "prev", then the board's
#   own firmware.
# Setting a slot aside writes the record; a normal boot only reads it.
#
# An image built by `make firmware` reserves a ROMFS partition in its
# flash (tools/build_firmware.py), read in place like frozen code: the
# slot "rom", mounted by MicroPython at /rom. A firmware there keeps its
# bytecode in the flash, not in the heap. `apixagon deploy` writes it
# only while the record names another whole firmware (a copy of the one
# running in fw/a, or the image's own), so the same rules hold for it.
#
# The watchdog bounds two waits that nothing else would end:
# - a trial: the chip's watchdog is armed before the new slot is imported
#   (TRIAL_MS), and only its loop feeds it; a slot that hangs at import
#   (a .mpy cut short, a loop at module level) resets the board, and the
#   next boot finds the trial cut short: the previous firmware runs;
# - a board handed over to a host (a Ctrl-C at its loop: mpremote, an
#   `apixagon deploy`): the watchdog stays armed and a timer feeds it while
#   the host has spoken in the last HOST_IDLE_MS (alive(), which the
#   host's scripts call); a host that died leaves the board at its REPL
#   only that long, then the watchdog resets it into its firmware. stay()
#   keeps the board at its REPL (for a person typing at it).
# On the unix port (the simulated board) the watchdog is a twin: a file
# whose age tools/devboard.py's supervisor watches, resetting the board
# (its process) as the chip would.
import os
import sys

DIR = "fw"  # relative: the flash's root is the current folder at boot
SLOTS = ("a", "b", "rom")
ROM = "/rom"  # where MicroPython mounts the ROMFS partition
RECORD = DIR + "/BOOT"
MANIFEST = "FIRMWARE.json"
TRIAL_MS = 8000  # a trial's import and start-up: ~2.5 s on the RP2040
HOST_IDLE_MS = 30000  # a host silent this long has gone
WDT_MS = 8000  # the RP2040's longest is 8.3 s

# What this boot did (read by `apixagon deploy` after it takes the board over)
booted = None  # the slot running, or None: the board's own firmware
rev = None  # the board revision given to boot()
running = False  # the firmware's loop has run (its first Link.poll)
image = None  # the image's ID (fwimage.ID), None on a stock MicroPython
notes = []  # what was set aside, and why


def read_record():
    try:
        import json

        with open(RECORD) as f:
            rec = json.loads(f.read())
        if isinstance(rec, dict):
            return rec
    except (OSError, ValueError):
        pass
    return {}


def write_record(rec):
    """fw/BOOT replaced whole: written beside it, renamed over it."""
    import json

    tmp = RECORD + ".new"
    with open(tmp, "w") as f:
        f.write(json.dumps(rec))
    os.rename(tmp, RECORD)


def image_id():
    """The image's ID (its frozen fwimage, written by tools/build_firmware.py),
    or None: a stock MicroPython. Looked for among the frozen modules first:
    nothing on the flash can pass for it."""
    sys.path.insert(0, ".frozen")
    try:
        import fwimage

        return fwimage.ID
    except (ImportError, AttributeError):
        return None
    finally:
        sys.path.pop(0)


def slot_dir(slot):
    return ROM if slot == "rom" else DIR + "/" + slot


def check(slot, hashes=False, manifest=None):
    """None if the slot holds every file its manifest names, with its size
    (and with hashes=True its sha256); else what is wrong. manifest, if
    given, is the sha256 the manifest itself must have (the record's).
    The sizes come from one listing of each folder (littlefs gives them):
    a stat per file costs four times as long (215 against 38 ms on the
    RP2040)."""
    d = slot_dir(slot) + "/"
    try:
        if manifest is not None and _sha256(d + MANIFEST) != manifest:
            return "its manifest is not the one deployed"
        files = _manifest(d + MANIFEST)
        have = {}
        _sizes(d, "", have)
    except OSError:
        return "no manifest"
    if files is None:
        return "its manifest does not parse"
    for p in files:
        n = have.get(p)
        if n is None:
            return p + " missing"
        if n != files[p][0]:
            return "%s is %d bytes, not %d" % (p, n, files[p][0])
        if hashes:
            try:
                h = _sha256(d + p)
            except OSError:
                h = None
            if h != files[p][1]:
                return p + " differs from its sha256"
    return None


def _manifest(path):
    """{path: [size, sha256]} from a manifest, or None if it is not one
    (torn, truncated, of another shape)."""
    import json

    with open(path) as f:
        text = f.read()
    try:
        files = json.loads(text)["files"]
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    if not isinstance(files, dict):
        return None
    for v in files.values():
        if not (
            isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], str)
        ):
            return None
    return files


def _sizes(top, rel, out):
    for e in os.ilistdir(top + rel):
        name = rel + e[0]
        kind = e[1]
        if kind == 0 or len(e) < 4:  # the unix port: no size (nor, at times, the type)
            st = os.stat(top + name)
            kind = st[0] & 0xF000
            size = st[6]
        else:
            size = e[3]
        if kind == 0x4000:
            _sizes(top, name + "/", out)
        else:
            out[name] = size


def _sha256(path):
    import binascii
    import hashlib

    h = hashlib.sha256()
    buf = bytearray(512)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(buf[:n] if n < 512 else buf)
    return binascii.hexlify(h.digest()).decode()


def _say(text):
    notes.append(text)
    try:
        print("bootsel: " + text, file=sys.stderr)
    except Exception:  # noqa: BLE001 - saying it must not stop the boot
        pass


def _set_aside(rec, slot, why):
    """The slot is not to be booted again: out of the record, named bad."""
    if rec.get("cur") == slot:
        rec["cur"] = rec.get("prev")
        rec["prev"] = None
        rec["state"] = "ok"  # prev ran before the deploy
    elif rec.get("prev") == slot:
        rec["prev"] = None
    else:
        return
    rec["bad"] = slot
    rec["why"] = why[:120]
    _say("firmware in %s/%s set aside: %s" % (DIR, slot, why))
    try:
        write_record(rec)
    except OSError as e:
        _say("cannot write %s: %s" % (RECORD, e))


def plan(rec, img):
    """The slots to try, in order (the board's own firmware comes after)."""
    cur = rec.get("cur")
    if cur not in SLOTS:
        return []
    if img is not None and rec.get("image") != img:
        _say("another image was flashed after the deploy: its own firmware runs")
        return []
    state = rec.get("state")
    if state == "trial":
        _set_aside(rec, cur, "its first boot was cut short before its loop ran")
    elif state == "new":
        rec["state"] = "trial"
        try:
            write_record(rec)
        except OSError as e:  # no trial that could not be marked as one
            _say("cannot write %s (%s): the previous firmware runs" % (RECORD, e))
            return [s for s in (rec.get("prev"),) if s in SLOTS]
    return [s for s in (rec.get("cur"), rec.get("prev")) if s in SLOTS]


def boot(board_rev, entry="boards.start", call="run", arg=None):
    """Start the firmware: entry.call(arg) (arg defaults to the revision),
    imported from the slot chosen, else from the board's own firmware. A
    Ctrl-C (a host taking the board over) leaves the board at its REPL
    with the watchdog watching the host (handover)."""
    try:
        _boot(board_rev, entry, call, arg)
    except KeyboardInterrupt:
        handover()
        raise


def _boot(board_rev, entry, call, arg):
    global booted, rev, image
    if _dog is not None:
        _dog.stop()  # boot.py's watch of a host: this boot has none
    rev = board_rev
    if arg is None:
        arg = board_rev
    image = image_id()
    # MicroPython puts /rom on the path when the ROMFS holds an image: only
    # a record naming it makes it the firmware's place.
    for p in (ROM, ROM + "/lib"):
        while p in sys.path:
            sys.path.remove(p)
    rec = read_record()
    for slot in plan(rec, image):
        trial = slot == rec.get("cur") and rec.get("state") == "trial"
        sums = rec.get("sums")
        why = check(slot, trial, sums.get(slot) if isinstance(sums, dict) else None)
        if why is None:
            if trial:
                dog().arm(TRIAL_MS)
            why = _start(slot, rec, entry, call, arg)
            if why is None:
                return  # it ran, and its loop ended
        _set_aside(rec, slot, why)
    booted = None
    fn = getattr(__import__(entry, None, None, (call,)), call)
    try:
        _watch(None, rec)
    except ImportError:
        pass
    fn(arg)


def _start(slot, rec, entry, call, arg):
    """Run the slot's firmware. Returns why it failed if it did before its
    loop ran, with the interpreter as it was before the attempt; None if
    its loop ran and ended."""
    global booted
    path = sys.path[:]
    before = set(sys.modules)
    sys.path.insert(0, slot_dir(slot))
    booted = slot
    try:
        fn = getattr(__import__(entry, None, None, (call,)), call)
        _watch(slot, rec)
        fn(arg)
        return None if running else "%s.%s returned" % (entry, call)
    except Exception as e:  # noqa: BLE001 - any failure to start: the next one
        if running:
            raise  # the loop ran: not a failure to start
        try:
            sys.print_exception(e, sys.stderr)
        except Exception:  # noqa: BLE001
            pass
        return "%s: %s" % (type(e).__name__, e)
    finally:
        if not running:
            booted = None
            sys.path[:] = path
            for name in list(sys.modules):
                if name not in before:
                    del sys.modules[name]
            import gc

            gc.collect()


def _watch(slot, rec):
    """Mark the first pass of the firmware's loop: the slot has started
    (running; its record "ok"). The loop's first call of Link.poll, the
    serial link's turn, is that pass, in normal and in safe mode alike:
    Link.poll is wrapped until it first runs. A slot whose link does not
    import has failed to start (ImportError)."""
    from smartboard.link import Link

    poll = getattr(Link, "poll", None)
    if poll is None:
        _started(slot, rec)  # no loop to see: started as far as we can tell
        return

    def first_poll(self, now):
        Link.poll = poll
        _started(slot, rec)
        return poll(self, now)

    Link.poll = first_poll


def _started(slot, rec):
    global running
    running = True
    if _dog is not None:
        _dog.started()
    if slot is not None and rec.get("cur") == slot and rec.get("state") != "ok":
        rec["state"] = "ok"
        try:
            write_record(rec)
        except Exception:  # noqa: BLE001 - the loop must go on
            pass


# ---- the watchdog ---------------------------------------------------------------
_dog = None


def dog():
    """The board's watchdog: the chip's, or the simulated board's twin."""
    global _dog
    if _dog is None:
        _dog = ChipDog() if sys.platform == "rp2" else FileDog()
    return _dog


def handover():
    """The firmware stopped for a host (a Ctrl-C): the board stays at its
    REPL while the host speaks (alive()), and goes back to its firmware
    HOST_IDLE_MS after it last did."""
    try:
        dog().watch_host(HOST_IDLE_MS)
    except Exception as e:  # noqa: BLE001 - the REPL must come all the same
        _say("no watchdog for the host: %s" % e)


def alive():
    """The host is speaking: the board stays its for HOST_IDLE_MS more."""
    if _dog is not None:
        _dog.alive()


def stay():
    """Keep the board at its REPL until it is reset (no watchdog)."""
    if _dog is not None:
        _dog.stop()


def unwatch():
    """The firmware's loop takes the watchdog over (it feeds it itself)."""
    if _dog is not None:
        _dog.unwatch()


class ChipDog:
    """The RP2040's watchdog (machine.WDT, which has no stop: its enable bit
    is cleared as the SDK's watchdog_disable() does) and, while a host has
    the board, a hard timer that feeds it while the host speaks. Hard: the
    timer runs at the REPL's prompt and inside a host's long exec alike."""

    def __init__(self):
        import machine

        self.machine = machine
        self.timer = None
        self.last = 0
        self.idle = 0
        self.wdt = None

    def arm(self, ms):
        self.unwatch()
        self.wdt = self.machine.WDT(timeout=ms)

    def unwatch(self):
        if self.timer is not None:
            self.timer.deinit()
            self.timer = None

    def watch_host(self, idle_ms):
        import time

        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.idle = idle_ms
        self.last = time.ticks_ms()
        self.wdt = self.machine.WDT(timeout=WDT_MS)
        if self.timer is None:
            self.timer = self.machine.Timer(
                mode=self.machine.Timer.PERIODIC, period=1000, callback=self._tick, hard=True
            )

    def _tick(self, t):
        if self.ticks_diff(self.ticks_ms(), self.last) < self.idle:
            self.wdt.feed()

    def alive(self):
        if self.timer is not None:
            self.last = self.ticks_ms()
            self.wdt.feed()

    def started(self):
        pass  # the firmware's loop feeds the watchdog from here on

    def stop(self):
        self.unwatch()
        # WATCHDOG_CTRL's ENABLE through its atomic-clear alias
        self.machine.mem32[0x4005B000] = 1 << 30


class FileDog:
    """The simulated board's watchdog: the file .watchdog holds a timeout
    in ms; tools/devboard.py resets the board (kills its process) once the
    file is older than that. No file: no watchdog."""

    PATH = ".watchdog"

    def __init__(self):
        self.ms = 0

    def _write(self, ms):
        self.ms = ms
        with open(self.PATH, "w") as f:
            f.write(str(ms))

    def arm(self, ms):
        self._write(ms)

    def watch_host(self, idle_ms):
        self._write(idle_ms + WDT_MS)

    def alive(self):
        if self.ms:
            self._write(self.ms)

    def started(self):
        self.stop()  # the simulated loop has no watchdog of its own

    def unwatch(self):
        self.stop()

    def stop(self):
        self.ms = 0
        try:
            os.remove(self.PATH)
        except OSError:
            pass

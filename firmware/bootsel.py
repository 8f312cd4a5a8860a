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
import os
import sys

DIR = "fw"  # relative: the flash's root is the current folder at boot
SLOTS = ("a", "b")
RECORD = DIR + "/BOOT"
MANIFEST = "FIRMWARE.json"

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


def check(slot, hashes=False, manifest=None):
    """None if the slot holds every file its manifest names, with its size
    (and with hashes=True its sha256); else what is wrong. manifest, if
    given, is the sha256 the manifest itself must have (the record's).
    The sizes come from one listing of each folder (littlefs gives them):
    a stat per file costs four times as long (215 against 38 ms on the
    RP2040)."""
    d = DIR + "/" + slot + "/"
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
    imported from the slot chosen, else from the board's own firmware."""
    global booted, rev, image
    rev = board_rev
    if arg is None:
        arg = board_rev
    image = image_id()
    rec = read_record()
    for slot in plan(rec, image):
        trial = slot == rec.get("cur") and rec.get("state") == "trial"
        sums = rec.get("sums")
        why = check(slot, trial, sums.get(slot) if isinstance(sums, dict) else None)
        if why is None:
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
    sys.path.insert(0, DIR + "/" + slot)
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
    if slot is not None and rec.get("cur") == slot and rec.get("state") != "ok":
        rec["state"] = "ok"
        try:
            write_record(rec)
        except Exception:  # noqa: BLE001 - the loop must go on
            pass

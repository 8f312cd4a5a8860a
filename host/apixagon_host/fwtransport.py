"""`apixagon deploy`, part 2: the transport. mpremote takes the board over
(its Ctrl-C drops the firmware to the REPL; `resume` keeps it from
soft-resetting) and runs MicroPython on it with `exec`: the scripts below,
which read what the board has, make the slot ready, write the files (in
base64 chunks of a few KB per exec: mpremote's own `fs cp` sends 256
bytes a round trip, three times slower over USB), verify every file's
sha256 and switch the boot record. `restart` leaves the REPL with a soft
reset, and the board boots through its selector (firmware/bootsel.py).

The on-board layout (bootsel.py has the whole story): fw/a and fw/b, the
slots; fw/BOOT, the boot record, only ever replaced by a rename; it names
the sha256 of each slot's manifest ("sums"), computed on the board once
the slot is verified.
"""

import base64
import json
import os
import sys
import threading
import time

import serial

from . import link as L
from .errors import EXIT_FAILED, CommandError

MPREMOTE_TIMEOUT = 180.0  # seconds for one mpremote run that writes a firmware
SHORT = 60.0  # ... and for one that reads or writes a few lines
CHUNK = 6144  # file bytes per exec (8 KB of base64 in the script) ...
PIECE = 1024  # ... in string literals of this many bytes
SLOTS = ("a", "b")
DIR = "fw"
RECORD = DIR + "/BOOT"
NEW = ".new"  # a boot file is written beside its place, renamed over it


class MpremoteError(CommandError):
    def __init__(self, message, lines):
        super().__init__(message, EXIT_FAILED)
        self.lines = lines


def _die_with_parent():
    # Linux: mpremote gets SIGKILL when the thread that started it ends,
    # so a killed `apixagon deploy` leaves nothing talking to the board.
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def mpremote(port, *commands, timeout=MPREMOTE_TIMEOUT, on_line=None):
    """Run `mpremote connect PORT resume CMD + CMD ...` (one takeover of the
    board, no soft reset); its output lines."""
    import subprocess

    argv = [sys.executable, "-m", "mpremote", "connect", port, "resume"]
    for i, cmd in enumerate(commands):
        argv += (["+"] if i else []) + list(cmd)
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # lines as they happen
    p = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
    )
    timer = threading.Timer(timeout, p.kill)
    timer.start()
    lines = []
    try:
        for line in p.stdout:
            line = line.rstrip("\r\n")
            lines.append(line)
            if on_line is not None:
                on_line(line)
        rc = p.wait()
    finally:
        timer.cancel()
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()
    if rc != 0:
        what = "timed out" if rc < 0 else "failed"
        tail = "\n".join(line for line in lines[-6:] if line.strip())
        raise MpremoteError("mpremote %s%s" % (what, ":\n" + tail if tail else ""), lines)
    return lines


# ---- MicroPython run on the board -------------------------------------------------------
# First in every takeover: the firmware's modules dropped from the heap. A
# board taken over in the middle of its loop keeps them, and the scripts
# below need room (the simulated board's heap has ~4 KB blocks left); the
# board restarts at the end anyway. So do the REPL's globals: a main.py
# run before the selector (`from boards import start`) left the firmware
# referenced from there. The selector (bootsel) stays: it says what this
# boot ran.
FREE = (
    "import sys, gc\n"
    "for k in list(sys.modules):\n"
    "    if k.split('.')[0] in ('apixagon', 'smartboard', 'boards'):\n"
    "        del sys.modules[k]\n"
    "for k in list(globals()):\n"
    "    if k not in ('__name__', '__file__', 'sys', 'gc', 'bootsel'):\n"
    "        del globals()[k]\n"
    "gc.collect()\n"
)

_DEV = """\
import os, json
def _isdir(p):
    try:
        return os.stat(p)[0] & 0x4000 != 0
    except OSError:
        return False
def _exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False
def _mkdirs(p):
    q = ''
    for part in p.split('/'):
        q = q + '/' + part if q else part
        if not _isdir(q):
            os.mkdir(q)
def _rmtree(p):
    for e in list(os.ilistdir(p)):
        q = p + '/' + e[0]
        if _isdir(q):
            _rmtree(q)
        else:
            os.remove(q)
    os.rmdir(p)
def _files(top, rel=''):
    out = []
    for e in list(os.ilistdir(top + '/' + rel if rel else top)):
        q = rel + '/' + e[0] if rel else e[0]
        if _isdir(top + '/' + q):
            out += _files(top, q)
        else:
            out.append(q)
    return out
def _h(p):
    import hashlib, binascii
    d = hashlib.sha256()
    b = bytearray(1024)
    v = memoryview(b)
    f = open(p, 'rb')
    while True:
        n = f.readinto(b)
        if not n:
            break
        d.update(v[:n])
    f.close()
    return binascii.hexlify(d.digest()).decode()
def _rrec():
    try:
        f = open(%(record)r)
        r = json.loads(f.read())
        f.close()
        return r if isinstance(r, dict) else {}
    except (OSError, ValueError):
        return {}
def _sums(r):
    # each slot the record boots: its manifest's sha256, which the selector
    # checks at every boot (called once the slots are known good)
    s = {}
    for k in ('cur', 'prev'):
        v = r.get(k)
        if v:
            try:
                s[v] = _h(%(dir)r + '/' + v + '/FIRMWARE.json')
            except OSError:
                pass
    r['sums'] = s
    return r
def _wrec(r):
    f = open(%(record)r + '.new', 'w')
    f.write(json.dumps(r))
    f.close()
    os.rename(%(record)r + '.new', %(record)r)
""" % {"record": RECORD, "dir": DIR}

# What the board has: the running firmware (the selector's account of this
# boot), the image, the record, each slot's files (with hashes, if asked),
# the boot files, the revision main.py starts, the .mpy format it loads.
_STATE = """\
import sys
bs = sys.modules.get('bootsel')
if bs is not None:
    print('BOOTED', getattr(bs, 'booted', None) or '-')
    print('RUNNING', 1 if getattr(bs, 'running', False) else 0)
    for n in getattr(bs, 'notes', ()):
        print('NOTE', n)
sys.path.insert(0, '.frozen')
try:
    import fwimage
    print('IMAGE', fwimage.ID, fwimage.REV, fwimage.FW)
except ImportError:
    pass
sys.path.pop(0)
r = _rrec()
if r:
    print('REC', json.dumps(r))
for s in %(slots)r:
    d = %(dir)r + '/' + s
    if _isdir(d):
        for p in _files(d):
            print('H', s, p, _h(d + '/' + p) if %(hashes)r else '-')
for p in %(boot)r:
    if _exists(p) and not _isdir(p):
        print('F', p, _h(p))
try:
    f = open('main.py')
    for l in f:
        if l.startswith('BOARD'):
            print('MAINREV', l.split('=', 1)[1].split('#')[0].strip().strip('"').strip("'"))
            break
    f.close()
except OSError:
    pass
print('MPY', getattr(sys.implementation, '_mpy', 0))
print('STATE-OK')
"""

# Make the target slot ready: out of the record (a slot being written is
# never one to boot), its manifest gone, what the new firmware does not
# keep removed (everything, for a full deploy), the files it shares with
# the running slot copied on the board, the folders made.
_PREPARE = """\
T = %(dir)r + '/' + %(target)r
r = _rrec()
if r.get('prev') == %(target)r or r.get('cur') == %(target)r:
    if r.get('cur') == %(target)r:
        r['cur'] = r.get('prev') if r.get('prev') != %(target)r else None
        r['state'] = 'ok'
    r['prev'] = None
    if isinstance(r.get('sums'), dict):
        r['sums'].pop(%(target)r, None)
    _wrec(r)
_mkdirs(T)
if _exists(T + '/FIRMWARE.json'):
    os.remove(T + '/FIRMWARE.json')
keep = %(keep)r
if %(full)r:
    _rmtree(T)
    _mkdirs(T)
else:
    for q in _files(T):
        if q not in keep:
            os.remove(T + '/' + q)
for d in %(dirs)r:
    _mkdirs(d)
b = bytearray(1024)
for p in %(copy)r:
    src = open(%(dir)r + '/' + %(running)r + '/' + p, 'rb')
    dst = open(T + '/' + p, 'wb')
    while True:
        n = src.readinto(b)
        if not n:
            break
        dst.write(b if n == len(b) else b[:n])
    src.close()
    dst.close()
    print('KEPT', p)
print('PREPARE-OK')
"""

# Check every file of the slot against the manifest (sha256, nothing
# missing, nothing extra) and the boot files written beside their place;
# only then put the boot files in place and the new record (renames).
_SWITCH = """\
T = %(dir)r + '/' + %(target)r
want = %(files)r
have = {}
for q in _files(T):
    have[q] = _h(T + '/' + q)
bad = [p for p in want if have.get(p) != want[p]]
bad += [p + ' (extra)' for p in have if p not in want]
for tmp, dest, h in %(boot)r:
    if not _exists(tmp) or _h(tmp) != h:
        bad.append(dest)
for p in bad[:8]:
    print('BAD', p)
print('VERIFIED', len(have) - len([p for p in bad if p in want]))
if not bad:
    for tmp, dest, h in %(boot)r:
        os.rename(tmp, dest)
    _wrec(_sums(%(record)r))
    print('SWITCHED')
"""

# The record put back to what ran before (the host's own rollback).
_SET_RECORD = """\
_wrec(_sums(%(record)r))
print('RECORD-OK')
"""


def script(body, **values):
    return _DEV + body % dict(values, dir=DIR)


def state_script(slots, hashes, boot):
    return script(_STATE, slots=list(slots), hashes=bool(hashes), boot=list(boot))


def prepare_script(target, running, full, keep, dirs, copy):
    return script(
        _PREPARE,
        target=target,
        running=running,
        full=bool(full),
        keep=sorted(keep),
        dirs=sorted(dirs),
        copy=sorted(copy),
    )


def switch_script(target, files, boot, record):
    """files {slot path: sha256}; boot [(temporary, final, sha256)]."""
    return script(_SWITCH, target=target, files=files, boot=boot, record=record)


def record_script(record):
    return script(_SET_RECORD, record=record)


def write_commands(items, chunk=CHUNK, piece=PIECE):
    """`exec` commands that write the files: items [(local file, board
    path, label)], at most `chunk` file bytes per exec, in string literals
    of `piece` bytes (small blocks: the heap of a board taken over in the
    middle of its loop is fragmented); each file's label printed as
    `W label` once it is whole."""
    cmds = []
    body = []
    size = 0

    def flush():
        nonlocal body, size
        if body:
            head = "import binascii\ndef _w(p, m, d):\n    f = open(p, m)\n"
            head += "    f.write(binascii.a2b_base64(d))\n    f.close()\n"
            cmds.append(["exec", head + "".join(body)])
        body = []
        size = 0

    for local, dest, label in items:
        with open(local, "rb") as f:
            data = f.read()
        off = 0
        while True:
            part = data[off : off + min(piece, max(chunk - size, 1))]
            body.append(
                "_w(%r, %r, %r)\n"
                % (dest, "wb" if off == 0 else "ab", base64.b64encode(part).decode())
            )
            size += len(part)
            off += len(part)
            if off >= len(data):
                body.append("print(%r)\n" % ("W " + label))
            if size >= chunk:
                flush()
            if off >= len(data):
                break
    flush()
    return cmds


def parse_state(lines):
    """What a state script printed, as a dict."""
    st = {
        "booted": "?",
        "running": None,
        "notes": [],
        "image": None,
        "record": {},
        "slots": {s: {} for s in SLOTS},
        "boot": {},
        "main_rev": None,
        "mpy": None,
    }
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "BOOTED":
            st["booted"] = None if rest == "-" else rest
        elif word == "RUNNING":
            st["running"] = rest == "1"
        elif word == "NOTE":
            st["notes"].append(rest)
        elif word == "IMAGE":
            ident, rev, fw = (rest.split(" ") + ["", ""])[:3]
            st["image"] = {"id": ident, "rev": rev, "fw": fw}
        elif word == "REC":
            try:
                rec = json.loads(rest)
            except ValueError:
                rec = {}
            st["record"] = rec if isinstance(rec, dict) else {}
        elif word == "H":
            slot, _, rest = rest.partition(" ")
            path, _, digest = rest.rpartition(" ")
            if slot in st["slots"]:
                st["slots"][slot][path] = digest
        elif word == "F":
            path, _, digest = rest.rpartition(" ")
            st["boot"][path] = digest
        elif word == "MAINREV":
            st["main_rev"] = rest.strip() or None
        elif word == "MPY":
            st["mpy"] = int(rest)
    if st["mpy"] is None or "STATE-OK" not in lines:
        raise CommandError("could not read the firmware files on the board", EXIT_FAILED)
    return st


# ---- restart ------------------------------------------------------------------------------
def restart(port):
    """Leave mpremote's REPL with a soft reset (Ctrl-D at the friendly REPL):
    the board runs main.py again; the simulator's process ends and
    tools/devboard.py starts it, as a board boots. (`mpremote soft-reset`
    waits for a "soft reboot" the unix port never prints.)"""
    try:
        ser = serial.Serial(port, 115200, timeout=0.05)
    except (serial.SerialException, OSError) as e:
        raise L.BoardError("cannot open %s: %s" % (port, e), L.EXIT_NO_BOARD)
    try:
        ser.write(b"\r\x02\x03")  # out of a raw REPL, then an empty line
        got = _read_until(ser, b">>> ", 3.0)
        if not got.endswith(b">>> "):
            raise L.BoardError("the board's REPL did not answer on %s" % port, EXIT_FAILED)
        _read_until(ser, None, 0.1)  # the rest of what it says: then quiet
        ser.write(b"\x04")
        ser.flush()
    finally:
        ser.close()


def restart_quietly(port):
    try:
        restart(port)
    except Exception:  # noqa: BLE001 - a best effort on the way out
        pass


def _read_until(ser, end, quiet):
    """Bytes until end (or until the line is quiet that long)."""
    got = bytearray()
    last = time.monotonic()
    while time.monotonic() - last < quiet:
        chunk = ser.read(max(1, ser.in_waiting))
        if chunk:
            got += chunk
            last = time.monotonic()
            if end is not None and got.endswith(end):
                break
    return bytes(got)

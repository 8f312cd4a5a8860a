"""A bench's device script under the MicroPython unix port (bench/core.py's
core_device, bench/firmware.py's firmware_device): the interpreter found,
the script run at a heap size against a .mpy build, its instructions
counted by callgrind, and the command line both benches share."""

import argparse
import os
import re
import shutil
import subprocess
import sys


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


class Device:
    """Runs tools/bench/<module>.py under MicroPython against the .mpy build
    in lib (cwd: the folder it runs in, None: this process's)."""

    def __init__(self, lib, module, cwd=None):
        self.lib = lib
        self.cwd = cwd
        self.boot = "import sys; sys.path[:0]=[%r]; import %s" % (lib, module)

    def cmd(self, heap_wk, *args):
        return [micropython(), "-X", "heapsize=%dwK" % heap_wk, "-c", self.boot, *args]

    def run(self, heap_wk, *args):
        p = subprocess.run(self.cmd(heap_wk, *args), capture_output=True, text=True, cwd=self.cwd)
        return p.stdout + p.stderr

    def callgrind(self, *args):
        p = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--toggle-collect=main_",
                "--callgrind-out-file=/dev/null",
            ]
            + self.cmd(256, *args),
            capture_output=True,
            text=True,
            cwd=self.cwd,
        )
        m = re.search(r"Collected : (\d+)", p.stderr)
        if not m:
            raise RuntimeError("callgrind gave no count:\n" + p.stderr[-2000:])
        return int(m.group(1))


def command_line(doc, argv):
    """(args, say) of a bench's command line (--quick, --json), or None
    (said on stderr) where no micropython is found."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the callgrind counts")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    say = (lambda s: None) if args.json else (lambda s: (sys.stdout.write(s), sys.stdout.flush()))
    if not micropython():
        print("bench: micropython not found (run through make bench)", file=sys.stderr)
        return None
    return args, say

"""Write firmware/package.json, the mip index of the firmware package.

`mpremote mip install github:<org>/<repo>/firmware/package.json` (or a local
path) installs the board firmware (rules core, smartboard, pin tables, the
start-up code with the board layout, the boot selector, main.py). Run after adding a module; a
test fails while the file is stale.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, FIRMWARE)


def _files(pkg):
    out = []
    for dirpath, dirnames, files in os.walk(os.path.join(FIRMWARE, pkg)):
        # The simulated twins stay on the PC: the board has the real parts.
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "sim"))
        rel = os.path.relpath(dirpath, FIRMWARE).replace(os.sep, "/")
        # boards/<rev>/main.py is frozen into that revision's image as its
        # main.py (make firmware); on the flash the root main.py starts.
        in_revision = pkg == "boards" and rel.count("/") == 1
        out += [
            rel + "/" + n
            for n in sorted(files)
            if n.endswith(".py") and not (in_revision and n == "main.py")
        ]
    return out


def package_json():
    """The rules core, the board firmware (without the simulator), the pin
    tables, the start-up code and the board layout (boards/), the boot
    selector (bootsel.py), main.py."""
    from apixagon import VERSION

    urls = [[f, f] for pkg in ("apixagon", "smartboard", "boards") for f in _files(pkg)]
    urls.append(["bootsel.py", "bootsel.py"])  # the boot selector main.py calls
    urls.append(["main.py", "main.py"])
    return json.dumps({"urls": urls, "version": VERSION}, indent=2) + "\n"


if __name__ == "__main__":
    with open(os.path.join(FIRMWARE, "package.json"), "w") as f:
        f.write(package_json())
    print("wrote firmware/package.json")

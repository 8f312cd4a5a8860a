"""Write firmware/package.json, the mip index of the firmware package.

`mpremote mip install github:<org>/<repo>/firmware/package.json` (or a local
path) installs the rules core on a board. Run after adding a module; a test
fails while the file is stale.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, FIRMWARE)


def package_json():
    from apixagon import VERSION

    names = sorted(n for n in os.listdir(os.path.join(FIRMWARE, "apixagon")) if n.endswith(".py"))
    urls = [["apixagon/" + n, "apixagon/" + n] for n in names]
    return json.dumps({"urls": urls, "version": VERSION}, indent=2) + "\n"


if __name__ == "__main__":
    with open(os.path.join(FIRMWARE, "package.json"), "w") as f:
        f.write(package_json())
    print("wrote firmware/package.json")

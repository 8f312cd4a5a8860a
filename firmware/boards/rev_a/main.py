# main.py of the rev_a image, frozen by `make firmware`
# (tools/build_firmware.py). A firmware on the flash, put there by
# `apixagon deploy` (its manifest: /lib/FIRMWARE.json), goes before the
# image's own: /lib ahead of .frozen in sys.path, decided here before any
# of our modules is imported, so none of them comes from the image while
# the deployed firmware has it.
import os
import sys

try:
    os.stat("/lib/FIRMWARE.json")
    sys.path.insert(sys.path.index(".frozen"), "/lib")
except (OSError, ValueError):
    pass  # none deployed (or no .frozen entry): the frozen packages

from boards import start  # noqa: E402

start.run("rev_a")

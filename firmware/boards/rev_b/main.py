# main.py of the rev_b image, frozen by `make firmware`
# (tools/build_firmware.py). The boot selector (bootsel.py) chooses what
# runs: a firmware put on the flash by `apixagon deploy` (a slot in fw/),
# or this image's own, frozen beside this file: the factory firmware, which
# no deploy can damage. The selector is imported from the frozen modules
# whatever the flash holds, before any module of the firmware.
import sys

sys.path.insert(0, ".frozen")
import bootsel  # noqa: E402

sys.path.pop(0)
bootsel.boot("rev_b")

# Freeze the board firmware into a MicroPython image: its bytecode and
# tables live in flash instead of the heap. MicroPython's build runs this
# file (tools/manifestfile.py: include, package, module, options).
#
# `make firmware` (tools/build_firmware.py) builds one image per board
# revision from a two-line manifest: include("<this file>", board="rev_a"),
# that revision's pin table and its boards/rev_a/main.py frozen as main.py,
# which the board runs in preference to a main.py on its flash; and
# module("fwimage.py"), written by the tool: which image it is (its
# revision, version and ID, for the boot selector, bootsel.py). Without
# board= every revision's pin table is frozen and no main.py: the flash's
# main.py (firmware/main.py, BOARD = "...") picks the revision.
#
# sim=True freezes the simulator too: only for the benchmark's image
# (tools/build_firmware.py --sim, build/firmware/bench/), where
# tools/bench/target.py runs tools/bench/firmware_device.py on the emulated
# RP2040. A product image never has it.
import os

options.defaults(board=None, sim=False)


def py_files(top, skip=()):
    """The .py files under the package folder top, relative to it, leaving
    out the subfolders named in skip."""
    out = []
    for dirpath, dirnames, names in os.walk(top):
        dirnames[:] = [d for d in dirnames if d not in skip and d != "__pycache__"]
        rel = os.path.relpath(dirpath, top)
        out += [os.path.normpath(os.path.join(rel, n)) for n in names if n.endswith(".py")]
    return sorted(out)


# The rp2 port's own frozen modules (its boards/manifest.py) but the ones
# the firmware never imports: asyncio, onewire, ds18x20 and dht took ~12 KB
# of the image's 488 KB room, which the first-boot self-test needs.
freeze("$(PORT_DIR)/modules")
require("neopixel")
# The boot selector, which every main.py calls (bootsel.py): on an image
# it is frozen, out of any deploy's reach.
module("bootsel.py")
# boot.py: run at every reset, it has the selector watch a host that takes
# the board over (bootsel.handover).
module("boot.py")
package("apixagon")

# The board firmware without its simulator, smartboard/sim (about 16 KB as
# .mpy): simulated twins of the hardware, never imported on the board. The
# PC runs them (tools/devboard.py, the tests), and `apixagon deploy` still
# copies them for the simulated board it is tested against; the mip
# package leaves them out too.
package("smartboard", files=py_files("smartboard", skip=() if options.sim else ("sim",)))

revisions = sorted(d for d in os.listdir("boards") if d.startswith("rev_"))
if options.board is not None and options.board not in revisions:
    raise ValueError(
        "no board revision %s in firmware/boards (there are: %s)"
        % (options.board, ", ".join(revisions))
    )
others = [r for r in revisions if options.board is not None and r != options.board]
# boards/<rev>/main.py only as the image's main.py, never as a module.
package(
    "boards",
    files=[f for f in py_files("boards", skip=others) if os.path.basename(f) != "main.py"],
)
if options.board is not None:
    module("main.py", base_path=os.path.join("boards", options.board))

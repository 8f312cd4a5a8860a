# `make console`: the board firmware under the MicroPython unix port, on the
# simulated board (smartboard.sim.console). Run by micropython:
#   micropython -X heapsize=96wK tools/simboard.py LIBDIR [--profile A|B] [--plain]
# LIBDIR holds the firmware compiled to .mpy (make mpy), as on the board.
import sys

sys.path.insert(0, sys.argv[1])
from smartboard.sim import console  # noqa: E402

sys.exit(console.main(sys.argv[2:]))

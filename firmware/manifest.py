# Freeze the rules core into a MicroPython firmware image:
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/firmware/manifest.py
# Frozen, its bytecode and tables live in flash instead of the heap.
include("$(PORT_DIR)/boards/manifest.py")
package("apixagon")
# The board firmware; its simulator (smartboard/sim, ~11 KB) is frozen too,
# unused on the board: cheap in flash, and one package to keep in step.
package("smartboard")
package("boards")

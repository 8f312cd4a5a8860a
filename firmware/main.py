# The board's main.py on a stock MicroPython's flash, put there by
# `apixagon deploy` or `mpremote mip install` with the packages in /lib.
# BOARD names the board revision (`apixagon deploy --board` rewrites the
# line). An image built by `make firmware` carries its revision's own
# main.py frozen instead (boards/<rev>/main.py), which MicroPython runs in
# preference to this file.
from boards import start

BOARD = "rev_a"  # the revision this board is

start.run(BOARD)

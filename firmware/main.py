# The board's main.py on a stock MicroPython's flash, put there by
# `apixagon deploy` or `mpremote mip install` with the packages in /lib.
# BOARD names the board revision (`apixagon deploy --board` rewrites the
# line). The boot selector (/lib/bootsel.py) chooses what runs: a firmware
# deployed into a slot in fw/, else the packages in /lib. An image built
# by `make firmware` carries its revision's own main.py frozen instead
# (boards/<rev>/main.py), which MicroPython runs in preference to this file.
BOARD = "rev_a"  # the revision this board is

try:
    import bootsel
except ImportError:  # no selector: the packages in /lib
    bootsel = None
if bootsel is None:
    from boards import start

    start.run(BOARD)
else:
    bootsel.boot(BOARD)

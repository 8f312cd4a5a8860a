# APIXAGON rules core: one package that runs unchanged on the board
# (MicroPython on an RP2040) and on the host (CPython).
VERSION = "0.1.0"

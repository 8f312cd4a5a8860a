# boot.py of every image, frozen by `make firmware` (firmware/manifest.py).
# MicroPython runs it at every reset: a power-on, and the soft reset a host
# asks for, also the one into the raw REPL that skips main.py (mpremote's
# default). It starts the boot selector's watch of a host (bootsel.handover):
# a board left at its REPL by a host that died goes back to its firmware by
# itself. main.py, when it runs, ends the watch (bootsel.boot). It must
# never raise: MicroPython would skip main.py.
try:
    import sys

    sys.path.insert(0, ".frozen")
    try:
        import bootsel
    finally:
        sys.path.pop(0)
    bootsel.handover()
except Exception:  # noqa: BLE001 - see above
    pass

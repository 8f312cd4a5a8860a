"""Packing finished matches on the emulated RP2040 (issue 25, item 3): the
rev A image, its littlefs, its own packer (smartboard.logstore.pack, frozen
in the image).

- Power cuts inside the packing's flash programs and erases: a board with
  32 real-length matches of their own packs them on its quiet ticks in
  set-up; the power goes inside the next flash program or erase after a
  seeded random number of them, after a random part of its bytes, 16 times
  (programs and erases in turn). With the power off the flash is read as a
  PC would read it (littlefs, tools/rp2040/flashfs.py, the archives walked
  with the board's own code): all 32 matches, byte for byte, each once.
  Then the board boots, packs on, and in the end serves them all by name.
- A thousand real matches and more: a flash filled from the PC by the
  firmware's own code on littlefs itself (flashfs.BoardFlash) up to 950
  matches, then the chip goes on, writing and packing real matches until
  its room rule says the next would not fit; booted as players power it,
  it lists and serves every one (STATUS logs=, room=0, LOGS, GET), and the
  simulated board's block model of the same files agrees with its free
  space. (`make bench`'s capacity part fills the whole flash on the chip:
  docs/firmware/storage.md, "How many matches fit".)
"""

import os
import random
import sys
import time

import emukit
import flashfs
import pytest
from apixagon_host import link as L
from smartboard.logstore import lfs

sys.path.insert(0, os.path.join(emukit.ROOT, "tools"))
import realmatches  # noqa: E402 - real-length match logs
from bench import capacity  # noqa: E402 - the capacity run, a flash filled from the PC

REV = "rev_a"
CUTS = emukit.size(6, 16)
SEED = 20261127
LOGS = 32
PC_MATCHES = 950
SLACK = 2 * lfs.BLOCKS * lfs.BLOCK // 100  # "within a few percent": 2 % of the flash


def loose(path):
    return [n for n in flashfs.FlashFs(path).listdir("logs") if n.endswith(".alog")]


def packed_all(board, path, timeout=180):
    """Until the board has packed every log but the newest (its flash saved
    and read from the PC)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        board.request("save")
        if len(loose(path)) == 1:
            return
        time.sleep(2)
    raise AssertionError("the board did not pack its logs: %r" % loose(path))


def test_power_cuts_inside_the_packing_lose_no_match(tmp_path):
    rnd = random.Random(SEED)
    path = str(tmp_path / "flash.bin")
    ffs = flashfs.FlashFs.new(path, emukit.image(REV))
    for i, data in enumerate(realmatches.mix(REV, LOGS)):
        ffs.write("logs/%04d.alog" % (i + 1), data)
    ffs.save()
    want = flashfs.FlashFs(path).match_logs()
    assert len(want) == LOGS
    board = emukit.EmuBoard(emukit.image(REV), REV, flash=path, workdir=str(tmp_path))
    stats = {"program": 0, "erase": 0, "packs": 0}
    try:
        board.wait_usb()
        for i in range(CUTS):
            kind = ("program", "erase")[i % 2]
            # a log's packing is ~1-2 erases (its archive's new block) and
            # ~10 programs (its bytes, littlefs's metadata)
            k = rnd.randrange(1, 16) if kind == "program" else rnd.randrange(1, 4)
            board.cut(flash_op=k, kind=kind, frac=rnd.random())
            try:
                board.wait_for(lambda: not board.on, 30, "the cut")
            except Exception:
                board.cut()  # no such flash write came: the packing is over
                board.wait_for(lambda: not board.on, 30, "the power cut")
                break
            stats[kind] += 1
            ffs = flashfs.FlashFs(path)
            got = ffs.match_logs()
            assert sorted(got) == sorted(want), (i, sorted(got))
            for name in want:
                assert got[name] == want[name], (i, name)
            stats["packs"] = len([n for n in ffs.listdir("logs") if n.endswith(".pack")])
            board.power_on()
            board.wait_usb()
        assert stats["program"] + stats["erase"] == CUTS, stats
        if not board.on:
            board.power_on()
            board.wait_usb()
        packed_all(board, path)
        got = flashfs.FlashFs(path).match_logs()
        assert got == want
        with L.connect(board.port, timeout=60) as link:
            st = L.fields(link.request("STATUS"))
            assert st["logs"] == str(LOGS) and st["unpulled"] == str(LOGS), st
            listed = link.logs()
            assert [n for n, _, _ in listed] == sorted(want)
            for name, size, state in listed:
                assert size == len(want[name]) and state == "done", (name, size, state)
                assert link.fetch(name, 0, size) == want[name], name
        print("rp2040 packing through %d power cuts inside flash writes: %r" % (CUTS, stats))
    finally:
        board.close()


@pytest.mark.long
def test_a_thousand_real_matches_and_the_board_serves_them(tmp_path):
    t0 = time.monotonic()
    start = str(tmp_path / "pc-flash.bin")
    assert capacity.pc_filled_flash(start, emukit.image(REV), REV, PC_MATCHES) == PC_MATCHES
    made = time.monotonic() - t0
    fig = capacity.capacity_run(emukit.image(REV), REV, str(tmp_path / "chip"), flash_from=start)
    n = fig["matches"]
    assert n >= 1000 and fig["full"], fig
    st = fig["status"]
    assert st["logs"] == str(n) and st["room"] == "0" and st["unpulled"] == str(n), st
    assert fig["listed"] == n
    # the simulated board's flash (its block model) of the same files
    assert abs(fig["model_free"] - int(st["free"])) <= SLACK, (fig["model_free"], st["free"])
    assert fig["files"]["logs"] == 1
    print(
        "rp2040 capacity: %d real matches (%d packed from the PC in %.1f s, the rest by the "
        "chip), %d archives, %s bytes free; boot to HELLO %.0f ms; LOGS, all pages %.0f ms; "
        "the chip's packing steps: %r"
        % (
            n,
            PC_MATCHES,
            made,
            fig["files"]["archives"],
            st["free"],
            fig["boot_hello_ms"],
            fig["logs_pages_ms"],
            fig["steps"],
        )
    )
    assert os.path.getsize(start) == 2 * 1024 * 1024

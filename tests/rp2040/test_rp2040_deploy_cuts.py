"""`apixagon deploy` cut by the power on the emulated RP2040, inside its
flash programs and erases: the rev A image's board, the real mpremote
writing a firmware into the image's ROMFS partition (tools/build_firmware.py,
firmware/bootsel.py: slot "rom").

Two deploys are run whole while board.js journals every flash operation
(tools/rp2040/board.js 'journal'): the first from the image's own firmware
into the empty partition (erase, program, the record's switch, the trial
boot, the drop of nothing), the second from that ROMFS firmware to a new
one (its copy into fw/a first, verified; the record naming the copy; the
partition erased and programmed, its first block last; the switch; the
trial boot; the copy dropped). A power cut inside operation k, after a
part of its bytes, leaves the flash that the journal's first k operations
and that part make (tools/rp2040/flashfs.py replayed): the board is booted
on it and must answer HELLO, never from the bare REPL, with every module
of ours from one place (the image's, fw/a or /rom) holding the version
HELLO names, and that version the one the boot record on that flash says:
the old firmware until the record names the new one, the new one after
(a trial found cut short: the old one again).

In `make test` a seeded sample (CUTS, 12: every run of ROMFS and of
littlefs operations has one; APIXAGON_CUT_SEED another draw);
APIXAGON_CUTS=all boots once for every operation of both deploys (about
550, ~1.5 h here). The same deploys SIGKILLed on the simulated board,
many times over: tests/e2e/test_deploy_kills.py."""

import json
import os
import random
import sys

import emukit
from apixagon_host import fwbuild
from apixagon_host import fwcheck as C
from apixagon_host import fwtransport as T
from flashfs import ROMFS_BYTES, ROMFS_OFFSET, FlashFs, journal, replayed

sys.path.insert(0, os.path.join(emukit.ROOT, "tests", "e2e"))
from deploykit import Run, copy_with_version, one_origin  # noqa: E402

SEED = int(os.environ.get("APIXAGON_CUT_SEED", "20261130"))
CUTS = os.environ.get("APIXAGON_CUTS", str(emukit.size(6, 12)))
V1, V2 = "9.8.1-rp2040-cut", "9.8.2-rp2040-cut"

_WHERE = """\
import sys, json
bs = sys.modules.get('bootsel')
b = (bs.booted or '-') if bs else '?'
print('BOOTED', b)
for k in sorted(sys.modules):
    if k.split('.')[0] in ('apixagon', 'smartboard', 'boards'):
        print('M', k, getattr(sys.modules[k], '__file__', '?'))
if b not in ('-', '?'):
    f = open(bs.slot_dir(b) + '/FIRMWARE.json')
    print('SLOTFW', json.loads(f.read())['fw'])
    f.close()
"""


def where_from(port):
    """(the slot booted, {module: file}, the booted slot's version)."""
    lines = T.mpremote(port, ["exec", _WHERE], timeout=T.SHORT)
    booted, mods, fw = "?", {}, None
    for line in lines:
        if line.startswith("BOOTED "):
            booted = line[7:]
        elif line.startswith("M "):
            name, _, path = line[2:].partition(" ")
            mods[name] = path
        elif line.startswith("SLOTFW "):
            fw = line[7:]
    return booted, mods, fw


def romfs_of(firmware, tmp):
    """The ROMFS image `apixagon deploy` makes of a firmware folder."""
    b = fwbuild.build(firmware, tmp)
    b.drop(fwbuild.SIM)
    return b.romfs()


def expected(flash, images, own):
    """What a board must boot from this flash: the version the record
    says, with the partition holding one of images {version: ROMFS image}."""
    fs = FlashFs(None, flash)
    rec = json.loads(fs.read("fw/BOOT")) if fs.exists("fw/BOOT") else {}
    slots = []
    if rec.get("state") == "trial":  # set aside: its prev, if any
        slots = [rec.get("prev")]
    else:
        slots = [rec.get("cur"), rec.get("prev")]
    for s in slots:
        if s == "rom":
            rom = flash[ROMFS_OFFSET : ROMFS_OFFSET + ROMFS_BYTES]
            for v, img in images.items():
                if rom[: len(img)] == img:
                    return v, "/rom/", rec
        elif s in ("a", "b") and fs.exists("fw/%s/FIRMWARE.json" % s):
            return json.loads(fs.read("fw/%s/FIRMWARE.json" % s))["fw"], "fw/%s/" % s, rec
    return own, "image", rec


def deploy_journalled(board, firmware, path):
    board.request("journal", path=path)
    r = Run("deploy", board.port, firmware, timeout=60)
    rc, out = r.finish(600)
    board.request("journal")
    assert rc == 0, out
    return journal(path), out


def sample(ops, rnd, n):
    """Op indexes: every op, or one in each run of ROMFS / littlefs
    operations and the rest at random, n in all."""
    if n == "all":
        return list(range(len(ops)))
    runs = []
    for i, (_, off, _, _) in enumerate(ops):
        rom = off < ROMFS_OFFSET + ROMFS_BYTES
        if not runs or runs[-1][0] != rom:
            runs.append((rom, []))
        runs[-1][1].append(i)
    picks = {rnd.choice(idx) for _, idx in runs}
    while len(picks) < min(int(n), len(ops)):
        picks.add(rnd.randrange(len(ops)))
    return sorted(picks)


def test_a_deploy_cut_inside_any_flash_operation_boots_old_or_new(tmp_path):
    rnd = random.Random(SEED)
    v1 = copy_with_version(os.path.join(emukit.ROOT, "firmware"), str(tmp_path / "v1"), V1)
    v2 = copy_with_version(v1, str(tmp_path / "v2"), V2)
    images = {V1: romfs_of(v1, str(tmp_path / "s1")), V2: romfs_of(v2, str(tmp_path / "s2"))}
    board = emukit.boot("rev_a", tmp_path)
    try:
        own = C.await_firmware(board.port, 60)["fw"]
        j1, _ = deploy_journalled(board, v1, str(tmp_path / "j1"))
        j2, _ = deploy_journalled(board, v2, str(tmp_path / "j2"))
    finally:
        board.close()
    n = CUTS if CUTS == "all" else max(2, int(CUTS) // 2)
    cases = [("j1", j1, k) for k in sample(j1, rnd, n)]
    cases += [("j2", j2, k) for k in sample(j2, rnd, n)]
    print(
        "journals: the first deploy %d flash operations, the second %d; %d cuts"
        % (len(j1), len(j2), len(cases))
    )
    seen = {}
    for name, ops, k in cases:
        frac = rnd.random()
        flash = replayed(str(tmp_path / name), ops, k, frac)
        fw, where, rec = expected(flash, images, own)
        path = str(tmp_path / "cut.bin")
        with open(path, "wb") as f:
            f.write(flash)
        kind, off, nbytes, _ = ops[k]
        what = "%s op %d (%s at %#x, %d bytes, %.2f written), record %s" % (
            name,
            k,
            kind,
            off,
            nbytes,
            frac,
            rec,
        )
        board = emukit.boot("rev_a", tmp_path, flash=path)
        try:
            got = C.await_firmware(board.port, 90)["fw"]  # the bare REPL raises here
            booted, mods, slot_fw = where_from(board.port)
            origin = one_origin(booted, mods, factory="")
            assert (got, origin) == (fw, where), "%s: booted %s from %s, not %s from %s" % (
                what,
                got,
                origin,
                fw,
                where,
            )
            if booted not in ("-", "?"):
                assert slot_fw == got, what
        except Exception as e:
            raise AssertionError("%s: %s" % (what, e)) from e
        finally:
            board.close()
        seen.setdefault((name, got), 0)
        seen[(name, got)] += 1
    print("cuts: " + ", ".join("%s -> %s: %d" % (k[0], k[1], v) for k, v in sorted(seen.items())))
    if CUTS != "all" and int(CUTS) >= 8:
        assert len({fw for (n, fw) in seen if n == "j2"}) == 2, seen  # both sides of the switch

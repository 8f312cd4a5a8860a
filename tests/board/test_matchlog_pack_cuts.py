# Power cuts in the packing (issue 25, item 3): the flash twin
# (smartboard.sim.flash) cuts the power inside the packing's write stream -
# at every unit around each step's writes (an entry's head and the start
# of its bytes, the removal of the log's file), and every 7th unit in
# between (~1 000 cuts) - then the board
# boots on what is left: every log is there exactly once, byte for byte,
# read where it lives (its own file or its archive); the packing goes on
# from there and ends with every log but the newest packed, still byte for
# byte. A cut inside the boot's own repair of a torn archive (a twin that
# tears writes; littlefs never leaves one) loses nothing either. Plain
# functions: also run under the MicroPython unix port. (On the emulated
# RP2040, inside flash programs and erases: tests/rp2040/test_rp2040_pack.py.)
from logkit import ROOT, TAGS, collect
from packkit import fill, logs_of, pack_all
from smartboard.logstore import writer
from smartboard.sim.flash import PowerCut, SimFlash

LOGS = 5


def snapshot(flash):
    return [(p, bytes(flash.contents(p))) for p in flash.files], list(flash.dirs)


def restore(snap):
    files, dirs = snap
    flash = SimFlash(lfs=True)
    for d in dirs:
        flash.mkdir(d)
    for p, data in files:
        flash.write(p, data)
    return flash


def boot(flash):
    log = writer.MatchLog(ROOT, TAGS, flash)
    log.unfinished()  # as the start-up code does: the folder listed
    return log


def marks(snap):
    # the write stream's unit at each packing step, from a run without a cut
    flash = restore(snap)
    log = boot(flash)
    out = [flash.units]
    log.pack_wanted = True
    while log.pack_due() and log.pack_step():
        out.append(flash.units)
    return out


def cut_points(snap):
    m = marks(snap)
    end = m[-1]
    pts = {}
    for u in m:
        for d in range(-20, 40):  # each step's first writes: heads, removals
            if m[0] <= u + d < end:
                pts[u + d] = 1
    for u in range(m[0], end, 7):
        pts[u] = 1
    out = sorted(pts)
    return out, end


def check(flash, want):
    log = boot(flash)
    got = logs_of(flash, log)
    assert sorted(got) == sorted(want), sorted(got)
    for n in want:
        assert got[n] == want[n], n
    for p in flash.files:
        assert not p.endswith(".tmp"), p
    return log


def _run(snap, want, cut, second=None):
    flash = restore(snap)
    log = boot(flash)
    base = flash.units
    flash.cut_after(cut - base if cut > base else 0)
    try:
        pack_all(log)
    except PowerCut:
        pass
    log = None
    collect()
    flash.power_on()
    if second is not None:
        # the power goes again, inside the boot's own repairs
        flash.cut_after(second)
        try:
            boot(flash)
        except PowerCut:
            pass
        flash.power_on()
    log = check(flash, want)
    pack_all(log)
    check(flash, want)
    for n in want:
        assert log.packed(n) == (n != LOGS), n
    return flash


def test_a_cut_anywhere_in_the_packing_loses_no_log():
    flash = SimFlash(lfs=True)
    log = fill(flash, LOGS)
    want = logs_of(flash, log)
    snap = snapshot(flash)
    log = flash = None
    collect()
    pts, end = cut_points(snap)
    assert len(pts) > 500 and end > 4 * 600, (len(pts), end)
    for u in pts:
        _run(snap, want, u)
        collect()


def test_a_second_cut_in_the_boots_repair_of_a_torn_archive_loses_no_log():
    flash = SimFlash(lfs=True)
    log = fill(flash, LOGS)
    want = logs_of(flash, log)
    snap = snapshot(flash)
    log = flash = None
    collect()
    m = marks(snap)
    # cuts in the middle of the second log's bytes (appended to the first
    # archive: a torn tail), then in the boot that cuts the tail off
    torn = m[0] + (m[-1] - m[0]) // 4 + 200
    for second in (0, 1, 5, 300, 700, 1200, 1300, 1400, 2000):
        _run(snap, want, torn, second)
        collect()

"""The flash's capacity on the emulated RP2040 (the capacity part): real
matches written on the frozen image's littlefs and packed by the
firmware's own packer, each packing step timed by the chip, until the
board's room rule says the next match would not fit."""

import flashfs

from bench.emulated import Board, Repl, ms, say_nothing, wait_packed

# ---- capacity: real matches on the board's flash ---------------------------------------
CAPACITY_CHUNK = 250  # matches a raw-REPL run writes and packs

_CAPACITY = r"""
import gc, time
from smartboard.logstore import writer
gc.collect()
heap0 = gc.mem_free()
log = writer.MatchLog('logs', ())
log.window = memoryview(bytearray(2732))[684:]
t0 = time.ticks_us()
log.unfinished()
listed = time.ticks_diff(time.ticks_us(), t0)
L = %r
n = log._newest()
steps = {}
worst = 0
full = False
k = 0
gc.collect()
heap1 = gc.mem_free()
low = heap1
while k < %d:
    if not log.room():
        full = True
        break
    n += 1
    log.fs.write('logs/%%04d.alog' %% n, L[n %% 4])
    log.new_log(n)
    log._want_pack(False)
    while log.pack_due():
        st = log.packer.state if log.packer is not None else 0
        t = time.ticks_us()
        more = log.pack_step()
        d = time.ticks_diff(time.ticks_us(), t)
        s = steps.get(st)
        if s is None:
            s = steps[st] = [0, 0, 0]
        s[0] += 1
        s[1] += d
        if d > s[2]:
            s[2] = d
        if not more:
            break
    k += 1
    if k %% 50 == 0:
        gc.collect()
        low = min(low, gc.mem_free())
gc.collect()
low = min(low, gc.mem_free())
print('RESULT', repr((n, full, listed, steps, log.free_bytes(), heap0, heap1, low, log.counts())))
"""


def pc_filled_flash(path, image, rev, matches):
    """A flash image file at path holding `matches` real matches (the four
    in turn) written and packed from the PC by the firmware's own code
    (smartboard.logstore under CPython) on the board's littlefs itself
    (flashfs.BoardFlash: littlefs-python, MicroPython's configuration),
    as the board would have packed them: seconds, where the chip takes
    minutes. The newest log stays its own file. The number written (fewer
    if the room rule said full first)."""
    import realmatches
    from smartboard.logstore import writer

    four = [d for _, d in realmatches.logs(rev)]
    ffs = flashfs.FlashFs.new(path, image)
    bf = flashfs.BoardFlash(ffs)
    log = writer.MatchLog("logs", (), bf)
    log.unfinished()
    n = 0
    while n < matches and log.room():
        n += 1
        bf.write("logs/%04d.alog" % n, four[n % 4])
        log.new_log(n)
        log._want_pack(False)
        while log.pack_due() and log.pack_step():
            pass
    ffs.save()
    return n


def capacity_run(image, rev, workdir, say=say_nothing, limit=None, flash_from=None):
    """Real matches (tools/realmatches.py: each mode's scripted match, as the
    board writes it, the four in turn) written one after another on the
    emulated board's littlefs and packed by the firmware's own packer
    (smartboard.logstore, frozen in the image), each packing step timed
    by the chip, until the board's room rule says the next match would not
    fit (MatchLog.room): how many matches it holds. Through the raw REPL
    (the loop stopped; the packer's steps as the loop runs them), then the
    board booted as a player powers it: what STATUS, LOGS and GET say of
    the full flash. The emulator writes flash in no time and has no XIP
    cache misses: the chip's time, not a Pico's flash's. flash_from: a
    flash to go on from (pc_filled_flash)."""
    import realmatches
    from apixagon_host import link as L
    from smartboard.logstore import lfs

    four = tuple(d for _, d in realmatches.logs(rev))
    b = Board(image, rev, workdir, flash_from=flash_from)
    fig = {"log_bytes": [len(d) for d in four]}
    steps = {}
    try:
        b.boot()
        repl = Repl(b.port)
        try:
            full = False
            runs = []
            while not full:
                out = repl.run(_CAPACITY % (four, CAPACITY_CHUNK), timeout=3600)
                line = [x for x in out.splitlines() if x.startswith("RESULT")][-1]
                n, full, listed, st, free, heap0, heap1, low, counts = eval(line[7:])
                runs.append((n, listed, heap0 - heap1, heap1 - low))
                for k, v in st.items():
                    s = steps.setdefault(k, [0, 0, 0])
                    s[0] += v[0]
                    s[1] += v[1]
                    s[2] = max(s[2], v[2])
                say("  capacity: %d matches on the flash, %d bytes free\n" % (n, free))
                if limit is not None and n >= limit:
                    break
        finally:
            repl.close()
        fig["matches"] = n
        fig["full"] = full
        fig["free_at_full"] = free
        fig["counts"] = counts
        fig["listing_ms"] = [round(r[1] / 1000.0, 1) for r in runs]
        fig["log_heap"] = runs[-1][2]  # the MatchLog and its index, after the listing
        fig["pack_heap"] = max(r[3] for r in runs)  # what packing kept at most
        names = ("pick", "walk", "copy", "verify", "remove")
        fig["steps"] = {
            names[k]: {
                "n": v[0],
                "mean_ms": round(v[1] / v[0] / 1000.0, 2),
                "max_ms": round(v[2] / 1000.0, 1),
            }
            for k, v in sorted(steps.items())
        }
        # the board as players power it: the full flash read at boot
        b.cut()
        b.wait_for(lambda: not b.on, 30, "the power cut")
        c = b.cycle()
        b.power_on()
        on = b.wait_event("on", c)["cycle"]
        b.wait_usb()
        with L.connect(b.port, timeout=120) as link:
            link.hello()
            hello = b.cycle()
            link.timeout = 60
            st = L.fields(link.request("STATUS"))
            keys = ("logs", "unpulled", "free", "low", "room", "heap")
            fig["status"] = {k: st.get(k) for k in keys}
            fig["boot_hello_ms"] = round(ms(hello - on), 0)
            c0 = b.cycle()
            listed = link.logs()
            fig["logs_pages_ms"] = round(ms(b.cycle() - c0), 0)
            fig["listed"] = len(listed)
            for name, size, state in listed[:: max(1, len(listed) // 7)]:
                data = link.fetch(name, 0, size)
                if data != four[int(name[:4]) % 4]:
                    raise RuntimeError("GET %s: not the match written" % name)
            # what the fill left loose is packed once the PC is quiet (never
            # while it downloads): STATUS says packing=1 until it is done
            wait_packed(link, b, 500, 150000)
    finally:
        b.close()
    # the same files in the simulated board's flash (its block model)
    ffs = flashfs.FlashFs(b.flash)
    use = lfs.Usage()
    for top in ffs.listdir("/"):
        _model_tree(ffs, use, top)
    fig["model_free"] = use.free()
    fig["files"] = {
        "archives": len([n for n in ffs.listdir("logs") if n.endswith(".pack")]),
        "logs": len([n for n in ffs.listdir("logs") if n.endswith(".alog")]),
    }
    return fig


def _model_tree(ffs, use, path):
    st = ffs.fs.stat(path)
    if st.type == 2:  # a folder
        use.folder(path)
        for name in ffs.listdir(path):
            _model_tree(ffs, use, path + "/" + name)
    else:
        use.file(path, -1, st.size)

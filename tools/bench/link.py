"""Download throughput over the same link (issue 4): `apixagon logs pull`
against `mpremote cp` of the same files, in one run.

A board is filled with an archive of match logs (copies of a full played
6-player match), then over the same pseudo-terminal, ROUNDS times in turn:
a pull into a fresh SQLite file (the board's "pulled" marks cleared first,
so every round does the same work), a second pull with nothing new, and
mpremote copying the log files (256-byte chunks, one REPL command each).
Each figure is the median of its rounds: one run on a busy 2-core machine
can be off by half, a median of alternated rounds is not. Prints the ratio
and its spread; --json for scripts."""

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "tests", "e2e")]
import devboard  # noqa: E402
from apixagon_host import cli  # noqa: E402
from e2ekit import RECORD, connect, play_record  # noqa: E402

N_LOGS = int(os.environ.get("BENCH_LOGS", "120"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
TARGET = 5.0


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def _pull(port, db):
    out = io.StringIO()
    t0 = time.monotonic()
    rc = cli.main(["logs", "pull", "-p", port, "--db", db], cli.State(out=out))
    t = time.monotonic() - t0
    if rc != 0:
        raise SystemExit("logs pull failed: " + out.getvalue())
    return t


def _mpremote_cp(port, logs, dest):
    mp = os.path.join(os.path.dirname(sys.executable), "mpremote")
    os.makedirs(dest)
    # `cp -r :logs` answered "-r not specified" after `resume` in mpremote
    # 1.29: the files are named instead (the same transfers).
    files = [":logs/" + f for f in sorted(os.listdir(logs)) if f.endswith(".alog")]
    t0 = time.monotonic()
    r = subprocess.run(
        [mp, "connect", port, "resume", "cp"] + files + [dest + "/"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    t = time.monotonic() - t0
    copied = sum(os.path.getsize(os.path.join(dest, f)) for f in os.listdir(dest))
    if r.returncode != 0:
        raise SystemExit("mpremote cp failed: " + r.stdout[-500:] + r.stderr[-500:])
    return t, copied


def measure(n_logs=N_LOGS, rounds=ROUNDS):
    work = tempfile.mkdtemp(prefix="apx-bench-link-")
    flash = os.path.join(work, "flash")
    os.makedirs(flash)
    devboard.install(flash)
    b = devboard.DevBoard(flash, "A").start()
    pulls, agains, cps = [], [], []
    try:
        with connect(b) as link:
            play_record(link, RECORD)
            link.logs()  # flushed
        logs = os.path.join(flash, "logs")
        one = os.path.join(logs, "0001.alog")
        for i in range(2, n_logs + 1):
            shutil.copy(one, os.path.join(logs, "%04d.alog" % i))
        total = sum(
            os.path.getsize(os.path.join(logs, f)) for f in os.listdir(logs) if f.endswith(".alog")
        )
        for r in range(rounds):
            for f in os.listdir(logs):  # the board forgets it was pulled
                if f.endswith(".pulled"):
                    os.remove(os.path.join(logs, f))
            db = os.path.join(work, "m%d.sqlite" % r)
            pulls.append(_pull(b.port, db))
            agains.append(_pull(b.port, db))
            t, copied = _mpremote_cp(b.port, logs, os.path.join(work, "copied%d" % r))
            if copied < total:
                raise SystemExit("mpremote cp copied %d of %d bytes" % (copied, total))
            cps.append(t)
            # mpremote left the firmware at its REPL: a reset starts it
            # again, as on the board (devboard boots it when it ends).
            boots = b.boots
            b.power_cut()
            b.wait_boot(boots + 1)
    finally:
        b.stop()
        shutil.rmtree(work, ignore_errors=True)
    ratios = [c / p for c, p in zip(cps, pulls)]
    return {
        "logs": n_logs,
        "kb": total / 1024,
        "rounds": rounds,
        "pull_s": _median(pulls),
        "again_s": _median(agains),
        "mpremote_s": _median(cps),
        "ratio": _median(cps) / _median(pulls),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
    }


def main(argv):
    m = measure()
    if "--json" in argv:
        print(json.dumps(m, indent=1))
        return 0
    kb = m["kb"]
    print(
        "Match-log download over one pseudo-terminal, %d logs, %.1f KB, median of %d rounds:"
        % (m["logs"], kb, m["rounds"])
    )
    print("  apixagon logs pull          %6.2f s  %7.1f KB/s" % (m["pull_s"], kb / m["pull_s"]))
    print("  second pull (nothing new)   %6.3f s" % m["again_s"])
    print(
        "  mpremote cp :logs/*.alog    %6.2f s  %7.1f KB/s"
        % (m["mpremote_s"], kb / m["mpremote_s"])
    )
    print(
        "  logs pull is %.1fx faster (rounds %.1f-%.1fx; target >= %.0fx: %s)"
        % (
            m["ratio"],
            m["ratio_min"],
            m["ratio_max"],
            TARGET,
            "OK" if m["ratio"] >= TARGET else "MISSED",
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Download throughput over the same link (issue 4): `apixagon logs pull`
against `mpremote cp` of the same files, in one run.

A board is filled with an archive of match logs (copies of a full played
6-player match), then over the same pseudo-terminal: a pull into a fresh
SQLite file, a second pull with nothing new, and mpremote copying the logs
directory (256-byte chunks, one REPL command each). Prints the ratio."""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tools"), os.path.join(ROOT, "tests", "e2e")]
import devboard  # noqa: E402
from apixagon_host import cli  # noqa: E402
from e2ekit import RECORD, connect, play_record  # noqa: E402

N_LOGS = int(os.environ.get("BENCH_LOGS", "120"))
TARGET = 5.0


def main():
    work = tempfile.mkdtemp(prefix="apx-bench-link-")
    flash = os.path.join(work, "flash")
    os.makedirs(flash)
    devboard.install(flash)
    b = devboard.DevBoard(flash, "A").start()
    try:
        with connect(b) as link:
            play_record(link, RECORD)
            link.logs()  # flushed
        logs = os.path.join(flash, "logs")
        one = os.path.join(logs, "0001.alog")
        for i in range(2, N_LOGS + 1):
            shutil.copy(one, os.path.join(logs, "%04d.alog" % i))
        total = sum(os.path.getsize(os.path.join(logs, f)) for f in os.listdir(logs))
        db = os.path.join(work, "m.sqlite")
        out = io.StringIO()
        t0 = time.monotonic()
        rc = cli.main(["logs", "pull", "-p", b.port, "--db", db], cli.State(out=out))
        t_pull = time.monotonic() - t0
        assert rc == 0, out.getvalue()
        t0 = time.monotonic()
        rc = cli.main(["logs", "pull", "-p", b.port, "--db", db], cli.State(out=out))
        t_again = time.monotonic() - t0
        dest = os.path.join(work, "copied")
        mp = os.path.join(os.path.dirname(sys.executable), "mpremote")
        t0 = time.monotonic()
        os.makedirs(dest)
        files = [":logs/" + f for f in sorted(os.listdir(logs))]
        r = subprocess.run(
            [mp, "connect", b.port, "resume", "cp"] + files + [dest + "/"],
            capture_output=True,
            text=True,
            timeout=900,
        )
        t_mp = time.monotonic() - t0
        copied = sum(
            os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(dest) for f in fs
        )
        if r.returncode != 0 or copied < total:
            print("mpremote cp failed:", r.stdout[-500:], r.stderr[-500:])
            return 1
    finally:
        b.stop()
        shutil.rmtree(work, ignore_errors=True)
    kb = total / 1024
    ratio = t_mp / t_pull
    print("Match-log download over one pseudo-terminal, %d logs, %.1f KB:" % (N_LOGS, kb))
    print("  apixagon logs pull     %6.2f s  %7.1f KB/s" % (t_pull, kb / t_pull))
    print("  second pull (nothing new) %6.3f s" % t_again)
    print("  mpremote cp :logs/*     %6.2f s  %7.1f KB/s" % (t_mp, kb / t_mp))
    print(
        "  logs pull is %.1fx faster (target >= %.0fx: %s)"
        % (ratio, TARGET, "OK" if ratio >= TARGET else "MISSED")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`make bench`: the board's figures, part by part, and its budgets' verdicts.

  python -m bench                  (from tools/) every part but the long ones and unix-link
  python -m bench --quick          shorter: no position scans, 8 moves of the game
  python -m bench --part NAME ...  only these parts (repeatable)
  python -m bench --long           the long parts (memory, capacity, engine)
  python -m bench --json           the figures as one JSON object on stdout

Parts on the PC (wall time): unix-core (the rules core under the
MicroPython unix port, bench/core.py), unix-firmware (the whole firmware
there, bench/firmware.py), unix-link (logs pull against mpremote cp over a
pseudo-terminal, bench/link.py), strip-cp (the CircuitPython strip
adapter, bench/strip_cp.py), review (a 60-move match reviewed by the
host, on 1 and 2 processes: tools/bench_review.py). Parts on the emulated RP2040, in the chip's
own cycles (bench/target.py runs them, on bench/emulated.py's board and
hands): calibration, core, firmware, boot, resume, play, pull (their
logs: bench/matchlogs.py), and the long ones: memory (bench/memory.py),
capacity (bench/capacity.py), engine; bench/unixport.py measures the same
on the unix port beside them, bench/report.py prints them.

Each run is written as data (bench/results.py) to
docs/figures/data/<set>.json, set being "bench" (the default parts),
"bench-long" (--long), "quick" (--quick) or the parts named; the figures
page, docs/figures.md, is generated from those files
(python -m bench.figures). --no-save leaves them alone.
"""

import argparse
import contextlib
import io
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
if TOOLS not in sys.path:
    sys.path.insert(0, TOOLS)

from bench import budgets, results  # noqa: E402

HOST_PARTS = ("unix-core", "unix-firmware", "unix-link", "strip-cp", "review")
TARGET_PARTS = results.TARGET_PARTS
# The parts that take most of an hour between them (memory: 24 matches and
# two deploys, ~30 min on 2 emulators; capacity: the flash filled, ~6 min;
# engine: every level at its worst positions): `make bench-long`, so that
# `make bench` stays within 10 minutes on 2 cores.
LONG_PARTS = ("memory", "capacity", "engine")
PARTS = HOST_PARTS + TARGET_PARTS
# unix-link (three rounds of 120 logs through mpremote) only when named:
# the pull part runs one round of it beside the chip's figures.
DEFAULT_PARTS = tuple(p for p in PARTS if p not in LONG_PARTS and p != "unix-link")


def host_part(name, quick):
    """A PC part's figures (its module's main, its JSON captured)."""
    import bench_review

    from bench import core, firmware, link, strip_cp

    argv = ["--json"] + (["--quick"] if quick and name in ("unix-core", "unix-firmware") else [])
    main = {
        "unix-core": core.main,
        "unix-firmware": firmware.main,
        "unix-link": link.main,
        "strip-cp": strip_cp.main,
        "review": bench_review.main,
    }[name]
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            rc = main(argv)
    except SystemExit as e:  # the PC parts say a failure by exiting
        raise RuntimeError(str(e.code)) from None
    if rc:
        raise RuntimeError("%s exited %s" % (name, rc))
    return json.loads(out.getvalue())


def set_name(args, parts):
    if args.set:
        return args.set
    if args.long and not args.part:
        return "bench-long"
    if args.part:
        return "+".join(p for p in PARTS if p in parts) + ("-quick" if args.quick else "")
    return "quick" if args.quick else "bench"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="no scans, a few moves of the game")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--part", action="append", choices=PARTS, help="only this part (repeatable)")
    ap.add_argument("--long", action="store_true", help="the long parts: " + ", ".join(LONG_PARTS))
    ap.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="emulators at once"
    )
    ap.add_argument("--set", help="the run's file name under docs/figures/data (no .json)")
    ap.add_argument("--no-save", action="store_true", help="write no data file")
    ap.add_argument(
        "--timing",
        default=",".join(results.PROFILES),
        help="the emulator's timing profiles, comma-separated (tools/rp2040/timing.js): "
        "ideal, typical, worst; each target part runs in those it can differ in",
    )
    args = ap.parse_args(argv)
    profiles = [t for t in args.timing.split(",") if t]
    for t in profiles:
        if t not in results.PROFILES:
            ap.error("--timing %s? choose among %s" % (t, ", ".join(results.PROFILES)))
    say = (lambda s: None) if args.json else (lambda s: (sys.stdout.write(s), sys.stdout.flush()))
    parts = args.part or (LONG_PARTS if args.long else DEFAULT_PARTS)
    started, at = results.now(), results.commit()
    t0 = time.monotonic()
    figures, errors = {}, []
    for name in (p for p in HOST_PARTS if p in parts):
        say("%s ...\n" % name)
        t1 = time.monotonic()
        try:
            figures[name] = {"figures": host_part(name, args.quick)}
        except Exception as e:  # one part failing must not hide the others
            errors.append((name, e))
            say("  %s FAILED: %s\n" % (name, e))
            continue
        figures[name]["wall_s"] = round(time.monotonic() - t1, 1)
    figs = {}  # the target's figures by timing profile
    target_parts = [p for p in TARGET_PARTS if p in parts]
    for prof in profiles if target_parts else ():
        tparts = [p for p in target_parts if results.runs_in(p, prof)]
        if not tparts:
            continue
        from bench import target

        say("\n== timing: %s ==\n" % prof)
        fig, terr = target.run(tparts, args.quick, args.jobs, say, timing=prof)
        if fig is None:  # no images or no emulator: the PC parts' figures are still kept
            errors.append(("the emulated RP2040", terr))
            break
        errors += [("%s (%s)" % (n, prof), e) for n, e in terr]
        walls = fig.pop("wall_s", {})
        for key, value in fig.items():
            part = results.part_of(key, prof)
            figures.setdefault(part, {"figures": {}})["figures"][key] = value
        # a part's tasks run side by side (play: one a revision): their
        # seconds added up, not the part's wall time
        for task, sec in walls.items():
            part = results.variant(task.split()[0], prof)
            if part in figures:
                figures[part]["task_s"] = round(figures[part].get("task_s", 0.0) + sec, 1)
        figs[prof] = fig
        if not args.json and fig:
            from bench import report

            report.print_report(fig, prof)
    # the verdicts on the judged profile's figures (ideal where it was not run)
    judged = {}
    for prof in ("ideal", results.JUDGED):
        judged.update(figs.get(prof, {}))
    fig = judged
    wall = round(time.monotonic() - t0, 1)
    rows = budgets.records(fig)
    rec = results.record(set_name(args, parts), parts, args.quick, started, at, wall, figures, rows)
    rec["run"]["failed"] = {name: str(e)[:300] for name, e in errors}
    if args.json:
        print(json.dumps(rec, indent=1, sort_keys=True, ensure_ascii=False))
    else:
        print("\n(%.0f s of wall time, %s)" % (wall, rec["run"]["commit"]))
    if not args.no_save:
        path = results.write(rec)
        say("figures written to %s (the page: python -m bench.figures)\n" % os.path.relpath(path))
    for name, e in errors:
        print("bench: %s failed: %s" % (name, e), file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

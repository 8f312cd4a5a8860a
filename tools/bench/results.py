"""A benchmark run as data: its figures part by part, each budget with
its figure, unit, limit and verdict, and what a reader needs to trust
them (when, at which commit, where, on what machine). `make bench`
writes one file per set of parts under docs/figures/data/; the figures
page (bench/figures.py) is generated from those files alone, so no
figure is ever copied by hand.
"""

import datetime
import json
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "docs", "figures", "data")
SCHEMA = 1

EMULATED = (
    "emulated RP2040 (rp2040js, 125 MHz cycle clock, no XIP cache misses, "
    "flash writes take no time)"
)
# The real chip's timing on the emulator (tools/rp2040/timing.js): each
# target part runs in these profiles, its figures stored as "part@profile"
# ("part" alone: ideal). The budgets are judged on JUDGED.
PROFILES = ("ideal", "typical", "worst")
JUDGED = "typical"
EMULATED_TIMED = {
    "typical": "emulated RP2040, real-chip timing model, typical flash (rp2040js, 125 MHz; "
    "XIP cache misses; W25Q16JV typical program and erase times, the core stalled)",
    "worst": "emulated RP2040, real-chip timing model, worst-case flash (rp2040js, 125 MHz; "
    "XIP cache misses; W25Q16JV datasheet maximum program and erase times)",
}
# Parts whose figures are not times (heap, matches held): measured once,
# ideal, the same in every column.
UNTIMED = ("memory", "capacity")
# Parts that program and erase no flash while they measure: the worst-case
# flash changes nothing, so their worst-case column is the typical one.
NO_FLASH = ("calibration", "core", "firmware", "engine")
UNIX_PORT = "MicroPython unix port"
CPYTHON = "CPython"

# Where each part measures. The emulated parts read the chip's cycle
# clock, so their figures do not depend on the PC; the others are wall
# time on the machine named in the run's metadata.
WHERE = {
    "unix-core": UNIX_PORT,
    "unix-firmware": UNIX_PORT,
    "unix-link": UNIX_PORT + " (the simulated board on a pseudo-terminal; wall time)",
    "strip-cp": CPYTHON + " and the " + UNIX_PORT,
    "review": CPYTHON + " (the host's match review; wall time)",
}
TARGET_PARTS = (
    "calibration", "core", "firmware", "boot", "resume", "play", "pull", "memory", "capacity",
    "engine",
)  # fmt: skip
for _p in TARGET_PARTS:
    WHERE[_p] = EMULATED
    for _t, _w in EMULATED_TIMED.items():
        WHERE["%s@%s" % (_p, _t)] = _w


def variant(part, profile):
    """A target part's name in a timing profile ("play@typical")."""
    return part if profile == "ideal" else "%s@%s" % (part, profile)


def runs_in(part, profile):
    """Whether `make bench` runs a target part in a timing profile."""
    if profile == "ideal":
        return True
    return part not in UNTIMED and (profile != "worst" or part not in NO_FLASH)


def pick(parts, part, profile):
    """A target part's record in a profile, or the one that stands for it
    there (a part with no flash write: typical for worst; a part that is no
    time: ideal), or None."""
    chain = [profile]
    if profile == "worst" and part in NO_FLASH:
        chain.append("typical")
    if part in UNTIMED:
        chain.append("ideal")
    for prof in chain:
        p = parts.get(variant(part, prof))
        if p is not None:
            return p
    return None


def git(*args):
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()


def commit():
    """The checkout's commit, "+changes" when the tree differs from it
    (figures of uncommitted code must say so)."""
    head = git("rev-parse", "--short=10", "HEAD") or "unknown"
    dirty = git(
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":!docs/figures",
        ":!docs/figures.md",
    )
    return head + ("+changes" if dirty else "")


def machine():
    return {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "load_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def part_of(key, profile="ideal"):
    """The target's figure keys (play_rev_a, resume_rev_b, ...) by part, in
    a timing profile."""
    return variant(key.split("_rev_")[0], profile)


def record(name, parts, quick, started, at, wall_s, figures, budget_rows):
    """One run: figures {part: {"figures": ..., "wall_s": ...}}; at: the
    commit when the run started (what was measured)."""
    when = now()
    return {
        "schema": SCHEMA,
        "set": name,
        "run": {
            "parts": list(parts),
            "quick": quick,
            "started": started,
            "date": when,
            "commit": at,
            "machine": machine(),
            "wall_s": wall_s,
            "command": " ".join(["python", "-m", "bench"] + sys.argv[1:]),
        },
        "parts": {
            p: dict(
                v,
                where=WHERE[p],
                source="measured",
                date=when,
                commit=at,
                quick=quick,
            )
            for p, v in figures.items()
        },
        "budgets": budget_rows,
    }


def path_of(name):
    return os.path.join(DATA, name + ".json")


def write(rec, path=None):
    path = path or path_of(rec["set"])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    return path


def load_all(folder=DATA):
    """Every run file in the folder, by name."""
    out = {}
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                with open(os.path.join(folder, name)) as f:
                    out[name[:-5]] = json.load(f)
    return out


def merged(runs):
    """The newest measurement of each part across the runs (a measured
    figure before a copied one, a full run's before a --quick one's, then
    the latest): {part: its record with "set" naming the file}."""
    best = {}
    for name, rec in runs.items():
        for part, p in rec["parts"].items():
            rank = (p["source"] == "measured", not p.get("quick"), p["date"])
            if part not in best or rank > best[part][0]:
                best[part] = (rank, dict(p, set=name))
    return {part: v[1] for part, v in best.items()}


def target_figures(parts, profile="ideal"):
    """The target's figure dict (as tools/bench/target.py made it) in a
    timing profile, from the merged parts: what the budgets read."""
    fig = {}
    for part in TARGET_PARTS:
        p = pick(parts, part, profile)
        if p is not None:
            fig.update(p["figures"])
    return fig

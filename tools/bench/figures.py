"""docs/figures.md, generated from the benchmark's runs as data
(docs/figures/data/*.json, written by `make bench` and `make bench-long`):
every budget with its figure, verdict, where it was measured, date and
commit; the board's heap mode by mode; the other figures. Run as
`python -m bench.figures` from tools/ (`make figures`); --check exits 1
when docs/figures.md is not what the data gives. Never edit the page by
hand: tests/test_figures.py fails when it differs.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if os.path.dirname(HERE) not in sys.path:
    sys.path.insert(0, os.path.dirname(HERE))

from bench import budgets, results  # noqa: E402

PAGE = os.path.join(results.ROOT, "docs", "figures.md")
KB = 1024
# The short names of where a figure was measured, for the tables (the
# full ones, as the data has them, are listed under each table).
SHORT = {
    results.EMULATED: "emulated RP2040",
    results.UNIX_PORT: "unix port",
}
MATCHES = ("2p", "beehive", "3v2", "junior")  # bench/target.py's MEMORY_MATCHES
FIRMWARES = (
    ("frozen", "frozen"),
    ("deployed", "ROMFS (apixagon deploy)"),
    ("littlefs", "`.mpy` slot in the littlefs"),
)
REVS = ("rev_a", "rev_b")


def upper(text):
    return text[:1].upper() + text[1:]


def rev_name(rev):
    return "rev " + rev[-1].upper()


def short(where):
    return SHORT.get(where, where)


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return out


def provenance(p):
    """How a part's figures came to be, as the page says it."""
    if p["source"] == "measured":
        return "measured" + (" (--quick)" if p.get("quick") else "")
    return p["source"]


COLUMNS = (
    ("ideal", "ideal emulator"),
    ("typical", "real chip, typical flash"),
    ("worst", "real chip, worst-case flash"),
)


def budget_rows(parts):
    """Each budget's figure in the three timing profiles (results.PROFILES),
    its verdict on the judged one (results.JUDGED), and where and when that
    one was measured."""
    figs = {prof: results.target_figures(parts, prof) for prof, _ in COLUMNS}
    rows, notes, wheres = [], [], []
    for b in budgets.BUDGETS:
        cols = []
        for prof, _ in COLUMNS:
            v, verdict = budgets.check(b, figs[prof])
            p = results.pick(parts, b.part, prof)
            text = "not run" if v is None else budgets.shown(b, v)
            if prof == results.JUDGED and v is not None:
                text = "**%s**" % text
            if p is not None and p["source"] != "measured":
                text += " (%s)" % p["source"]
            if b.estimate and v is not None and prof == results.JUDGED:
                notes.append(b.estimate)
                text += " (estimate%s)" % ("¹" if len(notes) == 1 else " %d" % len(notes))
            cols.append(text)
        v, verdict = budgets.check(b, figs[results.JUDGED])
        p = results.pick(parts, b.part, results.JUDGED)
        where = p["where"] if p else "-"
        if p and where not in wheres:
            wheres.append(where)
        rows.append(
            (
                b.label,
                budgets.budget_text(b),
                *cols,
                verdict,
                p["date"][:10] if p else "-",
                "`%s`" % p["commit"] if p else "-",
            )
        )
    return rows, notes, wheres


def calibration_section(parts):
    """The timing model against real Picos (bench/calibration.py)."""
    from bench import calibration

    ideal = parts.get("calibration")
    model = parts.get(results.variant("calibration", "typical"))
    if ideal is None and model is None:
        return []
    rows = calibration.rows(
        (ideal or {}).get("figures", {}).get("calibration", {}),
        (model or {}).get("figures", {}).get("calibration", {}),
    )
    # a real board's run of the same programs (make bench-device), if one was sent
    dev = parts.get("device-calibration")
    devfig = dev["figures"]["calibration"] if dev else {}
    body, near, n = [], 0, 0
    for key, (what, source, version, pub, vi, vt, ratio) in zip(calibration.keys(), rows):
        if ratio is not None:
            n += 1
            near += abs(ratio - 1) <= calibration.TOLERANCE
        row = [
            what,
            "%.1f ms" % (pub / 1000.0),
            "-" if vi is None else "%.1f ms" % (vi / 1000.0),
            "-" if vt is None else "%.1f ms" % (vt / 1000.0),
            "-" if ratio is None else "%.2f" % ratio,
            version,
            "[source](%s)" % source,
        ]
        if dev:
            v = devfig.get("programs", {}).get(key, devfig.get("perf_bench", {}).get(key))
            row.insert(4, "-" if v is None else "%.1f ms" % (v / 1000.0))
        body.append(tuple(row))
    p = model or ideal
    out = [
        "## Calibration",
        "",
        "The timing model (`tools/rp2040/timing.js`) against what others measured on a real "
        "Raspberry Pi Pico at 125 MHz running MicroPython: the same programs "
        "(`tools/bench/calibration_device.py`, written from the published descriptions; "
        "MicroPython's own `perf_bench` where a checkout is at hand, "
        "`MICROPYTHON_PERF_BENCH`) on the emulated board, ideal and with the model (typical "
        "flash; these programs write no flash). Ratio: the model's figure over the published "
        "one. %d of %d within %d %%. The images run MicroPython 1.28; the published figures "
        "are of the versions named. %s, %s, commit `%s`."
        % (
            near,
            n,
            round(100 * calibration.TOLERANCE),
            upper(provenance(p)),
            p["date"][:10],
            p["commit"],
        ),
        "",
    ]
    head = ["program", "published", "ideal emulator", "real-chip model", "ratio", "MicroPython",
            "source"]  # fmt: skip
    if dev:
        head.insert(4, "real Pico (%s)" % dev["where"])
    out += table(head, body)
    if not dev:
        out += [
            "",
            "No real Pico has run these images yet: `make bench-device PORT=...` on one fills a "
            "real-Pico column here ([how](development/bench.md#a-real-pico)).",
        ]
    out.append("")
    return out


def heap_rows(mem):
    cols = [(k, r) for k, _ in FIRMWARES for r in REVS if r in mem.get(k, {})]
    if not cols:
        return None, []
    names = {n for k, r in cols for n in mem[k][r] if isinstance(mem[k][r][n], dict)}
    order = [n for n in MATCHES if n in names] + sorted(names - set(MATCHES))
    label = dict(FIRMWARES)
    head = ["heap free, bytes (KB)"] + ["%s, %s" % (label[k], rev_name(r)) for k, r in cols]
    rows = []
    first = order[0] if order else None
    if first:
        rows.append(
            ["after boot"]
            + ["%d" % mem[k][r][first]["heap_boot"] if first in mem[k][r] else "-" for k, r in cols]
        )
    for n in order:
        row = ["lowest, %s" % n]
        for k, r in cols:
            g = mem[k][r].get(n)
            if not g:
                row.append("-")
                continue
            text = "%d (%.1f)" % (g["heap_lowest"], g["heap_lowest"] / KB)
            two = mem[k][r].get("2p")
            if n != "2p" and two:
                text += " %+d" % (g["heap_lowest"] - two["heap_lowest"])
            row.append(text)
        rows.append(row)
    rows.append(
        ["budget"]
        + [
            "≥ %d KB" % (budgets.HEAP_FROZEN_KB if k == "frozen" else budgets.HEAP_DEPLOYED_KB)
            for k, r in cols
        ]
    )
    return head, rows


def target_rows(parts):
    """The emulated parts' other figures, as make bench prints them."""
    from bench import report

    fig, rows = {}, []
    for name in results.TARGET_PARTS:
        p = parts.get(name)
        if name != "memory" and p and p["source"] == "measured":
            fig.update(p["figures"])
    try:
        rows = [tuple(r) for r in report.rows_of(fig)]
    except (KeyError, TypeError):  # a run's data without what the table reads
        pass
    return rows


def _us(v):
    return "-" if v is None else "%.1f µs" % v


def pc_rows(parts):
    rows = []
    c = parts.get("unix-core")
    if c:
        f = c["figures"]
        rows += [
            ("rules core: smallest heap for the scripted 6-player game, every card queried",
             "%d wK" % f["heap_wK"], c),
            ("rules core `.mpy`, total", "%d bytes (budget ≤ 32 768)" % f["mpy_total"], c),
            ("full hint query, crowded (position %d)" % f["position"], _us(f["hint_us"]), c),
            ("full hint query, worst (position %d)" % f["worst_position"],
             _us(f["worst_hint_us"]), c),
            ("card query for every card in hand, crowded / worst",
             "%s / %s" % (_us(f["cards_us"]), _us(f["worst_cards_us"])), c),
            ("placement check; place + undo, crowded",
             "%s; %s" % (_us(f["check_us"]), _us(f["push_us"])), c),
        ]  # fmt: skip
        for w in ("hint", "worst_hint", "check", "push"):
            if w + "_instr" in f:
                rows.append(("  %s: instructions (callgrind)" % w, "%d" % f[w + "_instr"], c))
    w = parts.get("unix-firmware")
    if w:
        f = w["figures"]
        rows += [
            ("whole firmware: smallest heap, profile A / B (simulator included)",
             "%d / %d wK" % (f["heap_wK_A"], f["heap_wK_B"]), w),
            ("firmware `.mpy` on the board (+ simulator)",
             "%d bytes (+ %d)" % (f["mpy_board"], f["mpy_sim"]), w),
            ("one sensor event; one LED frame; idle tick (profile B), move 60",
             "%s; %s; %s" % (_us(f["event_us"]), _us(f["frame_us"]), _us(f["idle_us"])), w),
        ]  # fmt: skip
        for prof in ("A", "B"):
            s = f.get("sense_ms_" + prof)
            if s:
                rows.append(
                    (
                        "sensing a placement, profile %s, the simulator's time model alone "
                        "(%d placements): mean / 95 %% / worst" % (prof, s["n"]),
                        "%d / %d / %d ms" % (s["mean"], s["p95"], s["max"]),
                        w,
                    )
                )
    k = parts.get("unix-link")
    if k:
        f = k["figures"]
        rows.append(
            (
                "logs pull of %d logs (%.0f KB) against mpremote cp, wall time (median of %d)"
                % (f["logs"], f["kb"], f["rounds"]),
                "%.2f s against %.2f s: %.1f× (%.1f–%.1f×)"
                % (f["pull_s"], f["mpremote_s"], f["ratio"], f["ratio_min"], f["ratio_max"]),
                k,
            )
        )
    s = parts.get("strip-cp")
    if s:
        f = s["figures"]
        for key, label in (("cpython", "CPython"), ("unix_port", "unix port")):
            if key in f:
                rows.append(
                    (
                        "CircuitPython strip adapter, a 61-LED frame, %s: per pixel → one slice"
                        % label,
                        "%.1f → %.1f µs" % (f[key]["library_per_pixel"], f[key]["library_slice"]),
                        s,
                    )
                )
    r = parts.get("review")
    if r:
        f = r["figures"]
        took = ", ".join(
            "%.1f s on %d process%s" % (x["seconds"], x["jobs"], "" if x["jobs"] == 1 else "es")
            for x in f["runs"]
        )
        rows.append(
            (
                "match review of a %d-move match at level 6 (budget %.0f s on 2 cores)"
                % (f["moves"], f["budget_s"]),
                took,
                r,
            )
        )
    return [(a, b, short(p["where"]), p["date"][:10], "`%s`" % p["commit"]) for a, b, p in rows]


# Two consecutive `make bench` runs (issue: each budget met in both, with
# the spread between them): the second is written as bench-again.json
# (make bench BENCH_ARGS="--set bench-again").
TWICE = ("bench", "bench-again")


def twice_rows(runs):
    """[(budget, target, first, second, spread, verdicts)] of the budgets
    both full runs measured; [] without both."""
    if not all(n in runs for n in TWICE) or any(runs[n]["run"].get("quick") for n in TWICE):
        return []
    figs = [results.target_figures(runs[n]["parts"]) for n in TWICE]
    rows = []
    for b in budgets.BUDGETS:
        got = [budgets.check(b, f) for f in figs]
        if any(v is None for v, _ in got):
            continue
        (v1, k1), (v2, k2) = got
        rows.append(
            (
                b.label,
                budgets.budget_text(b),
                budgets.shown(b, v1),
                budgets.shown(b, v2),
                b.fmt % abs(v2 - v1),
                k1 if k1 == k2 else "%s / %s" % (k1, k2),
            )
        )
    return rows


def run_rows(runs):
    rows = []
    for name, rec in sorted(runs.items()):
        r = rec["run"]
        m = r.get("machine") or {}
        # a part that failed left no figures (its error: the run's "failed")
        missing = [p for p in r["parts"] if p not in rec["parts"]]
        rows.append(
            (
                "`%s.json`" % name,
                ", ".join(r["parts"])
                + (" (--quick)" if r.get("quick") else "")
                + ("; no figures from %s" % ", ".join(missing) if missing else ""),
                r["date"][:16].replace("T", " "),
                "`%s`" % r["commit"],
                "%s cores, Python %s" % (m.get("nproc", "?"), m.get("python", "?")) if m else "-",
                "%.0f s" % r["wall_s"] if r.get("wall_s") is not None else "-",
            )
        )
    return rows


def render(runs):
    parts = results.merged(runs)
    fig = results.target_figures(parts, results.JUDGED)
    out = [
        "# Figures",
        "",
        "<!-- Generated by `make figures` (tools/bench/figures.py) from docs/figures/data/*.json."
        " Do not edit: tests/test_figures.py fails when this page differs from its data. -->",
        "",
        "Every figure here is a run of `make bench` (or `make bench-long`, the long parts) "
        "written as data in `docs/figures/data/`, one file per set of parts, and this page is "
        "generated from those files (`make figures`): a figure is never copied by hand. Each "
        "row names where it was measured, the date and the commit it was measured at "
        "(`+changes`: with uncommitted changes). Where a part has several runs the page shows "
        "the newest full measurement.",
        "",
        "The emulated RP2040's figures are the chip's own time (rp2040js counts the cycles of "
        "each instruction at 125 MHz) and come out the same on any PC. rp2040js alone (the "
        "ideal column) runs every instruction from a flash that never waits and writes flash "
        "in no time: a lower bound. The real-chip columns add what a Pico pays "
        "(`tools/rp2040/timing.js`): its XIP cache's misses, and the flash's program and erase "
        "times, typical and datasheet maximum, the core stalled meanwhile; the budgets are "
        "judged on the typical column. No real Pico has run these images: the real-chip "
        "columns are the model's, calibrated against what others measured on real boards "
        '("Calibration", below). The '
        "hands of the placement-to-LED figures act, and ask, at fixed cycles of the board's "
        "own time, the chip held there until the PC has written: two runs give the same "
        "latencies unless the PC is too slow to hold the chip in time: such an input lands "
        "at once and is counted (landed late: none in the ideal and typical runs here, 22 "
        "in profile B's worst-case run: a refused card's CELLS asked 10 ms of the chip "
        "after its lift, which the PC does not always manage). The pull's "
        "rate counts the chip's cycles "
        "from the host's first request to its last reply, so a slow or loaded PC, whose "
        "requests come later, lowers it; its ratio to `mpremote cp` is wall time on both "
        "sides: both move with the machine's load. "
        "The unix port's and CPython's figures are wall time on the machine of their run "
        '("The runs", below).',
        "",
        "## The budgets",
        "",
    ]
    rows, notes, wheres = budget_rows(parts)
    head = (
        ("budget", "target")
        + tuple(t for _, t in COLUMNS)
        + (
            "verdict (%s)" % results.JUDGED,
            "date",
            "commit",
        )
    )
    out += table(head, rows)
    out.append("")
    for i, n in enumerate(notes):
        out.append("%s Estimate: %s." % ("¹" if i == 0 else "%d." % (i + 1), n))
    if notes:
        out.append("")
    for prof, title in COLUMNS:
        w = results.EMULATED if prof == "ideal" else results.EMULATED_TIMED[prof]
        out.append("- *%s*: %s." % (title, w))
    out.append(
        "- A figure that is no time (a heap, a number of matches) is measured once, on the "
        "ideal emulator, and stands in every column; a part that programs and erases no flash "
        "while it measures gives the worst-case column its typical figure."
    )
    out.append("")
    missed = [b for b in budgets.BUDGETS if budgets.check(b, fig)[1] == "MISSED"]
    if missed:
        out += ["### Budgets not met yet", ""]
        for b in missed:
            why = budgets.OPEN.get(b.label, "not explained yet (tools/bench/budgets.py, OPEN)")
            out.append("- **%s** (%s): %s." % (b.label, budgets.budget_text(b), why))
        out.append("")
    worst = results.target_figures(parts, "worst")
    missed = [(b, budgets.check(b, worst)) for b in budgets.BUDGETS]
    missed = [(b, v) for b, (v, verdict) in missed if verdict == "MISSED"]
    if missed:
        out += [
            "### Missed in the worst-case flash column",
            "",
            "The budgets are judged on the typical column; these miss with the flash's "
            "datasheet maxima, each with what the chip does meanwhile (the erases and programs "
            "inside the slowest latency, stamped by the emulator).",
            "",
        ]
        for b, v in missed:
            why = budgets.WORST_MISSES.get(
                b.label, "not explained yet (tools/bench/budgets.py, WORST_MISSES)"
            )
            out.append(
                "- **%s** (%s): %s; %s."
                % (b.label, budgets.budget_text(b), budgets.shown(b, v), why)
            )
        out.append("")
    out += calibration_section(parts)
    mem = fig.get("memory")
    if mem:
        head, rows = heap_rows(mem)
        if head:
            p = parts["memory"]
            out += [
                "## The board's heap, mode by mode",
                "",
                "The heap free (`STATUS heap=`, the board's `gc.mem_free()` after a collection) "
                "after boot and at the lowest point of each mode's scripted match, played from "
                "hands with every 4th placement taken back, with the firmware frozen into the "
                "image, deployed into its ROMFS partition, and as `.mpy` in a slot of the "
                "littlefs. In brackets: KB, and the bytes against the 2-player match. "
                "%s, %s, %s, commit `%s`."
                % (upper(provenance(p)), short(p["where"]), p["date"][:10], p["commit"]),
                "",
            ]
            out += table(head, rows)
            out.append("")
    rows = target_rows(parts)
    if rows:
        out += [
            "## Other figures on the emulated RP2040",
            "",
            "Measured by `make bench` beside the budgets; the unix-port column is the same "
            "measure on the MicroPython unix port (wall time, for comparison only).",
            "",
        ]
        out += table(("figure", "emulated RP2040", "unix port"), rows)
        out.append("")
    rows = pc_rows(parts)
    if rows:
        out += ["## On the PC", ""]
        out += table(("figure", "value", "where measured", "date", "commit"), rows)
        out.append("")
    rows = twice_rows(runs)
    if rows:
        c = ["`%s`" % runs[n]["run"]["commit"] for n in TWICE]
        out += [
            "## Two consecutive runs",
            "",
            "The budgets `make bench` measures, in its last two full runs (`%s.json` at %s and "
            '`%s.json` at %s, the second run with `BENCH_ARGS="--set %s"`), and the spread '
            "between them." % (TWICE[0], c[0], TWICE[1], c[1], TWICE[1]),
            "",
        ]
        out += table(("budget", "target", "first run", "second run", "spread", "verdict"), rows)
        out.append("")
    out += ["## The runs", ""]
    out += table(("data", "parts", "date (UTC)", "commit", "machine", "wall time"), run_rows(runs))
    out.append("")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the page is not up to date")
    args = ap.parse_args(argv)
    text = render(results.load_all())
    if args.check:
        with open(PAGE) as f:
            same = f.read() == text
        print("docs/figures.md is %s" % ("up to date" if same else "NOT what the data gives"))
        return 0 if same else 1
    with open(PAGE, "w") as f:
        f.write(text)
    print("wrote %s" % os.path.relpath(PAGE))
    return 0


if __name__ == "__main__":
    sys.exit(main())

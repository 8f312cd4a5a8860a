"""docs/figures.md is what the benchmark's committed data gives
(tools/bench/figures.py, `make figures`), never a hand edit, and every
budget it shows is met by the data it was built from, judged on the
emulator with the real chip's timing model, typical flash
(results.JUDGED: tools/rp2040/timing.js)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from bench import budgets, figures, results  # noqa: E402


def test_the_page_is_generated_from_the_committed_data():
    with open(figures.PAGE) as f:
        page = f.read()
    assert page == figures.render(results.load_all()), (
        "docs/figures.md differs from what docs/figures/data gives: run `make figures` "
        "(and never edit the page by hand)"
    )


def test_every_budget_in_the_page_is_met_by_its_data_or_open_with_its_reason():
    # budgets.OPEN: the budgets not met yet, each with what holds it back;
    # any other budget missed is a figure that got worse
    parts = results.merged(results.load_all())
    fig = results.target_figures(parts, results.JUDGED)
    with open(figures.PAGE) as f:
        page = f.read()
    missed, closed = [], []
    for b in budgets.BUDGETS:
        assert "| %s |" % b.label in page, "the page leaves out a budget: %s" % b.label
        value, verdict = budgets.check(b, fig)
        if verdict == "met" and b.label in budgets.OPEN:
            closed.append(b.label)
        elif verdict != "met" and b.label not in budgets.OPEN:
            missed.append("%s: %s (%s)" % (b.label, verdict, budgets.budget_text(b)))
        if verdict == "MISSED":
            assert "- **%s** (" % b.label in page, "the page gives no reason: %s" % b.label
    assert not missed, "budgets not met by the page's data:\n" + "\n".join(missed)
    assert not closed, "met now: take them off budgets.OPEN:\n" + "\n".join(closed)
    assert set(budgets.OPEN) <= {b.label for b in budgets.BUDGETS}


def test_every_miss_of_the_worst_case_column_is_listed_with_its_cause():
    parts = results.merged(results.load_all())
    worst = results.target_figures(parts, "worst")
    with open(figures.PAGE) as f:
        page = f.read()
    missed, closed = [], []
    for b in budgets.BUDGETS:
        verdict = budgets.check(b, worst)[1]
        if verdict == "MISSED" and b.label not in budgets.WORST_MISSES:
            missed.append(b.label)
        elif verdict != "MISSED" and b.label in budgets.WORST_MISSES:
            closed.append(b.label)
        if verdict == "MISSED":
            assert "- **%s** (" % b.label in page.split("### Missed in the worst-case")[1]
    assert not missed, "worst-case misses without a cause (budgets.WORST_MISSES):\n" + "\n".join(
        missed
    )
    assert not closed, "met in the worst-case column now: take them off:\n" + "\n".join(closed)


def test_every_figure_says_where_when_and_at_which_commit():
    for name, rec in results.load_all().items():
        assert rec["schema"] == results.SCHEMA, name
        for part, p in rec["parts"].items():
            assert p["where"] and p["date"] and p["commit"], (name, part)
            assert p["source"] == "measured" or p["source"].startswith("copied from README at")
        for row in rec["budgets"]:
            assert {"label", "value", "unit", "limit", "verdict"} <= set(row), (name, row)


def test_a_missed_budget_shows_as_missed():
    # the check above is only as good as the verdict it reads: the verdict
    # is the typical column's, whatever the ideal one says
    def part(where, ms):
        return {
            "figures": {"boot": {"rev_a": {"hello_ms": ms}}},
            "where": where,
            "source": "measured",
            "date": "2026-01-01T00:00:00Z",
            "commit": "abc",
        }

    runs = {
        "t": {
            "schema": results.SCHEMA,
            "set": "t",
            "run": {"parts": ["boot"], "date": "2026-01-01T00:00:00Z", "commit": "abc",
                    "quick": False, "machine": None, "wall_s": 1.0},
            "parts": {
                "boot": part(results.EMULATED, 1400.0),
                "boot@typical": part(results.EMULATED_TIMED["typical"], 1600.0),
            },
            "budgets": [],
        }
    }  # fmt: skip
    page = figures.render(runs)
    assert "| boot to HELLO, rev A | ≤ 1500 ms | 1400 ms | **1600 ms** | not run | MISSED |" in page

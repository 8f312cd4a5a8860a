"""Hand-written scenarios (tests/reference/scenarios/*.apx) for D-9 .. D-14
and NOTATION.md's reason-code order, checked against the reference and
against the product's core through its public record API.

Each move line carries its expected verdict in a trailing comment
(`# expect: ok`, `# expect: cannot-pass`); a header comment
`# expect-result: <status> [winner]` gives the result. Every line that gets a
verdict must carry an expectation, and no other line may.
"""

import pathlib
import re

import apxref
import pytest

SCENARIOS = sorted((pathlib.Path(__file__).parent / "scenarios").glob("*.apx"))
EXPECT = re.compile(r"#\s*expect:\s*([a-z-]+)")
EXPECT_RESULT = re.compile(r"^#\s*expect-result:\s*(\S+)(?:\s+(.+?))?\s*$")


def expectations(path):
    """([(lineno, code)], (status, winner)) written in a scenario file."""
    text = path.read_text(encoding="utf-8")
    verdicts, result = [], None
    for no, line in enumerate(text.splitlines(), 1):
        m = EXPECT_RESULT.match(line.strip())
        if m:
            result = (m.group(1), m.group(2))
            continue
        m = EXPECT.search(line)
        if m:
            verdicts.append((no, m.group(1)))
    assert result is not None, f"{path.name}: no expect-result line"
    return text, verdicts, result


def mismatches(path, got_verdicts, got_result, expected, result):
    lines = path.read_text(encoding="utf-8").splitlines()
    got, want = dict(got_verdicts), dict(expected)
    out = []
    for no in sorted(set(got) | set(want)):
        if got.get(no) != want.get(no):
            line = lines[no - 1].split("#")[0].strip()
            out.append(f"{path.name}:{no}: {line!r}: expected {want.get(no)}, got {got.get(no)}")
    if tuple(got_result) != tuple(result):
        out.append(f"{path.name}: result expected {result}, got {tuple(got_result)}")
    return out


def core_check(text):
    """The core's verdicts (names) and (status, winner) for a record."""
    from apixagon import record
    from apixagon.codes import REASONS
    from apixagon.game import Game

    game, verdicts = record.check(text.splitlines(), Game)
    names = [(no, REASONS[code] if code < len(REASONS) else str(code)) for no, code in verdicts]
    status, winner = record.result(game)[:2]
    return names, (status, winner)


def test_there_are_scenarios_for_every_decision():
    names = " ".join(p.name for p in SCENARIOS)
    for tag in ("d09", "d10", "d11", "d12", "d13", "d14", "order"):
        assert tag in names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_reference(path):
    text, expected, result = expectations(path)
    verdicts, status, winner = apxref.check(text)
    assert mismatches(path, verdicts, (status, winner), expected, result) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_core_legality(path):
    """The core agrees on legal/illegal for every line and on the result."""
    text, expected, result = expectations(path)
    verdicts, got_result = core_check(text)
    as_legal = [(no, "ok" if code == "ok" else "illegal") for no, code in verdicts]
    want = [(no, "ok" if code == "ok" else "illegal") for no, code in expected]
    assert mismatches(path, as_legal, got_result, want, result) == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_core_codes(path):
    """The core gives the very reason codes the scenario expects."""
    text, expected, result = expectations(path)
    verdicts, got_result = core_check(text)
    assert mismatches(path, verdicts, got_result, expected, result) == []

"""The browser tests share one Chromium launch per worker (tests/conftest.py's
session-scoped `browser`), and leave no event loop marked running for the
tests after them: browser_shared_case.py's three tests, in order, in a
pytest of their own (one process, as one worker runs them)."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")


@pytest.mark.skipif(
    not (shutil.which("chromium") or shutil.which("chromium-browser")),
    reason="Debian's chromium is missing (make installs it)",
)
def test_one_chromium_for_the_worker_and_asyncio_after_it():
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider"]
        + [os.path.join(HERE, "browser_shared_case.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and "3 passed" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]


def test_no_test_launches_a_chromium_of_its_own():
    # the one launch is tests/conftest.py's; a test asks for `browser`
    mine = []
    for top, _dirs, files in os.walk(os.path.join(ROOT, "tests")):
        for name in files:
            path = os.path.join(top, name)
            if name.endswith(".py") and path != os.path.join(ROOT, "tests", "conftest.py"):
                with open(path) as f:
                    text = f.read()
                # (the words split: this file would find itself)
                if "chromium" + ".launch(" in text or "sync_" + "playwright(" in text:
                    mine.append(os.path.relpath(path, ROOT))
    assert not mine, "use the browser fixture (tests/conftest.py): %s" % mine

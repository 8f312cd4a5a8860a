import asyncio
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The core suite in tests/core imports its helpers by plain name, the same
# way tests/mp_run.py loads them under MicroPython.
sys.path.insert(0, os.path.join(ROOT, "tests", "core"))
sys.path.insert(0, os.path.join(ROOT, "tests", "board"))
# Tests read data files (hardware/layout.json) relative to the repository,
# as the MicroPython run does.
os.chdir(ROOT)
# The suite checks the host's words in English: on an Italian desktop
# (LANG=it_IT.UTF-8) too. Tests of the Italian ask for it themselves
# (tests/host/test_i18n.py).
os.environ["APIXAGON_LANG"] = "en"


# The emulated RP2040's tests and the deploys killed on purpose take
# minutes each: handed to the workers first, the longest first (as
# `pytest --durations` shows them), so that no worker is left with one of
# them at the end while the others wait (make test's wall time).
_LONG_FIRST = (
    "tests/rp2040/test_rp2040_power.py",
    "tests/rp2040/test_rp2040_fullflash.py",
    "tests/rp2040/test_rp2040_deploy_cuts.py",
    "tests/rp2040/test_rp2040_pack.py",
    "tests/rp2040/test_rp2040_link.py",
    "tests/rp2040/test_rp2040_scale.py",
    "tests/rp2040/test_rp2040_play.py",
    "tests/rp2040/test_rp2040_heap.py",
    "tests/e2e/test_deploy_kills.py",
    "tests/rp2040/",
    "tests/e2e/test_host_gone.py",
)


def pytest_collection_modifyitems(session, config, items):
    def rank(item):
        for i, p in enumerate(_LONG_FIRST):
            if item.nodeid.startswith(p):
                return i
        return len(_LONG_FIRST)

    items.sort(key=rank)  # stable: each file's own order kept
    if os.environ.get("APIXAGON_LONG") != "1":
        skip = pytest.mark.skip(reason="a long run on the emulated RP2040: make test-long runs it")
        for item in items:
            if "long" in item.keywords:
                item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "long: minutes on the emulated RP2040, its case also tested on the simulated board "
        "in make test; make test-long runs it (APIXAGON_LONG=1)",
    )


# ---- one Chromium per worker for every browser test -------------------------
_CHROMIUM = {}  # this worker's, once launched: its Browser and Playwright's loop


def _mark_loop(on):
    # Playwright's sync API marks its event loop as this thread's running
    # loop between its calls (playwright/_impl/_greenlets.py): a test that
    # runs asyncio here afterwards would find a loop running. It is marked
    # only while something of the browser's runs.
    if _CHROMIUM:
        asyncio._set_running_loop(_CHROMIUM["loop"] if on else None)


class _Chromium:
    """The Browser, marking Playwright's loop before each use (a module's
    fixtures open their pages before the test's own fixtures run)."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        _mark_loop(True)
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright, launched once per worker
    (make installs it; Playwright's own browser download cannot work
    offline and is never asked for). Each test opens its own context."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip(
            "Debian's chromium is not installed (make installs it: apt-get install chromium)"
        )
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        _CHROMIUM.update(browser=b, loop=asyncio.events._get_running_loop())
        try:
            yield _Chromium(b)
        finally:
            _mark_loop(True)
            b.close()
            _CHROMIUM.clear()


@pytest.fixture(autouse=True)
def _browser_loop(request):
    # a test of the browser finds Playwright's loop marked, any other none
    _mark_loop("browser" in request.fixturenames)
    yield

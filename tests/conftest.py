import os
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

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "rp2040"))


@pytest.fixture(scope="module", autouse=True)
def patient_host():
    """The emulated chip runs about ten times slower than a Pico: the
    host's patience with a silent board (fwtransport.SILENCE, 8 s) is ten
    times longer here, for the commands the tests run too. Only for these
    modules: set at import, it reached every test of a whole run (a
    deploy whose board lost its power waited 60 s, not 8, in
    tests/e2e/test_host_gone.py)."""
    with pytest.MonkeyPatch.context() as mp:
        if "APIXAGON_BOARD_SILENCE" not in os.environ:
            mp.setenv("APIXAGON_BOARD_SILENCE", "60")
        yield

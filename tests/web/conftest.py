import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
sys.path.insert(0, os.path.join(ROOT, "tools"))

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")
pytest.importorskip("uvicorn", reason="the web companion's packages (make installs them)")

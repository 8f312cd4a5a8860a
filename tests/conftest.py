import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The core suite in tests/core imports its helpers by plain name, the same
# way tests/mp_run.py loads them under MicroPython.
sys.path.insert(0, os.path.join(ROOT, "tests", "core"))
sys.path.insert(0, os.path.join(ROOT, "tests", "board"))
# Tests read data files (hardware/layout.json) relative to the repository,
# as the MicroPython run does.
os.chdir(ROOT)

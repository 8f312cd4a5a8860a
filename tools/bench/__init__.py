"""The board's benchmark: `python -m bench` (from tools/) or `make bench`.
Its parts are the modules here, each named for what it measures; see
__main__.py.

The package's modules import the project's tools (tools/, tools/rp2040),
the firmware's source and the host's package as top-level modules: their
folders go on the path here, before any module of the package runs.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for _p in ("tools", os.path.join("tools", "rp2040"), "firmware", "host"):
    _p = os.path.join(ROOT, _p)
    if _p not in sys.path:
        sys.path.insert(0, _p)

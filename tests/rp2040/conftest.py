import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "rp2040"))

# The emulated chip runs about ten times slower than a Pico: the host's
# patience with a silent board (fwtransport.SILENCE, 8 s) is ten times
# longer here, for the commands the tests run too.
os.environ.setdefault("APIXAGON_BOARD_SILENCE", "60")

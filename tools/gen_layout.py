"""Write hardware/layout.json from the rev A wiring rules.

- LEDs: one WS2812 chain, serpentine by row: A1..A5 left to right, then row B
  right to left (B6..B1), row C left to right, and so on up to row I.
- Sensors: 64 channels. Profile A: four 16-channel multiplexers switch the
  NFC reader's antenna; mux m serves channels 16m..16m+15. Profile B: the
  same channel numbers address an 8 x 8 reed/hall matrix (row = ch // 8,
  column = ch % 8). Channels follow the hexagon column by column (number 1
  to 9, bottom to top within a column), so one multiplexer serves a strip
  of neighbouring cells.
Edit the rules here, regenerate, and keep the file under review: the
firmware and the host both read it. The same run writes
firmware/boards/layout_data.py, the file's contents as a Python string: frozen
into the board's image (or deployed as .mpy), the layout is there with
nothing on the board's flash. Tests fail while either is stale.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from apixagon.geometry import NCELLS, ROW_START, cell_name  # noqa: E402

PATH = os.path.join(ROOT, "hardware", "layout.json")
MODULE = os.path.join(ROOT, "firmware", "boards", "layout_data.py")


def layout():
    led = [0] * NCELLS
    k = 0
    for i in range(9):
        row = list(range(ROW_START[i], ROW_START[i + 1]))
        for x in row if i % 2 == 0 else reversed(row):
            led[x] = k
            k += 1
    sensor = [0] * NCELLS
    order = sorted(range(NCELLS), key=lambda x: (int(cell_name(x)[1]), cell_name(x)[0]))
    for ch, x in enumerate(order):
        sensor[x] = ch
    return {
        "board": "APIXAGON rev A",
        "leds": NCELLS,
        "sensor_channels": 64,
        "cells": {cell_name(x): {"led": led[x], "sensor": sensor[x]} for x in range(NCELLS)},
    }


def layout_module(data):
    """firmware/boards/layout_data.py for the layout `data` (hardware/layout.json
    as read): the same JSON, compact, a cell a line."""
    head = {k: v for k, v in data.items() if k != "cells"}
    text = json.dumps(head, separators=(",", ":"))[:-1] + ',"cells":{'
    lines = [text]
    names = list(data["cells"])
    for i, name in enumerate(names):
        entry = json.dumps({name: data["cells"][name]}, separators=(",", ":"))[1:-1]
        lines.append(entry + ("," if i + 1 < len(names) else "}}"))
    body = "".join("    %r\n" % line for line in lines)
    return (
        "# hardware/layout.json as frozen data: the board's layout with nothing on\n"
        "# its flash (smartboard.layout.loads). Written by tools/gen_layout.py from\n"
        "# that file; a test fails while it is stale. Do not edit.\n"
        "JSON = (\n" + body + ")\n"
    )


if __name__ == "__main__":
    with open(PATH, "w") as f:
        json.dump(layout(), f, indent=1, sort_keys=False)
        f.write("\n")
    print("wrote hardware/layout.json")
    with open(PATH) as f:
        text = layout_module(json.load(f))
    with open(MODULE, "w") as f:
        f.write(text)
    print("wrote firmware/boards/layout_data.py")

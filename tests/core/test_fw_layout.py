# hardware/layout.json and its loader (firmware/smartboard/layout.py).
# Both interpreters run the suite from the repository root.
from apixagon.geometry import NB, NCELLS, NONE, parse_cell
from smartboard import layout

PATH = "hardware/layout.json"


def test_the_shipped_layout_is_a_complete_wiring():
    lay = layout.load(PATH)
    assert lay.nleds == 61 and lay.nchannels == 64
    assert sorted(lay.led) == list(range(61))
    assert len(set(lay.sensor)) == 61
    for x in range(NCELLS):
        assert lay.cell_of_channel[lay.sensor[x]] == x
    assert sum(1 for ch in range(64) if lay.cell_of_channel[ch] == NONE) == 3


def test_led_chain_is_serpentine_between_neighbours():
    # Consecutive LEDs sit on neighbouring cells: the chain never jumps.
    lay = layout.load(PATH)
    cell_of_led = bytearray(61)
    for x in range(NCELLS):
        cell_of_led[lay.led[x]] = x
    for i in range(60):
        a, b = cell_of_led[i], cell_of_led[i + 1]
        assert b in NB[a * 6 : a * 6 + 6], i
    assert lay.led[parse_cell("A1")] == 0 and lay.led[parse_cell("B6")] == 5


def good():
    lay = layout.load(PATH)
    cells = {}
    from apixagon.geometry import cell_name

    for x in range(NCELLS):
        cells[cell_name(x)] = {"led": lay.led[x], "sensor": lay.sensor[x]}
    return {"board": "t", "leds": 61, "sensor_channels": 64, "cells": cells}


def refused(data, words):
    try:
        layout.Layout(data)
    except ValueError as e:
        assert words in str(e), str(e)
        return
    assert False, "accepted a bad layout"


def test_bad_layouts_are_refused_with_the_reason():
    refused([], "no 'cells'")
    d = good()
    del d["cells"]["E5"]
    refused(d, "cell E5 is missing")
    d = good()
    d["cells"]["Z9"] = {"led": 0, "sensor": 0}
    refused(d, "no cell Z9")
    d = good()
    d["cells"]["A2"]["led"] = d["cells"]["A1"]["led"]
    refused(d, "repeated LED")
    d = good()
    d["cells"]["A2"]["sensor"] = 64
    refused(d, "bad or repeated sensor")
    d = good()
    d["cells"]["A2"]["led"] = "3"
    refused(d, "bad or repeated LED")
    d = good()
    d["sensor_channels"] = 999
    refused(d, "sensor_channels")
    layout.Layout(good())  # and the good one loads


def test_a_json_text_loads_as_the_file_does():
    # The board's layout comes as a string (boards/layout_data.py).
    with open(PATH) as f:
        lay = layout.loads(f.read())
    ref = layout.load(PATH)
    assert (lay.led, lay.sensor, lay.nleds) == (ref.led, ref.sensor, ref.nleds)
    try:
        layout.loads("{cells")
    except ValueError as e:
        assert "not JSON" in str(e)
    else:
        assert False, "accepted a text that is not JSON"

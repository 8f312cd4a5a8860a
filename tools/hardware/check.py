"""Do the firmware's pin table and the emulator's wiring agree with a
revision's netlist? (tests/hardware; `make hardware` regenerates both.)"""

import json
import os

from . import circuit, netlist

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# pins.py key -> how many leading items the netlist decides (the rest, a
# bus frequency, is the firmware's choice)
PREFIX = {"CELL_I2C": 3, "PAD_I2C": 3, "SHIFT_SPI": 4}


def load_pins(path):
    ns = {}
    with open(path) as f:
        exec(f.read(), ns)
    return {k: v for k, v in ns.items() if k.isupper()}


def load_wiring(path):
    with open(path) as f:
        return json.load(f)


def _norm(v):
    if isinstance(v, (list, tuple)):
        return tuple(_norm(x) for x in v)
    return v


def _layout():
    with open(os.path.join(ROOT, "hardware", "layout.json")) as f:
        return json.load(f)


def disagreements(text, pins, wiring, rest_ma=None):
    """What pins (pins.py as a dict) and wiring (wiring.json) say that
    the netlist text does not: a list of sentences, empty when all agree."""
    out = []
    try:
        d = netlist.derive(text)
    except netlist.WiringError as e:
        return ["the netlist's wiring is not usable: %s" % e]
    lay = _layout()
    chain = [None] * lay["leds"]
    for cell, v in lay["cells"].items():
        chain[v["led"]] = cell
    if d["_LED_CELLS"] != chain:
        out.append("the LED chain's order differs from hardware/layout.json")
    sensed = {c: v["sensor"] for c, v in lay["cells"].items()}
    if d["_SENSOR_CELLS"] != sensed:
        bad = sorted(c for c in sensed if d["_SENSOR_CELLS"].get(c) != sensed[c])
        out.append("sensor channels differ from hardware/layout.json at %s" % " ".join(bad[:8]))
    for key, want in d.items():
        if key.startswith("_"):
            continue
        want = _norm(want)
        for who, table in (("pins.py", pins), ("the emulator's wiring.json", wiring)):
            got = table.get(key)
            if got is None:
                out.append("%s has no %s (netlist: %r)" % (who, key, want))
                continue
            got = _norm(got)
            if key in PREFIX and who == "pins.py":
                got = got[: PREFIX[key]]
            if got != want:
                out.append("%s says %s = %r, the netlist %r" % (who, key, got, want))
    out += bus_clocks(d, pins)
    for key in ("PROFILE", "LANE", "POWER_REST_MA", "RF_FIELDS", "RF_FIELD_MA"):
        if key in wiring and pins.get(key) != wiring[key]:
            out.append("pins.py %s = %r, wiring.json %r" % (key, pins.get(key), wiring[key]))
    if rest_ma is not None and pins.get("POWER_REST_MA") != rest_ma:
        have = pins.get("POWER_REST_MA")
        out.append("POWER_REST_MA = %r, the netlist's parts draw %r" % (have, rest_ma))
    return out


def bus_clocks(d, pins):
    """Each bus's clock in pins.py against the circuit's choice
    (circuit.BUS_HZ) and against the slowest part the bus reaches (its
    datasheet's line, parts.py bus_hz): sentences, empty when all hold."""
    out = []
    for key, names in sorted(d["_BUS_PARTS"].items()):
        bus = pins.get(key)
        if bus is None or len(bus) <= PREFIX[key]:
            out.append("pins.py gives %s no clock" % key)
            continue
        hz = bus[PREFIX[key]]
        if hz != circuit.BUS_HZ[key]:
            out.append(
                "pins.py runs %s at %d Hz, circuit.BUS_HZ %d" % (key, hz, circuit.BUS_HZ[key])
            )
        for name in sorted(set(names)):
            top = netlist.SPECS[name].bus_hz
            if top and hz > top[0]:
                out.append(
                    "pins.py runs %s at %d Hz, over the %d Hz the %s takes (%s)"
                    % (key, hz, top[0], name, top[1])
                )
    return out


def committed(rev):
    """The revision's committed netlist, pins.py and wiring.json."""
    with open(os.path.join(ROOT, "hardware", rev, rev + ".net")) as f:
        text = f.read()
    pins = load_pins(os.path.join(ROOT, "firmware", "boards", rev, "pins.py"))
    wiring = load_wiring(os.path.join(ROOT, "hardware", rev, "wiring.json"))
    return text, pins, wiring

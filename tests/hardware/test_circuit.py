# Each revision's circuit (tools/hardware/circuit.py, SKiDL): its ERC is
# clean, every generated file is what the circuit makes now, and one pin
# changed in a copy of the circuit makes the pin checks fail until pins.py
# and the emulator's wiring are generated again.
import importlib
import os
import re
import shutil
import sys

import pytest

from hardware import check, circuit, gen, netlist, power

REVS = ("rev_a", "rev_b")


@pytest.fixture(scope="module")
def made():
    return {rev: gen.outputs(rev) for rev in REVS}


@pytest.mark.parametrize("rev", REVS)
def test_erc_is_clean(made, rev):
    files, msgs, _ = made[rev]
    assert msgs == []
    erc = files[os.path.join("hardware", rev, "erc.txt")]
    assert "errors: 0, warnings: 0" in erc
    # every waiver is a pin left open on purpose, with its reason
    for line in erc.split("Waivers:")[1].splitlines()[1:]:
        assert re.match(r"- [^:]+: \S", line), line


@pytest.mark.parametrize("rev", REVS)
def test_generated_files_are_up_to_date(made, rev):
    files, _, _ = made[rev]
    stale = []
    for path, text in files.items():
        with open(os.path.join(check.ROOT, path)) as f:
            if f.read() != text:
                stale.append(path)
    assert stale == [], "run `make hardware`: stale %s" % stale


def test_the_readme_tables_and_the_block_diagram_are_up_to_date(made):
    # hardware/README.md's pin, BOM, draw and LED-mode tables and
    # hardware/blocks.svg are what `make hardware` writes from the circuit
    # and the simulated board's frames now
    infos = [(rev, made[rev][2]) for rev in REVS]
    path = os.path.join(check.ROOT, "hardware", "README.md")
    with open(path) as f:
        text = f.read()
    assert gen.readme_text(infos, text) == text, "run `make hardware`: hardware/README.md is stale"
    with open(os.path.join(check.ROOT, "hardware", "blocks.svg")) as f:
        assert f.read() == gen.blocks_svg(), "run `make hardware`: hardware/blocks.svg is stale"


@pytest.mark.parametrize("rev", REVS)
def test_every_part_bought_has_a_part_number(made, rev):
    _, _, info = made[rev]
    for refs, value, fp, maker, mpn, n, price in gen.bom_rows(info["netlist"]):
        assert maker not in ("", "-") and mpn not in ("", "-"), (refs, value)
        assert n > 0 and price.src


@pytest.mark.parametrize("rev", REVS)
def test_power_rest_is_the_parts(made, rev):
    _, _, info = made[rev]
    assert info["wiring"]["POWER_REST_MA"] == info["rest_ma"] > 0
    assert info["rest_ma"] == pytest.approx(power.rest_ma(info["netlist"]), abs=1)


def _mutant(tmp_path, rev, signal, gpio):
    """A copy of the circuit with one signal moved to another GPIO (the
    signal there, if any, moved to the one it left: rev A has no GPIO
    free)."""
    here = os.path.join(check.ROOT, "tools", "hardware")
    pkg = tmp_path / "hw_mutant"
    shutil.copytree(here, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    src = (pkg / "circuit.py").read_text()
    # the copy reads the repository's hardware/layout.json, as the original
    src = re.sub(r"(?m)^ROOT = .*$", "ROOT = %r" % check.ROOT, src)
    table = circuit.GPIO[rev]
    moves = {signal: gpio}
    moves.update({s: table[signal] for s, g in table.items() if g == gpio and s != signal})
    block = src.index('"%s": {' % rev)
    for sig, g in moves.items():
        at = src.index('"%s": ' % sig, block)
        end = src.index(",", at)
        src = src[:at] + '"%s": %d' % (sig, g) + src[end:]
    (pkg / "circuit.py").write_text(src)
    sys.path.insert(0, str(tmp_path))
    try:
        for m in [m for m in sys.modules if m.startswith("hw_mutant")]:
            del sys.modules[m]
        mod = importlib.import_module("hw_mutant.circuit")
        b = mod.REVISIONS[rev]()
        assert b.erc() == []
        return b.netlist()
    finally:
        sys.path.remove(str(tmp_path))


@pytest.mark.parametrize(
    "rev,signal,gpio,key",
    [
        ("rev_a", "LED_DATA", 25, "LED_PIN"),
        ("rev_a", "MUX2_S1", 23, "MUX_SELECT"),
        ("rev_b", "SHIFT_MISO", 20, "SHIFT_SPI"),
        ("rev_b", "BTN_DECLARE", 13, "BUTTONS"),
    ],
)
def test_a_pin_moved_in_the_circuit_fails_until_regenerated(tmp_path, rev, signal, gpio, key):
    text = _mutant(tmp_path, rev, signal, gpio)
    _, pins, wiring = check.committed(rev)
    got = check.disagreements(text, pins, wiring)
    assert any(g.startswith("pins.py says %s" % key) for g in got), got
    assert any(g.startswith("the emulator's wiring.json says %s" % key) for g in got), got
    # regenerate both from the changed netlist: they agree again
    w = gen.wiring(rev, netlist.derive(text), pins["POWER_REST_MA"])
    ns = {}
    exec(gen.pins_py(rev, w), ns)
    new_pins = {k: v for k, v in ns.items() if k.isupper()}
    assert check.disagreements(text, new_pins, w) == []


def test_a_pin_the_rp2040_cannot_use_there_is_refused(tmp_path):
    # I2C SDA on an odd GPIO: no I2C block has it (RP2040 datasheet 1.4.3)
    text = _mutant(tmp_path, "rev_a", "CELL_SDA", 25)
    _, pins, wiring = check.committed("rev_a")
    got = check.disagreements(text, pins, wiring)
    assert got and "cannot be I2C SDA" in got[0]


def test_skidl_writes_nothing_where_the_circuit_is_made(tmp_path):
    # SKiDL makes and removes its logs in the current folder: two of make
    # test's workers making circuits in one folder removed each other's
    # (FileNotFoundError: skidl_REPL.log). Nothing of it is opened there.
    code = (
        "import builtins, os, sys\n"
        "sys.path.insert(0, %r)\n"
        "here = os.getcwd()\n"
        "seen = []\n"
        "real = builtins.open\n"
        "def spy(f, *a, **k):\n"
        "    if isinstance(f, str) and os.path.abspath(f).startswith(here):\n"
        "        seen.append(f)\n"
        "    return real(f, *a, **k)\n"
        "builtins.open = spy\n"
        "from hardware import circuit\n"
        "b = circuit.REVISIONS['rev_b']()\n"
        "assert b.erc() == []\n"
        "b.netlist()\n"
        "print(seen)\n"
    ) % os.path.join(check.ROOT, "tools")
    import subprocess

    r = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout[-500:]
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("rev", REVS)
def test_the_strips_connectors_carry_its_current(made, rev):
    # the strip's +5 V and ground each pass one contact of the board's
    # connector and of the strip's: rated above the most the firmware lets
    # the strip draw (the largest supply's budget) - a JST PH's 2 A was not
    from hardware import netlist as N

    _, _, info = made[rev]
    nl = N.Netlist(info["netlist"])
    most = power.led_budget(power.SUPPLIES[-1][1], info["rest_ma"]) / 1000.0
    conns = [r for r in nl.refs("Conn_01x04") if nl.comps[r]["fields"].get("Side")]
    # rev B's LEDs are on its PCB: no connector, its copper is sized in
    # tests/hardware/test_pcb.py
    assert len(conns) == (2 if rev == "rev_a" else 0)
    for ref in conns:
        spec = N.SPECS[nl.comps[ref]["part"]]
        assert spec.amps and spec.amps[0] >= 1.25 * most, (ref, spec.amps, most)


def test_what_make_firmware_and_make_hardware_run_writes_nothing_where_it_runs(tmp_path):
    # make firmware asks the hardware tools for each image's USB descriptor
    # current (build_firmware.usb_max_power_ma: the netlist read back);
    # make hardware builds each circuit (SKiDL: its ERC and netlist) and
    # paints the LED modes' frames on the simulated board for the README's
    # power table (modes.frames). Run as `python -c` (no __main__ file:
    # SKiDL names its logs skidl_REPL.log and .erc, opened where it is
    # first imported) in an empty folder, they leave it empty: the rigs'
    # settings files went to build/tmp under it before.
    code = (
        "import sys\n"
        "sys.path[:0] = [%r, %r]\n"
        "import build_firmware\n"
        "from hardware import check, gen, modes\n"
        "for rev in ('rev_a', 'rev_b'):\n"
        "    assert 0 < build_firmware.usb_max_power_ma(rev) <= 500\n"
        "    files, msgs, info = gen.outputs(rev)\n"
        "    assert msgs == []\n"
        "_, pins, _ = check.committed('rev_a')\n"
        "assert modes.frames('A', pins, '500mA', ('3v2_full.apx',))\n"
    ) % (os.path.join(check.ROOT, "tools"), os.path.join(check.ROOT, "firmware"))
    import subprocess

    r = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert os.listdir(tmp_path) == []

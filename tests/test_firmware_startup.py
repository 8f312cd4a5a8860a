"""The board's start-up code, pin tables and freeze manifests: they need the
RP2040 to run, so here the code is compiled by mpy-cross (as deployed and
as frozen), the tables are checked as data (every pin a revision uses is
named once) and each revision's manifest is read for what it freezes.
Building the images themselves is `make firmware` (tools/build_firmware.py)."""

import ast
import os
import subprocess
import sys

import pytest
from apixagon_host import fwbuild

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_firmware  # noqa: E402
import build_mpy  # noqa: E402

REVISIONS = sorted(d for d in os.listdir(os.path.join(FIRMWARE, "boards")) if d.startswith("rev_"))


def test_the_build_makes_an_image_for_each_revision():
    assert REVISIONS and build_firmware.revisions() == REVISIONS


def test_start_up_code_compiles(tmp_path):
    start_up = ["main.py", "bootsel.py", "boards/start.py", "boards/build.py", "boards/parts.py"]
    start_up += ["boards/layout_data.py"]
    for r in REVISIONS:
        start_up += ["boards/%s/main.py" % r, "boards/%s/pins.py" % r]
    for rel in start_up:
        subprocess.run(
            [build_mpy.mpy_cross(), "-o", str(tmp_path / "x.mpy"), os.path.join(FIRMWARE, rel)],
            check=True,
        )


def _top_level_imports(tree):
    for node in tree.body:
        if isinstance(node, ast.Import):
            yield node, [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            yield node, [node.module]
        elif isinstance(node, ast.Try):
            for sub in node.body + [s for h in node.handlers for s in h.body]:
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    yield sub, ["?"]  # nothing imported conditionally


@pytest.mark.parametrize("rev", REVISIONS)
def test_revision_main_imports_the_frozen_selector_and_nothing_else(rev):
    path = os.path.join(FIRMWARE, "boards", rev, "main.py")
    with open(path) as f:
        tree = ast.parse(f.read())
    imports = list(_top_level_imports(tree))
    # sys, then the selector, which decides where every module of ours
    # comes from before any is imported: no module of the firmware here.
    assert [names for _, names in imports] == [["sys"], ["bootsel"]]
    selector = imports[-1][0]
    # The selector is taken from the frozen modules, whatever the flash holds.
    first = [n for n in tree.body if isinstance(n, ast.Expr)]
    assert ast.unparse(first[0]) == "sys.path.insert(0, '.frozen')"
    assert first[0].lineno < selector.lineno < first[1].lineno
    assert ast.unparse(first[1]) == "sys.path.pop(0)"
    assert ast.unparse(first[2]) == "bootsel.boot('%s')" % rev


def test_flash_main_names_a_revision_deploy_can_rewrite():
    with open(os.path.join(FIRMWARE, "main.py")) as f:
        text = f.read()
    assert fwbuild.BOARD_LINE.search(text).group(1) in REVISIONS
    assert "bootsel.boot(BOARD)" in text
    assert "start.run(BOARD)" in text  # with no selector on the flash


def test_deploy_leaves_the_image_mains_out(tmp_path):
    b = fwbuild.build(FIRMWARE, str(tmp_path))
    assert "boards/start.mpy" in b.files and "boards/layout_data.mpy" in b.files
    assert not [p for p in b.files if p.startswith("boards/rev_") and p.endswith("main.mpy")]
    assert b.revisions() == REVISIONS
    assert b.revision() == "rev_a"
    # A stock board's boot files, outside the slot: main.py and the selector.
    assert sorted(b.boot) == ["lib/bootsel.mpy", "main.py"]
    assert "bootsel.mpy" not in b.files and "main.py" not in b.files


# ---- what a manifest freezes -------------------------------------------------------
class Options:
    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._defaults = {}

    def defaults(self, **kwargs):
        self._defaults = kwargs

    def __getattr__(self, name):
        return self._kwargs.get(name, self._defaults.get(name))


class Frozen:
    """Just enough of MicroPython's tools/manifestfile.py (include, package,
    module, options; paths relative to the manifest being run) to list what
    a manifest freezes: {path in the image: source file}. The port's own
    modules ($(PORT_DIR)/..., freeze()) are left out; the micropython-lib
    packages required are listed apart (required)."""

    def __init__(self, manifest, **options):
        self.files = {}
        self.required = []
        self.include(manifest, **options)

    def freeze(self, path, script=None):
        assert path.startswith("$("), path  # the port's own, only

    def require(self, name):
        self.required.append(name)

    def include(self, path, **options):
        if path.startswith("$("):
            return
        path = os.path.abspath(path)
        cwd = os.getcwd()
        os.chdir(os.path.dirname(path))
        try:
            with open(path) as f:
                code = f.read()
            env = {"include": self.include, "package": self.package, "module": self.module}
            env.update(freeze=self.freeze, require=self.require)
            env["options"] = Options(**options)
            exec(compile(code, path, "exec"), env)
        finally:
            os.chdir(cwd)

    def package(self, package_path, files=None, base_path="."):
        base = os.path.abspath(base_path)
        if files is None:
            files = []
            for dirpath, _, names in os.walk(os.path.join(base, package_path)):
                rel = os.path.relpath(dirpath, os.path.join(base, package_path))
                files += [
                    os.path.normpath(os.path.join(rel, n)) for n in names if n.endswith(".py")
                ]
        for f in files:
            target = os.path.join(package_path, f)
            self.files[target] = os.path.join(base, target)

    def module(self, module_path, base_path="."):
        self.files[module_path] = os.path.join(os.path.abspath(base_path), module_path)


def _firmware_py(pkg):
    out = set()
    for dirpath, dirnames, names in os.walk(os.path.join(FIRMWARE, pkg)):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        rel = os.path.relpath(dirpath, FIRMWARE)
        out |= {os.path.normpath(os.path.join(rel, n)) for n in names if n.endswith(".py")}
    return out


@pytest.mark.parametrize("rev", REVISIONS)
def test_revision_manifest_freezes_its_main_and_pins(rev, tmp_path):
    text = build_firmware.manifest_text(rev)
    assert repr(rev) in text and repr(build_firmware.MANIFEST) in text
    path = tmp_path / ("manifest-%s.py" % rev)
    path.write_text(text)
    frozen = Frozen(str(path))
    files = frozen.files
    # of micropython-lib, only what the firmware imports (no asyncio, dht, ...)
    assert frozen.required == ["neopixel"]
    assert files["main.py"] == os.path.join(FIRMWARE, "boards", rev, "main.py")
    assert files["boards/%s/pins.py" % rev] == os.path.join(FIRMWARE, "boards", rev, "pins.py")
    others = [r for r in REVISIONS if r != rev]
    # The firmware whole, but the simulator, the other revisions' tables,
    # the flash's main.py and the revision mains as modules.
    want = _firmware_py("apixagon") | _firmware_py("smartboard") | _firmware_py("boards")
    want = {
        f
        for f in want
        if not f.startswith("smartboard/sim/")
        and f.split("/")[1] not in others
        and not (f.startswith("boards/rev_") and f.endswith("/main.py"))
    }
    assert set(files) - {"main.py", "bootsel.py", "boot.py"} == want
    assert files["bootsel.py"] == os.path.join(FIRMWARE, "bootsel.py")
    assert files["boot.py"] == os.path.join(FIRMWARE, "boot.py")  # the watch of a host
    start_up = {"boards/start.py", "boards/build.py", "boards/parts.py", "boards/layout_data.py"}
    assert start_up <= want
    assert "smartboard/layout.py" in want


@pytest.mark.parametrize("rev", REVISIONS)
def test_an_image_freezes_which_image_it_is(rev, tmp_path):
    (tmp_path / "fwimage.py").write_text(build_firmware.image_module(rev))
    path = tmp_path / ("manifest-%s.py" % rev)
    path.write_text(build_firmware.manifest_text(rev, image_dir=str(tmp_path)))
    files = Frozen(str(path)).files
    assert files["fwimage.py"] == str(tmp_path / "fwimage.py")
    ns = {}
    exec((tmp_path / "fwimage.py").read_text(), ns)
    assert ns["REV"] == rev and ns["FW"] == fwbuild.firmware_version(FIRMWARE)
    assert len(ns["ID"]) == 16 and ns["ID"] == build_firmware.image_id(rev)
    assert ns["ID"] != build_firmware.image_id(rev, sim=True)
    others = [r for r in REVISIONS if r != rev]
    assert all(build_firmware.image_id(r) != ns["ID"] for r in others)


def test_manifest_without_a_revision_freezes_every_table_and_no_main():
    files = Frozen(os.path.join(FIRMWARE, "manifest.py")).files
    assert "main.py" not in files and "bootsel.py" in files
    assert {"boards/%s/pins.py" % r for r in REVISIONS} <= set(files)
    assert not [f for f in files if f.startswith("smartboard/sim/") or f.endswith("/main.py")]


def test_manifest_refuses_an_unknown_revision():
    with pytest.raises(ValueError, match="no board revision rev_z"):
        Frozen(os.path.join(FIRMWARE, "manifest.py"), board="rev_z")


# ---- the pin tables --------------------------------------------------------------------
def _pins(rev):
    ns = {}
    with open(os.path.join(FIRMWARE, "boards", rev, "pins.py")) as f:
        exec(f.read(), ns)
    return ns


@pytest.mark.parametrize("rev", REVISIONS)
def test_pin_table_is_complete_and_has_no_pin_twice(rev):
    p = _pins(rev)
    assert p["PROFILE"] in ("A", "B")
    used = [p["LED_PIN"], p["STRIP_SENSE"], *p["BUTTONS"], *p["PAD_I2C"][1:3]]
    if p["PROFILE"] == "A":
        used += [*p["CELL_I2C"][1:3]]
        for sel in p["MUX_SELECT"]:
            used += [*sel]
        assert p["LANE"] == 16 and 16 * len(p["MUX_SELECT"]) >= 61
        assert p["CELL_I2C"][0] != p["PAD_I2C"][0]  # the two I2C blocks
    else:
        used += [p["SHIFT_SPI"][1], p["SHIFT_SPI"][3], p["SHIFT_LATCH"]]
        assert 8 * p["SHIFT_BYTES"] >= 61
    assert len(used) == len(set(used)), "a GPIO used twice in %s" % rev
    assert all(0 <= g <= 28 for g in used)  # the Pico's GPIOs
    assert p["LED_DRIVER"] in ("pio", "bitstream")
    # The layout is a module of boards/ (frozen data), not a file on flash.
    assert os.path.isfile(os.path.join(FIRMWARE, "boards", p["LAYOUT"] + ".py"))

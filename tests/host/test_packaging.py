"""The firmware package's install metadata stays in step with its files."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import gen_package_json  # noqa: E402


def test_mip_package_json_is_current():
    with open(os.path.join(ROOT, "firmware", "package.json")) as f:
        assert f.read() == gen_package_json.package_json(), (
            "firmware/package.json is stale: run python tools/gen_package_json.py"
        )


def test_host_uses_the_firmware_files_not_a_copy():
    import apixagon

    here = os.path.realpath(os.path.dirname(apixagon.__file__))
    assert here == os.path.realpath(os.path.join(ROOT, "firmware", "apixagon"))
    copies = [
        os.path.join(dp, n)
        for dp, _, files in os.walk(os.path.join(ROOT, "host"))
        for n in files
        if n in ("game.py", "geometry.py", "deck.py")
    ]
    assert copies == []


def test_firmware_has_no_cpython_only_imports():
    banned = ("dataclasses", "typing", "enum", "abc", "functools", "itertools")
    paths = [
        os.path.join(dp, n)
        for dp, _, files in os.walk(os.path.join(ROOT, "firmware"))
        for n in files
        if n.endswith(".py")
    ]
    assert len(paths) > 8
    for name in paths:
        with open(name) as f:
            for line in f:
                words = line.split()
                if len(words) >= 2 and words[0] in ("import", "from"):
                    assert words[1].split(".")[0] not in banned, (name, line)


def test_layout_json_matches_the_wiring_rules():
    import json

    import gen_layout

    with open(os.path.join(ROOT, "hardware", "layout.json")) as f:
        assert json.load(f) == gen_layout.layout(), (
            "hardware/layout.json is stale: run python tools/gen_layout.py"
        )


def test_layout_module_is_the_layout_json():
    import json

    import gen_layout

    with open(os.path.join(ROOT, "hardware", "layout.json")) as f:
        want = gen_layout.layout_module(json.load(f))
    with open(gen_layout.MODULE) as f:
        assert f.read() == want, (
            "firmware/boards/layout_data.py is stale: run python tools/gen_layout.py"
        )

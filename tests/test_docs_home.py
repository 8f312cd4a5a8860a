"""The manual's home lists every page of the players' guide (mkdocs.yml's
nav), in English and in Italian: a page the nav has and the home leaves
out is found by the menu only (Play online was)."""

import os

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML (mkdocs's, make installs it)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def players_pages():
    class Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml's !!python/name tags are not ours to load
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    with open(os.path.join(ROOT, "mkdocs.yml")) as f:
        nav = yaml.load(f, Loader=Loader)["nav"]
    for section in nav:
        if isinstance(section, dict) and "Players' guide" in section:
            return [path for entry in section["Players' guide"] for path in entry.values()]
    raise AssertionError("mkdocs.yml's nav has no Players' guide")


@pytest.mark.parametrize("home", ["index.md", "index.it.md"])
def test_the_home_lists_every_players_page(home):
    with open(os.path.join(ROOT, "docs", home)) as f:
        text = f.read()
    missing = [p for p in players_pages() if "](%s)" % p not in text]
    assert not missing, "docs/%s does not list %s" % (home, missing)

"""The manual teaches the rules itself: How to play is the Players'
guide's first page, and the pages for players link to it instead of a
RULES.md that a fresh clone does not have. Come si gioca is its Italian,
built beside it (mkdocs-static-i18n's suffix structure)."""

import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def test_how_to_play_opens_the_players_guide():
    nav = read("mkdocs.yml")
    assert re.search(r"- Players' guide:\n\s+- How to play: guide/how-to-play\.md\n", nav)


def test_the_italian_page_is_built_as_the_italian_of_how_to_play():
    config = read("mkdocs.yml")
    assert os.path.exists(os.path.join(ROOT, "docs", "guide", "how-to-play.it.md"))
    assert "docs_structure: suffix" in config and "How to play: Come si gioca" in config
    assert "how-to-play.it.md" not in config  # not excluded, as it was before the plugin


def test_players_are_sent_to_how_to_play_not_outside_the_clone():
    pages = glob.glob(os.path.join(ROOT, "docs", "guide", "*.md"))
    for path in pages + [os.path.join(ROOT, "docs", "index.md")]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        assert "(the rules: `../shared/RULES.md`)" not in text, path
    assert "how-to-play.md" in read("docs", "guide", "first-game.md")
    assert "guide/how-to-play.md" in read("docs", "index.md")
    readme = read("README.md")
    assert "](docs/guide/how-to-play.md)" in readme
    assert "](docs/guide/how-to-play.it.md)" in readme

"""The pictures of the manual's How to play page (docs/guide/rules/): each
is its .apx record, legal move for move by the rules core, drawn by the
project's own renderer; the committed SVG is what tools/rules_pictures.py
writes from it today, and each picture is used by both pages (English and
Italian). The pictures carry no word but the cells' names: the captions
are the pages'."""

import xml.etree.ElementTree as ET

from apixagon.game import Game
from apixagon.geometry import NCELLS, cell_name
from apixagon_host import render as R

SVG_NS = "{http://www.w3.org/2000/svg}"
# the cells' names and the frame's row letters and numbers
NAMES = {cell_name(x) for x in range(NCELLS)} | set("ABCDEFGHI") | set("123456789")


def texts(svg):
    return [e.text for e in ET.fromstring(svg).iter(SVG_NS + "text")]


def test_without_words_the_board_carries_cell_names_only():
    game = Game(0)
    assert "locked" in texts(R.render_svg(game, chrome=False))
    bare = texts(R.render_svg(game, chrome=False, words=False))
    assert bare and set(bare) <= NAMES, set(bare) - NAMES

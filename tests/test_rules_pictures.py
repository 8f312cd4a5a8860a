"""The pictures of the manual's How to play page (docs/guide/rules/): each
is its .apx record, legal move for move by the rules core, drawn by the
project's own renderer; the committed SVG is what tools/rules_pictures.py
writes from it today, and each picture is used by both pages (English and
Italian). The pictures carry no word but the cells' names: the captions
are the pages'."""

import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET

import pytest
from apixagon import record
from apixagon.codes import JUNIOR
from apixagon.deck import RAIN, symbols
from apixagon.game import Game
from apixagon.geometry import NCELLS, ROYAL, cell_name, parse_cell
from apixagon_host import render as R

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SVG_NS = "{http://www.w3.org/2000/svg}"
# the cells' names, the frame's row letters and the cards' numbers: no word
NAMES = {cell_name(x) for x in range(NCELLS)} | set("ABCDEFGHI") | {str(n) for n in range(31)}


def texts(svg):
    return [e.text for e in ET.fromstring(svg).iter(SVG_NS + "text")]


def test_without_words_the_board_carries_cell_names_only():
    game = Game(0)
    assert "locked" in texts(R.render_svg(game, chrome=False))
    bare = texts(R.render_svg(game, chrome=False, words=False))
    assert bare and set(bare) <= NAMES, set(bare) - NAMES


# ---- the How to play pictures ------------------------------------------------

sys.path.insert(0, os.path.join(ROOT, "tools"))
import rules_pictures as RP  # noqa: E402

PAGES = {
    "en": os.path.join(ROOT, "docs", "guide", "how-to-play.md"),
    "it": os.path.join(ROOT, "docs", "guide", "how-to-play.it.md"),
}
NAMES_OF = [os.path.splitext(os.path.basename(p))[0] for p in RP.records()]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("name", NAMES_OF)
def test_each_picture_is_its_legal_record_drawn_today(name):
    record_path = os.path.join(RP.FOLDER, name + ".apx")
    want = RP.picture(record_path)  # IllegalRecord if a move is refused
    assert read(RP.svg_path(record_path)) == want, (
        "docs/guide/rules/%s.svg differs from its record: python tools/rules_pictures.py" % name
    )
    bare = texts(want)
    assert set(bare) <= NAMES, set(bare) - NAMES


def test_every_picture_has_a_record_and_both_pages_show_it():
    svgs = sorted(n[:-4] for n in os.listdir(RP.FOLDER) if n.endswith(".svg"))
    assert svgs == NAMES_OF
    for lang, page in PAGES.items():
        text = read(page)
        for name in NAMES_OF:
            assert re.search(r"!\[[^\]]+\]\(rules/%s\.svg\)" % name, text), (lang, name)
        # each picture with its caption, in the page's language
        assert text.count("<figcaption>") == len(NAMES_OF), lang


def position(name):
    return RP.position(os.path.join(RP.FOLDER, name + ".apx"))


def test_the_pictures_show_what_their_captions_say():
    board = position("board")
    assert not any(board.board) and not board.over()
    block = position("block")  # Gold's Queen Bee card beside Black's run of 2
    assert block.owner(parse_cell("C5")) == 1 and block.card_at(parse_cell("C5")) == 10
    assert 0 in symbols(10)
    seqs = position("sequences")
    assert seqs.count_runs(0) == (2, 1) and seqs.count_runs(1) == (1, 1)
    royal = position("royal")
    assert royal.board[ROYAL] and royal.specials_unlocked() and royal.side_to_play() == 1
    assert position("rain").card_at(parse_cell("B1")) == RAIN
    bee = position("beekeeper")
    assert not bee.board[parse_cell("B5")] and bee.card_at(parse_cell("H5")) == 20
    assert not position("smoker").board[parse_cell("B4")]
    junior = position("junior")
    assert junior.mode == JUNIOR and junior.card_at(ROYAL) == 7
    done = position("finished")
    assert record.result(done)[:3] == ("win", "black", "two-sequences-of-4")


def test_an_illegal_record_is_refused_by_its_line(tmp_path, capsys):
    (tmp_path / "bad.apx").write_text("mode queens-gambit\nstart black\nB 0 C3\nG 4 C4\n")
    assert RP.main([], str(tmp_path)) == 1
    assert "bad.apx line 4: illegal adjacent-opponent" in capsys.readouterr().err
    assert os.listdir(tmp_path) == ["bad.apx"]  # no picture of it


def test_check_says_which_picture_is_stale_and_a_run_writes_it(tmp_path, capsys):
    shutil.copy(os.path.join(RP.FOLDER, "royal.apx"), tmp_path)
    assert RP.main(["--check"], str(tmp_path)) == 1
    assert "royal.svg is not up to date" in capsys.readouterr().err
    assert RP.main([], str(tmp_path)) == 0
    assert RP.main(["--check"], str(tmp_path)) == 0
    assert read(str(tmp_path / "royal.svg")) == read(os.path.join(RP.FOLDER, "royal.svg"))
    assert RP.main(["--bogus"], str(tmp_path)) == 2

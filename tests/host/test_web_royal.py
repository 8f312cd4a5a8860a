"""The live board's Royal Cell says the state its LED shows (RULES.md §3.1):
the board knows whether a side may take it (a sequence of 3 at the end of
an earlier turn, D-5); the position the page senses from the cells has no
history, and drew it 'locked' with a padlock on a cell lit 'royal open'."""

import re

import pytest
from apixagon.geometry import NCELLS, ROYAL, parse_cell
from apixagon_host import render
from apixagon_host.web import live
from smartboard import tag, view

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")

PLAY = {"phase": "play", "mode": "queens-gambit"}


def _royal(svg):
    m = re.search(r'<g class="royal" data-state="(\w+)">(.*?)</g>', svg)
    assert m, "no empty Royal Cell drawn"
    return m.group(1), m.group(2)


def _layer(v):
    layer = bytearray(NCELLS)
    layer[ROYAL] = v
    return bytes(layer)


def test_an_open_royal_cell_lit_open_is_drawn_open():
    state, drawn = _royal(live.board_svg(None, _layer(view.ROYAL_OPEN | view.SLOW), PLAY))
    assert state == "open"
    assert "padlock" not in drawn and ">open</text>" in drawn


def test_a_locked_one_is_drawn_locked_with_its_padlock():
    state, drawn = _royal(live.board_svg(None, _layer(view.ROYAL_LOCKED), PLAY))
    assert state == "locked"
    assert "padlock" in drawn and ">locked</text>" in drawn


@pytest.mark.parametrize("v", [view.OFF, view.LEGAL, view.SIDE0])
def test_an_led_that_does_not_say_it_leaves_the_crown_alone(v):
    # the adult display, or the set-up's who-starts colour: no word, no padlock
    state, drawn = _royal(live.board_svg(None, _layer(v), PLAY))
    assert state == "unknown"
    assert "padlock" not in drawn and "</text>" not in drawn and "crown" in drawn


def test_the_royal_card_is_drawn_as_a_card_whatever_the_led():
    cells = bytearray(NCELLS)
    cells[ROYAL] = 1 + tag.code(0, tag.NORMAL, 12)
    svg = live.board_svg(bytes(cells), _layer(view.ROYAL_OPEN), PLAY)
    assert 'class="royal"' not in svg
    assert 'data-cell="%s"' % "E5" in svg and parse_cell("E5") == ROYAL


def test_a_replay_still_reads_the_state_from_the_match():
    from apixagon.game import Game

    assert _royal(render.render_svg(Game(0, 0)))[0] == "locked"

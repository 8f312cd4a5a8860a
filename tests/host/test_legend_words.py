"""Every name of the LED legend (smartboard.sim.legend, the one table) is
marked for translation in apixagon_host.legend_words: a row added to the
table without it would show in English on an Italian page."""

from apixagon_host import legend_words
from smartboard.sim.legend import LEGEND


def test_every_legend_name_is_marked_for_translation():
    missing = [name for _v, name in LEGEND if name not in legend_words.NAMES]
    assert not missing, "mark them in host/apixagon_host/legend_words.py: %s" % missing

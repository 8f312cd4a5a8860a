"""The live page's set-up selects from the board's CONF (the computer's
seats as a mask, its level, the hints and their limit), and from STATUS's
computer= where a board's CONF has none."""

import pytest

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")

from apixagon_host.web import live  # noqa: E402


@pytest.mark.parametrize(
    "mask, sides, names",
    [
        (0, "BG", "none"),
        (1, "BG", "B"),
        (8, "BG", "G"),
        (9, "BG", "B+G"),
        (2 | 8, "BG", "G"),  # a team seat left in the settings
        (2 | 8, "AB", "A2+B1"),
        (1 | 2 | 4 | 8 | 16 | 32, "AB", "A1+A2+A3+B1+B2+B3"),
        (8, "JJ", "none"),  # Junior: no computer (§6)
    ],
)
def test_seat_names(mask, sides, names):
    assert live.seat_names(mask, sides) == names


def test_setup_more_from_conf_then_status():
    conf = {"computer": "8", "level": "2", "assist": "1", "hintlimit": "3", "mode": "0"}
    st = {"sides": "BG", "phase": "play", "computer": "B:4"}
    assert live.setup_more(conf, st) == {
        "computer": "G",
        "level": "2",
        "assist": "1",
        "hintlimit": "3",
    }
    # an older board: no CONF fields, the match's computer from STATUS
    assert live.setup_more({}, st) == {
        "computer": "B",
        "level": "4",
        "assist": "",
        "hintlimit": "",
    }
    assert live.setup_more(None, {}) == dict.fromkeys(live.SETUP_MORE, "")

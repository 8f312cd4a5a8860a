"""A short 2-player game on the emulated RP2040, played by hands on the
modelled cells of each revision: the frozen image boots its main.py,
answers the host over USB CDC, infers each move from the readers (rev A)
or the reeds and the pad (rev B), and lights the strip as smartboard.view
says — checked frame for frame against the same hands on the CPython
simulator, in adult mode, hint mode and one card query."""

import emukit
import pytest
from apixagon_host import link as L
from emuboard import BUTTONS
from emukit import Twin, card

# (hands, what STATUS must say after them); "play" puts a card (rev B taps
# it on the pad first: the reeds only sense that a cell is taken).
SCENARIO = (
    (("press", "confirm"), "phase=play"),  # hint mode: the family default
    (("play", "E4", "B12"), "moves=1"),
    (("play", "E6", "G3"), "moves=2"),
    (("press", "mode"), "display=card_query"),
    (("tap", "B5"), None),
    (("play", "D4", "B5"), "moves=3"),
    (("press", "mode"), "display=adult"),
    (("play", "F6", "G7"), "moves=4"),
    (("lift", "F6"), "moves=3"),  # a take-back
    (("press", "mode"), "display=hint"),
    (("play", "F6", "G7"), "last=G_7_F6"),
)


def act(board, twin, step, profile):
    rig = twin.rig
    kind = step[0]
    if kind == "press":
        board.press(step[1])
        rig.press(BUTTONS.index(step[1]))
    elif kind == "tap":
        c = card(step[1])
        board.tap(c)
        rig.tap(c)
    elif kind == "play":
        c = card(step[2])
        if profile == "B":
            board.tap(c)
            rig.tap(c)
        board.put(step[1], c)
        rig.put(step[1], c)
    elif kind == "lift":
        board.lift(step[1])
        rig.lift(step[1])
    rig.settle(900)


@pytest.mark.parametrize("rev", emukit.REVS)
def test_short_game_lights_what_the_view_says(rev, tmp_path):
    profile = emukit.PROFILE[rev]
    twin = Twin(rev, tmp_path)
    board = emukit.boot(rev, tmp_path)
    try:
        with L.connect(board.port, timeout=20) as link:
            hello = L.fields(link.request("HELLO", "1"))
            assert hello["profile"] == profile
            assert ("rev_" + profile) in hello["board"]
            got = emukit.settled_frame(board)
            assert got in twin.frames(), emukit.diff_cells(board, got, twin.frames()[0])
            for step, status in SCENARIO:
                act(board, twin, step, profile)
                got = emukit.settled_frame(board, 900)
                want = twin.frames()
                assert got in want, (step, emukit.diff_cells(board, got, want[0]))
                text = link.request("STATUS").replace("card query", "card_query")
                if status:
                    assert status in text.split(), (step, text)
            if profile == "A":
                # the moves were read, and no list went out before the tag
                # on its antenna had power (board.js answers one with no tag)
                rd = board.readers()["readers"]
                assert all(rd[str(k)]["commands"] > 100 for k in range(4)), rd
                assert sum(rd[str(k)]["early"] for k in range(4)) == 0, rd
    finally:
        board.close()

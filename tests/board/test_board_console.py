# The terminal of the simulated board (`make run`): typed hands, and typed
# mistakes that get a clear error and change nothing.
from boardkit import settings_path
from smartboard import tag
from smartboard.sim.console import Console, card_code
from smartboard.sim.rig import Rig


class Out:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s


def console(name):
    out = Out()
    return Console(Rig("A", settings_path(name)), False, out), out


def test_card_tokens():
    assert card_code("B12", False) == tag.code(0, tag.NORMAL, 12)
    assert card_code("Grain", False) == tag.code(1, tag.RAIN, 0)
    assert card_code("Bbee", True) == tag.code(1, tag.BEEKEEPER, 0)
    assert card_code("Asmoker", True) == tag.code(0, tag.SMOKER, 0)
    for bad in ("B31", "X3", "G", "Bfoo", "A3"):
        assert card_code(bad, False) == -1, bad


def test_typed_match_and_view():
    c, out = console("console")
    for line in ("confirm", "put E4 B3", "put E6 G5"):
        assert c.command(line)
    g = c.rig.board.ref.game
    assert g.ply() == 2
    assert "B03" in out.text and "G05" in out.text and "to play: B" in out.text
    assert c.command("quit") is False


def test_typed_mistakes_change_nothing():
    c, out = console("console-bad")
    c.command("confirm")
    before = c.rig.now_us
    for line, msg in (
        ("put Z9 B3", "no cell"),
        ("put E4 B99", "no card"),
        ("put E4", "missing argument"),
        ("fly E4", "unknown command"),
        ("lift", "missing argument"),
    ):
        out.text = ""
        assert c.command(line)
        assert out.text.startswith("error: ") and msg in out.text, (line, out.text)
    assert c.rig.now_us == before and c.rig.board.ref.game.ply() == 0


def test_set_up_letters_follow_the_mode_and_players():
    # Before a match the console names cards by the match the settings
    # describe (record.mode_letters): teen with the default players (0,
    # meaning 4) is a team game, teen of 2 is not.
    from apixagon.codes import JUNIOR, QUEENS_GAMBIT, TEEN
    from smartboard import settings as S

    c, out = console("console-letters")
    st = c.rig.board.settings
    for mode, players, want in (
        (QUEENS_GAMBIT, 0, "BG"),
        (TEEN, 0, "AB"),
        (TEEN, 2, "BG"),
        (TEEN, 6, "AB"),
        (JUNIOR, 0, "JJ"),
    ):
        st.set(S.GAME_MODE, mode, 0)
        st.set(S.PLAYERS, players, 0)
        assert c.letters() == want, (mode, players)
        assert c.teams() == (want == "AB"), (mode, players)


def test_a_card_on_the_board_cannot_be_put_on_a_second_cell():
    # a card is in one place; a side's two Rains are two cards
    c, out = console("console-twice")
    c.command("confirm")
    c.command("put E4 B3")
    out.text = ""
    before = bytes(c.rig.cells.cells)
    assert c.command("put F5 B3")
    assert out.text.startswith("error: B3 is on E4: a card cannot lie on two cells"), out.text
    assert bytes(c.rig.cells.cells) == before and c.rig.board.ref.game.ply() == 1
    c.command("put A1 Grain")
    out.text = ""
    c.command("put A2 Grain")  # the other Rain
    assert not out.text.startswith("error"), out.text

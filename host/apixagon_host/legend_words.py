"""The LED legend's names (firmware/smartboard/sim/legend.py: the one table
every legend is drawn from; the board sends no sentence, so the host says
them) marked for translation here; tests/host/test_legend_words.py checks
that every name of the table is. The web page's legend and its picture
read them in the page's language."""

from .i18n import N_, _

NAMES = (
    N_("black / team A"),
    N_("gold / team B"),
    N_("seat A1 / player 1"),
    N_("seat B1 / player 2"),
    N_("seat A2 / player 3"),
    N_("seat B2 / player 4"),
    N_("seat A3 / player 5"),
    N_("seat B3 / player 6"),
    N_("legal"),
    N_("extension"),
    N_("block"),
    N_("threat of 3"),
    N_("royal open"),
    N_("royal locked"),
    N_("sealed"),
    N_("last move"),
    N_("poor cell"),
    N_("illegal: lift"),
    N_("put back"),
    N_("unknown card"),
    N_("tap on pad"),
    N_("reserve: confirm"),
    N_("reader down"),
    N_("corners: fault"),
    N_("set-up: lift card"),
    N_("set-up: setting"),
    N_("storage low"),
    N_("resume: put card back (its side)"),
    N_("deck empty? / winner (side)"),
    N_("forced removal? (side)"),
    N_("pass? (seat, free cells)"),
    N_("player out? / winner (Junior)"),
    N_("good cell (legal, blinking)"),
)


def legend_name(name):
    """A legend row's name in the language in use."""
    return _(name)

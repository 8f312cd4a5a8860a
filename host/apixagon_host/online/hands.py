"""The players' hands typed at `apixagon online` when its board is the
simulated one (there is no card to put down): `put CELL CARD`, `lift
CELL`, `tap CARD` and the buttons, with the companion's card tokens
(smartboard.sim.console.card_code). Each line is checked before anything
is sent, then sent as a HAND frame through the session's own serial link
(Session.call: the link has one reader). A bad line says why and sends
nothing."""

import threading

from apixagon.geometry import NCELLS, NONE, cell_name, parse_cell
from smartboard.sim.console import card_code

from .. import link as L
from ..errors import CommandError
from ..i18n import _

SIMULATOR = "APIXAGON_simulator"  # HELLO board= of the simulated board
BUTTONS = ("mode", "confirm", "declare")
USAGE = "put CELL CARD | lift CELL | tap CARD | confirm | declare | mode"


def parse(line, teams=False):
    """The HAND frame's arguments for a typed line (None for an empty
    one); CommandError saying what is allowed."""
    w = line.split()
    if not w:
        return None
    verb = w[0].lower()
    want = {"put": 3, "lift": 2, "tap": 2}.get(verb, 1)
    if verb not in ("put", "lift", "tap") + BUTTONS or len(w) != want:
        raise CommandError(
            _("{line!r}: type one of {usage} (cells as I9, cards as B12, Grain, Gbee)").format(
                line=line.strip()[:40], usage=USAGE
            )
        )
    if verb in BUTTONS:
        return ("press", verb)
    if verb == "tap":
        return ("tap", _card(w[1], teams))
    cell = _cell(w[1])
    return ("put", cell, _card(w[2], teams)) if verb == "put" else ("lift", cell)


def _cell(word):
    x = parse_cell(word.upper())
    if x == NONE or x >= NCELLS:
        raise CommandError(_("no cell {word} on the board").format(word=word[:12]))
    return cell_name(x)


def _card(word, teams):
    c = card_code(word, teams)
    if c < 0:
        raise CommandError(_("no card {word} (B12, Grain, Gbee, Bsmoker)").format(word=word[:12]))
    return c


def typed_hands(session, stream, say):
    """A thread reading the hands typed on stream for the session's board."""

    def run():
        for line in stream:
            if session.done.is_set():
                return
            try:
                # a team game's cards are A12 and B12 (RULES.md §4), not Black's and Gold's
                args = parse(line, getattr(session, "teams", False))
                if args is None:
                    continue
                session.call(lambda link, a=args: link.request("HAND", *a))
            except (CommandError, L.BoardError) as e:
                say(_("error: %s") % e)
            except TimeoutError:
                return

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t

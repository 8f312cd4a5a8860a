"""What a picture of a position shows, read from the rules core: whose
turn it is or the result, the last move, the Royal Cell, the sealed runs,
the specials each side started with and how the symbols of a card face its
neighbours. No drawing here (render.py draws) and no rules: every rule
question goes to apixagon.game.Game."""

from apixagon import record
from apixagon.codes import BEEKEEPER, JUNIOR, PLACE, RAIN_MOVE, RESERVE, SMOKER
from apixagon.deck import COMMON, NCARDS, RAIN, symbols
from apixagon.game import Game
from apixagon.geometry import NB, NCELLS, NONE, ROYAL

from .i18n import N_, _, ngettext

# record.side_names in the words a person reads (translated where shown)
_SIDES = {
    "black": N_("black"),
    "gold": N_("gold"),
    "team A": N_("team A"),
    "team B": N_("team B"),
    "junior": N_("junior"),
}


def side_name(game, side):
    """'black', 'gold', 'team A', 'team B' (record.side_names) in the
    language in use."""
    name = record.side_names(game)[side]
    return _(_SIDES[name]) if name in _SIDES else name


def side_label(game, side):
    """'Black', 'Gold', 'Team A', 'Team B' (record.side_names, capitalised)."""
    name = side_name(game, side)
    return name[0].upper() + name[1:]


def result_text(game):
    """record.result's text in the language in use: the result, or who is
    to play (the rules core words it in English for the records)."""
    status, winner, reason, text = record.result(game)
    if game.mode == JUNIOR:
        if status == "finished":
            return _("all cards placed")
        if status == "win":
            who = _("player %d") % game.winner()
            if reason == "ran-out":
                return _("%s wins (placed all their cards)") % who
            return _("%s wins (out of cards, declared)") % who
        n = sum(1 for c in range(31) if game.where(0, c) != NONE)
        return ngettext("in progress (%d card placed)", "in progress (%d cards placed)", n) % n
    if status == "in-progress":
        t = game.side_to_play()
        who = side_name(game, t)
        if game.teams:
            who = _("%(side)s, seat %(seat)s") % {
                "side": who,
                "seat": "%s%d" % ("AB"[t], game.seat_to_play()),
            }
        return _("in progress (%s to play)") % who
    if reason == "two-sequences-of-4":
        return _("%s wins (two sequences of 4)") % side_name(game, game.winner())
    why = _("cards run out") if "cards run out" in text else _("no legal move")
    a3, a4 = game.count_runs(0)
    b3, b4 = game.count_runs(1)
    if status == "draw":
        return _(
            "draw (%(why)s; sequences of 3: %(a3)d to %(b3)d, sequences of 4: %(a4)d to %(b4)d)"
        ) % {"why": why, "a3": a3, "b3": b3, "a4": a4, "b4": b4}
    w = game.winner()
    kind, mine, theirs = (3, a3, b3) if a3 != b3 else (4, a4, b4)
    if w:
        mine, theirs = theirs, mine
    return _("%(side)s wins (%(why)s; more sequences of %(kind)d: %(mine)d to %(theirs)d)") % {
        "side": side_name(game, w),
        "why": why,
        "kind": kind,
        "mine": mine,
        "theirs": theirs,
    }


def status_text(game, stopped=None):
    """Whose turn it is (and the seat in team games), or the result.
    stopped: how a match that did not end by the rules was stopped (the
    log's "abandoned"), said instead of a turn nobody will play."""
    if game.over() or (game.mode == JUNIOR and not stopped):
        text = result_text(game)
        return text[0].upper() + text[1:]
    if stopped:
        if game.mode == JUNIOR:
            return stopped[0].upper() + stopped[1:]
        return _("%(stopped)s (%(side)s was to play)") % {
            "stopped": stopped[0].upper() + stopped[1:],
            "side": side_label(game, game.side_to_play()),
        }
    t = game.side_to_play()
    text = _("%s to play") % side_label(game, t)
    if game.teams:
        text += " " + _("(seat %s)") % (
            "%s%d" % (record.side_letters(game)[t], game.seat_to_play())
        )
    if game.placement_pending():
        text += _(", a card after the special")
    return text


def side_shown(game):
    """The side whose colour goes with the status line: the side to play,
    or the winner; None for a draw, a finished Junior game or Junior."""
    if game.mode == JUNIOR:
        return None
    if not game.over():
        return game.side_to_play()
    w = game.winner()
    return w if w in (0, 1) else None


def move_cells(kind, payload):
    """The cells a history entry names. Payloads (Game.history): the side
    first, then the cells; a Smoker adds the card it removed, a reserve
    is (cell, card) pairs."""
    if kind == PLACE:
        return [payload[2]]
    if kind in (RAIN_MOVE, SMOKER):
        return [payload[1]]
    if kind == BEEKEEPER:
        return [payload[1], payload[2]]
    if kind == RESERVE:
        return [payload[i] for i in range(1, len(payload), 2)]
    return []


def royal_state(game):
    """('occupied' | 'open' | 'locked', sides it is open for). §3.1 / D-5:
    open for a side with a sequence of 3 at the end of an earlier turn
    that still has one."""
    if game.board[ROYAL]:
        return "occupied", ()
    if game.mode == JUNIOR:  # §6: the first card goes there
        return ("open", (0,)) if not game.ply() else ("locked", ())
    who = tuple(t for t in (0, 1) if game.royal_allowed(t))
    if who and not game.over():
        return "open", who
    return "locked", ()


def initial_specials(game):
    """(rains, beekeepers, smokers) each side started with: §3.2, and §5
    (the smaller team of 2v1 and 3v2 has one Rain and no Beekeeper). A
    fresh game of the same mode says it."""
    fresh = Game(game.mode, game.start, game.players, game.special_then_place)
    return fresh.specials_left(0), fresh.specials_left(1)


def cards_on_board(game):
    """How many cards (Rain included) each side has on the board."""
    n = [0, 0]
    for x in range(NCELLS):
        if game.board[x]:
            n[game.owner(x)] += 1
    return n


def symbol_slots(game, x):
    """The six symbols of the card on x in drawing order: slot d faces
    direction d (apixagon.geometry). The manual's tip for learners
    ("ruotare le carte in modo che i simboli comuni siano sulla stessa
    linea") done by the drawing: the symbol a card shares with a neighbour
    faces that neighbour, so a run's symbol lies on the run's line. Own
    neighbours first, the longest run first (measured by the core's
    run_from), then the opponent's (a block shows what it blocks)."""
    b = game.board
    card = game.card_at(x)
    side = game.owner(x)
    wants = []  # (own first, longest run first, direction, symbol)
    for d in range(6):
        n = NB[x * 6 + d]
        if n == NONE or not b[n] or game.card_at(n) == RAIN:
            continue
        s = COMMON[card * NCARDS + game.card_at(n)]
        if game.owner(n) == side:
            run = 1 + game.run_from(x, d, s) + game.run_from(x, (d + 3) % 6, s)
            wants.append((0, -run, d, s))
        else:
            wants.append((1, 0, d, s))
    slots = [None] * 6
    placed = []
    for _own, _run, d, s in sorted(wants):
        if s not in placed:
            slots[d] = s
            placed.append(s)
    rest = [s for s in symbols(card) if s not in placed]
    for d in range(6):
        if slots[d] is None:
            slots[d] = rest.pop(0)
    return slots


def sealed_links(game):
    """(sealed, links): sealed[x] = 1 for a card in a sequence of 4 (§2,
    Game.sealed_cells); links the pairs (x, y, symbol) of neighbours in
    one such run, y one step from x along an axis: the run of their shared
    symbol through x along that axis is 4 long or more (Game.run_from)."""
    sealed = bytearray(NCELLS)
    game.sealed_cells(sealed)
    links = []
    for x in range(NCELLS):
        if not sealed[x] or game.card_at(x) == RAIN:
            continue
        for d in range(3):
            y = NB[x * 6 + d]
            if y == NONE or not sealed[y] or game.owner(y) != game.owner(x):
                continue
            if game.card_at(y) == RAIN:
                continue
            s = COMMON[game.card_at(x) * NCARDS + game.card_at(y)]
            if 1 + game.run_from(x, d, s) + game.run_from(x, d + 3, s) >= 4:
                links.append((x, y, s))
    return sealed, links

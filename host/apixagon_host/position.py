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


def side_label(game, side):
    """'Black', 'Gold', 'Team A', 'Team B' (record.side_names, capitalised)."""
    name = record.side_names(game)[side]
    return name[0].upper() + name[1:]


def status_text(game, stopped=None):
    """Whose turn it is (and the seat in team games), or the result.
    stopped: how a match that did not end by the rules was stopped (the
    log's "abandoned"), said instead of a turn nobody will play."""
    if game.over() or (game.mode == JUNIOR and not stopped):
        text = record.result(game)[3]
        return text[0].upper() + text[1:]
    if stopped:
        if game.mode == JUNIOR:
            return stopped[0].upper() + stopped[1:]
        return "%s (%s was to play)" % (
            stopped[0].upper() + stopped[1:],
            side_label(game, game.side_to_play()),
        )
    t = game.side_to_play()
    text = "%s to play" % side_label(game, t)
    if game.teams:
        text += " (seat %s%d)" % (record.side_letters(game)[t], game.seat_to_play())
    if game.placement_pending():
        text += ", a card after the special"
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
    for _, _, d, s in sorted(wants):
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

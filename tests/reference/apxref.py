"""APIXAGON rules: an independent reference reading, for differential tests.

Written from /work/shared/RULES.md (decisions D-1 .. D-14), NOTATION.md, the
Italian manual and the team's reading of D-9 .. D-14 (docs/rules-engine.md),
without looking at the product's core (firmware/apixagon). It is deliberately
plain CPython: dicts, sets and small functions that say what the rule says;
speed only matters enough for the random games of test_differential.py.

Public entry points:

- ``check(text) -> (verdicts, status, winner)``: one verdict per move line
  (``(lineno, code)``, code ``"ok"`` or a NOTATION.md reason code; a header line
  gets a verdict only when it is refused), then the result.
- ``random_record(mode, seed, players=0, option=False) -> str``: a whole random
  game from this module's own legal moves, with illegal lines sprinkled in.
"""

import random
import re
from collections import namedtuple

# --------------------------------------------------------------------------
# Board geometry (RULES §1): 61 cells, rows A..I, Abalone numbering.

ROWS = "ABCDEFGHI"
ROYAL = "E5"


def _numbers(i):
    # RULES §1: in row i the valid numbers are max(1, i-3) .. min(9, i+5).
    return range(max(1, i - 3), min(9, i + 5) + 1)


CELLS = [f"{ROWS[i]}{c}" for i in range(9) for c in _numbers(i)]
COORD = {}
AT = {}
for _i in range(9):
    for _c in _numbers(_i):
        COORD[f"{ROWS[_i]}{_c}"] = (_i, _c)
        AT[(_i, _c)] = f"{ROWS[_i]}{_c}"

# The three line axes (RULES §1): along a row, (i+1, c), (i+1, c+1); the six
# neighbour directions are the axes both ways.
AXES = ((0, 1), (1, 0), (1, 1))
DIRECTIONS = AXES + tuple((-di, -dc) for di, dc in AXES)


def _step(cell, d, k):
    i, c = COORD[cell]
    return AT.get((i + k * d[0], c + k * d[1]))


_STEPS = {(cell, d, k): _step(cell, d, k) for cell in CELLS for d in AXES for k in (1, 2)}
_STEPS.update({(cell, (-d[0], -d[1]), k): _step(cell, (-d[0], -d[1]), k) for cell, d, k in _STEPS})


def step(cell, d, k=1):
    """The cell k steps from cell in direction d, or None off the board."""
    got = _STEPS.get((cell, d, k), False)
    return _step(cell, d, k) if got is False else got


NEIGHBOURS = {cell: [n for n in (step(cell, d) for d in DIRECTIONS) if n] for cell in CELLS}


def _lines():
    # Every maximal straight line of cells along each axis (27 in all).
    out = []
    for d in AXES:
        for cell in CELLS:
            if step(cell, (-d[0], -d[1])) is None:
                line = [cell]
                while step(line[-1], d):
                    line.append(step(line[-1], d))
                out.append(line)
    return out


LINES = _lines()

# --------------------------------------------------------------------------
# The decks (RULES §1): the projective plane of order 5, numbered exactly as
# RULES states it. Symbols 0..30, cards 0..30.


def card_symbols(n):
    if n < 25:  # card 5m+b: the line y = m*x + b, plus the point at infinity 25+m
        m, b = divmod(n, 5)
        return frozenset({5 * x + (m * x + b) % 5 for x in range(5)} | {25 + m})
    if n < 30:  # card 25+c: the vertical line x = c, plus the vertical point 30
        c = n - 25
        return frozenset({5 * c + y for y in range(5)} | {30})
    return frozenset(range(25, 31))  # card 30: the line at infinity


SYMBOLS = [card_symbols(n) for n in range(31)]


def common(a, b):
    """The one symbol two different cards of a deck share."""
    (s,) = SYMBOLS[a] & SYMBOLS[b]
    return s


RAIN = "rain"
KINDS = ("rain", "beekeeper", "smoker")

# A card on the board: side 0/1 (Black/Gold, or team A/B), card 0..30 or RAIN.
# In Junior the side is None (one deck, cards belong to nobody, RULES §6).
Piece = namedtuple("Piece", "side card")

# --------------------------------------------------------------------------
# Runs (RULES §2), read off a board: a dict cell -> Piece.


def is_normal(piece):
    return piece is not None and piece.card != RAIN


def maximal_runs(board, side):
    """Every maximal run of `side`: a list of (cells, symbol), length >= 2.

    Along one line, two adjacent cards of one side share exactly one symbol, so
    consecutive pairs with the same shared symbol form one run; a card between
    two pairs with different symbols ends one run and starts another (they
    share that card, D-1). Rain carries no symbol and ends a run (§2).
    """
    runs = []
    for line in LINES:
        current = None  # [first index, last index, symbol]
        for k in range(len(line) - 1):
            p, q = board.get(line[k]), board.get(line[k + 1])
            if is_normal(p) and is_normal(q) and p.side == side == q.side:
                s = common(p.card, q.card)
                if current and current[1] == k and current[2] == s:
                    current[1] = k + 1
                    continue
                if current:
                    runs.append((tuple(line[current[0] : current[1] + 1]), current[2]))
                current = [k, k + 1, s]
        if current:
            runs.append((tuple(line[current[0] : current[1] + 1]), current[2]))
    return runs


def count_sequences(board, side, length):
    """D-6 / D-1: maximal runs of at least `length` cards (a run of 5 is one)."""
    return sum(1 for cells, _ in maximal_runs(board, side) if len(cells) >= length)


def sealed_cells(board):
    """§2: the cards of a sequence of 4 are sealed. Nothing can move or remove a
    sealed card, so its run never breaks: sealing is read off the board."""
    out = set()
    for side in (0, 1):
        for cells, _ in maximal_runs(board, side):
            if len(cells) >= 4:
                out.update(cells)
    return out


def open_end(board, cell, d):
    """(side, symbol) when the free `cell` is the open end of a run lying in
    direction d (§2: the cell just beyond the run's end), else None. The two
    cards beyond the cell decide it: they are a run of 2 when they are normal
    cards of one side, and its symbol is the one they share."""
    a, b = step(cell, d), step(cell, d, 2)
    p, q = board.get(a) if a else None, board.get(b) if b else None
    if is_normal(p) and is_normal(q) and p.side == q.side:
        return p.side, common(p.card, q.card)
    return None


def open_end_symbols(board, cell, side):
    """The symbols S of the runs of `side` for which `cell` is an open end."""
    out = set()
    for d in DIRECTIONS:
        end = open_end(board, cell, d)
        if end and end[0] == side:
            out.add(end[1])
    return out


def touches_opponent(board, cell, side):
    # Rule 3: any card of the other side beside the cell, Rain included.
    return any(n in board and board[n].side != side for n in NEIGHBOURS[cell])


def group_of(board, cell):
    """The connected group of the owner's cards around `cell` (Rain included,
    D-12; the Royal card too: it is its side's card, §3.1)."""
    side = board[cell].side
    seen, todo = {cell}, [cell]
    while todo:
        for n in NEIGHBOURS[todo.pop()]:
            if n in board and board[n].side == side and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


# --------------------------------------------------------------------------
# Modes (NOTATION.md, RULES §3-§7).

MODES = ("queens-gambit", "silent-swarm", "beehive", "2v1", "3v2", "junior", "teen")
RESERVE_MODES = ("silent-swarm", "beehive", "2v1", "3v2")  # docs/rules-engine.md preamble


class Config:
    """What the header lines set: mode, option, start, players."""

    def __init__(self, mode="queens-gambit", option=False, start=0, players=None):
        self.mode = mode
        self.option = option  # special_then_place (D-2)
        self.start = start  # side index that moves first
        self.junior = mode == "junior"
        if mode == "junior":
            self.players = players or 2
        elif mode == "teen":
            self.players = players or 4  # NOTATION: teen takes players 2|4|6, default 4
        else:
            self.players = {"queens-gambit": 2, "silent-swarm": 4, "beehive": 6}.get(mode)
            self.players = self.players or {"2v1": 3, "3v2": 5}[mode]
        # A 2-player game (queens-gambit, and teen with 2 players: the
        # product names that one Black and Gold too) names its sides Black and
        # Gold; team games name teams A and B (NOTATION.md).
        self.duel = mode == "queens-gambit" or (mode == "teen" and self.players == 2)
        self.team = not self.duel and not self.junior
        self.letters = ("B", "G") if self.duel else ("A", "B")
        self.seats = {
            "silent-swarm": (2, 2),
            "beehive": (3, 3),
            "2v1": (2, 1),
            "3v2": (3, 2),
            "teen": {2: (1, 1), 4: (2, 2), 6: (3, 3)}.get(self.players, (1, 1)),
        }.get(mode, (1, 1))
        self.reserve = mode in RESERVE_MODES
        self.forced = mode in RESERVE_MODES  # the code of silence (§4, §5; not teen, §7)
        self.smaller = 1 if mode in ("2v1", "3v2") else None  # §5: team B is the smaller

    def keeper(self, side):
        # §4/§5: player 3 in a team of three seats, else player 1.
        return 3 if self.seats[side] == 3 else 1

    def side_name(self, side):
        if self.duel:
            return ("black", "gold")[side]
        return "team " + "AB"[side]


# --------------------------------------------------------------------------
# Parsing a move line (NOTATION.md; docs/rules-engine.md item 8).

CELL_TOKEN = re.compile(r"^[A-Z][0-9]+$")
CARD_TOKEN = re.compile(r"^[0-9]+$")
SIDE_TOKEN = re.compile(r"^([A-Z])([0-9]*)$")
KEYWORD_FIELDS = {  # keyword -> number of cell fields (None: any number)
    "rain": 1,
    "beekeeper": 2,
    "smoker": 1,
    "reserve": None,
    "deck-empty": 0,
    "forced-removal": 0,
    "pass": 0,
    "out": 0,
}

Move = namedtuple("Move", "letter seat kind card cells")


def parse_move(tokens):
    """(code, Move): syntax first (bad-syntax), then bad-cell / unknown-card."""
    m = SIDE_TOKEN.match(tokens[0])
    if not m or m.group(1) not in "ABGJ" or len(tokens) < 2:
        return "bad-syntax", None
    letter, seat = m.group(1), int(m.group(2)) if m.group(2) else None
    if seat is not None and m.group(2).startswith("0"):
        return "bad-syntax", None
    rest = tokens[1:]
    if CARD_TOKEN.match(rest[0]):  # a placement: card, cell
        if len(rest) != 2 or not CELL_TOKEN.match(rest[1]):
            return "bad-syntax", None
        if int(rest[0]) > 30:
            return "unknown-card", None
        if rest[1] not in COORD:
            return "bad-cell", None
        return "ok", Move(letter, seat, "place", int(rest[0]), (rest[1],))
    kind = rest[0]
    if kind not in KEYWORD_FIELDS:
        return "bad-syntax", None
    cells = rest[1:]
    want = KEYWORD_FIELDS[kind]
    if (want is not None and len(cells) != want) or not all(CELL_TOKEN.match(c) for c in cells):
        return "bad-syntax", None
    if kind == "out" and seat is None:
        return "bad-syntax", None  # docs/rules-engine.md: `J out` names nobody
    if any(c not in COORD for c in cells):
        return "bad-cell", None
    return "ok", Move(letter, seat, kind, None, tuple(cells))


# --------------------------------------------------------------------------
# The game.


class Game:
    def __init__(self, cfg):
        self.cfg = cfg
        self.board = {}  # cell -> Piece
        self.smoked = set()  # (side, card) removed from the game for good (§3.2)
        self.status, self.winner = "in-progress", None
        if cfg.junior:
            self.order = []  # cells in the order their cards were placed
            self.quota = 30 // cfg.players  # §6: floor(30 / players) each
            self.placed = {n: 0 for n in range(1, cfg.players + 1)}
            self.all_named = True
            return
        self.to_play = cfg.start
        self.turns = [0, 0]  # completed turns of each side
        self.pending = False  # special_then_place: a placement must follow the special
        self.had3 = [False, False]  # D-5: a 3 at the end of one of its own turns
        self.left = [dict(rain=2, beekeeper=1, smoker=1) for _ in (0, 1)]
        if cfg.smaller is not None:  # §5: the smaller team has 1 Rain, 1 Smoker
            self.left[cfg.smaller] = dict(rain=1, beekeeper=0, smoker=1)
        self.played_kinds = [set(), set()]
        self.declared = [0, 0]  # deck-empty declarations per team
        self.built = [False, False]  # the reserve deck (§4), once per team
        self.extra = [None, None]  # the excess penalty's special (D-11)
        self.reserve_size = [None, None]  # cards in each team's reserve deck
        self.forced = [0, 0]  # forced removals recorded (§4)

    # ----- turn order (NOTATION.md: A1 B1 A2 B2 ...; each team rotates its seats)

    def seat_to_play(self):
        s = self.to_play
        return self.turns[s] % self.cfg.seats[s] + 1

    def in_reserve_turn(self, side):
        """D-14: the keeper's first turn after the team's deck-empty is the
        reserve (also when the declaration came during that very turn, unless
        a special already began it under special_then_place: the placement
        owed ends that turn, and the keeper's next turn is the reserve)."""
        cfg = self.cfg
        return (
            cfg.reserve
            and not self.pending
            and self.declared[side]
            and not self.built[side]
            and self.to_play == side
            and self.seat_to_play() == cfg.keeper(side)
        )

    def in_void(self, side):
        """D-9: between the team's deck-empty and its keeper's reserve."""
        return self.cfg.reserve and bool(self.declared[side]) and not self.built[side]

    def end_turn(self, side):
        if count_sequences(self.board, side, 3):
            self.had3[side] = True  # D-5: a 3 at the end of one of its turns
        self.turns[side] += 1
        self.to_play = 1 - side
        self.pending = False

    # ----- placement (RULES §3 rules 1-4, §3.1)

    def royal_open(self, side):
        # §3.1 and D-5: a 3 at the end of an earlier own turn, and still a 3 now.
        return self.had3[side] and count_sequences(self.board, side, 3) > 0

    def placement_code(self, side, card, cell, board=None):
        """Whether `side` may put normal `card` on `cell` of `board` (the card's
        own availability is checked by the caller)."""
        board = self.board if board is None else board
        if cell in board:
            return "occupied"
        if cell == ROYAL:  # rule 1; §3.1 ignores rule 4
            return "ok" if self.royal_open(side) else "royal-locked"
        if not touches_opponent(board, cell, side):
            return "ok"  # rules 2-3 (D-3): beside own cards or anywhere else
        # Rule 4 (D-4): a block (open end of an opponent run, the card carries
        # its symbol) or an extension (same, of an own run).
        symbols = open_end_symbols(board, cell, 1 - side) | open_end_symbols(board, cell, side)
        if SYMBOLS[card] & symbols:
            return "ok"
        return "adjacent-opponent"

    def card_free(self, side, card):
        """The card is in the side's hands or deck as far as the board knows:
        not on the board, not smoked out (§3.2). Cards taken back for the
        reserve deck (§4) are free again."""
        if (side, card) in self.smoked:
            return False
        return not any(p.side == side and p.card == card for p in self.board.values())

    def legal_placements(self, side, first_only=False):
        out = []
        free_cards = [c for c in range(31) if self.card_free(side, c)]
        if not free_cards:
            return out
        for cell in CELLS:
            if cell in self.board:
                continue
            if cell == ROYAL:
                if self.royal_open(side):
                    out.extend((c, cell) for c in free_cards)
                continue
            if not touches_opponent(self.board, cell, side):
                out.extend((c, cell) for c in free_cards)
            else:
                symbols = open_end_symbols(self.board, cell, 0) | open_end_symbols(
                    self.board, cell, 1
                )
                out.extend((c, cell) for c in free_cards if SYMBOLS[c] & symbols)
            if first_only and out:
                return out
        return out

    # ----- specials (§3.2, D-2, D-11)

    def special_source(self, side, kind):
        """'regular', 'extra' (the excess penalty's card, D-11) or None."""
        if self.left[side][kind] > 0:
            return "regular"
        e = self.extra[side]
        if e and not e["used"] and kind in e["kinds"] and self.turns[e["builder"]] >= e["after"]:
            return "extra"
        return None

    def special_gate(self, side, kind):
        if ROYAL not in self.board:
            return "specials-locked"  # §3.2: only after the Royal Cell is occupied
        if self.pending:
            return "special-used"  # D-2 option: one special, then a placement
        if self.special_source(side, kind) is None:
            return "special-used"  # each special is used once (§3.2, §5)
        return "ok"

    def rain_target_ok(self, board, owner, cell):
        # §3.2: a free open end of an opponent run (length >= 2).
        return bool(open_end_symbols(board, cell, 1 - owner))

    def rain_code(self, side, cell):
        if cell in self.board:
            return "occupied"
        return "ok" if self.rain_target_ok(self.board, side, cell) else "not-open-end"

    def beekeeper_code(self, side, src, dst):
        if src not in self.board:
            return "bad-target"
        if src == ROYAL:
            return "royal-immovable"
        if src in sealed_cells(self.board):
            return "sealed"
        if dst in self.board:
            return "occupied"
        piece = self.board[src]
        lifted = {c: p for c, p in self.board.items() if c != src}
        # §3.2: to a free cell where its owner could legally place it.
        if piece.card == RAIN:
            return "ok" if self.rain_target_ok(lifted, piece.side, dst) else "not-open-end"
        return self.placement_code(piece.side, piece.card, dst, lifted)

    def smoker_code(self, side, cell):
        if cell not in self.board or self.board[cell].side == side:
            return "bad-target"  # §3.2: one opponent card
        if cell == ROYAL:
            return "royal-immovable"
        if cell in sealed_cells(self.board):
            return "sealed"
        return "ok"

    def usable_specials(self, side, first_only=False):
        """Usable special moves as (kind, cells) tuples."""
        out = []
        if ROYAL not in self.board or self.pending:
            return out
        board = self.board
        if self.special_source(side, "rain"):
            for cell in CELLS:
                if cell not in board and self.rain_target_ok(board, side, cell):
                    out.append(("rain", (cell,)))
                    if first_only:
                        return out
        if self.special_source(side, "smoker"):
            sealed = sealed_cells(board)
            for cell in sorted(board):
                if board[cell].side != side and cell != ROYAL and cell not in sealed:
                    out.append(("smoker", (cell,)))
                    if first_only:
                        return out
        if self.special_source(side, "beekeeper"):
            sealed = sealed_cells(board)
            for src in sorted(board):
                if src == ROYAL or src in sealed:
                    continue
                for dst in beekeeper_destinations(self, src):
                    out.append(("beekeeper", (src, dst)))
                    if first_only:
                        return out
        return out

    def has_legal_move(self, side):
        """§3.3: a legal placement of any of the side's cards not on the board,
        or a usable special (not after a special under special_then_place)."""
        if self.legal_placements(side, first_only=True):
            return True
        return bool(self.usable_specials(side, first_only=True))

    def spend(self, side, kind):
        if self.special_source(side, kind) == "regular":
            self.left[side][kind] -= 1
        else:
            self.extra[side]["used"] = True
        self.played_kinds[side].add(kind)

    # ----- reserve deck (§4, D-7, D-12, D-14; docs/rules-engine.md)

    def takeable(self, side):
        board, sealed = self.board, sealed_cells(self.board)
        return [
            cell
            for cell in CELLS
            if cell in board
            and board[cell].side == side
            and board[cell].card != RAIN
            and cell != ROYAL
            and cell not in sealed
            and len(group_of(board, cell)) <= 2
        ]

    def reserve_code(self, side, cells):
        board = self.board
        seen = set()
        for cell in cells:  # (1) free, opponent, Rain or repeated
            p = board.get(cell)
            if p is None or p.side != side or p.card == RAIN or cell in seen:
                return "bad-target"
            seen.add(cell)
        sealed = sealed_cells(board)
        for cell in cells:  # (2) the Royal card, a sealed card
            if cell == ROYAL:
                return "royal-immovable"
            if cell in sealed:
                return "sealed"
        for cell in cells:  # (3) groups judged before any card is lifted (D-7)
            if len(group_of(board, cell)) > 2:
                return "bad-target"
        if not cells and self.takeable(side):
            return "bad-target"  # D-14: empty only when nothing may be taken
        return "ok"

    # ----- the end (§3.3, D-6, D-10)

    def end_by_count(self):
        a, b = (count_sequences(self.board, s, 3) for s in (0, 1))
        if a == b:
            a, b = (count_sequences(self.board, s, 4) for s in (0, 1))
        if a == b:
            self.status, self.winner = "draw", None
        else:
            self.status, self.winner = "win", 0 if a > b else 1

    def after_move(self, mover):
        # §3.3: two distinct sequences of 4 end the game at once.
        for side in (mover, 1 - mover):
            if count_sequences(self.board, side, 4) >= 2:
                self.status, self.winner = "win", side
                return
        # Exhaustion (docs/rules-engine.md, D-10): in a reserve mode only once the
        # team to play has built its reserve; before that the game waits.
        # (A special under special_then_place leaves a placement owed only
        # when one can be made: play_special.)
        s = self.to_play
        if self.cfg.reserve and not self.built[s]:
            return
        if not self.has_legal_move(s):
            self.end_by_count()

    # ----- one move line

    def play_tokens(self, tokens):
        code, move = parse_move(tokens)
        if code != "ok":
            return code
        if self.status != "in-progress":
            return "game-over"
        cfg = self.cfg
        # Seats beyond the mode's are a syntax matter (rules-engine.md item 1,
        # docs/rules-engine.md); judged only for letters of this mode.
        if cfg.junior:
            if move.letter != "J":
                return "not-allowed-in-mode"
            if move.seat is not None and not 1 <= move.seat <= cfg.players:
                return "bad-syntax"
            if move.kind not in ("place", "out"):
                return "not-allowed-in-mode"
            return self.play_junior(move)
        if move.letter not in cfg.letters:
            return "not-allowed-in-mode"
        side = cfg.letters.index(move.letter)
        if move.seat is not None and not 1 <= move.seat <= cfg.seats[side]:
            return "bad-syntax"
        if move.kind == "out":
            return "not-allowed-in-mode"
        if move.kind == "reserve" and not cfg.reserve:
            return "not-allowed-in-mode"
        if move.kind == "forced-removal":
            if not cfg.forced:
                return "not-allowed-in-mode"
            # §4: the opponents lock the guilty team's top card away; a
            # penalty for talking, recorded whenever the board is told.
            self.forced[side] += 1
            return "ok"
        if move.kind == "deck-empty":
            # §8: deck-empty is a declaration the board takes from a button or
            # the host, like a forced removal: not a turn, whoever's turn it is.
            return self.play_deck_empty(side, move)
        # Every other line is the side to play's: its team, and its seat when
        # the line names one.
        if side != self.to_play or (move.seat is not None and move.seat != self.seat_to_play()):
            return "not-your-turn"
        handler = getattr(self, "play_" + move.kind.replace("-", "_"))
        return handler(side, move)

    def play_place(self, side, move):
        if self.in_reserve_turn(side):
            return "not-your-turn"  # D-14: the keeper's turn is the reserve
        cell = move.cells[0]
        # The card before the cell: a card not in the side's hands is
        # refused whatever the cell (the team's reading; RULES lists the
        # cell's checks only).
        if not self.card_free(side, move.card):
            return "card-already-played"
        code = self.placement_code(side, move.card, cell)
        if code != "ok":
            return code
        self.board[cell] = Piece(side, move.card)
        self.end_turn(side)  # a placement on the Royal Cell ends the turn too (§3.1)
        self.after_move(side)
        return "ok"

    def play_special(self, side, kind, code_fn, apply_fn):
        if self.in_reserve_turn(side):
            return "not-your-turn"  # D-14
        code = self.special_gate(side, kind)
        if code == "ok":
            code = code_fn()
        if code != "ok":
            return code
        self.spend(side, kind)
        apply_fn()
        if self.cfg.option and self.legal_placements(side, first_only=True):
            # D-2 `special_then_place`: a placement follows, when one can;
            # otherwise the turn ends with the special (the team's reading:
            # the match would wait for ever)
            self.pending = True
        else:
            self.end_turn(side)  # D-2: the special is the whole turn
        self.after_move(side)
        return "ok"

    def play_rain(self, side, move):
        (cell,) = move.cells

        def apply():
            self.board[cell] = Piece(side, RAIN)

        return self.play_special(side, "rain", lambda: self.rain_code(side, cell), apply)

    def play_beekeeper(self, side, move):
        src, dst = move.cells

        def apply():
            self.board[dst] = self.board.pop(src)

        code_fn = lambda: self.beekeeper_code(side, src, dst)  # noqa: E731
        return self.play_special(side, "beekeeper", code_fn, apply)

    def play_smoker(self, side, move):
        (cell,) = move.cells

        def apply():
            piece = self.board.pop(cell)
            if piece.card != RAIN:
                self.smoked.add((piece.side, piece.card))

        return self.play_special(side, "smoker", lambda: self.smoker_code(side, cell), apply)

    def play_reserve(self, side, move):
        cfg = self.cfg
        if self.seat_to_play() != cfg.keeper(side):
            return "not-your-turn"  # docs/rules-engine.md: only the keeper
        if self.built[side]:
            return "special-used"  # once per game per team
        if not self.declared[side]:
            return "not-allowed-in-mode"  # only when the deck ran out
        if self.pending:
            return "special-used"  # a special began this turn (special_then_place)
        code = self.reserve_code(side, move.cells)
        if code != "ok":
            return code
        for cell in move.cells:
            del self.board[cell]  # back into the team's hands: playable again
        self.built[side] = True
        self.reserve_size[side] = len(move.cells)
        self.end_turn(side)  # the keeper makes no other move that turn
        if len(move.cells) > 6:
            # Excess penalty (§4, §5, D-11): one extra use of a kind the
            # opponents had played by now (the smaller team may also take back
            # its removed Beekeeper or Rain), usable after the builders' next
            # turn.
            opp = 1 - side
            kinds = set(self.played_kinds[opp])
            if cfg.smaller == opp:
                kinds |= {"beekeeper", "rain"}
            if kinds:
                self.extra[opp] = dict(
                    kinds=kinds, builder=side, after=self.turns[side] + 1, used=False
                )
        self.after_move(side)
        return "ok"

    def pass_code(self, side):
        cfg = self.cfg
        # D-9 (docs/rules-engine.md): only in the tactical void, never the keeper;
        # a team of 2 seats only when it cannot move, a team of 3 always.
        if self.pending or not self.in_void(side) or self.seat_to_play() == cfg.keeper(side):
            return "cannot-pass"
        if cfg.seats[side] < 3 and self.has_legal_move(side):
            return "cannot-pass"
        return "ok"

    def play_pass(self, side, move):
        code = self.pass_code(side)
        if code != "ok":
            return code
        self.end_turn(side)
        self.after_move(side)
        return "ok"

    def play_deck_empty(self, side, move):
        cfg = self.cfg
        if cfg.reserve and not self.declared[side]:
            # §4: the team's deck ran out: the keeper's next turn builds the
            # reserve. Not a turn: the seat to play still plays.
            self.declared[side] += 1
            return "ok"
        if cfg.reserve and not self.built[side]:
            # D-10: the count ends a team game only "nonostante il mazzo di
            # riserva": declared again before the reserve, nothing ends
            return "bad-target"
        # §3.3: in 2 players (and teen, §7) the side is out of cards and the
        # game ends by the D-6 count; in a reserve mode a second declaration
        # (rules-engine.md item 2: after the reserve, or again before it).
        self.declared[side] += 1
        self.end_by_count()
        return "ok"

    # ----- Junior (§6, D-8, D-13; docs/rules-engine.md)

    def junior_reference(self):
        # D-8: the most recent card that still has a free neighbour.
        for cell in reversed(self.order):
            if any(n not in self.board for n in NEIGHBOURS[cell]):
                return cell
        return None

    def play_junior(self, move):
        n = move.seat
        if move.kind == "out":
            # player n placed its named cards and at most every unnamed one
            unnamed = max(len(self.order) - 1, 0) - sum(self.placed.values())
            if self.placed[n] + unnamed < self.quota:
                return "bad-target"  # the board counts cards still in that hand
            self.status, self.winner = "win", n
            return "ok"
        cell = move.cells[0]
        if any(p.card == move.card for p in self.board.values()):
            return "card-already-played"  # the card before the cell, as in §3
        if cell in self.board:
            return "occupied"
        if not self.order:
            if cell != ROYAL:
                return "bad-target"  # §6: the first card goes on the Royal Cell
        elif cell not in NEIGHBOURS[self.junior_reference()]:
            return "bad-target"
        first = not self.order
        self.board[cell] = Piece(None, move.card)
        self.order.append(cell)
        if first:
            return "ok"  # the first card belongs to nobody
        if n is None:
            self.all_named = False
        else:
            self.placed[n] += 1
        if self.all_named and n is not None and self.placed[n] >= self.quota:
            self.status, self.winner = "win", n  # first to place all their cards
        elif not self.all_named and len(self.board) == 1 + self.cfg.players * self.quota:
            self.status, self.winner = "finished", None  # all cards placed
        return "ok"

    # ----- result as the product names it

    def result(self):
        if self.winner is None:
            return self.status, None
        if self.cfg.junior:
            return self.status, f"player {self.winner}"
        return self.status, self.cfg.side_name(self.winner)


# --------------------------------------------------------------------------
# Reading a record.

HEADERS = ("mode", "option", "start", "players")
TAG = re.compile(r'^\s*\[[A-Za-z0-9_]+\s+"[^"]*"\]\s*(#.*)?$')


def strip_comment(line):
    return line.split("#", 1)[0].strip()


def _header_ok(tokens, cfg):
    """Whether a header line is one this mode takes (else bad-syntax)."""
    if len(tokens) != 2:
        return False
    key, value = tokens
    if key == "mode":
        return value in MODES
    if key == "option":
        return value == "special_then_place" and not cfg.junior
    if key == "start":  # NOTATION.md: black | gold, or A | B in team games
        if cfg.junior:
            return False
        return value in (("black", "gold") if cfg.duel else ("A", "B"))
    if key == "players":  # docs/rules-engine.md
        if cfg.mode == "junior":
            return value in ("2", "3", "4", "5", "6")
        if cfg.mode == "teen":
            return value in ("2", "4", "6")
        return False
    return False


def read(text):
    """(Config, [(lineno, tokens)] of move lines, [(lineno, code)] of refused headers)."""
    headers, moves, refused = [], [], []
    for no, raw in enumerate(text.splitlines(), 1):
        if TAG.match(raw):
            continue
        body = strip_comment(raw)
        if not body:
            continue
        tokens = body.split()
        if tokens[0] in HEADERS and not moves:
            headers.append((no, tokens))
        elif tokens[0] in HEADERS:
            refused.append((no, "bad-syntax"))  # headers come before the moves
        else:
            moves.append((no, tokens))
    # The mode first (the other headers are judged by it), then players (teen
    # with 2 players is a 2-player game: Black and Gold), then the rest.
    mode = next((t[1] for _, t in headers if t[0] == "mode" and t[1:] and t[1] in MODES), None)
    cfg = Config(mode or "queens-gambit")
    for _, tokens in headers:
        if tokens[0] == "players" and _header_ok(tokens, cfg):
            cfg = Config(cfg.mode, players=int(tokens[1]))
    option, start = False, 0
    for no, tokens in headers:
        if not _header_ok(tokens, cfg):
            refused.append((no, "bad-syntax"))
        elif tokens[0] == "option":
            option = True
        elif tokens[0] == "start":
            start = 0 if tokens[1] in ("black", "A") else 1
    return Config(cfg.mode, option, start, cfg.players), moves, sorted(refused)


def check(text):
    """(verdicts, status, winner) for a whole record (see the module doc)."""
    cfg, moves, refused = read(text)
    game = Game(cfg)
    verdicts = list(refused)
    for no, tokens in moves:
        verdicts.append((no, game.play_tokens(tokens)))
    verdicts.sort()
    status, winner = game.result()
    return verdicts, status, winner


def replay(text):
    """The Game after a record, for tests that look at the position."""
    cfg, moves, _ = read(text)
    game = Game(cfg)
    for _, tokens in moves:
        game.play_tokens(tokens)
    return game


# --------------------------------------------------------------------------
# Random games: the reference's own legal moves, with illegal lines sprinkled
# in. Deterministic for a given (mode, seed, players, option): every choice
# is made from sorted lists with one seeded Random.


def beekeeper_destinations(game, src):
    """The free cells the card on `src` may be moved to (§3.2)."""
    piece = game.board[src]
    lifted = {c: p for c, p in game.board.items() if c != src}
    out = []
    for dst in CELLS:
        if dst in game.board:
            continue
        if piece.card == RAIN:
            ok = game.rain_target_ok(lifted, piece.side, dst)
        else:
            ok = game.placement_code(piece.side, piece.card, dst, lifted) == "ok"
        if ok:
            out.append(dst)
    return out


class _RandomGame:
    def __init__(self, mode, seed, players, option):
        self.rng = random.Random(f"{mode}/{players}/{int(option)}/{seed}")
        rng = self.rng
        head = []
        if rng.random() < 0.3:
            head.append(f'[Event "random {mode} {seed}"]')
        head.append(f"mode {mode}")
        if option:
            head.append("option special_then_place")
        if players and not (players == {"junior": 2, "teen": 4}.get(mode) and rng.random() < 0.5):
            head.append(f"players {players}")  # 2 in junior, 4 in teen: the default
        cfg, _, _ = read("\n".join(head))
        if not cfg.junior and rng.random() < 0.8:
            first = rng.choice(("black", "gold") if cfg.duel else ("A", "B"))
            head.append(f"start {first}")
        self.lines = head
        self.cfg, _, _ = read("\n".join(head))
        self.game = Game(self.cfg)
        cfg = self.cfg
        if cfg.junior:
            self.naming = rng.choice(("all", "all", "none", "mixed"))
            return
        # A light model of the decks, only to time the deck-empty declarations
        # (the board never sees them): cards dealt 3 a seat (2 to the single
        # player of 2v1, §5), one drawn a placement turn.
        # Styles, to reach every phase often: "scatter" leaves many isolated
        # cards and runs out early (big reserves, the excess penalty);
        # "stubborn" never declares once the game can end on it (the board
        # fills: exhaustion, §3.3).
        self.scatter = rng.random() < 0.35
        self.stubborn = rng.random() < 0.3
        self.deck = []
        self.draws = [0, 0]
        for side in (0, 1):
            dealt = 2 if cfg.mode == "2v1" and side == 1 else 3
            size = 31 - dealt * cfg.seats[side]
            if self.scatter:
                size = rng.randint(min(8, size), min(18, size))
            elif rng.random() < 0.4:
                size = rng.randint(2, size)  # declared early: the board cannot tell
            self.deck.append(size)

    # ----- helpers

    def prefix(self, side, seat=None, force_seat=None):
        cfg = self.cfg
        letter = cfg.letters[side]
        if cfg.team:
            if force_seat is not None:
                return f"{letter}{force_seat}"
            if seat is not None and self.rng.random() < 0.6:
                return f"{letter}{seat}"
        return letter

    def me(self):
        g = self.game
        return self.prefix(g.to_play, g.seat_to_play())

    def free_cells(self):
        return [c for c in CELLS if c not in self.game.board]

    def some_cells(self):
        # For illegal lines: the free cells, or any cell once the board is full.
        return self.free_cells() or list(CELLS)

    def emit(self, line, must_be_ok=False):
        tokens = strip_comment(line).split()
        code = self.game.play_tokens(tokens)
        if must_be_ok and code != "ok":
            raise AssertionError(f"generator's legal line refused: {line!r}: {code}")
        self.lines.append(line)
        return code

    # ----- one game

    def run(self):
        rng, g = self.rng, self.game
        limit = rng.randint(40, 260)
        while len(self.lines) < limit:
            if g.status != "in-progress":
                for _ in range(rng.randint(0, 3)):
                    self.emit(self.sprinkle() if rng.random() < 0.5 else self.any_line())
                break
            busy = not self.cfg.junior and (
                g.pending
                or any(g.declared)
                or any(g.extra)
                or any(g.built)
                or g.in_reserve_turn(g.to_play)
            )
            if rng.random() < (0.4 if busy else 0.18):
                self.emit(self.sprinkle())
                continue
            line = self.junior_move() if self.cfg.junior else self.legal_move()
            if line is None:
                break
            self.emit(line, must_be_ok=True)
        return "\n".join(self.lines) + "\n"

    def any_line(self):
        # After the end: a line that would be legal-looking (game-over).
        if self.cfg.junior:
            free = self.some_cells()
            return f"J {self.rng.randrange(31)} {self.rng.choice(free)}"
        side = self.rng.randrange(2)
        return f"{self.prefix(side)} {self.rng.randrange(31)} {self.rng.choice(self.some_cells())}"

    # ----- legal moves

    def legal_move(self):
        rng, g, cfg = self.rng, self.game, self.cfg
        side = g.to_play
        seat = g.seat_to_play()
        me = self.prefix(side, seat)
        if cfg.forced and rng.random() < 0.02:
            return f"{self.prefix(rng.randrange(2))} forced-removal"
        if g.in_reserve_turn(side):
            return self.reserve_move(me, side)
        out_of_cards = self.draws[side] >= self.deck[side]
        them = 1 - side
        if cfg.reserve and not g.declared[them] and self.draws[them] >= self.deck[them]:
            if rng.random() < 0.3:
                return f"{self.prefix(them)} deck-empty"  # out of turn (§8)
        # (declared again before the reserve: refused, D-10)
        again = cfg.reserve and g.declared[side] and not g.built[side]
        if not g.pending and out_of_cards and not again:
            p = 0.7 if (cfg.reserve and not g.declared[side]) else 0.12
            if self.stubborn and p < 0.5:
                p = 0.0
            if rng.random() < p:
                return f"{me} deck-empty"
        if not g.pending and g.in_void(side) and seat != cfg.keeper(side):
            if g.pass_code(side) == "ok":
                if cfg.seats[side] < 3 or rng.random() < 0.4:
                    return f"{me} pass"
        if not g.pending and rng.random() < 0.3:
            special = self.special_move(side)
            if special:
                return f"{me} {special}"
        place = self.placement(side)
        if place:
            if not g.pending and not g.in_void(side):
                self.draws[side] += 1
            return f"{me} {place[0]} {place[1]}"
        if not g.pending:
            special = self.special_move(side)
            if special:
                return f"{me} {special}"
            if cfg.reserve and not g.declared[side]:
                return f"{me} deck-empty"  # stuck: the players declare (D-10)
        return None

    def placement(self, side):
        rng, g = self.rng, self.game
        moves = g.legal_placements(side)
        if not moves:
            return None
        royal = [m for m in moves if m[1] == ROYAL]
        if royal and rng.random() < 0.6:
            return rng.choice(royal)
        ends, beside = {}, {}
        for cell in {cell for _, cell in moves}:
            ends[cell] = open_end_symbols(g.board, cell, side)
            beside[cell] = any(n in g.board and g.board[n].side == side for n in NEIGHBOURS[cell])
        weights = []
        for card, cell in moves:
            w = 1
            if SYMBOLS[card] & ends[cell]:
                w = 8  # extends an own run: runs, Royal Cell, sequences of 4
            elif beside[cell]:
                w = 3
            if self.scatter and not beside[cell]:
                w = 30  # keeps the cards takeable for a reserve deck (§4)
            weights.append(w)
        return rng.choices(moves, weights)[0]

    def special_move(self, side):
        rng, g = self.rng, self.game
        if ROYAL not in g.board or g.pending:
            return None
        kinds = [k for k in KINDS if g.special_source(side, k)]
        rng.shuffle(kinds)
        for kind in kinds:
            if kind == "rain":
                cells = [c for c in self.free_cells() if g.rain_target_ok(g.board, side, c)]
                if cells:
                    return f"rain {rng.choice(cells)}"
            elif kind == "smoker":
                cells = [c for c in sorted(g.board) if g.smoker_code(side, c) == "ok"]
                if cells:
                    return f"smoker {rng.choice(cells)}"
            else:
                sealed = sealed_cells(g.board)
                sources = [c for c in sorted(g.board) if c != ROYAL and c not in sealed]
                rng.shuffle(sources)
                for src in sources[:12]:
                    dsts = beekeeper_destinations(g, src)
                    if dsts:
                        return f"beekeeper {src} {rng.choice(dsts)}"
        return None

    def reserve_move(self, me, side):
        rng = self.rng
        cells = self.game.takeable(side)
        rng.shuffle(cells)
        r = rng.random()
        if not cells:
            chosen = []
        elif r < (0.8 if len(cells) > 6 else 0.4):
            chosen = cells  # all of them: more than 6 is the excess penalty
        else:
            chosen = cells[: rng.randint(1, len(cells))]
        self.deck[side] = len(chosen)
        self.draws[side] = 0
        return " ".join([me, "reserve"] + sorted(chosen))

    # ----- Junior

    def junior_move(self):
        rng, g = self.rng, self.game
        n = rng.randint(1, self.cfg.players)
        cards = [c for c in range(31) if not any(p.card == c for p in g.board.values())]
        if not g.order:
            name = "J" if rng.random() < 0.5 else f"J{n}"
            return f"{name} {rng.choice(cards)} {ROYAL}"
        if not g.all_named and len(g.order) > 4 and rng.random() < 0.04:
            unnamed = len(g.order) - 1 - sum(g.placed.values())
            if g.placed[n] + unnamed >= g.quota:  # D-13: it may have run out
                return f"J{n} out"
        named = self.naming == "all" or (self.naming == "mixed" and rng.random() < 0.7)
        ref = g.junior_reference()
        cell = rng.choice([c for c in NEIGHBOURS[ref] if c not in g.board])
        return f"{'J%d' % n if named else 'J'} {rng.choice(cards)} {cell}"

    # ----- illegal (or doubtful) lines

    def sprinkle(self):
        if self.cfg.junior:
            return self.junior_sprinkle()
        rng, g, cfg = self.rng, self.game, self.cfg
        side, seat = g.to_play, g.seat_to_play()
        me = self.prefix(side, seat)
        other = self.prefix(1 - side)
        board = g.board
        occupied = sorted(board)
        free = self.some_cells()
        own = [c for c in occupied if board[c].side == side]
        theirs = [c for c in occupied if board[c].side != side]
        played = [board[c].card for c in own if board[c].card != RAIN]
        sealed = sorted(sealed_cells(board))
        kinds = ["other-side", "wrong-seat", "occupied", "played", "anywhere", "royal"]
        kinds += ["special", "special", "pass", "pass", "reserve", "reserve"]
        kinds += ["declare", "syntax", "mode", "forced"]
        # Around the deck's end, the reserve and the penalty: more of the lines
        # that phase decides (D-9, D-10, D-11, D-14).
        if g.in_void(side):
            kinds += ["pass"] * 4 + ["reserve"] * 3 + ["special", "anywhere"]
        if g.in_reserve_turn(side):
            kinds += ["anywhere", "special", "pass", "reserve", "reserve"]
        if any(g.extra) or g.pending:
            kinds += ["special"] * 4
        if sealed and ROYAL in board:
            kinds += ["sealed"] * 3  # §2: sealed cards never move nor leave
        kind = rng.choice(kinds)
        card = rng.randrange(31)
        if kind == "other-side":
            return f"{other} {card} {rng.choice(free)}"
        if kind == "wrong-seat" and cfg.team and cfg.seats[side] > 1:
            wrong = rng.choice([n for n in range(1, cfg.seats[side] + 1) if n != seat])
            return f"{cfg.letters[side]}{wrong} {card} {rng.choice(free)}"
        if kind == "occupied" and occupied:
            return f"{me} {card} {rng.choice(occupied)}"
        if kind == "played" and played:
            return f"{me} {rng.choice(played)} {rng.choice(free)}"
        if kind == "anywhere":
            # A placement that may be legal on the board: refused in the
            # keeper's reserve turn (D-14), fine elsewhere.
            moves = g.legal_placements(side) if rng.random() < 0.6 else []
            if moves:
                card, cell = rng.choice(moves)
                return f"{me} {card} {cell}"
            return f"{me} {card} {rng.choice(free)}"
        if kind == "royal":
            return f"{me} {card} {ROYAL}"
        if kind == "sealed":
            if rng.random() < 0.5:
                return f"{me} smoker {rng.choice([c for c in sealed if c in theirs] or sealed)}"
            return f"{me} beekeeper {rng.choice(sealed)} {rng.choice(free)}"
        if kind == "special":
            # Targets of every kind: sealed cards (when there are) and the
            # Royal card often, since the random games seldom need them.
            what = rng.choice(KINDS)
            pools = [occupied, free, own, theirs, [ROYAL]] + [sealed] * 3
            pool = rng.choice([p for p in pools if p] or [free])
            if what == "beekeeper":
                dst = rng.choice([free, free, occupied or free])
                return f"{me} beekeeper {rng.choice(pool)} {rng.choice(dst)}"
            return f"{me} {what} {rng.choice(pool)}"
        if kind == "pass":
            who = me if rng.random() < 0.7 else other
            return f"{who} pass"
        if kind == "reserve":
            who = me
            if cfg.team and rng.random() < 0.5:
                who = self.prefix(side, force_seat=rng.randint(1, cfg.seats[side]))
            elif rng.random() < 0.2:
                who = other
            pool = rng.choice([own, occupied, g.takeable(side) + own[:2], []])
            cells = rng.sample(pool, min(len(pool), rng.randint(0, 8)))
            return " ".join([who, "reserve"] + sorted(cells))
        if kind == "declare" and cfg.team:
            # A declaration by any seat of either team (§8: from a button).
            team = rng.randrange(2)
            if self.draws[team] >= self.deck[team] or rng.random() < 0.1:
                return f"{cfg.letters[team]}{rng.randint(1, cfg.seats[team])} deck-empty"
        if kind == "forced" and not cfg.forced:
            return f"{rng.choice((me, other))} forced-removal"
        if kind == "mode":
            bad = rng.choice(("J", "G") if cfg.team else ("J", "A"))
            return f"{bad} {card} {rng.choice(free)}"
        return self.syntax(me)

    def syntax(self, me):
        rng, cfg = self.rng, self.cfg
        free = self.some_cells()
        cell = rng.choice(free)
        card = rng.randrange(31)
        seats = [f"{cfg.letters[0]}{cfg.seats[0] + 1}"] if cfg.team else ["X"]
        return rng.choice(
            (
                f"{me} {cell} {cell}",
                f"{me} {card} {card}",
                f"{me} foo {cell}",
                f"{me} {card}",
                f"{me} {card} {cell} {cell}",
                f"{me} {rng.randint(31, 99)} {cell}",
                f"{me} {card} {rng.choice(('A9', 'I1', 'Z9', 'J5', 'E0'))}",
                f"{me} rain",
                f"{me} smoker {cell} {cell}",
                f"{me} beekeeper {cell}",
                f"{me} pass now",
                f"{me} deck-empty {cell}",
                f"{rng.choice(seats)} {card} {cell}",
                f"{me}",
            )
        )

    def junior_sprinkle(self):
        rng, g, cfg = self.rng, self.game, self.cfg
        free = self.some_cells()
        occupied = sorted(g.board)
        used = [p.card for p in g.board.values()]
        n = rng.randint(1, cfg.players)
        card = rng.randrange(31)
        kind = rng.choice(
            ("far", "far", "occupied", "played", "out", "out", "seat", "mode", "syntax", "first")
        )
        if kind == "far" or (kind == "first" and g.order):
            return f"J{n} {card} {rng.choice(free)}"
        if kind == "first":
            return f"J {card} {rng.choice([c for c in free if c != ROYAL])}"
        if kind == "occupied" and occupied:
            return f"J{n} {card} {rng.choice(occupied)}"
        if kind == "played" and used:
            ref = g.junior_reference()
            cells = [c for c in NEIGHBOURS[ref] if c not in g.board] if ref else free
            return f"J{n} {rng.choice(used)} {rng.choice(cells or free)}"
        if kind == "out":
            return rng.choice((f"J{n} out", "J out"))
        if kind == "seat":
            return f"J{cfg.players + 1} {card} {rng.choice(free)}"
        if kind == "mode":
            return rng.choice(
                (f"B {card} {rng.choice(free)}", f"J{n} rain {rng.choice(free)}", f"J{n} pass")
                + (f"J{n} deck-empty", f"J{n} forced-removal", f"J{n} reserve")
            )
        return rng.choice((f"J{n} {card}", f"J{n} foo E4", f"J{n} E4 E4", f"J{n} 77 E4"))


def random_record(mode, seed, players=0, option=False):
    """A whole random game of `mode` as .apx text (see the module doc)."""
    return _RandomGame(mode, seed, players, option).run()

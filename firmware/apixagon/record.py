# `.apx` match records (NOTATION.md): read through a visitor, written from a
# game's history. Pure code, no regular expressions (MicroPython's `re`
# lacks groups()), so the board and the host share it.
from .codes import (
    ALL_PLACED,
    BAD_CELL,
    BAD_SYNTAX,
    BEEKEEPER,
    DECK_EMPTY,
    DRAW,
    EXHAUSTED,
    FORCED_REMOVAL,
    GAME_OVER,
    JUNIOR,
    MODES,
    NOT_ALLOWED_IN_MODE,
    OK,
    OUT,
    PASS,
    PLACE,
    RAIN_MOVE,
    RAN_OUT,
    REASONS,
    RESERVE,
    SMOKER,
    TEEN,
    TWO_SEQUENCES,
    UNKNOWN_CARD,
    seats_of,
)
from .geometry import NONE, cell_name, parse_cell

OPTIONS = ("special_then_place",)
_KEYWORDS = (
    "rain",
    "beekeeper",
    "smoker",
    "reserve",
    "deck-empty",
    "forced-removal",
    "pass",
    "out",
)
_KINDS = (RAIN_MOVE, BEEKEEPER, SMOKER, RESERVE, DECK_EMPTY, FORCED_REMOVAL, PASS, OUT)
# cells each keyword takes; -1: any number (a reserve may be empty, D-14)
_NCELLS = (1, 2, 1, -1, 0, 0, 0, 0)


class Visitor:
    """Receives a record line by line (python-chess style). Override what
    you need; every method has a do-nothing default."""

    def tag(self, lineno, name, value):
        pass

    def header(self, lineno, key, value):
        pass

    def move(self, lineno, letter, seat, kind, card, cells):
        """letter: 'B' 'G' 'A' or 'J'; seat 0 when absent; card: 0..30 for
        PLACE, else None; cells: list of cell indices."""

    def bad(self, lineno, reason):
        """A line that does not parse: BAD_SYNTAX, BAD_CELL or UNKNOWN_CARD."""

    def end(self):
        pass


def _strip_comment(line):
    i = line.find("#")
    return line if i < 0 else line[:i]


def read(lines, visitor):
    """Feed every line of a record to visitor; returns visitor.end()."""
    lineno = 0
    for line in lines:
        lineno += 1
        parse_line(line, lineno, visitor)
    return visitor.end()


def parse_line(line, lineno, visitor):
    line = line.strip()
    if line.startswith("["):
        # [Name "value"] — the value may hold '#', so find its closing quote.
        q1 = line.find('"')
        q2 = line.find('"]', q1 + 1) if q1 > 0 else -1
        name = line[1:q1].strip() if q1 > 0 else ""
        rest = _strip_comment(line[q2 + 2 :]).strip() if q2 > 0 else "x"
        if q2 < 0 or not name or " " in name or rest:
            visitor.bad(lineno, BAD_SYNTAX)
        else:
            visitor.tag(lineno, name, line[q1 + 1 : q2])
        return
    f = _strip_comment(line).split()
    if not f:
        return
    w = f[0]
    if w in ("mode", "option", "start", "players"):
        if len(f) != 2:
            visitor.bad(lineno, BAD_SYNTAX)
        else:
            visitor.header(lineno, w, f[1])
        return
    # A move or declaration: side letter (and seat), then what.
    letter = w[0]
    seat = 0
    if letter not in "BGAJ" or len(w) > 2:
        visitor.bad(lineno, BAD_SYNTAX)
        return
    if len(w) == 2:
        seat = ord(w[1]) - 48
        if seat < 1 or seat > 9:
            visitor.bad(lineno, BAD_SYNTAX)
            return
    if len(f) < 2:
        visitor.bad(lineno, BAD_SYNTAX)
        return
    what = f[1]
    names = f[2:]
    # NOTATION.md: bad-syntax (a missing or extra field, a field of the
    # wrong kind, an unknown keyword) comes before bad-cell and
    # unknown-card: the second field is a keyword or a number, the fields
    # are counted, and each must be cell-shaped (a letter then digits,
    # "Z9" too), before any name is looked up on the board.
    k = _KEYWORDS.index(what) if what in _KEYWORDS else -1
    n = _NCELLS[k] if k >= 0 else 1
    if (k < 0 and not what.isdigit()) or (n >= 0 and len(names) != n):
        visitor.bad(lineno, BAD_SYNTAX)
        return
    cells = []
    bad = OK
    for name in names:
        if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
            visitor.bad(lineno, BAD_SYNTAX)
            return
        x = parse_cell(name)
        if x == NONE:
            bad = BAD_CELL
        cells.append(x)
    if bad:
        visitor.bad(lineno, bad)
        return
    if k >= 0:
        visitor.move(lineno, letter, seat, _KINDS[k], None, cells)
        return
    card = int(what) if len(what) < 3 else 99
    if card > 30:
        visitor.bad(lineno, UNKNOWN_CARD)
        return
    visitor.move(lineno, letter, seat, PLACE, card, cells)


def side_names(game):
    if game.mode == JUNIOR:
        return ("junior", "junior")
    return ("team A", "team B") if game.teams else ("black", "gold")


def side_letters(game):
    return _letters(game.mode, game.teams)


def mode_letters(mode, players=0):
    """The side letters of a match of this mode and player count before its
    Game exists (a board in set-up): what side_letters will say."""
    seats = seats_of(mode, players)
    return _letters(mode, seats[0] > 1 or seats[1] > 1)


def _letters(mode, teams):
    if mode == JUNIOR:
        return "JJ"
    return "AB" if teams else "BG"


class Checker(Visitor):
    """Applies a record to a Game, keeping one verdict per move line. An
    illegal line changes nothing; checking goes on (NOTATION.md)."""

    def __init__(self, game_factory):
        self.new_game = game_factory  # Game class (or a compatible factory)
        self.game = None
        self.verdicts = []  # (lineno, reason code)
        self.tags = []
        self._mode = 0
        self._start = None
        self._players = 0
        self._options = []
        self._header_lines = []  # (lineno, key, value): checked at the first move

    def tag(self, lineno, name, value):
        self.tags.append((name, value))

    def header(self, lineno, key, value):
        if self.game is not None:
            self.verdicts.append((lineno, BAD_SYNTAX))  # headers come first
            return
        self._header_lines.append((lineno, key, value))

    def bad(self, lineno, reason):
        self.verdicts.append((lineno, reason))

    def _start_game(self):
        mode = 0
        modeline = [h for h in self._header_lines if h[1] == "mode"]
        for lineno, _, value in modeline:
            if value in MODES:
                mode = MODES.index(value)
            else:
                self.verdicts.append((lineno, BAD_SYNTAX))
        players = 0
        for lineno, key, value in self._header_lines:
            if key == "players":
                # Teen 2|4|6 (§7), Junior 2..6 (§6, D-13); no other mode.
                ok = ("2", "4", "6") if mode == TEEN else ("2", "3", "4", "5", "6")
                if (mode == TEEN or mode == JUNIOR) and value in ok:
                    players = int(value)
                else:
                    self.verdicts.append((lineno, BAD_SYNTAX))
        team = mode != 0 and mode != JUNIOR and not (mode == TEEN and players == 2)
        names = ("A", "B") if team else ("black", "gold")
        start = 0
        stp = False
        for lineno, key, value in self._header_lines:
            if key == "option":
                if value in OPTIONS:
                    stp = True
                else:
                    self.verdicts.append((lineno, BAD_SYNTAX))
            elif key == "start":
                if mode == JUNIOR or value not in names:
                    self.verdicts.append((lineno, BAD_SYNTAX))
                else:
                    start = names.index(value)
        self.game = self.new_game(mode, start, players, stp)

    def move(self, lineno, letter, seat, kind, card, cells):
        if self.game is None:
            self._start_game()
        self.verdicts.append((lineno, apply_move(self.game, letter, seat, kind, card, cells)))

    def end(self):
        if self.game is None:
            self._start_game()
        self.verdicts.sort()
        return self.game


def apply_move(game, letter, seat, kind, card, cells):
    """Apply one parsed record line to game; returns the reason code."""
    if kind == OUT and letter == "J" and not seat:
        return BAD_SYNTAX  # `J out` declares nobody (D-13)
    if game.over():
        return GAME_OVER
    letters = side_letters(game)
    if letter == "J" and game.mode == JUNIOR:
        side = NONE
    elif letter in letters and game.mode != JUNIOR:
        side = letters.index(letter)
    else:
        return NOT_ALLOWED_IN_MODE
    if seat > game.seat_count(side):
        return BAD_SYNTAX  # a seat (a player) the match does not have
    if kind == PLACE:
        return game.place(side, card, cells[0], seat)
    if kind == RAIN_MOVE:
        return game.rain(side, cells[0], seat)
    if kind == BEEKEEPER:
        return game.beekeeper(side, cells[0], cells[1], seat)
    if kind == SMOKER:
        return game.smoker(side, cells[0], seat)
    if kind == RESERVE:
        return game.reserve(side, bytes(cells), seat)
    if kind == DECK_EMPTY:
        return game.deck_empty(side)
    if kind == PASS:
        return game.pass_turn(side, seat)
    if kind == OUT:
        return game.out(side, seat)
    return game.forced_removal(side)


def check(lines, game_factory):
    """(game, verdicts) for the lines of a record."""
    c = Checker(game_factory)
    read(lines, c)
    return c.game, c.verdicts


def verdict_text(lineno, reason):
    return "line %d: %s" % (lineno, "ok" if reason == OK else "illegal " + REASONS[reason])


def result(game):
    """(status, winner name or None, reason, text). status: 'in-progress',
    'win', 'draw' or 'finished' (Junior)."""
    names = side_names(game)
    how = game.over()
    if game.mode == JUNIOR:
        n = 0
        for c in range(31):
            n += game.where(0, c) != NONE
        if how == ALL_PLACED:
            return "finished", None, "all-cards-placed", "all cards placed"
        if how:
            # D-13: the first to place all their cards, counted or declared
            who = "player %d" % game.winner()
            if how == RAN_OUT:
                return "win", who, "ran-out", who + " wins (placed all their cards)"
            return "win", who, "declared-out", who + " wins (out of cards, declared)"
        return "in-progress", None, None, "in progress (%d card%s placed)" % (n, "s"[n == 1 :])
    if not how:
        t = game.side_to_play()
        who = names[t]
        if game.teams:
            who += ", seat %s%d" % ("AB"[t], game.seat_to_play())
        return "in-progress", None, None, "in progress (%s to play)" % who
    w = game.winner()
    if how == TWO_SEQUENCES:
        return "win", names[w], "two-sequences-of-4", "%s wins (two sequences of 4)" % names[w]
    why = "no legal move" if how == EXHAUSTED else "cards run out"
    a3, a4 = game.count_runs(0)
    b3, b4 = game.count_runs(1)
    if w == DRAW:
        text = "draw (%s; sequences of 3: %d to %d, sequences of 4: %d to %d)" % (
            why,
            a3,
            b3,
            a4,
            b4,
        )
        return "draw", None, "equal-sequences", text
    # D-6: sequences of 3 decide, then sequences of 4.
    kind, mine, theirs = (3, a3, b3) if a3 != b3 else (4, a4, b4)
    if w:
        mine, theirs = theirs, mine
    text = "%s wins (%s; more sequences of %d: %d to %d)" % (names[w], why, kind, mine, theirs)
    return "win", names[w], "more-sequences-of-%d" % kind, text


# ---- writing -----------------------------------------------------------
def last_move(game):
    """(kind, payload, record line) of the game's last move, or (0, b"",
    None) before the first: the history walked for the ply, which a seat
    in the line needs (Game.last_move has no ply)."""
    last = None
    for last in game.history():
        pass
    if last is None:
        return 0, b"", None
    kind, payload, ply = last
    return kind, payload, move_text(game, kind, payload, ply)


def move_text(game, kind, payload, ply):
    """The record line for one history entry (see Game.history)."""
    letters = side_letters(game)
    side = payload[0]
    if game.mode == JUNIOR:
        # a placement's or an out's payload names the player where a side
        # would be (D-13); a refused declaration's holds its side
        who = "J%d" % side if side and kind in (PLACE, OUT) else "J"
        if kind == OUT:
            return who + " out"
    else:
        who = letters[side]
    if game.teams and kind in (PLACE, RAIN_MOVE, BEEKEEPER, SMOKER, RESERVE, PASS):
        who += str((ply >> 1) % game.seats[side] + 1)
    if kind == PLACE:
        return "%s %d %s" % (who, payload[1], cell_name(payload[2]))
    if kind == RAIN_MOVE:
        return "%s rain %s" % (who, cell_name(payload[1]))
    if kind == BEEKEEPER:
        return "%s beekeeper %s %s" % (who, cell_name(payload[1]), cell_name(payload[2]))
    if kind == SMOKER:
        return "%s smoker %s" % (who, cell_name(payload[1]))
    if kind == RESERVE:
        # payload: side, then (cell, occupant) pairs; MicroPython slices
        # take no step, hence the range.
        names = [who, "reserve"]
        for i in range(1, len(payload), 2):
            names.append(cell_name(payload[i]))
        return " ".join(names)  # no cells: the empty reserve (D-14)
    if kind == DECK_EMPTY:
        return "%s deck-empty" % who
    if kind == PASS:
        return "%s pass" % who
    return "%s forced-removal" % who


def lines(game, tags=()):
    """The record of game, line by line (a generator: the board streams a
    record to flash or serial without holding it in its heap)."""
    for name, value in tags:
        yield '[%s "%s"]' % (name, value)
    yield "mode " + MODES[game.mode]
    if game.mode == TEEN or (game.mode == JUNIOR and game.players != 2):
        yield "players %d" % game.players
    if game.special_then_place:
        yield "option special_then_place"
    if game.mode != JUNIOR:
        yield "start " + (("A", "B") if game.teams else ("black", "gold"))[game.start]
    for kind, payload, ply in game.history():
        yield move_text(game, kind, payload, ply)


def write(game, tags=()):
    """The record of game as a list of lines."""
    return list(lines(game, tags))

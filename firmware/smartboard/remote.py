# REMOTE and EXPECT (docs/protocol.md): seats played from elsewhere by a
# host, a player on another board over the network. The host names the
# seats (REMOTE) and, once their player has moved, the move (EXPECT). The
# board judges that move by its own rules before it waits for it: the
# other board is never trusted, a move the rules refuse is answered
# `refused` and changes nothing. A move taken is awaited as the
# computer's is (Referee.expect: the target pulses in the seat's colour,
# only that card on that cell is taken). Kept in memory only: after a
# power cut the host names the seats again (the board's log is the
# match; the host knows whose seats they were). Its own module, imported
# at the first REMOTE: a board never asked keeps it out of its heap.
from apixagon import record
from apixagon.codes import (
    BAD_SYNTAX,
    BEEKEEPER,
    DECK_EMPTY,
    FORCED_REMOVAL,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    PASS,
    PLACE,
    RAIN_MOVE,
    RESERVE,
    SMOKER,
)

from . import proto, report
from . import seats as _seats  # (the function seats() below is REMOTE's)
from .board import OVER, PLAY, RESUME


def _move(kind, a=0, b=0):
    # a move as apixagon.engine encodes it (kind << 16 | a << 8 | b), the
    # engine itself not loaded
    return kind << 16 | a << 8 | b


class Far(_seats.Remote):
    """Seats whose moves come from the host: the move given for the
    position at nlog `at`, else WAITING (whatever that side puts down is
    refused until its move is known)."""

    level = 0

    def __init__(self, held):
        _seats.Remote.__init__(self, held)
        self.at = -1
        self.m = 0
        self.cells = b""

    def move(self, g):
        return self.m if self.at == g.nlog else _seats.WAITING

    def done(self, m, t, seat, g=None):
        self.at = -1

    def reserve_cells(self):
        return self.cells


def seats(board, args):
    """REMOTE SEATS|none: the seats of the match in play (or resuming)
    played from elsewhere; `remote=SEATS`."""
    if len(args) != 1:
        return proto.E_ARGS
    b = board
    if b.ref is None or (b.phase != PLAY and b.phase != RESUME):
        return proto.E_STATE
    if b.remote is not None and not isinstance(b.remote, Far):
        return proto.E_STATE  # the computer plays a seat of this match
    g = b.ref.game
    w = args[0]
    held = []
    if w != "none":
        held = _seats.seats_of(g, _seats.mask_of(g, w.replace("+", " ")))
        if not held or len(held) != len(w.split("+")):
            raise ValueError(w[:16])  # a seat the match does not have: ERR 6
    b.remote = Far(held) if held else None
    b._expect_at = -1
    b._undone = None
    b.ref.expect = 0
    b.ref.expect_cells = b""
    if b.phase == PLAY:
        b._refresh()
    return "remote=" + (_seats.names(g, held).replace(" ", "+") if held else "none")


def mark(board, args):
    """MARK CELL|none: CELL lit as a good cell (view.GOOD) until the next
    move or take-back, over whatever it showed; `mark=CELL`. A host
    replaying a match with its review shows the better cell of each move
    so, in a colour no replay move uses."""
    if len(args) != 1:
        return proto.E_ARGS
    b = board
    if b.ref is None or (b.phase != PLAY and b.phase != OVER):
        return proto.E_STATE
    w = args[0]
    v = b.view
    v.good_at = -1
    if w != "none":
        from apixagon.geometry import NONE, parse_cell

        x = parse_cell(w)
        if x == NONE:
            raise ValueError(w[:8])  # ERR 6
        v.good = x
        v.good_at = b.ref.game.nlog
    b._refresh()
    return "mark=" + w


class _Line:
    # record.parse_line's visitor: the one move line, or its reason
    def __init__(self):
        self.got = None
        self.reason = 0

    def move(self, lineno, letter, seat, kind, card, cells):
        self.got = (letter, seat, kind, card, cells)

    def bad(self, lineno, reason):
        self.reason = reason

    def tag(self, lineno, name, value):
        self.reason = BAD_SYNTAX

    def header(self, lineno, key, value):
        self.reason = BAD_SYNTAX


def expect(board, args):
    """EXPECT MOVES LINE...: the far seat's move for the position after
    MOVES moves (STATUS moves=). `expect LINE` when the board now waits
    for it; `MOVES LINE` when it was a pass or a deck-empty declaration
    (carried out at once, as the computer's); `refused REASON LINE` when
    the board's rules refuse it; `stale MOVES` when the board is at
    another move. Only the first changes anything."""
    if len(args) < 3:
        return proto.E_ARGS
    n = proto.number(args[0], 0, 99999)  # ValueError: ERR 6
    b = board
    if b.ref is None or b.phase != PLAY:
        return proto.E_STATE
    rem = b.remote
    if not isinstance(rem, Far):
        return proto.E_STATE  # no seat is played from elsewhere (REMOTE)
    g = b.ref.game
    text = " ".join(args[1:])
    if n != g.nmoves():
        return "stale %d" % g.nmoves()
    v = _Line()
    record.parse_line(text, 1, v)
    if v.reason or v.got is None:
        return "refused %s %s" % (report.reason_name(v.reason or BAD_SYNTAX), text)
    letter, seat, kind, card, cells = v.got
    t = g.side_to_play()
    letters = record.side_letters(g)
    if kind == FORCED_REMOVAL:
        return _forced(b, rem, g, letter, seat, text)
    r = OK
    if letter != letters[t] or (seat and seat != g.seat_to_play()) or not rem.plays(g):
        r = NOT_YOUR_TURN  # not the far seat's turn: nothing it may do
    elif kind == PLACE:
        r = g.check_place(t, card, cells[0], seat)
        m = _move(PLACE, card, cells[0])
    elif kind == RAIN_MOVE:
        r = g.check_rain(t, cells[0], seat)
        m = _move(RAIN_MOVE, 0, cells[0])
    elif kind == BEEKEEPER:
        r = g.check_beekeeper(t, cells[0], cells[1], seat)
        m = _move(BEEKEEPER, cells[0], cells[1])
    elif kind == SMOKER:
        r = g.check_smoker(t, cells[0], seat)
        m = _move(SMOKER, 0, cells[0])
    elif kind == RESERVE:
        r = g.check_reserve(t, bytes(cells), seat)
        m = _move(RESERVE)
    elif kind == PASS:
        r = g.check_pass(t, seat)
        m = _move(PASS)
    elif kind == DECK_EMPTY:
        m = _move(DECK_EMPTY)  # the core judges it as the board declares it
    else:
        r = BAD_SYNTAX  # Junior's out: the players' own, at their board
    if r:
        return "refused %s %s" % (report.reason_name(r), text)
    nlog = g.nlog
    rem.at = nlog
    rem.m = m
    rem.cells = bytes(cells) if kind == RESERVE else b""
    b._expect_at = -1
    b._undone = None
    b._refresh()
    if g.nlog != nlog:
        return "%d %s" % (g.nmoves(), record.last_move(g)[2])
    if b.ref.expect != m:  # a declaration the core refused when carried out
        rem.at = -1
        b._expect_at = -1
        b._refresh()
        return "refused %s %s" % (report.reason_name(BAD_SYNTAX), text)
    return "expect " + report.expect_text(b)


def _forced(b, rem, g, letter, seat, text):
    # RULES.md §4: a forced removal falls on no turn; the far team's deck
    # is at its own board, so it is declared there and carried out here at
    # once, whoever is to play.
    letters = record.side_letters(g)
    t = letters.index(letter) if letter in letters else -1
    held = False
    for x, _ in rem.held:
        if x == t:
            held = True
    if seat or not held:
        return "refused %s %s" % (
            report.reason_name(NOT_YOUR_TURN if not seat else BAD_SYNTAX),
            text,
        )
    if not g.teams:
        return "refused %s %s" % (report.reason_name(NOT_ALLOWED_IN_MODE), text)
    nlog = g.nlog
    r = b.ref.declare_forced_removal(t)
    b._refresh()
    if r or g.nlog == nlog:
        return "refused %s %s" % (report.reason_name(r or BAD_SYNTAX), text)
    return "%d %s" % (g.nmoves(), record.last_move(g)[2])

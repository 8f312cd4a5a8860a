"""`apixagon play`: a match on the terminal, refereed by the rules core.

Moves are typed in record notation (NOTATION.md), with the side letter
optional: `12 E4`, `rain F6`, `beekeeper D5 C3`. The board is drawn as the
hexagon it is, with the kids' hint view (legal cells, cells to block).

Against the computer (`--computer gold --level 1`, or seats of a team
game, `--computer A2,B1`): every seat is dealt a hand (apixagon.dealer:
draw 3, hand limit 4), yours is shown and your card must come from it;
the computer plays its seats with the engine of that level, seeing only
its own hand (apixagon.engine). `hint N` grades the card's cells with
`--assist 2`: G good, x poor.
"""

from apixagon import record
from apixagon.codes import (
    BAD_SYNTAX,
    BLOCK,
    EXTENSION,
    MODES,
    OK,
    PLAIN,
    REASONS,
    ROYAL_CELL,
)
from apixagon.game import Game
from apixagon.geometry import NCELLS, NONE, ROW_START, ROWS, cell_name

from .errors import EXIT_OK, CommandError
from .i18n import N_, _
from .words import reason as reason_words

# (translated where it is shown: the language is chosen after the import)
HELP = N_("""\
Type a move in record notation; the side letter may be left out:
  12 E4              place card 12 on E4        rain F6       Rain on F6
  put E4 B12         the same, as the companion types it (cell, then card)
  beekeeper D5 C3    move the card on D5 to C3  smoker E4     remove the card on E4
  reserve C3 D2      keeper recovers cards      deck-empty    forced-removal
Other commands:
  hints              toggle the kids' view: + legal cell, ! cell to block
  hint N             where card N may go: p plain, e extension, b block, R royal
                     (with --assist 2: G a good cell, x a poor one, the engine's)
  undo               take back the last move    save FILE     write the .apx record
  help               this text                  quit          leave""")


def render(game, marks=None):
    """The board as text, row I at the top. marks: optional {cell: char}
    drawn in front of free cells (hint views). Pure: returns a str."""
    letters = record.side_letters(game)
    last = NONE
    kind, payload = game.last_move()
    if kind in (1, 2):
        last = payload[-1]
    elif kind == 3:
        last = payload[2]
    lines = []
    for i in range(8, -1, -1):
        row = []
        for x in range(ROW_START[i], ROW_START[i + 1]):
            o = game.board[x]
            if not o:
                mark = (marks or {}).get(x, " ")
                row.append("%s%s " % (mark, cell_name(x).lower()))
                continue
            side, card = (o - 1) >> 5, (o - 1) & 31
            text = letters[side] + ("~~" if card == 31 else "%02d" % card)
            suffix = "*" if x == last else ("=" if game.is_sealed(x) else " ")
            row.append(text + suffix)
        lines.append("%s %s%s" % (ROWS[i], "  " * abs(4 - i), "".join(row)))
    return "\n".join(lines)


def status_line(game):
    from .position import result_text

    return result_text(game)


def _hint_marks(game, card=None, assist=1):
    buf = bytearray(NCELLS)
    marks = {}
    if card is not None and assist >= 2:
        from apixagon import engine

        engine.grade(game, card, game.side_to_play(), buf)
        for x in range(NCELLS):
            if buf[x]:
                marks[x] = {engine.GOOD: "G", engine.POOR: "x"}.get(buf[x], "+")
        return marks
    if card is None:
        game.legal_cells(None, buf)
        for x in range(NCELLS):
            if buf[x]:
                marks[x] = "+"
        n = game.threats(buf)
        for k in range(n):
            marks[buf[k]] = "!"
        return marks
    game.card_cells(card, buf)
    for x in range(NCELLS):
        f = buf[x]
        if f & ROYAL_CELL:
            marks[x] = "R"
        elif f & BLOCK:
            marks[x] = "b"
        elif f & EXTENSION:
            marks[x] = "e"
        elif f & PLAIN:
            marks[x] = "p"
    return marks


def parse_typed(game, text):
    """(letter, seat, kind, card, cells) or an int reason code."""
    words = text.split()
    if words and words[0] == "put":
        # The companion's `put CELL CARD` (monitor's hands): a placement,
        # the card with its side letter or without.
        if len(words) != 3 or not words[2]:
            return BAD_SYNTAX
        card = words[2]
        side = card[0] if card[0] in "BGAJ" else ""
        text = "%s %s %s" % (side, card[len(side) :], words[1])
        words = text.split()
    if words and words[0][0] not in "BGAJ":
        t = game.side_to_play()
        letter = record.side_letters(game)[t]
        if game.teams:
            letter += str(game.seat_to_play())
        text = letter + " " + text
    got = {}

    class V(record.Visitor):
        def move(self, lineno, letter, seat, kind, card, cells):
            got["move"] = (letter, seat, kind, card, cells)

        def bad(self, lineno, reason):
            got["bad"] = reason

    record.parse_line(text, 1, V())
    if "move" in got:
        return got["move"]
    return got.get("bad", 1)


def run(state, args):
    if args.mode not in MODES:
        raise CommandError(
            _("unknown mode %(mode)r (one of: %(modes)s)")
            % {"mode": args.mode, "modes": ", ".join(MODES)}
        )
    mode = MODES.index(args.mode)
    probe = Game(mode)
    names = ("A", "B") if probe.teams else ("black", "gold")
    start = 0
    if args.start is not None:
        if args.start not in names:
            raise CommandError(
                _("--start must be one of %(names)s in %(mode)s")
                % {"names": "|".join(names), "mode": args.mode}
            )
        start = names.index(args.start)
    game = Game(mode, start)
    hints = args.hints
    out = state.out
    out.write(_("APIXAGON %s — type 'help' for commands.") % args.mode + "\n")
    marks = None
    vs = _Computer(game, args) if getattr(args, "computer", None) else None
    assist = getattr(args, "assist", 1)
    limit = getattr(args, "hint_limit", 0) or 0  # hint N's a turn (the board's hintlimit)
    asked = [-1, 0]  # the ply, and the hints asked in it
    while True:
        if vs is not None and not game.over():
            said = vs.turns(game)
            if said:
                out.write(said)
            if vs.human(game):
                out.write(_("your hand: %s") % vs.hand_text(game) + "\n")
        out.write(
            "\n"
            + render(game, marks if marks is not None else (_hint_marks(game) if hints else None))
            + "\n"
        )
        out.write(status_line(game) + "\n> ")
        out.flush()
        marks = None
        line = state.inp.readline()
        if not line:
            out.write("\n")
            return EXIT_OK
        line = line.strip()
        if not line:
            continue
        word = line.split()[0]
        if word in ("quit", "exit"):
            return EXIT_OK
        if word == "help":
            out.write(_(HELP) + "\n")
        elif word == "hints":
            hints = not hints
            out.write((_("hint view on") if hints else _("hint view off")) + "\n")
        elif word == "hint":
            parts = line.split()
            if asked[0] != game.ply():
                asked[0], asked[1] = game.ply(), 0
            if len(parts) != 2 or not parts[1].isdigit() or int(parts[1]) > 30:
                out.write(_("usage: hint N   (a card number 0..30)") + "\n")
            elif limit and asked[1] >= limit:
                out.write(_("no more hints this turn (%d a turn)") % limit + "\n")
            else:
                asked[1] += 1
                marks = _hint_marks(game, int(parts[1]), assist)
        elif word == "undo":
            out.write(
                (_("took back the last move") if game.undo() else _("nothing to undo")) + "\n"
            )
        elif word == "save":
            parts = line.split(maxsplit=1)
            if len(parts) != 2:
                out.write(_("usage: save FILE") + "\n")
                continue
            try:
                with open(parts[1], "w") as f:
                    f.write("\n".join(record.write(game)) + "\n")
                out.write(_("saved %s") % parts[1] + "\n")
            except OSError as e:
                out.write(_("cannot save: %s") % e + "\n")
        else:
            parsed = parse_typed(game, line)
            if isinstance(parsed, int):
                out.write(
                    _(
                        "not a move: %s (type moves in record notation, 12 E4, or put E4 12; "
                        "'help' lists them)"
                    )
                    % REASONS[parsed]
                    + "\n"
                )
                continue
            if vs is not None:
                why = vs.refuse(game, parsed)
                if why:
                    out.write(_("illegal: %s — nothing changed") % why + "\n")
                    continue
            r = record.apply_move(game, *parsed)
            if r == OK and vs is not None:
                vs.placed(game, parsed)
            if r != OK:
                # the same words as the companion's refusals (words.reason)
                out.write(_("illegal: %s — nothing changed") % reason_words(REASONS[r]) + "\n")


class _Computer:
    """The computer's seats of a terminal match and everybody's hands."""

    def __init__(self, game, args):
        from apixagon import dealer
        from apixagon import engine as E

        self.E = E
        self.dealer = dealer
        letters = record.side_letters(game)
        held = []
        for w in args.computer.replace("+", ",").split(","):
            w = w.strip().lower()
            if w in ("black", "gold") and not game.teams:
                held.append((("black", "gold").index(w), 1))
            elif len(w) == 2 and w[0].upper() in letters and w[1] in "123" and game.teams:
                t, seat = letters.index(w[0].upper()), int(w[1])
                if seat > game.seats[t]:
                    raise CommandError(
                        _("no seat %(seat)s in %(mode)s")
                        % {"seat": w.upper(), "mode": MODES[game.mode]}
                    )
                held.append((t, seat))
            else:
                raise CommandError(
                    _("--computer: black|gold (two players) or seats such as A2,B1 (teams), not %r")
                    % w
                )
        if game.mode == 5:
            raise CommandError(_("junior is a race of hands: no computer seat"))
        level = args.level
        if not 1 <= level <= 7:
            raise CommandError(
                _(
                    "--level is 1 (a child beats it) to 6 (its strongest), or 7 (the PC's tree "
                    "search, level 6's equal), not %(level)d"
                )
                % {"level": level}
            )
        self.held = held
        self.table = dealer.new_table(game, args.seed)
        if level == 7:
            # the PC's search (ismcts.py): imported only when asked for
            from .ismcts import Ismcts

            self.engines = [Ismcts(args.seed * 2 + 1), Ismcts(args.seed * 2 + 2)]
        else:
            self.engines = [E.Engine(level, args.seed * 2 + 1), E.Engine(level, args.seed * 2 + 2)]

    def human(self, g):
        return (g.side_to_play(), g.seat_to_play()) not in self.held

    def hand_text(self, g):
        t, seat = g.side_to_play(), g.seat_to_play()
        if not g.placement_pending():
            self.table.draw(t, seat)  # the turn's draw (§3), to the hand limit
        letters = record.side_letters(g)
        h = self.table.hand(t, seat)
        return " ".join("%s%d" % (letters[t], c) for c in sorted(h)) or _("empty (deck-empty)")

    def turns(self, g):
        """The computer's moves until a person's turn: what it played."""
        out = []
        while not g.over() and not self.human(g):
            before = g.nmoves()
            if not self.dealer.step(g, self.table, self.engines):
                out.append(_("the computer has no move") + "\n")
                break
            for kind, payload, ply in list(g.history())[before:]:
                out.append(_("the computer: %s") % record.move_text(g, kind, payload, ply) + "\n")
        return "".join(out)

    def refuse(self, g, parsed):
        """A placement of a card not in the person's hand, in words."""
        letter, seat, kind, card, cells = parsed
        if kind != 1 or card is None:
            return None
        t, s = g.side_to_play(), g.seat_to_play()
        if card not in self.table.hand(t, s):
            return _("card %d is not in your hand") % card
        return None

    def placed(self, g, parsed):
        letter, seat, kind, card, cells = parsed
        if kind == 1 and card is not None:
            k = g.last_move()[1]
            self.table.played(k[0], self._seat_before(g), card)

    def _seat_before(self, g):
        # the seat that just placed: the turn has moved on
        p = g.ply() - 1
        return (p >> 1) % g.seats[g.start ^ (p & 1)] + 1

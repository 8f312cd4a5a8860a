"""`apixagon replay ID --board [--review]`: a stored match replayed on
the board itself, a move at a time, for the players to put the cards
down and see it again (docs/protocol.md, "A match replayed on the
board"). Every seat is named far (REMOTE), each recorded move given in
turn (EXPECT): the board pulses its target and takes the card when it
is put there. With --review, after each move the board lights the
better cell the review found (MARK: the hint mode's good-cell colour,
blinking, until the next move) and this says the move's grade and the
better move in words."""

import time

from apixagon import record
from apixagon.codes import JUNIOR, MODES, TEEN

from . import link as L
from . import words
from .errors import EXIT_FAILED, CommandError
from .i18n import _
from .logs import _load, game_at
from .termtext import clean

POLL_S = 0.5  # a wait for a card's move reads the link this long at a time


def all_seats(g):
    """REMOTE's argument naming every seat of the match g: B+G with two
    players, each team's seats in a team game (RULES.md §4, §5)."""
    letters = record.side_letters(g)
    if not g.teams:
        return "+".join(letters)
    return "+".join("%s%d" % (letters[t], s) for t in (0, 1) for s in range(1, g.seats[t] + 1))


def match_fields(g):
    """The STATUS fields a board's new match shows when it is the
    record's (mode, who starts, the option, Teen's players, no move yet)."""
    letters = record.side_letters(g)
    want = {
        "phase": "play",
        "moves": "0",
        "mode": MODES[g.mode],
        "start": (letters if letters == "AB" else ("black", "gold"))[g.start],
        "option": "special_then_place" if g.special_then_place else "none",
    }
    if g.mode == TEEN:
        want["players"] = "%d" % (2 * g.seats[0])
    return want


def run(state, args):
    board, name, lines, verdict, date, tags = _load(args, more=True)
    g = game_at(lines, 0)
    if g.mode == JUNIOR:
        raise CommandError(
            _(
                "a Junior match cannot be replayed on the board: its players race "
                "without turns (RULES.md §6), and the board takes no Junior move from the PC"
            )
        )
    got = _review(args, board, name, lines, date, tags) if args.review else None
    moves = lines.moves
    with L.connect(args.port) as link:
        st = link.status()
        want = match_fields(g)
        wrong = [k for k in want if st.get(k) != want[k]]
        if wrong:
            raise CommandError(
                _(
                    "the board is not at the start of this match: set up %(want)s on the "
                    "cleared board and press CONFIRM, then run this again (the board: %(got)s)"
                )
                % {
                    "want": " ".join(
                        "%s=%s" % (k, want[k]) for k in want if k not in ("phase", "moves")
                    ),
                    "got": clean(" ".join("%s=%s" % (k, st.get(k, "-")) for k in wrong)),
                },
                EXIT_FAILED,
            )
        return _replay(state, link, g, moves, got, lines.result)


def _review(args, board, name, lines, date, tags):
    from .review import ReviewError
    from .reviewcache import reviewed
    from .reviewcli import _Bar
    from .store import apx_lines

    bar = _Bar(getattr(args, "progress", False))
    try:
        return reviewed(apx_lines(board, name, lines, date, tags), bar, 1)
    except ReviewError as e:
        raise CommandError(
            _("match %(id)d cannot be reviewed: %(why)s") % {"id": args.id, "why": e}
        ) from None
    finally:
        bar.end()


class _Moves:
    """The board's `move` events' counts, as they come (WATCH 1)."""

    def __init__(self, link):
        self.link = link
        self.count = 0
        link.on_event = self.event

    def event(self, text):
        kind, _sp, rest = text.partition(" ")
        if kind == "move":
            try:
                self.count = int(rest.split(" ", 1)[0])
            except ValueError:
                pass  # not a count: a board's nonsense, the next event says

    def until(self, n):
        """Reads the link until the board's move count is n: the card put
        down (a take-back in between only makes it wait longer)."""
        while self.count != n:
            self.link.read_frame(time.monotonic() + POLL_S)


def _replay(state, link, g, moves, got, result):
    out = state.out
    link.request("WATCH", 1)
    seen = _Moves(link)
    link.request("REMOTE", all_seats(g))
    marks = got is not None
    n = len(moves)
    try:
        for i, line in enumerate(moves):
            reply = link.request("EXPECT", i, *line.split())
            head, _sp, rest = reply.partition(" ")
            if head == "expect":
                out.write(
                    _("move %(ply)d of %(moves)d: put %(move)s down")
                    % {"ply": i + 1, "moves": n, "move": clean(words.action(line))}
                    + "\n"
                )
                out.flush()
                seen.until(i + 1)
            elif head.isdigit():  # a pass or a declaration: the board carried it out
                out.write(
                    _("move %(ply)d of %(moves)d: %(move)s (carried out by the board)")
                    % {"ply": i + 1, "moves": n, "move": clean(words.action(line))}
                    + "\n"
                )
            elif head == "refused":
                raise CommandError(
                    _("the board refused move %(ply)d: %(why)s")
                    % {"ply": i + 1, "why": clean(words.refusal(rest))},
                    EXIT_FAILED,
                )
            elif head == "stale":
                raise CommandError(
                    _(
                        "the board is at move %(at)s, not %(ply)d: a card was put down or "
                        "taken back on it; start a new match and replay it again"
                    )
                    % {"at": clean(rest), "ply": i},
                    EXIT_FAILED,
                )
            if got is not None:
                marks = _graded(out, link, got["moves"][i], i + 1, marks)
    except KeyboardInterrupt:
        out.write("\n" + _("replay stopped: the seats are the players' again") + "\n")
        _give_back(link)
        return 130
    if result:
        out.write(_("result: %s") % clean(result) + "\n")
    return 0


def _graded(out, link, row, ply, marks):
    """The better cell lit on the board (MARK: the board takes its mark
    off at the next move itself), then the move's grade and the better
    move in words. marks: the board takes MARK (False once an older
    firmware refused it); returned as it is after this move."""
    from .reviewcli import grade_word

    cells = row.get("better_cells") or []
    cell = cells[-1] if row.get("better") and cells else None
    lit = False
    if marks and cell:
        try:
            link.request("MARK", cell)
            lit = True
        except L.BoardError as e:
            if e.board_code != 5:  # (5: a verb older firmware does not know)
                raise
            out.write(
                _(
                    "this board's firmware does not light the better cell (update it: "
                    "apixagon deploy); the grades are said here only"
                )
                + "\n"
            )
            marks = False
    if row.get("grade"):
        text = _("move %(ply)d: %(move)s, %(grade)s") % {
            "ply": ply,
            "move": clean(words.action(row.get("move") or "")),
            "grade": grade_word(row["grade"]),
        }
        if cell:
            better = clean(words.action(row["better"]))
            if lit:
                text += "; " + _("better: %(move)s (lit on the board)") % {"move": better}
            else:
                text += "; " + _("better: %(move)s") % {"move": better}
        out.write(text + "\n")
    return marks


def _give_back(link):
    # The seats back to the players and the mark off, as far as the board
    # still answers: a replay broken off leaves a match they can go on with.
    for verb, arg in (("MARK", "none"), ("REMOTE", "none")):
        try:
            link.request(verb, arg)
        except L.BoardError:
            pass

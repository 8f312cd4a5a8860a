# What the board tells a host about the players (docs/protocol.md): a
# refusal as its reason and the refused record line, the cards a resume
# wants back (HANDS: smartboard.hands). The words of the reasons are
# the host's; these are NOTATION.md's names. Imported by the link only when
# there is something to tell: a board that never hears of one keeps this
# out of its heap.
from apixagon import record
from apixagon.codes import (
    BEEKEEPER,
    JUNIOR,
    MODES,
    OUT,
    PASS,
    PLACE,
    RAIN_MOVE,
    REASONS,
    RESERVE,
    SMOKER,
    seats_of,
)
from apixagon.geometry import NCELLS, cell_name

from . import proto, referee, tag
from . import settings as S
from .board import DECLARATIONS, PLAY, RESUME
from .view import matches


def event_text(board, what):
    """The text of the `refused`, `want` or `expect` event."""
    if what == "expect":
        return expect_text(board)
    return refused_text(board.ref) if what == "refused" else want_text(board, " ")


def reason_name(r):
    """A refusal's name: NOTATION.md's, or the referee's own wrong-move
    (not the move the board waits for from a seat played elsewhere)."""
    return "wrong-move" if r == referee.WRONG_MOVE else REASONS[r]


def expect_text(board):
    """The move the board waits for from a seat played elsewhere (the
    computer's), as a record line (`G 12 F5`, `A2 rain D4`, `B beekeeper
    D5 C3`); "" when none."""
    ref = board.ref
    e = ref.expect if ref is not None else 0
    if not e or e >> 16 == 255:
        return ""  # none, or a far seat's move not known yet (seats.WAITING)
    g = ref.game
    t = g.side_to_play()
    kind = e >> 16
    a = (e >> 8) & 255
    x = e & 255
    if kind == PLACE:
        p = bytes((t, a, x))
    elif kind == RAIN_MOVE:
        p = bytes((t, x))
    elif kind == BEEKEEPER:
        p = bytes((t, a, x))
    elif kind == SMOKER:
        p = bytes((t, x, g.board[x]))
    else:  # RESERVE: its cells, each with its card
        p = bytearray((t,))
        for c in ref.expect_cells:
            p.append(c)
            p.append(g.board[c])
        p = bytes(p)
    return record.move_text(g, kind, p, g.ply())


def set_more(link, args, i):
    """SET computer|level|assist|hintlimit VALUE. computer: the seats by
    their record names in the mode set (`G`, `B`, `A2+B1`), `none`, or the
    mask; level 1..5 (computer.BOARD_LEVELS); assist 0..2; hintlimit 0
    (none) .. 6. A bad value is refused with what the setting takes
    (link.set_refused)."""
    s = link.board.settings
    key, v = args
    if i == S.COMPUTER:
        m = s.get(S.GAME_MODE)
        n = link.board.players()
        letters = record.mode_letters(m, n)
        seats = seats_of(m, n)
        try:
            value = 0
            if v[0] in "0123456789":
                value = proto.number(v, 0, 63)
            elif v != "none":
                for w in v.split("+"):
                    if not w or w[0] not in letters:
                        raise ValueError(v[:16])
                    value |= 1 << (letters.index(w[0]) * 3 + number_of_seat(w[1:]) - 1)
            # Only the seats the mode has (RULES §3-§5, §7: 3v2's team B has
            # two): a seat it lacks would start the match with no computer.
            # Junior has none: §6 is a race of hands, no turns to take.
            for b in range(6):
                if value >> b & 1 and (m == JUNIOR or b % 3 >= seats[b // 3]):
                    raise ValueError(v[:16])
        except ValueError:
            return link.set_refused(key, seat_list(letters, seats), MODES[m])
    else:
        # level: the engine's 6 answers in ~3 s of the board's chip
        # (docs/figures.md), so the board offers 1 to 5 and the PC all six
        lo, hi = (1, 5) if i == S.LEVEL else (0, 2 if i == S.ASSIST else 6)
        try:
            value = proto.number(v, lo, hi) - (i == S.LEVEL)
        except ValueError:
            return link.set_refused(key, "%d..%d" % (lo, hi))
    s.set(i, value, link.board.now)
    if i == S.ASSIST:
        link.board.setting_changed(i)  # the hints' LEDs change at once
    return "%s=%s" % (key, v)


def seat_list(letters, seats):
    """The seats a mode has by their record names, commas between (`B,G`;
    `A1,A2,A3,B1,B2`), or `-` for none (Junior, §6)."""
    if letters == "JJ":
        return "-"
    teams = seats[0] > 1 or seats[1] > 1
    out = []
    for t in (0, 1):
        for k in range(1, seats[t] + 1):
            out.append(letters[t] + ("%d" % k if teams else ""))
    return ",".join(out)


def number_of_seat(text):
    if not text:
        return 1
    if text not in ("1", "2", "3"):
        raise ValueError(text)
    return int(text)


def status(board, parts, letters):
    """STATUS's declare=, refused=, want=, computer= and expect= fields,
    those that apply."""
    rem = board.remote
    if rem is not None:
        from .seats import names

        g = board.ref.game
        seats = names(g, rem.held).replace(" ", "+")
        if rem.level:
            parts.append("computer=%s:%d" % (seats, rem.level))
            if rem.heap_low >= 0:
                parts.append("searchheap=%d" % rem.heap_low)
        else:
            parts.append("remote=" + seats)  # played from elsewhere (smartboard.remote)
        e = expect_text(board)
        if e:
            parts.append("expect=" + e.replace(" ", "_"))
    if board.phase == PLAY and board.declaring:
        kind, arg = board.declaration()
        g = board.ref.game
        if kind == OUT:
            who = "J%d" % arg  # §6 D-13: the player
        elif kind == PASS and g.teams:
            who = "%s%d" % (letters[arg], g.seat_to_play())  # the seat that passes
        else:
            who = letters[arg]
        parts.append("declare=%s:%s" % (DECLARATIONS[kind], who))
    if board.ref.refusal is not None:
        parts.append("refused=" + refused_text(board.ref).replace(" ", ":", 1).replace(" ", "_"))
    if board.phase == RESUME:
        parts.append("want=" + want_text(board, ","))


def refused_text(ref):
    """The referee's refusal as the `refused` event says it: the reason's
    name (NOTATION.md) and the refused action as a record line
    (`adjacent-opponent B 3 E6`, `special-used B smoker`)."""
    r, kind, payload, _ = ref.refusal
    g = ref.game
    side = payload[0]
    # a card of the side not to play: its seat is the one of that side's
    # next turn
    ply = g.ply() + (side != g.side_to_play())
    if kind == RESERVE:
        # the cells lifted into the reserve, still lifted (Referee.res);
        # Game.history's payload: side, then cell and occupant pairs
        payload = bytearray(payload)
        for i in range(ref.nres):
            payload.append(ref.res[i])
            payload.append(0)
    gold = g.mode == JUNIOR and side and kind <= SMOKER  # a card, not a declaration
    if gold:
        # Junior plays the Black deck alone (§6): a Gold card is named as
        # a two-player record names it (`G 5 E6`), never as player 1's
        payload = b"\0" + payload[1:]
    if kind == OUT:
        line = "J%d out" % side  # the player, in any mode (refused outside Junior)
    elif len(payload) == 1 and (kind == BEEKEEPER or kind == SMOKER):
        # a special tapped (or put down): no cell yet; who, as a line says it
        who = record.move_text(g, PLACE, payload + b"\0\0", ply)
        line = who[: who.index(" ")] + (" beekeeper" if kind == BEEKEEPER else " smoker")
    else:
        line = record.move_text(g, kind, payload, ply)
    if gold:
        line = "G" + line[1:]
    return reason_name(r) + " " + line


def card_token(c, letters):
    """A card (its tag code: a normal card or a Rain) as the host's tokens
    write it: B12, G3, Grain (smartboard.sim.console.card_code reads it)."""
    k = tag.kind_of(c)
    return letters[tag.side_of(c)] + ("rain" if k == tag.RAIN else str(tag.index_of(c)))


def want_text(board, sep):
    """RESUME: each cell that still wants a card and the card it wants
    (`E4:B12`), joined by sep; "" when none (or not resuming)."""
    want = board.want
    if want is None:
        return ""
    letters = record.side_letters(board.ref.game)
    sensed = board.sensed
    paired = board.hw.paired
    out = []
    for x in range(NCELLS):
        w = want[x]
        if w and not matches(w, sensed[x], paired):
            out.append(cell_name(x) + ":" + card_token(w - 1, letters))
    return sep.join(out)

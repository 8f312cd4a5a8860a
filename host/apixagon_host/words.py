"""What the board's codes mean to a player: each NOTATION reason code as a
sentence (RULES.md wording), a refused action and a declaration in words,
the set-up's names and the numbers SET takes for them, the card tokens the
companion types (smartboard.sim.console.card_code's inverse), HANDS replies
as lists of cards. Pure functions of text the board sent."""

from apixagon.codes import MODES
from smartboard import tag

from .i18n import N_, _, ngettext
from .termtext import typed

# NOTATION "Stable reason codes" -> why, as RULES.md says it. A code a
# newer board sends that is not here is shown as itself.
REASON_WORDS = {
    "bad-syntax": N_("not a move the board can read"),
    "bad-cell": N_("no such cell on the board"),
    "unknown-card": N_("the board does not know this card"),
    "not-your-turn": N_("it is the other side's turn"),
    "occupied": N_("the cell already holds a card"),
    # §3 rule 1, §3.1
    "royal-locked": N_("the Royal Cell (E5) takes a card only from a side with a sequence of 3"),
    # §3 rule 4, D-4
    "adjacent-opponent": N_("beside an opponent card without blocking or extending a run"),
    "card-already-played": N_("this card has already been played"),
    # §3.2: specials only after the Royal Cell is occupied
    "specials-locked": N_("special cards unlock once the Royal Cell is occupied"),
    "special-used": N_("each special card is used once, and this one has been"),
    # §3.2 Rain / Beekeeper: an open end of a run
    "not-open-end": N_("not a free open end of a run"),
    "sealed": N_("a sequence of 4 is sealed: its cards never move again"),
    "royal-immovable": N_("the card on the Royal Cell never moves"),
    "bad-target": N_("not something this move can be made on now"),
    "game-over": N_("the match is over"),
    "not-allowed-in-mode": N_("not played in this game mode"),
    # §4 D-9: a pass only in a tactical void
    "cannot-pass": N_(
        "a pass only in a tactical void: after the team's deck-empty and before its keeper's"
        " reserve, never by the keeper (and with two to a team only when nothing can be played)"
    ),
    # the board's own (firmware smartboard.referee): a seat played from
    # elsewhere, the computer's, whose move the board waits for
    "wrong-move": N_("not the computer's move: put the card it names where it pulses"),
}

# STATUS declare=<what>:<who> -> what CONFIRM would declare (%s: who)
DECLARATION_WORDS = {
    "deck-empty": N_("deck empty for %s"),
    "forced-removal": N_("a forced removal for %s"),
    "pass": N_("pass of %s"),  # §4 D-9: the seat to play
    "out": N_("%s is out of cards and wins"),  # §6 D-13
}

# RULES §1: records and code say Black and Gold. The board lights Black in
# blue (an LED cannot show black; smartboard.view, both palettes) and Gold
# in gold, so the names players read say that colour, never the manual's
# Reds and Greens (the cards' insides), which no light and no drawing shows
SIDE_NAMES = {"B": N_("Black (blue)"), "G": N_("Gold")}

_SPECIALS = {"rain": "rain", "beekeeper": "bee", "smoker": "smoker"}

# SET's values (firmware smartboard.settings, smartboard.link._SETTINGS):
# a name -> the number the board keeps.
OPTIONS = ("none", "special_then_place")
PLAYERS = ("2", "4", "6")  # teen (§7): the CONFIRM-held cycle's values
JUNIOR_PLAYERS = ("2", "3", "4", "5", "6")  # junior (§6)


def side_name(letter, sides="BG"):
    """Who a record's letter names, as players read it: B -> Black (blue),
    G -> Gold (sides BG, RULES §1); a team (sides AB) -> team A;
    a seat stays itself (A2); a Junior player J3 -> player 3."""
    if letter[:1] == "J" and letter[1:].isdigit():
        return _("player %s") % letter[1:]
    if len(letter) != 1:
        return letter
    if sides == "AB":
        return _("team %s") % letter
    return _(SIDE_NAMES[letter]) if letter in SIDE_NAMES else letter


def winner_text(winner, sides="BG"):
    """STATUS winner= in words: `Black (blue) wins`, `team A wins`,
    `player 3 wins` (Junior), `draw`, `no winner (all cards placed)`."""
    if winner == "draw":
        return _("draw")
    if winner == "none":
        return _("no winner (all cards placed)")  # §6 D-13: nobody named
    return _("{side} wins").format(side=side_name(winner, sides))


def reason(code):
    """The refusal's why, with its code: a player reads the first, a bug
    report quotes the second."""
    words = REASON_WORDS.get(code)
    return "%s (%s)" % (_(words), code) if words else code


def action(apx):
    """An .apx move line as a player says it: `B 3 E6` -> `B3 on E6`,
    `B beekeeper D5 C3` -> `Bbee D5 to C3`, `A2 12 E4` -> `A12 on E4 (A2)`."""
    words = apx.replace("_", " ").split()
    if not words:
        return "-"
    who, rest = words[0], words[1:]
    side, seat = who[:1], who[1:]
    by = " (%s)" % who if seat else ""
    if not rest:
        return who
    what = rest[0]
    if what.isdigit() or what in _SPECIALS:
        card = side + (what if what.isdigit() else _SPECIALS[what])
        if what == "beekeeper" and len(rest) == 3:
            moved = _("{card} {start} to {end}").format(card=card, start=rest[1], end=rest[2])
            return moved + by
        if len(rest) > 1:
            return _("{card} on {cell}").format(card=card, cell=rest[1]) + by
        return card + by
    if what == "pass":
        return _("{who} passes").format(who=who)  # §4 D-9
    if what == "out":
        return _("{who} is out of cards").format(who=side_name(who))  # §6 D-13
    if what == "reserve" and len(rest) == 1:
        # §4 D-14: nothing could come back
        return _("{who}: the empty reserve").format(who=who)
    if what in DECLARATION_WORDS:
        return _("{who} declares {what}").format(who=who, what=what)
    return " ".join(words)


def refusal(text, moves=None):
    """A `refused` event's text (`adjacent-opponent G 3 E6`) as a line:
    `refused: G3 on E6: beside an opponent card ... (adjacent-opponent)`.
    moves: the match's move count (STATUS moves=), for the refusals whose
    words depend on it (Junior's first card, junior_target)."""
    code, _sp, apx = text.strip().partition(" ")
    if not apx:
        return _("refused: {why}").format(why=reason(code)) if code else _("refused")
    if code == "bad-target" and apx[:1] == "J" and "".join(apx.split()[1:2]).isdigit():
        return _("refused: {move}: {why}").format(
            move=action(apx), why="%s (%s)" % (junior_target(moves), code)
        )
    if code == "not-allowed-in-mode" and apx.split()[0] == "G":
        # only Junior refuses a Gold card so (a side letter G is a
        # two-player record's, where no card is refused for its mode): §6
        # plays one deck, and the board takes the Black one
        why = _("Junior is played with the Black deck alone ({code})").format(code=code)
        return _("refused: {move}: {why}").format(move=action(apx), why=why)
    return _("refused: {move}: {why}").format(move=action(apx), why=reason(code))


def expect_line(apx, sides="BG"):
    """The move the board waits for from the computer (the `expect` event,
    STATUS expect=: a record line, `_` for spaces) as the players read it:
    `Gold plays G12 on F5 — take G12 from Gold's deck`."""
    words = apx.replace("_", " ").split()
    if len(words) < 2:
        return _("the computer: {move}").format(move=apx)
    who, what, rest = words[0], words[1], words[2:]
    side, seat = who[:1], who[1:]
    name = side_name(side, sides) if not seat else who
    if sides != "AB":
        deck = _("{side}'s deck").format(side=side_name(side, sides))
    else:
        deck = _("team {team}'s deck").format(team=side)
    if what.isdigit() and rest:
        return _("{who} plays {card} on {cell} — take {card} from {deck}").format(
            who=name, card="%s%s" % (side, what), cell=rest[0], deck=deck
        )
    if what == "rain" and rest:
        return _("{who} plays a Rain on {cell} — put a {side} Rain there").format(
            who=name, cell=rest[0], side=side
        )
    if what == "smoker" and rest:
        return _(
            "{who} plays its Smoker on {cell} — tap {side}smoker on the pad,"
            " then lift the card on {cell}"
        ).format(who=name, cell=rest[0], side=side)
    if what == "beekeeper" and len(rest) == 2:
        return _(
            "{who} plays its Beekeeper: {start} to {end} — tap {side}bee on the pad,"
            " then move that card"
        ).format(who=name, start=rest[0], end=rest[1], side=side)
    if what == "reserve":
        return _("{who} takes back {cells} for the reserve — lift them, then press CONFIRM").format(
            who=name, cells=" ".join(rest) or _("nothing")
        )
    return _("the computer: {move}").format(move=" ".join(words))


def computer_text(value, sides="BG"):
    """STATUS computer=<seats>:<level> (`G:3`, `A2+B1:2`) in words."""
    seats, _sp, level = value.partition(":")
    who = ", ".join(
        side_name(w, sides) if len(w) == 1 and sides != "AB" else w for w in seats.split("+") if w
    )
    return _("the computer plays {who} at level {level}").format(who=who or "?", level=level or "?")


def status_refusal(value, moves=None):
    """STATUS refused=<code>:<apx with _> in words (moves: STATUS moves=)."""
    code, _sp, apx = value.partition(":")
    return refusal("%s %s" % (code, apx.replace("_", " ")), moves)


# RULES §6: where a Junior card goes (the board's bad-target says only that
# this cell is not it)
JUNIOR_FIRST = N_("Junior's first card goes on the Royal Cell, E5 (RULES §6)")
JUNIOR_NEXT = N_(
    "each card goes on a free cell beside the last card placed (RULES §6; D-8: beside"
    " the most recent card with a free cell, when the last has none)"
)
JUNIOR_ANY = N_(
    "Junior's first card goes on the Royal Cell, E5; each next one on a free cell"
    " beside the last card placed (RULES §6)"
)


def junior_target(moves=None):
    """Where a Junior card goes, for a refused one (bad-target): the first
    on the Royal Cell, the next ones beside the last card; both when the
    move count (moves) is not known."""
    if moves is None or not str(moves).isdigit():
        return _(JUNIOR_ANY)
    return _(JUNIOR_FIRST) if int(moves) == 0 else _(JUNIOR_NEXT)


def declaration(value, sides="BG"):
    """STATUS declare=<declaration>:<who> -> what CONFIRM would declare:
    `DECLARE: pass of A2 — press CONFIRM`. sides: STATUS sides= (B is
    Black in BG, team B in AB)."""
    what, _sp, letter = value.partition(":")
    form = DECLARATION_WORDS.get(what)
    who = side_name(letter, sides)
    said = _(form) % who if form else "%s %s" % (who, what)
    return _("DECLARE: {what} — press CONFIRM").format(what=said)


def setting_value(key, word, sides="BG", mode=None):
    """The number SET takes for a set-up name (`mode beehive` -> 2), or
    ValueError naming the choices. sides, mode: the set-up's letters and
    mode (STATUS sides=, mode=): who starts is black|gold, or A|B in team
    games; teen takes 2, 4 or 6 players (§7), junior 2 to 6 (§6, D-13)."""
    w = word.lower()
    if key == "mode":
        choices = MODES
    elif key == "start":
        if sides == "AB":
            choices = ("a", "b")
        else:
            choices = ("black", "gold")
            w = {"b": "black", "g": "gold"}.get(w, w)
    elif key == "option":
        choices = OPTIONS
        w = w.replace("-", "_")
    elif key == "players":
        choices = JUNIOR_PLAYERS if mode == "junior" else PLAYERS
        if w in choices:
            return int(w)
    else:
        raise ValueError("no setting %r" % key)
    if w in choices:
        return choices.index(w)
    names = [c.upper() if key == "start" and sides == "AB" else c for c in choices]
    raise ValueError(
        _("{key} {word}? choose one of: {names}").format(
            key=key, word=typed(word), names=", ".join(names)
        )
    )


# ---- a setting taken or refused (SET) ----------------------------------------

# settings.ASSIST: what each level of the hints' assistance lights (smartboard.view)
ASSIST_WORDS = (
    N_("the legal cells"),
    N_("the legal cells and the cells to block"),
    N_("the legal cells, the cells to block, and a tapped card's good and poor cells"),
)
# assist 2's colours (view.GOOD: the legal colour blinking; view.POOR: rose,
# deep blue in the colour-blind palette, smartboard.cbpalette), said when
# it is set: nothing else on the board tells them
ASSIST_COLOURS = N_(
    "a card tapped lights its good cells blinking green, its poor cells rose (deep blue in"
    " the colour-blind palette), the others steady green"
)
# what a refused SET takes when the board does not say (older firmware:
# `bad arguments: SET` alone); the board's own figures (smartboard.report)
_TAKES = {"level": "1..5", "assist": "0..2", "hintlimit": "0..6"}
# a setting the board keeps for the next match when set in one (the match
# keeps the set-up and the computer it started with), and those that act at once
NEXT_MATCH = ("mode", "start", "option", "players", "computer", "level")
AT_ONCE = ("assist", "hintlimit")


def setting_refused(key, word, message, sides="BG"):
    """The board's refusal of `SET key word` in words: what the setting
    takes, from the board's `bad arguments: SET KEY ALLOWED [MODE]`
    (docs/protocol.md; message: the BoardError's text). An older board's
    bare `bad arguments: SET` is worded from what the host knows; any other
    message is returned as it is."""
    head, sep, detail = message.partition("bad arguments: SET ")
    fields = detail.split() if sep else []
    if fields[:1] == [key] and len(fields) >= 2:
        allowed, mode = fields[1], " ".join(fields[2:3])
    elif key in _TAKES and message.rstrip().endswith("bad arguments: SET"):
        allowed, mode = _TAKES[key], ""
    elif key == "computer" and sides != "AB" and message.rstrip().endswith("bad arguments: SET"):
        allowed, mode = "-" if sides == "JJ" else "B,G", "junior" if sides == "JJ" else ""
    else:
        return message
    return _("{key} {word}? {takes}; nothing changed").format(
        key=key, word=typed(word), takes=_takes(key, allowed, mode)
    )


def _or(items):
    # "2, 4 or 6"
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return _("{some} or {last}").format(some=", ".join(items[:-1]), last=items[-1])


def _takes(key, allowed, mode):
    lo, dots, hi = allowed.partition("..")
    values = allowed.split(",") if allowed != "-" else []
    mode = mode or _("this mode")
    if key == "level" and dots:
        return _(
            "the board plays levels {lo} to {hi} (6 runs on the PC: apixagon play --level 6)"
        ).format(lo=lo, hi=hi)
    if key == "hintlimit" and dots:
        return _("the hint limit is {lo} (no limit) to {hi} card queries a turn").format(
            lo=lo, hi=hi
        )
    if key == "assist" and allowed == "0..2":
        return _(
            "assist is 0 (the legal cells), 1 (also the cells to block) or 2 (also a"
            " tapped card's good and poor cells)"
        )
    if key == "computer":
        if not values:
            if mode == "junior":
                # RULES §6: everyone plays at once, no turns for a computer
                return _(
                    "Junior has no computer: it is a race of hands with no turns (RULES §6);"
                    " only computer none"
                )
            return _("{mode} has no seat for the computer: only computer none").format(mode=mode)
        if all(len(v) == 1 for v in values):
            return _(
                "the computer plays black or gold in this mode: computer G, computer B or"
                " computer none"
            )
        b = [v for v in values if v[:1] == "B"] or values
        return _(
            "the seats of {mode} are {seats}: the computer plays one or more of them"
            " (computer {one}, computer {two}) or computer none"
        ).format(mode=mode, seats=", ".join(values), one=b[0], two=values[0] + "+" + values[-1])
    if key == "players":
        if dots:
            return _("{mode} takes {lo} to {hi} players").format(mode=mode, lo=lo, hi=hi)
        if values:
            return _("{mode} takes {n} players").format(mode=mode, n=_or(values))
        return _(
            "{mode} has its own number of players: players is for teen (2, 4 or 6)"
            " and junior (2 to 6)"
        ).format(mode=mode)
    if dots:
        return _("{key} takes {lo} to {hi}").format(key=key, lo=lo, hi=hi)
    if values:
        return _("{key} takes {values}").format(key=key, values=_or(values))
    return _("{key} takes nothing in {mode}").format(key=key, mode=mode)


def hints_text(key, value):
    """CONF assist= or hintlimit= in words: what the hints light, how many
    card queries a turn."""
    n = int(value)
    if key == "assist":
        what = _(ASSIST_WORDS[n]) if n < len(ASSIST_WORDS) else value
        return _("the hints light {what}").format(what=what)
    if not n:
        return _("no limit on hints")
    return ngettext("at most {n} card query a turn", "at most {n} card queries a turn", n).format(
        n=n
    )


def setting_taken(key, value, phase="setup", sides="BG"):
    """What `SET key value` set, in words, and when it acts: a set-up
    name's value is the board's number (setting_value), the computer's
    and the hints' the word the board took. phase: STATUS phase=. The
    set-up and the computer are the next match's when one is on the
    board; the hints act at once."""
    v = str(value)
    if key == "mode":
        name = MODES[value] if v.isdigit() else v
        said = _("game mode: {mode}").format(mode=name)
        if name == "junior":
            said += _(" (2 to 6 players: players N; no computer, RULES §6)")
        elif name == "teen":
            said += _(" (2, 4 or 6 players: players N)")
    elif key == "start":
        names = ("A", "B") if sides == "AB" else ("B", "G")
        who = side_name(names[value] if v.isdigit() else v, sides)
        said = _("{who} starts").format(who=who)
    elif key == "option":
        said = _("option: {name}").format(name=OPTIONS[value] if v.isdigit() else v)
    elif key == "players":
        said = _("{n} players").format(n=v)
    elif key == "computer":
        if v.lower() in ("none", "0"):
            said = _("no computer")
        else:
            who = [side_name(w, sides) if sides == "BG" else w for w in v.split("+")]
            said = _("the computer plays {who}").format(who=", ".join(who))
    elif key == "level":
        said = _("the computer's level: {n}").format(n=v)
    elif key == "assist" and v == "2":
        said = _("assist 2: {colours}").format(colours=_(ASSIST_COLOURS))
    elif key == "assist" and v.isdigit() and int(v) < len(ASSIST_WORDS):
        said = _("assist {n}: {what}").format(n=v, what=hints_text(key, v))
    elif key == "hintlimit" and v.isdigit():
        said = _("hint limit {n}: {what}").format(n=v, what=hints_text(key, v))
    else:
        said = "%s %s" % (key, v)
    if key in NEXT_MATCH and phase != "setup":
        said += _(" — for the next match: the one on the board keeps its own")
    elif key in AT_ONCE and phase in ("play", "resume"):
        said += _(" — at once, in the match on the board too")
    return said


def setup_text(status):
    """The set-up (or the match's) as STATUS names it: mode, who starts,
    option, players; the fields an older board does not send are left out."""
    parts = [_("mode %s") % status.get("mode", "?")]
    start = status.get("start")
    if start:
        letter = {"black": "B", "gold": "G"}.get(start, start)
        who = side_name(letter, "AB" if start in ("A", "B") else "BG")
        parts.append(_("%s starts") % who)
    if status.get("option") and status["option"] != "none":
        parts.append(_("option %s") % status["option"])
    if status.get("players"):
        parts.append(_("%s players") % status["players"])
    return "  ".join(parts)


# ---- card tokens (the companion's: B12 G3 A3 J5 Grain Gbee Bsmoker) --------


def card_token(code, letters):
    """The token card_code reads for tag code `code` (a cell state minus
    one): B12, G3, A7, J5, Grain, Gbee, Bsmoker; '?' for none it reads."""
    if not 0 <= code < 0xFB:
        return "?"
    side = letters[tag.side_of(code)]
    kind = tag.kind_of(code)
    if kind == tag.NORMAL:
        return "%s%d" % (side, tag.index_of(code))
    if kind == tag.RAIN and tag.index_of(code):
        return side + "rain2"  # the second Rain (card_code reads rain1/rain2)
    return side + ("rain", "bee", "smoker")[kind - 1]


def want_cells(text):
    """A `want` event's text or STATUS want= (`E4:B12 F5:G3`, or commas):
    [(cell, token)] in the board's order; malformed items are skipped."""
    out = []
    for item in text.replace(",", " ").split():
        cell, _, token = item.partition(":")
        if cell and token:
            out.append((cell.upper(), token))
    return out


def want_line(pairs):
    """A resume's cards to put back (want_cells's pairs) in words."""
    return _("put back: {cards}").format(cards=", ".join("%s %s" % p for p in pairs))


_SPECIAL_LETTERS = {"r": N_("rain"), "b": N_("bee"), "s": N_("smoker")}


def hands_lines(reply):
    """A HANDS reply (`B=<hex> G=<hex> Bs=rrbs Gs=-`) as one line a side:
    `Black: 0 1 2 ... 30  specials: rain rain bee smoker`. ValueError if the
    reply is not one."""
    if reply.strip() == "none":
        return [_("no match in play: the hands are full")]
    fields = {}
    for item in reply.split():
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(item)
        fields[key] = value
    teams = "A" in fields
    lines = []
    for key, value in fields.items():
        if key.endswith("s"):
            continue
        mask = int(value, 16)
        cards = [str(i) for i in range(31) if mask >> i & 1]
        if key == "J":
            who = _("the deck")  # junior: one deck for everyone (§6)
        else:
            who = side_name(key, "AB" if teams else "BG")
        line = "%s: %s" % (who, " ".join(cards) or _("no cards"))
        sp = fields.get(key + "s")
        if sp is not None:
            names = [_(_SPECIAL_LETTERS[c]) if c in _SPECIAL_LETTERS else c for c in sp if c != "-"]
            line += "  " + _("specials: %s") % (" ".join(names) or _("none"))
        bonus = fields.get(key + "ps")
        if bonus:
            # §4 D-11: one special back from the excess penalty, its kind
            # the players' choice among these (the board learns it when played)
            kinds = [_(_SPECIAL_LETTERS[c]) if c in _SPECIAL_LETTERS else c for c in bonus]
            line += "  + one back (penalty): %s" % " or ".join(kinds)
        lines.append(line)
    if not lines:
        raise ValueError(reply)
    return lines


def lost_text(value):
    """STATUS lost= in words (docs/protocol.md): what the last power cut
    lost, comma-separated: "unlogged" (a match played unsaved), a log and
    the moves it holds ("0007.alog:12": the moves after the 12th were kept
    in memory, the flash being full), or "match" (a match whose log could
    not be made)."""
    out = []
    for w in value.split(","):
        name, sep, moves = w.partition(":")
        if w == "unlogged":
            out.append(_("the match played unsaved was lost"))
        elif sep:
            out.append(
                "match %s lost its moves after move %s (they waited in memory: the"
                " flash was full)" % (name, moves)
            )
        elif w:
            out.append(_("a match whose log could not be made was lost (the flash was full)"))
    return _("a power cut on the board: %s") % "; ".join(out) if out else ""


def storage_notes(status):
    """What STATUS says of the match logs' storage that a player should
    know (firmware 0.8.0: room=, unlogged=, lost=), in words; older
    firmware sends none of it."""
    out = []
    if status.get("lost"):
        out.append(lost_text(status["lost"]))
    for w in status.get("unsaved", "").split(","):
        # firmware 0.9.1: moves waiting in memory now (unlogged= speaks of
        # a match played unsaved)
        name, sep, moves = w.partition(":")
        if sep or w == "match":
            what = (
                "the moves after move %s of match %s" % (moves, name)
                if sep
                else "this match (its log could not be made)"
            )
            out.append(
                "the board's storage is full: %s wait in memory; a power cut now would lose"
                " them%s; pull and delete matches to free space"
                % (what, "" if status.get("unsafe") == "1" else " (the board would say so)")
            )
    if status.get("unsafe") == "1":
        out.append(
            "the board could not note on its flash what a power cut would lose: keep it"
            " powered until the matches are pulled"
        )
    u = status.get("unlogged")
    if u == "ask":
        out.append(
            "the board asks: its storage is full and this match would not be saved;"
            " press CONFIRM again (or type nolog) to play it unsaved, or pull and"
            " delete the matches first"
        )
    elif u == "1":
        out.append("this match is played unsaved: the board's storage was full")
    elif status.get("room") == "0":
        out.append(
            "the board's storage is full: the next match would not be saved;"
            " pull the matches with --delete"
        )
    return out

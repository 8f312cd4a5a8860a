"""The end of a match and the set-up after it, as players read them: who
won and the rule that ended it, what CONFIRM after a match did and what to
do next, and the simulated board's `clear` (every card lifted). Pure
functions of what the board sent."""

from . import words
from .i18n import N_, _, ngettext


def next_match(cards, simulated=False, was="over"):
    """The board went from a match (was: STATUS phase= before, "over" or
    "play" for one abandoned) to set-up: what happened, and what comes
    next. cards: the cards still on the board (the board refuses CONFIRM
    until they are lifted: they blink); simulated: the board is the
    simulator, whose companion has `clear`."""
    done = _("the match is put away") if was == "over" else _("the match is off the board")
    if not cards:
        return _(
            "{done}: set-up for the next match. Choose it (mode, start, ...); confirm starts it"
        ).format(done=done)
    left = ngettext(
        "{n} card is still on the board (it blinks): lift it",
        "{n} cards are still on the board (they blink): lift them",
        cards,
    ).format(n=cards)
    if simulated:
        left += _(" (clear lifts them all)")
    return _("{done}: set-up for the next match. {left}, then confirm starts it").format(
        done=done, left=left
    )


def cleared(reply):
    """The simulator's answer to HAND clear (`lifted N`) in words."""
    n = reply.split()[-1] if reply.split() else ""
    if not n.isdigit():
        return _("the board is clear")
    if n == "0":
        return _("no card was on the board: confirm starts the match")
    return ngettext(
        "lifted {n} card: the board is clear; confirm starts the match",
        "lifted {n} cards: the board is clear; confirm starts the match",
        int(n),
    ).format(n=n)


def clear_refused(phase):
    """Why `clear` lifted nothing: the simulator lifts every card in
    set-up only (in a match the board reads the last card lifted as a
    take-back, and at the end that would reopen the match). phase: STATUS
    phase=."""
    if phase == "over":
        return _(
            "clear is for set-up: the match is over, press confirm first (the board"
            " keeps the final position until then), then clear; nothing lifted"
        )
    return _(
        "clear is for set-up: in a match a lift takes a move back; play it out (or confirm"
        " long abandons it), press confirm, then clear; nothing lifted"
    )


# STATUS end= (the rule that ended the match, firmware smartboard.link) in
# words, as RULES.md states it; {who}: the side or player it concerns
END_WORDS = {
    "two-sequences-of-4": N_("two distinct sequences of 4 end the match at once (RULES §3.3)"),
    "no-legal-move": N_("{who} could not place a card, so the count decides (RULES §3.3, D-6)"),
    "cards-run-out": N_("{who} ran out of cards, so the count decides (RULES §3.3, D-6)"),
    "ran-out": N_("{who} placed all their cards first (RULES §6, D-13)"),
    "declared-out": N_("{who} was declared out of cards (RULES §6, D-13)"),
    "all-cards-placed": N_(
        "every card dealt is down and no line named its player: nobody can tell who ran"
        " out first (RULES §6, D-13)"
    ),
}


def end_text(status):
    """The end of the match in words, from STATUS: who won (winner=) and
    the rule that ended it (end=; the count that decided it, runs=, D-6):
    `the match is over: Black (blue) wins — two distinct sequences of 4 end
    the match at once (RULES §3.3)`. A board that sends no end= (firmware
    before 0.9.3) gets the result alone."""
    sides = status.get("sides", "BG")
    winner = status.get("winner", "")
    result = words.winner_text(winner, sides) if winner else _("no result")
    end = status.get("end", "")
    form = END_WORDS.get(end)
    if form is None:
        return _("the match is over: {result}").format(result=result)
    if end == "no-legal-move":
        who = words.side_name(status.get("to_play", "?")[:1], sides)
    elif end == "cards-run-out":
        who = words.side_name(status.get("last", "?")[:1], sides)
    else:
        who = words.side_name(winner, sides)
    why = _(form).format(who=who)
    count = _count(status.get("runs", ""), winner, sides)
    if count:
        why += ": " + count
    return _("the match is over: {result} — {why}").format(result=result, why=why)


def _count(runs, winner, sides):
    # D-6: more sequences of 3 win, then more sequences of 4, else a draw;
    # runs= is side 0's and side 1's sequences of 3, then of 4
    n = runs.split(":")
    if len(n) != 4 or not all(x.isdigit() for x in n):
        return ""
    a3, b3, a4, b4 = n
    if winner == "draw":
        return _("as many sequences of 3 ({n3} each) and of 4 ({n4} each)").format(n3=a3, n4=a4)
    if winner not in sides[:2] or sides == "JJ":
        return _("sequences of 3: {a3} to {b3}, of 4: {a4} to {b4}").format(
            a3=a3, b3=b3, a4=a4, b4=b4
        )
    if sides.index(winner) == 1:
        a3, b3, a4, b4 = b3, a3, b4, a4  # the winner's first
    if a3 != b3:
        return _("more sequences of 3, {w} to {l}").format(w=a3, l=b3)
    return _("as many sequences of 3 ({n} each), more sequences of 4, {w} to {l}").format(
        n=a3, w=a4, l=b4
    )

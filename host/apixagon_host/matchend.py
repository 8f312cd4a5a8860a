"""The end of a match and the set-up after it, as players read them: what
CONFIRM after a match did and what to do next, and the simulated board's
`clear` (every card lifted). Pure functions of what the board sent."""

from .i18n import _, ngettext


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

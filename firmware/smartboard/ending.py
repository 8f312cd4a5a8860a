# STATUS end= and runs= (docs/protocol.md): the rule that ended a match and
# the count that decided it, for the host to word. Its own module, loaded by
# the link once a match is over: the board suites' heaps have no room for it
# in smartboard.link.
from apixagon.codes import JUNIOR, TWO_SEQUENCES

# by Game.over()'s code (apixagon.codes): RULES §3.3 two sequences of 4, a
# side that cannot move, the cards declared run out; §6 D-13 every card
# placed, a player's last card, a player declared out
ENDS = (
    "",
    "two-sequences-of-4",
    "no-legal-move",
    "cards-run-out",
    "all-cards-placed",
    "ran-out",
    "declared-out",
)


def fields(g, parts):
    """end= and, when the count decided (D-6: the sequences of 3, then of
    4), runs=A3:B3:A4:B4, appended to parts."""
    how = g.over()
    parts.append("end=" + ENDS[how])
    if g.mode != JUNIOR and how != TWO_SEQUENCES:
        a3, a4 = g.count_runs(0)
        b3, b4 = g.count_runs(1)
        parts.append("runs=%d:%d:%d:%d" % (a3, b3, a4, b4))

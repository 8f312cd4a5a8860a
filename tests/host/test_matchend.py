"""The end of a match in words (apixagon_host.matchend): who won and the
rule that ended it, from STATUS winner=, end= and runs= (RULES.md §3.3,
D-6, §6 D-13); the live view says it once, where `phase over` was all."""

import pytest
from apixagon_host import matchend
from apixagon_host.monitor import Session, event_line


@pytest.mark.parametrize(
    "status,said",
    [
        (
            {"winner": "B", "end": "two-sequences-of-4"},
            "Black (blue) wins — two distinct sequences of 4 end the match at once"
            " (RULES §3.3)",
        ),
        (
            {"winner": "G", "end": "no-legal-move", "runs": "1:2:0:0", "to_play": "B"},
            "Gold wins — Black (blue) could not place a card, so the count decides"
            " (RULES §3.3, D-6): more sequences of 3, 2 to 1",
        ),
        (
            {"winner": "B", "end": "cards-run-out", "runs": "1:1:1:0", "last": "G_deck-empty"},
            "Black (blue) wins — Gold ran out of cards, so the count decides (RULES §3.3,"
            " D-6): as many sequences of 3 (1 each), more sequences of 4, 1 to 0",
        ),
        (
            {"winner": "draw", "end": "cards-run-out", "runs": "0:0:0:0", "last": "B_deck-empty"},
            "draw — Black (blue) ran out of cards, so the count decides (RULES §3.3, D-6):"
            " as many sequences of 3 (0 each) and of 4 (0 each)",
        ),
        (
            {"winner": "A", "sides": "AB", "end": "no-legal-move", "runs": "2:1:0:0",
             "to_play": "B2"},
            "team A wins — team B could not place a card, so the count decides (RULES §3.3,"
            " D-6): more sequences of 3, 2 to 1",
        ),
        (
            {"winner": "J3", "sides": "JJ", "end": "declared-out"},
            "player 3 wins — player 3 was declared out of cards (RULES §6, D-13)",
        ),
        (
            {"winner": "J2", "sides": "JJ", "end": "ran-out"},
            "player 2 wins — player 2 placed all their cards first (RULES §6, D-13)",
        ),
        (
            {"winner": "none", "sides": "JJ", "end": "all-cards-placed"},
            "no winner (all cards placed) — every card dealt is down and no line named its"
            " player: nobody can tell who ran out first (RULES §6, D-13)",
        ),
        ({"winner": "G"}, "Gold wins"),  # a board that sends no end=
    ],
)  # fmt: skip
def test_the_end_says_who_won_and_the_rule_that_ended_it(status, said):
    assert matchend.end_text(dict(status, phase="over")) == "the match is over: " + said


class _StatusLink:
    def __init__(self, status):
        self.status = status

    def request(self, *args):
        return self.status


def test_the_live_view_says_the_end_in_words_once_not_phase_over():
    heard = []
    s = Session(None, lambda kind, text: heard.append((kind, text)))
    s.link = _StatusLink("phase=play mode=queens-gambit sides=BG moves=14 to_play=B")
    s.refresh()
    s._on_event("move 15 B 17 G3")
    s._on_event("phase over")
    assert s.stale and [k for k, _ in heard if k == "phase"] == []  # said below, in words
    s.link.status = (
        "phase=over mode=queens-gambit sides=BG moves=15 winner=B end=two-sequences-of-4"
    )
    s.refresh()
    s.refresh()  # the heartbeat: not again
    ends = [t for k, t in heard if k == "over"]
    assert ends == [
        "the match is over: Black (blue) wins — two distinct sequences of 4 end the match at"
        " once (RULES §3.3)"
    ]
    assert event_line("over", ends[0]) == ends[0]

"""The play part's hands keep every input and request at a cycle of the
board's own (bench/emulated.py, Hands in lockstep): a request that follows
an input anchored at a cycle is held after that cycle, never at it, so it
never lands late (at a cycle the PC's speed sets) and a run's figures are
the same however loaded the PC is. No emulator run: a fake board records
the requests."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from bench.emulated import HZ, Hands  # noqa: E402

MS = HZ // 1000


class FakeLink:
    def send(self, verb, *args):
        return 1

    def wait(self, seq, what=None):
        return "00" * 61


class FakeBoard:
    def __init__(self):
        self.sent = []  # (op, when)

    def request(self, op, **when):
        self.sent.append((op, when))
        return {}

    def lift(self, x, **when):
        self.sent.append(("lift", when))
        return {}


def test_a_request_after_an_anchored_lift_is_held_after_it():
    b = FakeBoard()
    h = Hands(b, FakeLink(), "A", lambda s: None)
    h.hold_at = 1000 * MS  # a refusal shown: the lift SETTLE_MS after it
    h.lift(7)
    h.cells()  # the hands ask whether the card has gone
    (lift, at_lift), (hold, at_hold) = b.sent[0], b.sent[1]
    assert (lift, hold) == ("lift", "hold")
    assert at_lift == {"at_cycle": 1000 * MS}
    assert at_hold == {"at_cycle": 1010 * MS}, at_hold


def test_without_an_anchor_the_request_follows_the_last_reply():
    b = FakeBoard()
    h = Hands(b, FakeLink(), "A", lambda s: None)
    h.t = 300
    h.lift(7)
    h.cells()
    assert b.sent[0] == ("lift", {"after_tx": 300 * MS})
    assert b.sent[1] == ("hold", {"after_tx": 310 * MS})

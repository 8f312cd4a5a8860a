# The whole firmware plays the scripted 6-player game (tests/data/
# beehive_full.apx: placements, Rain, Beekeeper, Smoker, reserve deck,
# declarations) from hands on the simulated board, in both sensing
# profiles, with sensor noise, and must end with exactly the record's game.
# No phantom move: after every move the game is the record's so far and no
# cell is in error.
import random

from apixagon import record
from apixagon.game import Game
from boardkit import rig
from smartboard.sim import replay

RECORD = "tests/data/beehive_full.apx"


def expected():
    with open(RECORD) as f:
        g, verdicts = record.check(f, Game)
    return g


def check_each_move(p):
    err = p.rig.board.ref.err
    for v in err:
        assert not v, "a cell in error after line %d" % p.lines


def run(name, profile, miss=0, torn=0, bounce=0):
    random.seed(7)  # the same noise on every run, under both Pythons' rules
    r = rig(name, profile)
    r.cells.miss = miss
    r.cells.torn = torn
    if profile == "B":
        r.board.hw.cells.matrix.bounce = bounce
    with open(RECORD) as f:
        p = replay.play(r, f, check_each_move)
    g = r.board.ref.game
    want = expected()
    assert bytes(g.board) == bytes(want.board) and bytes(g.s) == bytes(want.s)
    assert record.result(g) == record.result(want)
    assert p.lines == 72
    return r, p


def test_full_game_profile_a():
    run("replay-a", "A")


def test_full_game_profile_a_with_misses_and_torn_reads():
    r, p = run("replay-a-noise", "A", miss=100, torn=50)
    assert r.reads > 1000


def test_full_game_profile_b_with_bouncing_reeds():
    run("replay-b", "B", bounce=20)

# Move inference (profile A) driven by scenario tables of sensed changes.
# Each step: (cell name, what is sensed there); the referee must keep the
# game equal to the cards once errors are resolved, and never guess.
from apixagon.game import Game
from smartboard import scan, tag
from smartboard.referee import AMBER, ARM_BEEKEEPER, RED, UNKNOWN, Referee
from util import cell, occupy_royal, put, put_run


def card(side, i):
    return 1 + tag.code(side, tag.NORMAL, i)


def rain(side, j=0):
    return 1 + tag.code(side, tag.RAIN, j)


def special(side, kind):
    return 1 + tag.code(side, kind, 0)


def play(ref, steps):
    for name, state in steps:
        ref.sensed(cell(name), state)


def errors(ref):
    return [(x, ref.err[x]) for x in range(61) if ref.err[x]]


def test_placements_become_moves():
    ref = Referee(Game())
    play(ref, [("A1", card(0, 0)), ("I9", card(1, 1))])
    assert ref.moves == 2 and ref.game.owner(cell("A1")) == 0 and ref.game.owner(cell("I9")) == 1
    assert errors(ref) == []


def test_illegal_placement_blinks_red_until_lifted():
    ref = Referee(Game())
    play(ref, [("A1", card(0, 3)), ("A2", card(1, 4))])  # beside black, no run
    assert ref.moves == 1 and errors(ref) == [(cell("A2"), RED)]
    assert ref.reason == 7  # adjacent-opponent
    assert not ref.game.board[cell("A2")]
    play(ref, [("A2", scan.EMPTY)])
    assert errors(ref) == [] and ref.game.side_to_play() == 1


def test_wrong_side_is_red_not_a_move():
    ref = Referee(Game())
    play(ref, [("A1", card(1, 3))])  # gold's card on black's turn
    assert ref.moves == 0 and errors(ref) == [(cell("A1"), RED)]


def test_lift_and_put_back_is_no_move():
    ref = Referee(Game())
    play(ref, [("A1", card(0, 0)), ("I9", card(1, 1)), ("A1", scan.EMPTY)])
    assert errors(ref) == [(cell("A1"), AMBER)]  # not the last card: put it back
    play(ref, [("A1", card(0, 0))])
    assert errors(ref) == [] and ref.moves == 2


def test_lifting_the_last_card_takes_it_back():
    ref = Referee(Game())
    play(ref, [("A1", card(0, 0)), ("I9", card(1, 1)), ("I9", scan.EMPTY)])
    assert ref.moves == 1 and ref.game.side_to_play() == 1 and errors(ref) == []
    play(ref, [("H9", card(1, 1))])  # gold plays it elsewhere instead
    assert ref.moves == 2 and ref.game.owner(cell("H9")) == 1


def test_moving_the_last_card_is_a_correction():
    ref = Referee(Game())
    play(ref, [("A1", card(0, 0)), ("I9", card(1, 1))])
    # Slid from I9 to I8: the scanner may see the new cell first.
    play(ref, [("I8", card(1, 1)), ("I9", scan.EMPTY)])
    assert ref.moves == 2 and ref.game.owner(cell("I8")) == 1 and errors(ref) == []


def test_foreign_unreadable_and_duplicate_tags_are_errors():
    ref = Referee(Game())
    play(ref, [("A1", scan.FOREIGN), ("A3", scan.UNREADABLE)])
    assert errors(ref) == [(cell("A1"), UNKNOWN), (cell("A3"), UNKNOWN)] and ref.moves == 0
    ref = Referee(Game())
    play(ref, [("A1", card(0, 0)), ("I9", card(1, 1)), ("C4", card(0, 0))])
    assert (cell("C4"), UNKNOWN) in errors(ref) and ref.moves == 2


def armed_position():
    g = Game()
    occupy_royal(g, 1, 30)  # gold on the Royal Cell: specials unlocked, black to play
    gold = put_run(g, 1, 0, ("C2", "C3"))
    put(g, 0, 12, "H5")
    ref = Referee(g)
    for x in range(61):
        o = g.board[x]
        if o:
            side, k = (o - 1) >> 5, (o - 1) & 31
            ref.phys[x] = rain(side) if k == 31 else card(side, k)
    return ref, gold


def test_rain_placed_on_an_open_end():
    ref, gold = armed_position()
    play(ref, [("C4", rain(0, 1))])
    assert ref.moves == 1 and ref.game.card_at(cell("C4")) == 31
    ref, gold = armed_position()
    play(ref, [("A5", rain(0))])
    assert errors(ref) == [(cell("A5"), RED)] and ref.reason == 11  # not-open-end


def test_smoker_declared_then_the_card_lifted():
    ref, gold = armed_position()
    play(ref, [("C2", scan.EMPTY)])
    assert errors(ref) == [(cell("C2"), AMBER)]  # no Smoker declared yet
    play(ref, [("C2", card(1, gold[0]))])
    assert ref.pad(special(0, tag.SMOKER)) == 0
    play(ref, [("C2", scan.EMPTY)])
    assert ref.moves == 1 and not ref.game.board[cell("C2")] and errors(ref) == []


def test_beekeeper_declared_lift_then_put_down():
    ref, gold = armed_position()
    assert ref.pad(special(0, tag.BEEKEEPER)) == 0 and ref.armed == ARM_BEEKEEPER
    play(ref, [("C2", scan.EMPTY)])
    assert errors(ref) == [] and ref.moves == 0  # carried
    play(ref, [("H6", card(1, gold[0]))])  # beside black's H5: illegal for gold
    assert errors(ref) == [(cell("H6"), RED)]
    play(ref, [("H6", scan.EMPTY), ("G8", card(1, gold[0]))])
    assert ref.moves == 1 and ref.game.owner(cell("G8")) == 1 and errors(ref) == []


def test_pad_refuses_specials_that_cannot_be_used():
    g = Game()
    ref = Referee(g)
    assert ref.pad(special(0, tag.SMOKER)) == 9  # specials-locked
    assert ref.pad(special(1, tag.SMOKER)) == 4  # not-your-turn
    assert ref.armed == 0

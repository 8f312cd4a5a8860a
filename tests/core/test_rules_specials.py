# RULES.md §3.2: Rain, Beekeeper, Smoker; D-2 and special_then_place.
from apixagon.codes import (
    ADJACENT_OPPONENT,
    BAD_TARGET,
    CARD_ALREADY_PLAYED,
    NOT_OPEN_END,
    OCCUPIED,
    OK,
    ROYAL_IMMOVABLE,
    SEALED,
    SPECIAL_USED,
    SPECIALS_LOCKED,
)
from apixagon.game import REMOVED
from util import cell, new, occupy_royal, put, put_run, state, with_sym, without_sym

S = 0


def board(stp=False):
    """Royal occupied by gold; gold run C2-C3 (symbol S); black to play."""
    g = new(0, 0, 0, stp)
    occupy_royal(g, 1, 30)
    gold = put_run(g, 1, S, ("C2", "C3"))
    return g, gold


def test_all_specials_locked_before_the_royal_cell():
    g = new()
    put_run(g, 1, S, ("C2", "C3"))
    put(g, 0, 9, "H5")
    assert g.rain(0, cell("C4")) == SPECIALS_LOCKED
    assert g.smoker(0, cell("C2")) == SPECIALS_LOCKED
    assert g.beekeeper(0, cell("H5"), cell("H7")) == SPECIALS_LOCKED


def test_rain_on_a_free_open_end_of_an_opponent_run():
    g, gold = board()
    assert g.check_rain(0, cell("C5")) == NOT_OPEN_END
    assert g.check_rain(0, cell("D3")) == NOT_OPEN_END  # beside, off the axis
    assert g.check_rain(0, cell("C2")) == OCCUPIED
    assert g.rain(0, cell("C4")) == OK
    assert g.owner(cell("C4")) == 0 and g.card_at(cell("C4")) == 31
    assert g.side_to_play() == 1  # D-2: the special was the whole turn


def test_rain_not_on_own_run_and_only_two():
    g, gold = board()
    put_run(g, 0, S, ("G4", "G5"), gold)
    assert g.check_rain(0, cell("G6")) == NOT_OPEN_END  # own run
    assert g.rain(0, cell("C4")) == OK
    assert g.place(1, 9, cell("I9")) == OK
    assert g.rain(0, cell("C1")) == OK
    assert g.place(1, 11, cell("I7")) == OK
    put(g, 1, with_sym(5, gold)[2], "A5")
    put(g, 1, [k for k in with_sym(5, gold) if g.where(1, k) == 255][0], "A4")
    assert g.check_rain(0, cell("A3")) == SPECIAL_USED


def test_rain_blocks_and_ends_runs():
    g, gold = board()
    assert g.rain(0, cell("C4")) == OK
    k = with_sym(S, gold)[0]
    assert g.check_place(1, k, cell("C4")) == OCCUPIED
    # black's Rain touches nothing of black: a black card beside it is
    # beside its own card only (§3.2: Rain is its owner's card).
    assert g.place(1, 9, cell("I9")) == OK
    assert g.check_place(0, 12, cell("C5")) == OK


def test_beekeeper_moves_any_card_where_its_owner_could_place_it():
    g, gold = board()
    put(g, 0, 12, "H5")
    assert g.check_beekeeper(0, cell("A1"), cell("A3")) == BAD_TARGET  # nothing there
    assert g.check_beekeeper(0, cell("C2"), cell("C3")) == OCCUPIED
    # Gold's card to a cell beside black's H5: illegal for gold (rule 4).
    assert g.check_beekeeper(0, cell("C2"), cell("H6")) == ADJACENT_OPPONENT
    assert g.beekeeper(0, cell("C2"), cell("G7")) == OK
    assert g.where(1, gold[0]) == cell("G7") and not g.board[cell("C2")]
    assert g.side_to_play() == 1
    assert g.place(1, 9, cell("I9")) == OK
    assert g.beekeeper(0, cell("H5"), cell("A1")) == SPECIAL_USED  # once only


def test_beekeeper_moves_own_card_and_rain():
    g, gold = board()
    put(g, 0, 31, "C4")  # black Rain at gold's open end
    assert g.check_beekeeper(0, cell("C4"), cell("A3")) == NOT_OPEN_END
    assert g.beekeeper(0, cell("C4"), cell("C1")) == OK  # the other open end
    assert g.card_at(cell("C1")) == 31


def test_beekeeper_and_smoker_refuse_sealed_and_royal():
    g, gold = board()
    four = put_run(g, 0, 5, ("G4", "G5", "G6", "G7"), gold + [30])
    assert len(four) == 4 and g.is_sealed(cell("G5"))
    put(g, 1, 9, "A1")
    assert g.check_beekeeper(0, cell("G5"), cell("A3")) == SEALED
    assert g.check_beekeeper(0, cell("E5"), cell("A3")) == ROYAL_IMMOVABLE
    g.s[0] = 1  # gold to play
    assert g.check_smoker(1, cell("G5")) == SEALED
    assert g.check_smoker(1, cell("A1")) == BAD_TARGET  # own card
    assert g.check_smoker(1, cell("B1")) == BAD_TARGET  # free cell


def test_smoker_removes_for_good():
    g, gold = board()
    g.s[0] = 1  # gold plays the Smoker on black's card
    put(g, 0, 12, "H5")
    before = state(g)
    assert g.smoker(1, cell("E5")) == BAD_TARGET  # gold's own Royal card
    assert state(g) == before
    assert g.smoker(1, cell("H5")) == OK
    assert not g.board[cell("H5")] and g.where(0, 12) == REMOVED
    assert g.place(0, 12, cell("H5")) == CARD_ALREADY_PLAYED
    assert g.place(0, 13, cell("H5")) == OK
    assert g.smoker(1, cell("H5")) == SPECIAL_USED


def test_smoker_takes_a_rain():
    g, gold = board()
    put(g, 0, 31, "C4")
    g.s[0] = 1
    assert g.smoker(1, cell("C4")) == OK
    assert not g.board[cell("C4")]


def test_special_then_place_setting():
    g, gold = board(stp=True)
    assert g.rain(0, cell("C4")) == OK
    assert g.side_to_play() == 0 and g.placement_pending()
    assert g.smoker(0, cell("C2")) == SPECIAL_USED  # one special a turn
    assert g.place(1, 9, cell("I9")) != OK  # still black's turn
    assert g.place(0, without_sym(S)[3], cell("I5")) == OK
    assert g.side_to_play() == 1 and not g.placement_pending()


def test_undo_restores_each_special():
    g, gold = board()
    put(g, 0, 12, "H5")
    start = state(g)
    for move in (
        lambda: g.rain(0, cell("C4")),
        lambda: g.beekeeper(0, cell("C2"), cell("G7")),
        lambda: g.smoker(0, cell("C3")),
    ):
        assert move() == OK
        assert g.undo()
        assert state(g) == start

# RULES.md §6 Junior (D-8) and §7 Teen.
from apixagon.codes import (
    ALL_PLACED,
    BAD_TARGET,
    CARD_ALREADY_PLAYED,
    CARDS_OUT,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    OCCUPIED,
    OK,
    TEEN,
)
from apixagon.geometry import NCELLS, NONE, ROYAL
from util import cell, new, set_ply


def test_junior_first_card_on_the_royal_cell():
    g = new(JUNIOR)
    assert g.place(NONE, 0, cell("A1")) == BAD_TARGET
    assert g.place(NONE, 0, ROYAL) == OK


def test_junior_each_card_beside_the_last_one():
    g = new(JUNIOR)
    g.place(NONE, 0, ROYAL)
    assert g.place(NONE, 1, cell("A1")) == BAD_TARGET
    assert g.place(NONE, 1, ROYAL) == OCCUPIED
    assert g.place(NONE, 1, cell("D4")) == OK
    assert g.place(NONE, 2, cell("E6")) == BAD_TARGET  # beside E5, not D4
    assert g.place(NONE, 2, cell("C3")) == OK
    assert g.place(NONE, 2, cell("B3")) == CARD_ALREADY_PLAYED


def test_junior_d8_when_the_last_card_is_walled_in():
    g = new(JUNIOR)
    path = ("E5", "D4", "C3", "B3", "A2", "B2", "B1", "A1")
    for k, name in enumerate(path):
        assert g.place(NONE, k, cell(name)) == OK, name
    # A1's neighbours are all taken: B1 is the latest card with room.
    assert g.place(NONE, 8, cell("A3")) == BAD_TARGET  # beside A2, older
    assert g.place(NONE, 8, cell("C1")) == OK


def test_junior_has_no_sides_or_specials():
    g = new(JUNIOR)
    assert g.place(0, 0, ROYAL) == NOT_ALLOWED_IN_MODE
    g.place(NONE, 0, ROYAL)
    assert g.rain(NONE, cell("E6")) == NOT_ALLOWED_IN_MODE
    assert g.smoker(NONE, ROYAL) == NOT_ALLOWED_IN_MODE
    assert g.deck_empty(NONE) == NOT_ALLOWED_IN_MODE


def test_junior_ends_when_the_deck_is_placed():
    g = new(JUNIOR)
    for k in range(31):
        x = [y for y in range(NCELLS) if g.check_place(NONE, k, y) == OK][0]
        assert g.place(NONE, k, x) == OK
    assert g.over() == ALL_PLACED


def test_teen_ends_when_the_draw_deck_runs_out():
    for players in (2, 4, 6):
        g = new(TEEN, 0, players)
        assert g.place(0, 0, cell("A1")) == OK
        assert g.deck_empty(1) == OK
        assert g.over() == CARDS_OUT


def team_order(g, n):
    """(team, seat) of the first n turns."""
    out = []
    for p in range(n):
        set_ply(g, p)
        out.append((g.side_to_play(), g.seat_to_play()))
    set_ply(g, 0)
    return out


def test_teen_seats_follow_the_players_line():
    for players, seats in ((2, (1, 1)), (4, (2, 2)), (6, (3, 3)), (0, (2, 2))):
        g = new(TEEN, 0, players)
        assert g.seats == seats
        assert team_order(g, 2 * seats[0])[-2:] == [(0, seats[0]), (1, seats[1])]

# RULES.md §4-§5: team turn order and seats, shared specials, the smaller
# team's arsenal, forced removal.
from apixagon.codes import (
    BEEHIVE,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    QUEENS_GAMBIT,
    SILENT_SWARM,
    SPECIAL_USED,
    TEEN,
    THREE_VS_TWO,
    TWO_VS_ONE,
)
from util import cell, new, occupy_royal, put_run

FAR = ("A1", "I9", "A5", "I5", "E1", "E9", "C1", "G9", "C7", "G3", "A3", "I7")


def order(mode, start=0, n=8, players=0):
    """The seats that play the first n turns, as 'A1'...; each placement is
    made far from the others so that every one is legal."""
    g = new(mode, start, players)
    seats = []
    for i in range(n):
        t = g.side_to_play()
        seats.append("AB"[t] + str(g.seat_to_play()))
        assert g.place(t, i, cell(FAR[i])) == OK
    return seats


def test_four_players_alternate_teams_seat_by_seat():
    assert order(SILENT_SWARM) == ["A1", "B1", "A2", "B2", "A1", "B1", "A2", "B2"]
    assert order(SILENT_SWARM, 1) == ["B1", "A1", "B2", "A2", "B1", "A1", "B2", "A2"]


def test_six_players():
    assert order(BEEHIVE, 0, 7) == ["A1", "B1", "A2", "B2", "A3", "B3", "A1"]


def test_two_vs_one_the_single_player_plays_every_other_turn():
    assert order(TWO_VS_ONE) == ["A1", "B1", "A2", "B1", "A1", "B1", "A2", "B1"]


def test_three_vs_two():
    want = ["A1", "B1", "A2", "B2", "A3", "B1", "A1", "B2", "A2", "B1"]
    assert order(THREE_VS_TWO, 0, 10) == want


def test_teen_seats_follow_players():
    assert order(TEEN, 0, 4, 6) == ["A1", "B1", "A2", "B2"]
    assert new(TEEN, 0, 2).seats == (1, 1) and new(TEEN).seats == (2, 2)


def test_a_wrong_seat_is_not_your_turn():
    g = new(SILENT_SWARM)
    assert g.place(0, 0, cell("A1"), 2) == NOT_YOUR_TURN
    assert g.place(1, 0, cell("A1"), 1) == NOT_YOUR_TURN
    assert g.place(0, 0, cell("A1"), 1) == OK
    assert g.place(1, 0, cell("I9"), 2) == NOT_YOUR_TURN
    assert g.place(1, 0, cell("I9"), 1) == OK


def test_specials_are_shared_by_the_team():
    g = new(SILENT_SWARM)
    occupy_royal(g, 1, 30)
    gold = put_run(g, 1, 0, ("C2", "C3"))
    put_run(g, 0, 1, ("G4", "G5"), gold)
    assert g.smoker(0, cell("C2"), 1) == OK  # A1 uses the team's Smoker
    assert g.place(1, 9, cell("I9")) == OK
    assert g.smoker(0, cell("C3"), 2) == SPECIAL_USED  # A2 has none left


def test_smaller_team_starts_with_one_rain_and_one_smoker():
    for mode in (TWO_VS_ONE, THREE_VS_TWO):
        g = new(mode)
        assert g.specials_left(0) == (2, 1, 1)
        assert g.specials_left(1) == (1, 0, 1)
    g = new(TWO_VS_ONE, 1)  # team B (the single player) to play
    occupy_royal(g, 0, 30)
    first = put_run(g, 0, 0, ("C2", "C3"))
    put_run(g, 0, 5, ("G4", "G5"), first + [30])
    assert g.beekeeper(1, cell("C2"), cell("A5")) == SPECIAL_USED  # never had one
    assert g.rain(1, cell("C4")) == OK
    assert g.place(0, 20, cell("I9")) == OK
    assert g.rain(1, cell("G6")) == SPECIAL_USED  # its only Rain is played


def test_forced_removal_in_the_silent_modes_only():
    for mode in (SILENT_SWARM, BEEHIVE, TWO_VS_ONE, THREE_VS_TWO):
        g = new(mode)
        assert g.forced_removal(1) == OK and g.forced_removal(1) == OK
        assert g.forced_removals(1) == 2 and g.forced_removals(0) == 0
        assert g.side_to_play() == 0  # a declaration takes no turn
        assert g.undo() and g.forced_removals(1) == 1
    for mode in (QUEENS_GAMBIT, TEEN, JUNIOR):
        assert new(mode).forced_removal(0) == NOT_ALLOWED_IN_MODE

# RULES.md §4 and §5: team games (seats and turn order, one shared deck and
# set of specials per team, the smaller team's arsenal, forced removal).
# Reserve deck, excess penalty and the end with the reserve:
# test_rules_reserve; Teen (§7): test_rules_junior_teen.
from apixagon.codes import (
    ADJACENT_OPPONENT,
    BEEHIVE,
    BEEKEEPER,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    QUEENS_GAMBIT,
    RAIN_MOVE,
    SILENT_SWARM,
    SMOKER,
    SPECIAL_USED,
    TEEN,
    THREE_VS_TWO,
    TWO_VS_ONE,
)
from util import (
    cell,
    new,
    occupy_royal,
    play,
    put,
    put_run,
    refused,
    seat_order,
    set_ply,
    with_sym,
    without_sym,
)

A, B = 0, 1


def test_silent_swarm_seats_a1_b1_a2_b2():
    """§4 seats: A1, B1, A2, B2 from the starting team's seat 1 (start B too)."""
    want = [(A, 1), (B, 1), (A, 2), (B, 2), (A, 1), (B, 1)]
    assert seat_order(new(SILENT_SWARM), 6) == want
    want = [(B, 1), (A, 1), (B, 2), (A, 2), (B, 1)]
    assert seat_order(new(SILENT_SWARM, B), 5) == want  # start B


def test_beehive_seats_a1_b1_a2_b2_a3_b3():
    """§4 seats with 6 players: A1, B1, A2, B2, A3, B3."""
    want = [(A, 1), (B, 1), (A, 2), (B, 2), (A, 3), (B, 3), (A, 1), (B, 1)]
    assert seat_order(new(BEEHIVE), 8) == want


def test_2v1_the_single_player_plays_every_b_turn():
    """§5: turns alternate teams; the single player plays every B turn."""
    want = [(A, 1), (B, 1), (A, 2), (B, 1), (A, 1), (B, 1)]
    assert seat_order(new(TWO_VS_ONE), 6) == want


def test_3v2_the_smaller_team_rotates_its_two_seats():
    """§5: the smaller team's two players take its turns in rotation."""
    want = [(A, 1), (B, 1), (A, 2), (B, 2), (A, 3), (B, 1), (A, 1), (B, 2), (A, 2), (B, 1)]
    assert seat_order(new(THREE_VS_TWO), 10) == want


def test_seat_checked_when_given():
    """§4 and NOTATION: a seat that is not the one to play is not-your-turn;
    the team letter alone implies the seat."""
    g = new(SILENT_SWARM)
    refused(g, NOT_YOUR_TURN, g.place, A, 1, cell("A1"), 2)
    refused(g, NOT_YOUR_TURN, g.place, B, 1, cell("A1"), 1)
    play(g, A, 1, "A1", 1)  # A1
    refused(g, NOT_YOUR_TURN, g.place, B, 1, cell("I9"), 2)
    play(g, B, 1, "I9", 1)  # B1
    play(g, A, 2, "A3")  # A2, seat implied
    assert g.seat_to_play() == 2
    refused(g, NOT_YOUR_TURN, g.place, B, 2, cell("I7"), 1)
    play(g, B, 2, "I7", 2)


def test_teammates_share_one_deck_and_one_side():
    """§4: teammates play one shared deck as one side (their cards make runs
    together)."""
    g = new(SILENT_SWARM)
    s = 5
    cards = with_sym(s)
    play(g, A, cards[0], "G4", 1)
    play(g, B, 1, "A1", 1)
    play(g, A, cards[1], "G5", 2)  # A2 builds on A1's card: a run of A
    play(g, B, 2, "A3", 2)
    assert g.count_runs(A) == (0, 0)
    play(g, A, cards[2], "G6", 1)
    assert g.count_runs(A) == (1, 0) and g.had_three(A)


def test_rule_4_between_teams():
    """§4 (the base game) with §3 rule 4 between the teams."""
    g = new(SILENT_SWARM)
    put(g, A, 3, "C2")
    set_ply(g, 1)
    refused(g, ADJACENT_OPPONENT, g.place, B, 4, cell("C3"), 1)
    g = new(SILENT_SWARM)
    put_run(g, A, 0, ("C2", "C3"))
    set_ply(g, 3)  # B2
    refused(g, ADJACENT_OPPONENT, g.place, B, without_sym(0)[0], cell("C4"), 2)
    play(g, B, with_sym(0)[0], "C4", 2)  # a block


def test_specials_shared_by_the_team():
    """§4: one shared set of 4 specials per team."""
    g = new(SILENT_SWARM)
    occupy_royal(g, B, 30)
    put_run(g, B, 0, ("C2", "C3"))
    put_run(g, B, 26, ("I6", "I7"), (0, 5, 30))
    assert g.rain(A, cell("C4"), 1) == OK  # A1
    play(g, B, 1, "E9")
    assert g.specials_left(A) == (1, 1, 1)
    assert g.rain(A, cell("C1"), 2) == OK  # A2: the team's second Rain
    play(g, B, 2, "E1")
    refused(g, SPECIAL_USED, g.rain, A, cell("I5"), 1)  # none left for A1


def test_larger_teams_and_the_two_player_game_have_all_four_specials():
    """§1 and §4: 4 specials per side (2 Rains, Beekeeper, Smoker)."""
    for mode in (QUEENS_GAMBIT, SILENT_SWARM, BEEHIVE, TEEN):
        g = new(mode)
        assert g.specials_left(A) == (2, 1, 1) and g.specials_left(B) == (2, 1, 1)
    for mode in (TWO_VS_ONE, THREE_VS_TWO):
        g = new(mode)
        assert g.specials_left(A) == (2, 1, 1)


def test_smaller_team_has_one_rain_and_one_smoker():
    """§5: the smaller team starts with only 1 Rain and 1 Smoker."""
    for mode in (TWO_VS_ONE, THREE_VS_TWO):
        g = new(mode)
        assert g.specials_left(B) == (1, 0, 1)
        occupy_royal(g, A, 30)
        put_run(g, A, 0, ("C2", "C3"))
        put_run(g, A, 26, ("I6", "I7"), (0, 5, 30))
        put(g, B, 9, "A5")
        set_ply(g, 1)
        assert g.check_special(B, BEEKEEPER) == SPECIAL_USED
        refused(g, SPECIAL_USED, g.beekeeper, B, cell("A5"), cell("A3"))
        assert g.check_special(B, RAIN_MOVE) == OK
        assert g.rain(B, cell("C4")) == OK
        play(g, A, 1, "E9")
        refused(g, SPECIAL_USED, g.rain, B, cell("C1"))
        assert g.check_special(B, SMOKER) == OK
        assert g.smoker(B, cell("E9")) == OK


def test_forced_removal_is_recorded_in_the_silent_modes():
    """§4 forced removal: recorded when told, any time, taking no turn."""
    for mode in (SILENT_SWARM, BEEHIVE, TWO_VS_ONE, THREE_VS_TWO):
        g = new(mode)
        assert g.forced_removal(B) == OK  # any time, takes no turn
        assert g.forced_removal(B) == OK
        assert g.forced_removal(A) == OK
        assert g.forced_removals(B) == 2 and g.forced_removals(A) == 1
        assert g.side_to_play() == A and g.ply() == 0
        assert g.undo() and g.forced_removals(A) == 0


def test_forced_removal_refused_without_the_code_of_silence():
    """§4 forced removal only with the code of silence (not in the 2-player
    game or Teen: not-allowed-in-mode)."""
    for mode in (QUEENS_GAMBIT, TEEN):
        g = new(mode)
        refused(g, NOT_ALLOWED_IN_MODE, g.forced_removal, A)

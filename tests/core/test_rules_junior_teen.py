# RULES.md §6 Junior (D-8) and §7 Teen (the team game without the code of
# silence or a reserve deck, ended when the draw deck runs out).
from apixagon.codes import (
    ALL_PLACED,
    BAD_TARGET,
    BEEKEEPER,
    CARD_ALREADY_PLAYED,
    CARDS_OUT,
    GAME_OVER,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    OCCUPIED,
    OK,
    PLACE,
    RAIN_MOVE,
    SMOKER,
    TEEN,
    TWO_SEQUENCES,
)
from apixagon.geometry import NCELLS, NONE, ROYAL, neighbours
from util import cell, cells, new, play, put_run, refused, seat_order, set_ply, with_sym

J = NONE  # Junior moves carry no side
CHAIN = ("E5", "D4", "C3", "C2", "B1", "B2", "A2", "A1")  # A1 ends walled in


def test_junior_first_card_on_the_royal_cell():
    """§6: the first card goes face up on the Royal Cell."""
    g = new(JUNIOR)
    for x in range(NCELLS):
        assert g.check_place(J, 12, x) == (OK if x == ROYAL else BAD_TARGET)
    refused(g, BAD_TARGET, g.place, J, 12, cell("A1"))
    play(g, J, 12, ROYAL)
    assert g.owner(ROYAL) == 0 and g.card_at(ROYAL) == 12


def test_junior_next_card_beside_the_last_one_any_symbol():
    """§6: each card on a free cell beside the last card, which becomes the new
    reference (the board cannot hear the symbol named)."""
    g = new(JUNIOR)
    play(g, J, 12, ROYAL)
    near = neighbours(ROYAL)
    for x in range(NCELLS):
        if x != ROYAL:
            want = OK if x in near else BAD_TARGET
            for k in (0, 13, 30):  # no symbol check: the board cannot hear it
                assert g.check_place(J, k, x) == want
    play(g, J, 0, "D4")
    # The new reference is D4: E5's other neighbours are no longer accepted.
    refused(g, BAD_TARGET, g.place, J, 1, cell("F6"))
    refused(g, BAD_TARGET, g.place, J, 1, cell("E6"))
    play(g, J, 1, "C3")


def test_junior_refusals():
    """§6 and NOTATION: occupied, card-already-played; no sides in Junior
    (not-allowed-in-mode)."""
    g = new(JUNIOR)
    play(g, J, 12, ROYAL)
    refused(g, OCCUPIED, g.place, J, 3, ROYAL)
    refused(g, CARD_ALREADY_PLAYED, g.place, J, 12, cell("D4"))
    for side in (0, 1):
        refused(g, NOT_ALLOWED_IN_MODE, g.place, side, 3, cell("D4"))


def test_junior_has_no_specials_declarations_or_reserve():
    """§6: no specials, no silence (forced removal), no deck-empty or reserve
    (not-allowed-in-mode)."""
    g = new(JUNIOR)
    play(g, J, 12, ROYAL)
    play(g, J, 13, "D4")
    for kind in (RAIN_MOVE, BEEKEEPER, SMOKER):
        assert g.check_special(J, kind) == NOT_ALLOWED_IN_MODE
    refused(g, NOT_ALLOWED_IN_MODE, g.rain, J, cell("C3"))
    refused(g, NOT_ALLOWED_IN_MODE, g.smoker, J, cell("D4"))
    refused(g, NOT_ALLOWED_IN_MODE, g.beekeeper, J, cell("D4"), cell("C3"))
    refused(g, NOT_ALLOWED_IN_MODE, g.deck_empty, J)
    refused(g, NOT_ALLOWED_IN_MODE, g.forced_removal, J)
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, J, cells("D4"))
    refused(g, NOT_ALLOWED_IN_MODE, g.deck_empty, 0)


def test_junior_d8_a_walled_in_last_card():
    """§6 D-8: if the last card has no free neighbour, a cell beside the most
    recent card that still has one."""
    g = new(JUNIOR)
    for k in range(len(CHAIN)):
        play(g, J, k, CHAIN[k])
    assert not [y for y in neighbours(cell("A1")) if not g.board[y]]
    # A2 is the most recent card with a free neighbour (A3, B3).
    for name in ("A3", "B3"):
        assert g.check_place(J, 20, cell(name)) == OK
    for name in ("C1", "D3", "B4", "F5"):  # beside older cards only
        refused(g, BAD_TARGET, g.place, J, 20, cell(name))
    refused(g, BAD_TARGET, g.place, J, 20, cell("B4"))
    play(g, J, 20, "B3")
    assert g.check_place(J, 21, cell("B4")) == OK  # B3 is the reference now
    assert g.undo() == PLACE
    refused(g, BAD_TARGET, g.place, J, 21, cell("B4"))  # A2 again


def test_junior_has_no_hints():
    """§6: no sequences, so no hints."""
    g = new(JUNIOR)
    out = bytearray(NCELLS)
    assert g.legal_cells(0, out) == 0 and g.card_cells(5, out, 0) == 0


def test_teen_ends_when_the_deck_runs_out_by_count():
    """§7: with 2, 4 or 6 players the game ends when the draw deck runs out (no
    reserve deck), more sequences of 3 winning (D-6)."""
    for players in (2, 4, 6):
        g = new(TEEN, 0, players)
        put_run(g, 1, 5, ("G4", "G5", "G6"))
        assert g.deck_empty(0) == OK  # the first declaration: no reserve deck
        assert g.over() == CARDS_OUT and g.winner() == 1


def test_teen_has_no_reserve_and_no_code_of_silence():
    """§7: no reserve deck, no forced removal (not-allowed-in-mode)."""
    g = new(TEEN)
    play(g, 0, 0, "A1")
    set_ply(g, 4)  # A1 again
    refused(g, NOT_ALLOWED_IN_MODE, g.reserve, 0, cells("A1"))
    refused(g, NOT_ALLOWED_IN_MODE, g.forced_removal, 1)


def test_teen_is_the_full_team_game():
    """§7: the full team game: all four specials, two sequences of 4 win."""
    g = new(TEEN, 0, 6)
    assert g.specials_left(0) == g.specials_left(1) == (2, 1, 1)
    first = put_run(g, 0, 5, ("G4", "G5", "G6", "G7"))
    second = put_run(g, 0, 1, ("B1", "B2", "B3"), first)
    set_ply(g, 2)  # A2
    play(g, 0, with_sym(1, first + second)[0], "B4", 2)
    assert g.over() == TWO_SEQUENCES and g.winner() == 0


def test_teen_seats_follow_the_players_line():
    """§7 and NOTATION `players 2|4|6` (default 4): one, two or three seats a
    team."""
    for players, seats in ((2, (1, 1)), (4, (2, 2)), (6, (3, 3)), (0, (2, 2))):
        g = new(TEEN, 0, players)
        assert g.seats == seats
        assert seat_order(g, 2 * seats[0])[-2:] == [(0, seats[0]), (1, seats[1])]


def test_junior_ends_when_the_whole_deck_is_placed():
    """§6 with D-13: two players are dealt 15 cards each; when the lines
    name no player the board cannot tell who ran out first, and the game
    ends, with no winner, once every card dealt is down (all 31)."""
    g = new(JUNIOR)
    for k in range(31):
        assert not g.over()
        x = 0
        while g.check_place(J, k, x) != OK:
            x += 1
        play(g, J, k, x)
    assert g.over() == ALL_PLACED
    x = 0
    while g.board[x]:
        x += 1
    refused(g, GAME_OVER, g.place, J, 0, x)

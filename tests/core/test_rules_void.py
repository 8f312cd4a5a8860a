# RULES.md §4 D-9 (the tactical void's pass), D-10 (the count waits for the
# reserve), D-14 (the keeper's turn is the reserve, the empty reserve),
# and NOTATION.md's reason-code order within a reserve.
from apixagon import base
from apixagon.codes import (
    BAD_TARGET,
    BEEHIVE,
    BEEKEEPER,
    CANNOT_PASS,
    EXHAUSTED,
    GAME_OVER,
    JUNIOR,
    NOT_ALLOWED_IN_MODE,
    NOT_YOUR_TURN,
    OK,
    QUEENS_GAMBIT,
    ROYAL_IMMOVABLE,
    SILENT_SWARM,
    SMOKER,
    TEEN,
    THREE_VS_TWO,
    TWO_VS_ONE,
)
from apixagon.game import REMOVED
from apixagon.geometry import NCELLS, ROYAL
from util import cell, cells, new, occupy_royal, play, put, put_run, refused, set_ply, state

A, B = 0, 1


def all_of_a_down(mode=SILENT_SWARM, ply=1):
    """Team A has all 31 cards on the board (rows A-D, E1-E4, card 30 on
    I9): nothing of A's can be placed. The turn count is set to ply (odd:
    B's turn), B plays G5, then A's seat of turn ply+1 is to play."""
    g = new(mode)
    for k in range(30):
        put(g, A, k, k)
    put(g, A, 30, "I9")
    set_ply(g, ply)
    play(g, B, 0, "G5")
    return g


def test_variants_append_their_scalars_after_the_base_game():
    # team.py and junior.py number their scalars from 11 (const() needs
    # literals): the base game must keep exactly 11.
    assert base.NS == 11
    assert len(new(QUEENS_GAMBIT).s) == 11
    assert len(new(SILENT_SWARM).s) == 17 and len(new(JUNIOR).s) == 18


# ---- D-9: the pass --------------------------------------------------------
def test_pass_outside_a_tactical_void_is_cannot_pass():
    for mode in (QUEENS_GAMBIT, TEEN):
        g = new(mode)
        refused(g, CANNOT_PASS, g.pass_turn, A)  # no reserve deck, no void
    g = new(SILENT_SWARM)
    refused(g, CANNOT_PASS, g.pass_turn, A)  # the deck is not declared empty
    g = new(JUNIOR)
    refused(g, NOT_ALLOWED_IN_MODE, g.check_pass, A)  # no turns to pass


def test_a_pass_by_the_wrong_seat_or_after_the_end():
    g = all_of_a_down()
    assert g.deck_empty(A) == OK
    refused(g, NOT_YOUR_TURN, g.pass_turn, B)
    refused(g, NOT_YOUR_TURN, g.pass_turn, A, 1)  # A2 is to play
    assert g.pass_turn(A, 2) == OK
    g = new(QUEENS_GAMBIT)
    assert g.deck_empty(A) == OK
    refused(g, GAME_OVER, g.pass_turn, A)


def test_team_of_two_passes_only_when_stuck():
    # "costretto ad attingere alla/e carte speciali ... o posizionare"
    g = new(SILENT_SWARM)
    put(g, A, 0, "A1")
    set_ply(g, 2)  # A2
    assert g.deck_empty(A) == OK
    refused(g, CANNOT_PASS, g.pass_turn, A)  # A2 can still place
    g = all_of_a_down()
    assert g.deck_empty(A) == OK
    before = state(g)
    assert g.pass_turn(A) == OK
    assert g.side_to_play() == B and g.last_move() == (8, bytes((A,)))
    assert g.undo() == 8 and state(g) == before  # a take-back of the pass


def test_a_usable_special_means_the_seat_is_not_stuck():
    g = all_of_a_down()
    occupy_royal(g, B, 30)  # specials unlocked: A's Smoker can take G5
    assert g.deck_empty(A) == OK
    refused(g, CANNOT_PASS, g.pass_turn, A)
    assert g.smoker(A, cell("G5")) == OK


def test_the_keeper_never_passes():
    g = all_of_a_down(SILENT_SWARM, 3)  # A1, the keeper
    assert g.deck_empty(A) == OK
    refused(g, CANNOT_PASS, g.pass_turn, A)


def test_team_of_three_passes_at_will():
    # "usare una speciale o passare il turno"
    g = new(BEEHIVE)
    put(g, A, 0, "A1")
    assert g.deck_empty(A) == OK
    assert g.pass_turn(A, 1) == OK  # A1 could place, and passes
    play(g, B, 0, "I9")
    assert g.pass_turn(A, 2) == OK
    play(g, B, 1, "I7")
    assert g.seat_to_play() == 3
    refused(g, CANNOT_PASS, g.pass_turn, A)  # A3 keeps the symmetry: reserve


def test_unbalanced_teams_pass_by_their_size():
    # §5: the void follows the keeper's team size: 3 as with 6, 2 as with 4.
    g = new(THREE_VS_TWO)
    put(g, A, 0, "A1")
    put(g, B, 0, "I9")
    assert g.deck_empty(A) == OK
    assert g.pass_turn(A, 1) == OK  # the larger team, at will
    assert g.deck_empty(B) == OK
    refused(g, CANNOT_PASS, g.pass_turn, B)  # B1: its keeper builds
    assert g.reserve(B, cells("I9")) == OK
    assert g.pass_turn(A, 2) == OK
    refused(g, CANNOT_PASS, g.pass_turn, B, 2)  # reserve built: no void any more
    g = new(THREE_VS_TWO)
    set_ply(g, 3)  # B2
    assert g.deck_empty(B) == OK
    refused(g, CANNOT_PASS, g.pass_turn, B, 2)  # B2 can place: a team of two
    g = new(TWO_VS_ONE)
    assert g.deck_empty(B) == OK
    set_ply(g, 1)
    refused(g, CANNOT_PASS, g.pass_turn, B)  # the single player keeps its reserve


def test_no_pass_once_the_reserve_is_built():
    g = all_of_a_down(BEEHIVE, 3)  # A3, the keeper
    assert g.deck_empty(A) == OK
    assert g.reserve(A, cells("I9")) == OK
    play(g, B, 1, "H5")
    refused(g, CANNOT_PASS, g.pass_turn, A)


# ---- D-14: the keeper's turn is the reserve ---------------------------------
def test_the_keepers_turn_after_deck_empty_allows_only_the_reserve():
    g = new(SILENT_SWARM)
    put(g, A, 0, "A1")
    put(g, B, 0, "I9")
    occupy_royal(g, B, 30)
    assert g.deck_empty(A) == OK  # declared in the keeper's own turn
    assert g.reserve_due()
    refused(g, NOT_YOUR_TURN, g.place, A, 5, cell("C3"))
    refused(g, NOT_YOUR_TURN, g.smoker, A, cell("I9"))
    assert g.check_special(A, BEEKEEPER) == NOT_YOUR_TURN
    assert g.check_special(A, SMOKER) == NOT_YOUR_TURN
    refused(g, CANNOT_PASS, g.pass_turn, A)
    out = bytearray(NCELLS)
    assert g.legal_cells(None, out) == 0 and not any(out)  # no hints to place
    assert g.card_cells(5, out) == 0
    assert g.reserve(A, cells("A1")) == OK
    assert not g.reserve_due() and g.side_to_play() == B


def test_the_keepers_turn_comes_round_after_the_declaration():
    g = new(SILENT_SWARM)
    put(g, A, 0, "A1")
    set_ply(g, 2)  # A2
    assert g.deck_empty(A) == OK and not g.reserve_due()
    play(g, A, 1, "C3")  # A2 still places the cards in its hand
    play(g, B, 0, "I9")
    assert g.seat_to_play() == 1 and g.reserve_due()
    refused(g, NOT_YOUR_TURN, g.place, A, 2, cell("C7"))


def test_the_empty_reserve_only_when_nothing_may_be_taken_back():
    g = new(SILENT_SWARM)
    put(g, A, 0, "A1")
    assert g.deck_empty(A) == OK
    refused(g, BAD_TARGET, g.reserve, A, b"")  # A1's lone card may come back
    g = new(SILENT_SWARM)
    put_run(g, A, 0, ("C1", "C2", "C3"))  # a group of three stays
    occupy_royal(g, A, 30)  # the Royal card stays
    assert g.deck_empty(A) == OK
    assert g.reserve(A, b"") == OK
    assert g.reserve_used(A) and g.side_to_play() == B
    assert g.last_move() == (5, bytes((A,)))


def test_reserve_codes_bad_target_first_then_royal_or_sealed_then_the_group():
    g = new(SILENT_SWARM)
    put_run(g, A, 0, ("C1", "C2", "C3", "C4"))  # sealed
    put(g, A, 30, ROYAL)
    put(g, A, 7, "A1")
    put_run(g, A, 1, ("G3", "G4", "G5"))
    assert g.deck_empty(A) == OK
    refused(g, BAD_TARGET, g.reserve, A, cells("C1", "I9"))  # I9 free: bad-target first
    refused(g, ROYAL_IMMOVABLE, g.reserve, A, cells("G3", "E5"))  # before the group
    assert g.reserve(A, cells("A1")) == OK


# ---- D-10: the count waits for the reserve -----------------------------------
def test_stuck_before_the_reserve_the_game_waits_then_ends_after_it():
    g = new(SILENT_SWARM)
    for k in range(30):
        put(g, A, k, k)
    put(g, A, 30, "E6")  # one group: nothing A's may be taken back
    set_ply(g, 1)
    play(g, B, 0, "G5")
    assert not g.over()  # A2 cannot move: the players declare
    assert g.deck_empty(A) == OK and g.pass_turn(A) == OK
    play(g, B, 1, "G7")
    assert g.reserve(A, b"") == OK  # the keeper: the empty reserve
    play(g, B, 2, "H5")
    # A2: nothing to place, the reserve spent: the count ends it (D-6)
    assert g.over() == EXHAUSTED


def test_without_a_reserve_deck_a_stuck_side_ends_the_game_at_once():
    g = all_of_a_down(TEEN)
    assert g.over() == EXHAUSTED


# ---- D-2's special_then_place in the void ------------------------------------
def test_a_special_with_no_placement_to_follow_ends_the_turn():
    # special_then_place: the placement after the special is owed only
    # when there is one to make; otherwise the turn ends with the special
    # (a keeper could neither place nor build: the match would wait for ever)
    g = new(QUEENS_GAMBIT, 0, 0, True)
    for k in range(31):
        g.loc[A * 31 + k] = REMOVED  # none of A's cards left to place
    occupy_royal(g, B, 30)
    put(g, B, 0, "G5")
    assert g.smoker(A, cell("G5")) == OK
    assert not g.placement_pending() and g.side_to_play() == B and not g.over()


def test_the_keepers_owed_placement_comes_before_its_reserve():
    # A1, the keeper, began its turn with a special before A's deck was
    # declared empty: that turn ends with its placement; the next is the
    # reserve (D-14). No pass while a placement is owed (D-9).
    g = new(SILENT_SWARM, 0, 0, True)
    put(g, A, 0, "A1")
    put(g, B, 0, "I9")
    occupy_royal(g, B, 30)
    assert g.smoker(A, cell("I9")) == OK and g.placement_pending()
    assert g.deck_empty(A) == OK and not g.reserve_due()
    refused(g, CANNOT_PASS, g.pass_turn, A)
    play(g, A, 1, "C3")
    play(g, B, 1, "I7")
    play(g, A, 2, "C7")  # A2
    play(g, B, 2, "G9")
    assert g.seat_to_play() == 1 and g.reserve_due()

# RULES.md §3.2: Rain, Beekeeper, Smoker (only after the Royal Cell is
# occupied), each used once; §3 D-2: a special is the whole turn, or (setting
# special_then_place) a placement follows it. Every refusal asserts its
# NOTATION.md code and an unchanged position.
from apixagon.codes import (
    ADJACENT_OPPONENT,
    BAD_TARGET,
    BEEKEEPER,
    CARD_ALREADY_PLAYED,
    NOT_OPEN_END,
    NOT_YOUR_TURN,
    OCCUPIED,
    OK,
    PLACE,
    RAIN_MOVE,
    ROYAL_IMMOVABLE,
    SEALED,
    SMOKER,
    SPECIAL_USED,
    SPECIALS_LOCKED,
)
from apixagon.deck import RAIN
from apixagon.game import REMOVED
from apixagon.geometry import ROYAL
from util import cell, new, occupy_royal, play, put, put_run, refused, set_ply, state, with_sym

S = 0


def board(stp=False):
    """Gold holds the Royal Cell (card 30) and the runs C2-C3 (S) and
    I6-I7 (26); a lone black card on A5. Black to play."""
    g = new(0, 0, 0, stp)
    occupy_royal(g, 1, 30)
    gold = put_run(g, 1, S, ("C2", "C3"))
    gold += put_run(g, 1, 26, ("I6", "I7"), gold + [30])
    put(g, 0, 20, "A5")
    return g, gold


def sealed_gold(g):
    """A gold sequence of 4 on G6-G9: sealed (§2)."""
    return put_run(g, 1, 27, ("G6", "G7", "G8", "G9"), (0, 5, 6, 7, 30))


def test_specials_locked_before_the_royal_cell():
    """§3.2: no special before the Royal Cell is occupied (NOTATION specials-locked)."""
    g = new()
    put_run(g, 1, S, ("C2", "C3"))
    put(g, 0, 20, "A5")
    refused(g, SPECIALS_LOCKED, g.rain, 0, cell("C4"))
    refused(g, SPECIALS_LOCKED, g.smoker, 0, cell("C2"))
    refused(g, SPECIALS_LOCKED, g.beekeeper, 0, cell("A5"), cell("A3"))


def test_rain_on_a_free_open_end_of_an_opponent_run():
    """§3.2 Rain: on a free open end of an opponent run; it stays as its
    owner's card; D-2: the special is the whole turn."""
    g, gold = board()
    for name in ("C1", "C4", "I5", "I8"):
        assert g.check_rain(0, cell(name)) == OK
    assert g.rain(0, cell("C4")) == OK
    x = cell("C4")
    assert g.owner(x) == 0 and g.card_at(x) == RAIN
    assert g.specials_left(0) == (1, 1, 1) and g.specials_left(1) == (2, 1, 1)
    assert g.side_to_play() == 1  # D-2: the special was the whole turn
    refused(g, NOT_YOUR_TURN, g.place, 0, 21, cell("A1"))


def test_rain_elsewhere_is_refused():
    """§3.2 Rain: nowhere but a free open end of an opponent run (NOTATION
    not-open-end, occupied)."""
    g, gold = board()
    for name in ("C5", "D3", "B2", "A1", "H9"):  # beyond, off the axis, far
        refused(g, NOT_OPEN_END, g.rain, 0, cell(name))
    refused(g, OCCUPIED, g.rain, 0, cell("C2"))
    own = put_run(g, 0, 27, ("G4", "G5"), (20,))
    assert own
    refused(g, NOT_OPEN_END, g.rain, 0, cell("G6"))  # an own run's end


def test_rain_stays_as_its_owners_card():
    """§3.2 Rain: it stays and blocks the end; rule 4 sees it as its owner's card."""
    g, gold = board()
    assert g.rain(0, cell("C4")) == OK
    refused(g, OCCUPIED, g.place, 1, with_sym(S, gold)[0], cell("C4"))
    for k in range(31):
        if not g.loc[31 + k]:
            assert g.check_place(1, k, cell("C5")) == ADJACENT_OPPONENT  # rule 3


def test_only_two_rains():
    """§3.2: each special is used once: two Rains (NOTATION special-used)."""
    g, gold = board()
    assert g.rain(0, cell("C4")) == OK
    play(g, 1, 1, "E9")
    assert g.rain(0, cell("C1")) == OK
    play(g, 1, 2, "E1")
    refused(g, SPECIAL_USED, g.rain, 0, cell("I5"))
    assert g.specials_left(0) == (0, 1, 1)


def test_beekeeper_moves_an_own_card():
    """§3.2 Beekeeper: moves an own card; the Beekeeper is then discarded."""
    g, gold = board()
    assert g.beekeeper(0, cell("A5"), cell("A3")) == OK
    assert g.where(0, 20) == cell("A3") and not g.board[cell("A5")]
    assert g.specials_left(0) == (2, 0, 1) and g.side_to_play() == 1


def test_beekeeper_moves_an_opponent_card_where_its_owner_could_place_it():
    """§3.2 Beekeeper: an opponent card, to a cell where its owner could
    place it (rule 4 for the owner)."""
    g, gold = board()
    refused(g, ADJACENT_OPPONENT, g.beekeeper, 0, cell("C3"), cell("A4"))  # beside black
    assert g.beekeeper(0, cell("C3"), cell("G9")) == OK
    assert g.where(1, gold[1]) == cell("G9") and g.owner(cell("G9")) == 1


def test_beekeeper_moves_a_rain_to_an_open_end_for_its_owner():
    """§3.2 Beekeeper: a Rain too (either side's), to an open end of a run of
    its owner's opponent."""
    g, gold = board()
    put(g, 0, 31, "C4")  # a black Rain
    assert g.check_beekeeper(0, cell("C4"), cell("C1")) == OK  # its owner may too
    set_ply(g, 1)
    refused(g, NOT_OPEN_END, g.beekeeper, 1, cell("C4"), cell("A1"))
    assert g.check_beekeeper(1, cell("C4"), cell("C1")) == OK
    assert g.beekeeper(1, cell("C4"), cell("I8")) == OK  # blocks gold's own run
    assert g.owner(cell("I8")) == 0 and g.card_at(cell("I8")) == RAIN


def test_beekeeper_judges_the_target_with_the_card_lifted():
    """§3.2 Beekeeper: where its owner could legally place it, judged with the
    card lifted."""
    # Core reading of "where its owner could legally place it": the card is
    # no longer on its old cell, so its own run is gone for that judgement.
    g, gold = board()
    own = put_run(g, 0, 27, ("A1", "A2"), (20,))
    put(g, 1, 9, "B3")  # touches A3, the open end of A1-A2
    assert g.check_place(0, with_sym(27, own + [20])[0], cell("A3")) == OK
    refused(g, ADJACENT_OPPONENT, g.beekeeper, 0, cell("A1"), cell("A3"))


def test_beekeeper_refusals():
    """§3.2 Beekeeper: not the Royal card, not a sealed card, a card to a free
    cell, once (NOTATION bad-target, royal-immovable, sealed, occupied,
    special-used)."""
    g, gold = board()
    sealed_gold(g)
    refused(g, BAD_TARGET, g.beekeeper, 0, cell("B1"), cell("A3"))  # free source
    refused(g, ROYAL_IMMOVABLE, g.beekeeper, 0, ROYAL, cell("A3"))
    refused(g, SEALED, g.beekeeper, 0, cell("G7"), cell("A3"))
    refused(g, OCCUPIED, g.beekeeper, 0, cell("A5"), cell("C2"))
    refused(g, OCCUPIED, g.beekeeper, 0, cell("A5"), cell("A5"))
    assert g.beekeeper(0, cell("A5"), cell("A3")) == OK
    play(g, 1, 1, "E9")
    refused(g, SPECIAL_USED, g.beekeeper, 0, cell("A3"), cell("A5"))


def test_smoker_removes_an_opponent_card_for_good():
    """§3.2 Smoker: an opponent card leaves the game for good; the cell is free."""
    g, gold = board()
    assert g.smoker(0, cell("C3")) == OK
    assert not g.board[cell("C3")] and g.where(1, gold[1]) == REMOVED
    assert g.specials_left(0) == (2, 1, 0) and g.side_to_play() == 1
    refused(g, CARD_ALREADY_PLAYED, g.place, 1, gold[1], cell("E9"))
    assert g.legal_cells(1, None)  # the cell is free again
    assert g.check_place(1, 9, cell("C3")) == OK


def test_smoker_removes_an_opponent_rain():
    """§3.2 Smoker: Rain included."""
    g, gold = board()
    put(g, 1, 31, "B6")
    assert g.smoker(0, cell("B6")) == OK
    assert not g.board[cell("B6")] and g.specials_left(0) == (2, 1, 0)


def test_smoker_refusals():
    """§3.2 Smoker: only an opponent card, not the Royal card, not a sealed
    card, once; NOTATION: bad-target before royal-immovable."""
    g, gold = board()
    sealed_gold(g)
    put(g, 0, 31, "B1")  # an own Rain
    refused(g, BAD_TARGET, g.smoker, 0, cell("A5"))  # own card
    refused(g, BAD_TARGET, g.smoker, 0, cell("B1"))  # own Rain
    refused(g, BAD_TARGET, g.smoker, 0, cell("A1"))  # free cell
    refused(g, ROYAL_IMMOVABLE, g.smoker, 0, ROYAL)
    refused(g, SEALED, g.smoker, 0, cell("G8"))
    assert g.smoker(0, cell("C2")) == OK
    play(g, 1, 1, "E9")
    refused(g, SPECIAL_USED, g.smoker, 0, cell("C3"))
    set_ply(g, 1)
    refused(g, BAD_TARGET, g.smoker, 1, ROYAL)  # gold's own Royal card


def test_each_sides_specials_are_its_own():
    """§3 setup: each side keeps its own 4 specials."""
    g, gold = board()
    assert g.smoker(0, cell("C3")) == OK
    assert g.specials_left(1) == (2, 1, 1)
    assert g.smoker(1, cell("A5")) == OK
    assert g.specials_left(0) == (2, 1, 0) and g.specials_left(1) == (2, 1, 0)


def test_a_special_out_of_turn():
    """§3 turn: a special is a turn (NOTATION not-your-turn)."""
    g, gold = board()
    refused(g, NOT_YOUR_TURN, g.smoker, 1, cell("A5"))
    refused(g, NOT_YOUR_TURN, g.rain, 1, cell("A4"))
    refused(g, NOT_YOUR_TURN, g.beekeeper, 1, cell("C3"), cell("G9"))


def test_d2_default_no_placement_after_a_special():
    """§3 D-2: by default a special replaces the draw and the placement."""
    g, gold = board()
    assert g.smoker(0, cell("C3")) == OK
    assert not g.placement_pending() and g.side_to_play() == 1
    refused(g, NOT_YOUR_TURN, g.place, 0, 21, cell("A1"))


def test_special_then_place_a_placement_follows():
    """§3 D-2, setting special_then_place: a placement follows the special
    (rules still apply; undo takes both back)."""
    g, gold = board(True)
    before = state(g)
    assert g.rain(0, cell("C4")) == OK
    assert g.placement_pending() and g.side_to_play() == 0
    refused(g, NOT_YOUR_TURN, g.place, 1, 9, cell("E9"))
    refused(g, ADJACENT_OPPONENT, g.place, 0, 21, cell("D3"))  # rules still hold
    play(g, 0, 21, "A1")
    assert not g.placement_pending() and g.side_to_play() == 1
    assert g.smoker(1, cell("A1")) == OK  # gold: its own special, then a card
    play(g, 1, 9, "E9")
    assert g.undo() == PLACE and g.placement_pending()
    assert g.undo() == SMOKER and g.undo() == PLACE and g.undo() == RAIN_MOVE
    assert state(g) == before


def test_special_then_place_one_special_a_turn():
    """§3 D-2, setting special_then_place: one special a turn."""
    g, gold = board(True)
    assert g.smoker(0, cell("C3")) == OK
    for kind in (RAIN_MOVE, BEEKEEPER, SMOKER):
        assert g.check_special(0, kind) == SPECIAL_USED
    refused(g, SPECIAL_USED, g.rain, 0, cell("I5"))
    refused(g, SPECIAL_USED, g.beekeeper, 0, cell("A5"), cell("A3"))
    refused(g, SPECIAL_USED, g.smoker, 0, cell("C2"))
    play(g, 0, 21, "A1")
    play(g, 1, 9, "E9")
    assert g.rain(0, cell("I5")) == OK  # a new turn, a new special


def test_checks_change_nothing():
    """NOTATION: checking a special changes nothing."""
    g, gold = board()
    sealed_gold(g)
    put(g, 0, 31, "B1")
    before = state(g)
    for x in range(61):
        g.check_rain(0, x)
        g.check_smoker(0, x)
        for y in range(0, 61, 3):
            g.check_beekeeper(0, x, y)
    assert state(g) == before


def test_undo_restores_each_special():
    """§3.2: each special taken back restores the exact position."""
    g, gold = board()
    put(g, 1, 31, "B6")
    before = state(g)
    for name, args in (
        ("rain", (0, cell("C4"))),
        ("smoker", (0, cell("B6"))),
        ("smoker", (0, cell("C3"))),
        ("beekeeper", (0, cell("C3"), cell("G9"))),
        ("beekeeper", (0, cell("A5"), cell("A3"))),
    ):
        assert getattr(g, name)(*args) == OK, name
        assert state(g) != before
        assert g.undo() and state(g) == before, name

# The hints the board's LEDs show: legal_cells, card_cells (PLAIN /
# EXTENSION / BLOCK / ROYAL_CELL) and threats (open ends of the opponent's
# runs, longer runs first). They are RULES.md's §3 placement rules, §3.1 and
# §3.2's Rain seen from the side to play, and must agree with check_place.
from apixagon.codes import BLOCK, EXTENSION, OK, PLAIN, ROYAL_CELL
from apixagon.deck import RAIN, symbols
from apixagon.geometry import NCELLS, ROYAL
from util import cell, legal_set, mark_had3, new, put, put_run, set_ply, with_sym, without_sym

S, T = 0, 27  # gold's run of 3, black's run of 2


def position():
    """Gold: C2-C3-C4 on S, H6-H7 on 26, E1-F2 on U whose open end is G3;
    black: G4-G5 on T, whose open end is G3 too. The card `hinge` carries
    T and U. Black to play."""
    g = new()
    gold = put_run(g, 1, S, ("C2", "C3", "C4"))
    gold += put_run(g, 1, 26, ("H6", "H7"), gold)
    black = put_run(g, 0, T, ("G4", "G5"))
    hinge = with_sym(T, black)[0]
    u = [s for s in symbols(hinge) if s not in (S, 26, T)][0]
    gold += put_run(g, 1, u, ("E1", "F2"), gold)
    return g, black, hinge, u


def marks(out):
    return [x for x in range(NCELLS) if out[x]]


def test_legal_cells_on_an_empty_board():
    """§3 rules 1-2 as hints: every cell but the Royal Cell."""
    g = new()
    out = bytearray(NCELLS)
    assert g.legal_cells(None, out) == 60
    assert out[ROYAL] == 0 and sum(out) == 60


def test_legal_cells_are_the_union_of_check_place():
    """§3 rules 1-4 as hints: the legal cells are those of some card not yet
    played, for either side (out None: the count alone)."""
    g, black, hinge, u = position()
    for t in (0, 1):
        set_ply(g, t)
        out = bytearray(NCELLS)
        n = g.legal_cells(t, out)
        want = bytearray(NCELLS)
        for k in range(31):
            if not g.loc[t * 31 + k]:
                for x in legal_set(g, t, k):
                    want[x] = 1
        assert out == want, t
        assert n == sum(out) and n > 0
    assert g.legal_cells(None, None) == n  # with out None: the count alone (can_move)


def test_legal_cells_lose_a_block_when_no_card_carries_the_symbol():
    """§3 rule 4 block as hints: only while the side holds a card with the
    run's symbol."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    g.legal_cells(0, out)
    assert out[cell("C5")] and out[cell("C1")] and not out[cell("D3")]
    for k in with_sym(S):
        g.loc[k] = 255  # as if smoked out: black holds no card with S
    g.legal_cells(0, out)
    assert not out[cell("C5")] and not out[cell("C1")]


def test_card_cells_agree_with_check_place():
    """§3 rules 1-4 as hints: one card's cells are check_place's."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    for k in range(31):
        if not g.loc[k]:
            n = g.card_cells(k, out)
            assert marks(out) == legal_set(g, 0, k), k
            assert n == len(marks(out))


def test_card_cells_split_plain_extension_block():
    """§3 rules 3-4 as hints: why a card may go there: plain (rule 3),
    extension, block, or both."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    blocker = with_sym(S, black)[0]
    g.card_cells(blocker, out)
    assert out[cell("C1")] == BLOCK and out[cell("C5")] == BLOCK
    assert out[cell("A5")] == PLAIN  # touches no card
    assert out[cell("F4")] == PLAIN  # beside own G4, G5 only
    assert out[cell("D3")] == 0  # beside gold, no run ends there
    ext = with_sym(T, black + [hinge])[0]
    g.card_cells(ext, out)
    assert out[cell("G6")] == EXTENSION  # an own end beside gold's H6-H7
    assert out[cell("C5")] == 0
    g.card_cells(hinge, out)
    assert out[cell("G3")] == EXTENSION | BLOCK
    other = [k for k in without_sym(T, black) if k not in with_sym(u) + with_sym(S)][0]
    g.card_cells(other, out)
    assert out[cell("G3")] == 0 and out[cell("G6")] == 0
    assert out[cell("F4")] == PLAIN


def test_card_cells_royal_cell():
    """§3.1 as hints: the Royal Cell once the side may take it (D-5)."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    g.card_cells(20, out)
    assert out[ROYAL] == 0
    more = put_run(g, 0, 28, ("A1", "A2", "A3"), black + [hinge, 20])
    mark_had3(g, 0)
    for k in (20, hinge):
        g.card_cells(k, out)
        assert out[ROYAL] == ROYAL_CELL and g.check_place(0, k, ROYAL) == OK
    assert more


def test_card_cells_of_a_rain_and_of_a_played_card():
    """§3.2 Rain as hints: the opponent's open ends only; a card on the board
    has no cells."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    g.card_cells(RAIN, out)
    for name in ("C1", "C5", "H5", "H8", "G3"):  # gold's open ends
        assert out[cell(name)] == BLOCK, name
    assert out[cell("G6")] == 0 and out[cell("A5")] == 0  # own end, far
    assert out[ROYAL] == 0
    assert g.card_cells(black[0], out) == 0 and sum(out) == 0


def test_threats_runs_of_3_before_runs_of_2():
    """§3 rule 4 block as hints: the open ends of the opponent's runs, runs of 3
    first."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    level = bytearray(NCELLS)
    n = g.threats(out, level)
    got = [out[i] for i in range(n)]
    assert n == 5
    assert sorted(got[:2]) == sorted([cell("C1"), cell("C5")])
    assert sorted(got[2:]) == sorted([cell("H5"), cell("H8"), cell("G3")])
    assert level[cell("C5")] == 3 and level[cell("H5")] == 2
    assert level[cell("G6")] == 0  # black's own run is no threat to black


def test_threats_for_the_other_side():
    """§3 rule 4 block as hints: the threats against either side."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    level = bytearray(NCELLS)
    n = g.threats(out, level, 1)
    assert sorted([out[i] for i in range(n)]) == sorted([cell("G3"), cell("G6")])
    assert level[cell("G6")] == 2


def test_threats_longest_first_and_fresh_after_a_change():
    """§3 rule 4 block as hints: longest runs first, and fresh after the board
    changes."""
    g, black, hinge, u = position()
    out = bytearray(NCELLS)
    level = bytearray(NCELLS)
    four = put_run(g, 1, 29, ("B1", "B2", "B3", "B4"), [k for k in range(31) if g.loc[31 + k]])
    assert len(four) == 4
    n = g.threats(out, level)
    assert out[0] == cell("B5") and level[cell("B5")] == 4
    put(g, 0, with_sym(S, black)[0], "C5")  # a block, written directly
    n2 = g.threats(out, level)
    assert n2 == n - 1 and cell("C5") not in [out[i] for i in range(n2)]


def test_no_hints_once_the_game_is_over():
    """§3.3 as hints: none once the game is over."""
    g, black, hinge, u = position()
    assert g.deck_empty(0) == OK and g.over()
    out = bytearray(NCELLS)
    assert g.legal_cells(0, out) == 0 and sum(out) == 0
    assert g.card_cells(hinge, out, 0) == 0

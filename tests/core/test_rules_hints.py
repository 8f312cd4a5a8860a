# Hint queries for the LED layer: legal cells, one card's cells split
# plain / extension / block, and the threats to block, most urgent first.
from apixagon.codes import BLOCK, EXTENSION, PLAIN, ROYAL_CELL
from apixagon.geometry import NCELLS, ROYAL
from util import cell, mark_had3, new, put, put_run, with_sym, without_sym

S = 0
T = 5


def position():
    """Gold: a run of 3 on C2-C4 (S) and of 2 on H5-H6 (T's cards); black:
    a run of 2 on G4-G5 (T). Black to play."""
    g = new()
    gold3 = put_run(g, 1, S, ("C2", "C3", "C4"))
    gold2 = put_run(g, 1, 25, ("H6", "H7"), gold3)
    black = put_run(g, 0, T, ("G4", "G5"))
    return g, gold3, gold2, black


def test_legal_cells_on_an_empty_board():
    g = new()
    out = bytearray(NCELLS)
    assert g.legal_cells(None, out) == 60
    assert out[ROYAL] == 0 and sum(out) == 60


def test_legal_cells_for_the_side_to_play():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    n = g.legal_cells(None, out)
    assert n == sum(out)
    assert out[cell("C5")] and out[cell("C1")]  # black holds cards with S: blocks
    assert not out[cell("D3")]  # beside gold, no run ends there
    assert out[cell("A5")] and out[cell("G6")]
    # Without any card carrying S, the blocks are gone.
    for k in with_sym(S):
        g.loc[k] = 62  # as if on the board
    g.legal_cells(None, out)
    assert not out[cell("C5")] and not out[cell("C1")]


def test_card_cells_split_plain_extension_block():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    card = with_sym(S, gold3 + black)[0]
    n = g.card_cells(card, out)
    assert out[cell("C5")] == BLOCK and out[cell("C1")] == BLOCK
    assert out[cell("A5")] == PLAIN
    assert out[cell("D3")] == 0
    assert n == sum(1 for x in range(NCELLS) if out[x])
    ext = with_sym(T, black)[0]
    g.card_cells(ext, out)
    assert out[cell("G6")] & EXTENSION and out[cell("G3")] & EXTENSION
    assert out[cell("C5")] == 0  # ext does not carry S
    none = without_sym(S, black)
    g.card_cells([x for x in none if x not in with_sym(T)][0], out)
    assert out[cell("G3")] == PLAIN  # beside own cards only: plain
    assert out[cell("G6")] == 0  # touches gold's H6 and H7


def test_card_cells_royal_and_rain():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    put_run(g, 0, 26, ("A1", "A2", "A3"), black)
    mark_had3(g, 0)
    g.card_cells(20, out)
    assert out[ROYAL] == ROYAL_CELL
    g.card_cells(31, out)  # a Rain: opponent open ends only
    assert out[cell("C5")] == BLOCK and out[cell("H8")] == BLOCK
    assert out[cell("G6")] == 0 and out[cell("A5")] == 0


def test_card_cells_of_a_card_on_the_board_is_empty():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    assert g.card_cells(black[0], out) == 0 and sum(out) == 0


def test_threats_runs_of_3_before_runs_of_2():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    level = bytearray(NCELLS)
    n = g.threats(out, level)
    got = [out[i] for i in range(n)]
    assert sorted(got[:2]) == sorted([cell("C1"), cell("C5")])
    assert sorted(got[2:]) == sorted([cell("H5"), cell("H8")])
    assert level[cell("C5")] == 3 and level[cell("H5")] == 2 and level[cell("G6")] == 0


def test_threats_follow_the_cache_when_the_board_changes():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    assert g.threats(out) == 4
    put(g, 0, with_sym(S, gold3 + black)[0], "C5")  # a block, written directly
    n = g.threats(out)
    assert n == 3 and cell("C5") not in [out[i] for i in range(n)]

# Hint queries for the LED layer: legal cells, one card's cells split
# plain / extension / block, and the threats to block, most urgent first.
from apixagon.codes import BLOCK, EXTENSION, PLAIN, ROYAL_CELL
from apixagon.geometry import NCELLS, ROYAL
from rulekit import c, carrying, game, had_three, not_carrying, put, run

S = 0
T = 5


def position():
    """Gold: a run of 3 on C2-C4 (S) and of 2 on H5-H6 (T's cards); black:
    a run of 2 on G4-G5 (T). Black to play."""
    g = game()
    gold3 = run(g, 1, S, ("C2", "C3", "C4"))
    gold2 = run(g, 1, 25, ("H6", "H7"), gold3)
    black = run(g, 0, T, ("G4", "G5"))
    return g, gold3, gold2, black


def test_legal_cells_on_an_empty_board():
    g = game()
    out = bytearray(NCELLS)
    assert g.legal_cells(None, out) == 60
    assert out[ROYAL] == 0 and sum(out) == 60


def test_legal_cells_for_the_side_to_play():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    n = g.legal_cells(None, out)
    assert n == sum(out)
    assert out[c("C5")] and out[c("C1")]  # black holds cards with S: blocks
    assert not out[c("D3")]  # beside gold, no run ends there
    assert out[c("A5")] and out[c("G6")]
    # Without any card carrying S, the blocks are gone.
    for k in carrying(S):
        g.loc[k] = 62  # as if on the board
    g.legal_cells(None, out)
    assert not out[c("C5")] and not out[c("C1")]


def test_card_cells_split_plain_extension_block():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    card = carrying(S, gold3 + black)[0]
    n = g.card_cells(card, out)
    assert out[c("C5")] == BLOCK and out[c("C1")] == BLOCK
    assert out[c("A5")] == PLAIN
    assert out[c("D3")] == 0
    assert n == sum(1 for x in range(NCELLS) if out[x])
    ext = carrying(T, black)[0]
    g.card_cells(ext, out)
    assert out[c("G6")] & EXTENSION and out[c("G3")] & EXTENSION
    assert out[c("C5")] == 0  # ext does not carry S
    none = not_carrying(S, black)
    g.card_cells([x for x in none if x not in carrying(T)][0], out)
    assert out[c("G3")] == PLAIN  # beside own cards only: plain
    assert out[c("G6")] == 0  # touches gold's H6 and H7


def test_card_cells_royal_and_rain():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    run(g, 0, 26, ("A1", "A2", "A3"), black)
    had_three(g, 0)
    g.card_cells(20, out)
    assert out[ROYAL] == ROYAL_CELL
    g.card_cells(31, out)  # a Rain: opponent open ends only
    assert out[c("C5")] == BLOCK and out[c("H8")] == BLOCK
    assert out[c("G6")] == 0 and out[c("A5")] == 0


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
    assert sorted(got[:2]) == sorted([c("C1"), c("C5")])
    assert sorted(got[2:]) == sorted([c("H5"), c("H8")])
    assert level[c("C5")] == 3 and level[c("H5")] == 2 and level[c("G6")] == 0


def test_threats_follow_the_cache_when_the_board_changes():
    g, gold3, gold2, black = position()
    out = bytearray(NCELLS)
    assert g.threats(out) == 4
    put(g, 0, carrying(S, gold3 + black)[0], "C5")  # a block, written directly
    n = g.threats(out)
    assert n == 3 and c("C5") not in [out[i] for i in range(n)]

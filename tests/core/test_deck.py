# RULES.md §1: the canonical deck, the projective plane of order 5.
from apixagon.deck import COMMON, HAS, NCARDS, RAIN, SYMS, symbols


def canonical(c):
    """The card as RULES.md §1 spells it out."""
    if c < 25:
        m, b = c // 5, c % 5
        return sorted([5 * x + (m * x + b) % 5 for x in range(5)] + [25 + m])
    if c < 30:
        return sorted([5 * (c - 25) + y for y in range(5)] + [30])
    return [25, 26, 27, 28, 29, 30]


def test_31_cards_of_6_distinct_symbols():
    assert NCARDS == 31 and len(SYMS) == 31 * 6
    for c in range(31):
        s = symbols(c)
        assert len(s) == 6
        assert len(sorted(set(s))) == 6
        for v in s:
            assert 0 <= v < 31


def test_cards_match_the_canonical_numbering():
    for c in range(31):
        assert sorted(symbols(c)) == canonical(c), c


def test_worked_examples():
    assert sorted(symbols(0)) == [0, 5, 10, 15, 20, 25]
    assert sorted(symbols(7)) == [2, 8, 14, 15, 21, 26]
    assert sorted(symbols(25)) == [0, 1, 2, 3, 4, 30]
    assert sorted(symbols(30)) == [25, 26, 27, 28, 29, 30]


def test_each_symbol_is_on_6_cards():
    for s in range(31):
        n = 0
        for c in range(31):
            n += HAS[c * 31 + s]
        assert n == 6, s


def test_has_table_agrees_with_symbols():
    for c in range(31):
        s = symbols(c)
        for v in range(31):
            assert HAS[c * 31 + v] == (1 if v in s else 0)


def test_any_two_cards_share_exactly_one_symbol():
    for a in range(31):
        sa = symbols(a)
        for b in range(a + 1, 31):
            both = [v for v in symbols(b) if v in sa]
            assert len(both) == 1, (a, b)
            assert COMMON[a * 31 + b] == both[0] == COMMON[b * 31 + a]


def test_any_two_symbols_meet_on_exactly_one_card():
    # The dual property of the plane: it is what makes a run's symbol unique.
    for s in range(31):
        for t in range(s + 1, 31):
            n = 0
            for c in range(31):
                n += HAS[c * 31 + s] and HAS[c * 31 + t]
            assert n == 1, (s, t)


def test_rain_slot_is_not_a_card():
    # A Rain on the board uses slot 31: no normal card has that number.
    assert RAIN == 31 == NCARDS

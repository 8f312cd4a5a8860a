# RULES.md §1's deck as tables: HAS agrees with the symbols, the dual
# property of the plane, the Rain's slot. The deck's rules (31 cards of 6
# symbols, one shared symbol, 6 cards a symbol, the canonical numbering) are
# tested once in test_rules_board.
from apixagon.deck import HAS, NCARDS, RAIN, symbols


def test_has_table_agrees_with_symbols():
    for c in range(31):
        s = symbols(c)
        for v in range(31):
            assert HAS[c * 31 + v] == (1 if v in s else 0)


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

# Game(): the rules of a match, as the class of its mode (RULES.md §3-§7),
# python-chess's variants in spirit. Only the mode in play is imported: a
# two-player or Teen board never loads the team modes' reserve deck and
# penalty (team.py) nor Junior (junior.py).
from .base import REMOVED, BaseGame  # noqa: F401 - REMOVED: part of this module's API
from .codes import JUNIOR, QUEENS_GAMBIT, TEEN


def game_class(mode):
    """The class that plays mode (codes.MODES)."""
    if mode == JUNIOR:
        from .junior import JuniorGame

        return JuniorGame
    if mode == QUEENS_GAMBIT or mode == TEEN:
        return BaseGame
    if not 0 <= mode < TEEN:
        raise ValueError("no such mode: %r" % (mode,))
    from .team import TeamGame

    return TeamGame


def Game(mode=0, start=0, players=0, special_then_place=False):  # noqa: N802 - reads as a class
    """A new match of mode: start, the side (team) that moves first;
    players, Teen's 2|4|6 or Junior's 2..6 (0: the mode's default);
    special_then_place, the setting of D-2."""
    return game_class(mode)(mode, start, players, special_then_place)

# Stable reason codes (NOTATION.md), modes, sides and move kinds. Numbers
# are what the core returns; the names are what records and the host show.
from .compat import const

OK = const(0)
BAD_SYNTAX = const(1)
BAD_CELL = const(2)
UNKNOWN_CARD = const(3)
NOT_YOUR_TURN = const(4)
OCCUPIED = const(5)
ROYAL_LOCKED = const(6)
ADJACENT_OPPONENT = const(7)
CARD_ALREADY_PLAYED = const(8)
SPECIALS_LOCKED = const(9)
SPECIAL_USED = const(10)
NOT_OPEN_END = const(11)
SEALED = const(12)
ROYAL_IMMOVABLE = const(13)
BAD_TARGET = const(14)
GAME_OVER = const(15)
NOT_ALLOWED_IN_MODE = const(16)
CANNOT_PASS = const(17)

REASONS = (
    "ok",
    "bad-syntax",
    "bad-cell",
    "unknown-card",
    "not-your-turn",
    "occupied",
    "royal-locked",
    "adjacent-opponent",
    "card-already-played",
    "specials-locked",
    "special-used",
    "not-open-end",
    "sealed",
    "royal-immovable",
    "bad-target",
    "game-over",
    "not-allowed-in-mode",
    "cannot-pass",
)

# Modes (NOTATION.md `mode` line).
QUEENS_GAMBIT = const(0)
SILENT_SWARM = const(1)
BEEHIVE = const(2)
TWO_VS_ONE = const(3)
THREE_VS_TWO = const(4)
JUNIOR = const(5)
TEEN = const(6)
MODES = ("queens-gambit", "silent-swarm", "beehive", "2v1", "3v2", "junior", "teen")
_SEATS = ((1, 1), (2, 2), (3, 3), (2, 1), (3, 2), (1, 1), (1, 1))  # per mode, teen aside


def seats_of(mode, players=0):
    """Seats per team (§3-§7) of a match of this mode: (team A, team B).
    teen takes `players 2|4|6` (default 4). Teams play when either has
    more than one seat."""
    if mode == TEEN:
        n = (players or 4) // 2
        return (n, n)
    return _SEATS[mode]


# Move kinds, as kept in the game's history.
PLACE = const(1)
RAIN_MOVE = const(2)
BEEKEEPER = const(3)
SMOKER = const(4)
RESERVE = const(5)
DECK_EMPTY = const(6)
FORCED_REMOVAL = const(7)
PASS = const(8)  # §4 D-9: a seat passes its turn in a tactical void
OUT = const(9)  # §6 D-13: a Junior player declares they have run out

# How a game ended (Game.over()).
IN_PROGRESS = const(0)
TWO_SEQUENCES = const(1)  # §3.3: two distinct sequences of 4
EXHAUSTED = const(2)  # §3.3: the side to play cannot move
CARDS_OUT = const(3)  # §3.3 / §7: the players declared the cards have run out
ALL_PLACED = const(4)  # §6 Junior: every card dealt is on the board, no winner named
RAN_OUT = const(5)  # §6 D-13: a named player placed their last card (winner())
OUT_DECLARED = const(6)  # §6 D-13: `Jn out` declared (winner() is n)
DRAW = const(2)  # winner value for a draw (D-6)

# Hint flags per cell (Game.card_cells): why a card may go there.
PLAIN = const(1)
EXTENSION = const(2)
BLOCK = const(4)
ROYAL_CELL = const(8)

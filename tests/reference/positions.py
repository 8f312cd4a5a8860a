"""Positions for the hand-written scenarios that need a crowded board.

A team that cannot move (D-9 with 2 seats, D-10, §3.3) needs a board where
no free cell takes any of its remaining cards: hard to set up by hand. This
plays random legal moves of the reference (placements, specials; never a
declaration) until the side to play has no legal move, and prints the lines.
The scenario files say which (mode, seed) their first lines come from:

    python tests/reference/positions.py silent-swarm 61
"""

import random
import sys

import apxref as r


def until_stuck(mode, seed, players=None):
    """(game, lines): random legal play until the side to play cannot move.

    In a reserve mode the game then waits (D-10) and `game` is that position;
    elsewhere the exhaustion ends the game (§3.3) on the last line. `game` is
    None when the game ended another way (two sequences of 4).
    """
    rng = random.Random(seed)
    cfg = r.Config(mode, False, 0, players)
    game = r.Game(cfg)
    lines = []
    while game.status == "in-progress":
        side = game.to_play
        prefix = cfg.letters[side] + (str(game.seat_to_play()) if cfg.team else "")
        if not game.has_legal_move(side):
            return game, lines
        specials = game.usable_specials(side) if rng.random() < 0.15 else []
        specials = [m for m in specials if m[0] != "beekeeper"] or specials
        if specials:
            kind, cells = rng.choice(specials)
            line = f"{prefix} {kind} {' '.join(cells)}"
        else:
            moves = game.legal_placements(side)
            if not moves:
                kind, cells = rng.choice(game.usable_specials(side))
                line = f"{prefix} {kind} {' '.join(cells)}"
            else:
                royal = [m for m in moves if m[1] == r.ROYAL]
                card, cell = rng.choice(royal) if royal else rng.choice(moves)
                line = f"{prefix} {card} {cell}"
        code = game.play_tokens(line.split())
        assert code == "ok", (line, code)
        lines.append(line)
    if game.status != "in-progress" and count4_win(game):
        return None, lines
    return game, lines


def count4_win(game):
    return any(r.count_sequences(game.board, s, 4) >= 2 for s in (0, 1))


if __name__ == "__main__":
    mode, seed = sys.argv[1], int(sys.argv[2])
    players = int(sys.argv[3]) if len(sys.argv) > 3 else None
    game, lines = until_stuck(mode, seed, players)
    for line in lines:
        print(f"{line:22}# expect: ok")
    if game is not None:
        print("# status:", *game.result())

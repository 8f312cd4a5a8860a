# Property tests over many seeded random games, in every mode (runs under
# CPython and MicroPython). Invariants checked after every action:
# - a card is never in two places (board and loc agree, no duplicates);
# - sealed cards and the Royal card never move;
# - undo restores the exact previous state, and the move replays the same;
# - the game ends exactly when RULES.md §3.3 says (cross-checked by brute
#   force through the public check_* calls, not the optimised queries).
import randplay
from apixagon.codes import EXHAUSTED, JUNIOR, OK, TWO_SEQUENCES
from apixagon.geometry import NCELLS, NONE, ROYAL

SEEDS = 4  # per mode; CPython and MicroPython run the same games


def check_consistent(g):
    seen = bytearray(64)
    for x in range(NCELLS):
        o = g.board[x]
        if not o:
            continue
        side, card = (o - 1) >> 5, (o - 1) & 31
        if card == 31:
            continue  # a Rain: no identity
        assert not seen[side * 32 + card], "card on two cells"
        seen[side * 32 + card] = 1
        assert g.loc[side * 31 + card] == x + 1, "board and loc disagree"
    for i in range(62):
        v = g.loc[i]
        if v and v != 255:
            o = g.board[v - 1]
            assert o and (o - 1) >> 5 == i // 31 and (o - 1) & 31 == i % 31
    # The LED view's one-pass sealed_cells agrees with is_sealed per card.
    sealed = bytearray(NCELLS)
    n = g.sealed_cells(sealed)
    assert n == sum(sealed)
    for x in range(NCELLS):
        assert sealed[x] == (1 if g.board[x] and g.is_sealed(x) else 0), x


def brute_can_move(g):
    """Could the side to play do anything (§3.3)? Every card on every cell,
    every special on every target, a pass (D-9), a reserve (D-14),
    through the public checks."""
    t = g.side_to_play()
    for c in range(31):
        for x in range(NCELLS):
            if g.check_place(t, c, x) == OK:
                return True
    if g.check_pass(t) == OK or g.check_reserve(t, b"") == OK:
        return True
    if g.placement_pending():
        return False
    for x in range(NCELLS):
        if g.check_rain(t, x) == OK or g.check_smoker(t, x) == OK:
            return True
        for y in range(NCELLS):
            if g.check_beekeeper(t, x, y) == OK:
                return True
        if g.check_reserve(t, bytes((x,))) == OK:
            return True
    return False


def check_hints(g):
    """The cached hint queries agree with check_place, cell by cell."""
    if g.over() or g.mode == JUNIOR:
        return
    t = g.side_to_play()
    flags = bytearray(NCELLS)
    legal = bytearray(NCELLS)
    any_card = bytearray(NCELLS)
    g.legal_cells(None, legal)
    for c in range(31):
        if g.where(t, c) != NONE:
            continue
        g.card_cells(c, flags)
        for x in range(NCELLS):
            ok = g.check_place(t, c, x) == OK
            assert bool(flags[x]) == ok, "card_cells disagrees with check_place"
            if ok:
                any_card[x] = 1
    assert legal == any_card, "legal_cells disagrees with check_place"
    assert bool(g.legal_cells(t, None)) == (sum(legal) > 0)
    if not g.placement_pending() and g.specials_unlocked() and not g.reserve_due():
        g.card_cells(31, flags)
        for x in range(NCELLS):
            assert bool(flags[x]) == (g._rain_reason(t, x) == OK), "Rain hints"


def run_mode(mode, players=0, stp=False):
    for seed in range(SEEDS):
        g = randplay.new_game(mode, 1000 + seed, players, stp)
        out = bytearray(NCELLS)
        steps = 0
        while not g.over() and steps < 400:
            before = randplay.snapshot(g)
            fixed = [(x, g.board[x]) for x in range(NCELLS) if g.board[x] and g.is_sealed(x)]
            if g.board[ROYAL]:
                fixed.append((ROYAL, g.board[ROYAL]))
            nlog = g.nlog
            kind = randplay.play_turn(g, out)
            if kind is None:
                break
            steps += 1
            after = randplay.snapshot(g)
            check_consistent(g)
            for x, o in fixed:
                assert g.board[x] == o, "a sealed or Royal card moved"
            # Undo every record this action pushed, then replay them.
            popped = []
            while g.nlog > nlog:
                k, payload = g.last_move()
                popped.append((k, payload))
                assert g.undo()
            assert randplay.snapshot(g) == before, "undo did not restore the state"
            while popped:
                k, payload = popped.pop()
                assert replay(g, k, payload) == OK
            assert randplay.snapshot(g) == after, "replaying the move gave another state"
            check_end(g)
            if steps % 5 == 0 and seed < 2:
                check_hints(g)
        assert g.over() or mode == JUNIOR, "random game stopped before its end"


def replay(g, kind, p):
    if kind == 1:
        return g.place(NONE if g.mode == JUNIOR else p[0], p[1], p[2])
    if kind == 2:
        return g.rain(p[0], p[1])
    if kind == 3:
        return g.beekeeper(p[0], p[1], p[2])
    if kind == 4:
        return g.smoker(p[0], p[1])
    if kind == 5:
        return g.reserve(p[0], bytes([p[i] for i in range(1, len(p), 2)]))
    if kind == 6:
        return g.deck_empty(p[0])
    if kind == 8:
        return g.pass_turn(p[0])
    return g.forced_removal(p[0])


def check_end(g):
    if g.mode == JUNIOR:
        return
    how = g.over()
    s0 = g.count_runs(0)[1]
    s1 = g.count_runs(1)[1]
    if how == TWO_SEQUENCES:
        assert g.count_runs(g.winner())[1] >= 2
    else:
        assert s0 < 2 and s1 < 2, "two sequences of 4 but the game goes on"
    # D-10: before its reserve a stuck team waits for its declarations
    waits = g.silent and not g.reserve_used(g.side_to_play())
    if not how:
        assert brute_can_move(g) or waits, "side to play cannot move but the game goes on"
    if how == EXHAUSTED:
        assert not brute_can_move(g), "game ended by exhaustion with a move left"
        assert not waits, "a team game ended by the count before the reserve (D-10)"


def test_random_queens_gambit():
    run_mode(0)


def test_random_queens_gambit_special_then_place():
    run_mode(0, 0, True)


def test_random_silent_swarm():
    run_mode(1)


def test_random_beehive():
    run_mode(2)


def test_random_two_vs_one():
    run_mode(3)


def test_random_three_vs_two():
    run_mode(4)


def test_random_junior():
    run_mode(5)


def test_random_teen_six():
    run_mode(6, 6)

# A match through the real Board loop on the simulated board: scenario
# tables of hands on cards and buttons, for both sensing profiles, checked
# against the game and against what the LEDs show (issue 3, items 3-5).
from apixagon.codes import (
    ADJACENT_OPPONENT,
    BEEHIVE,
    BEEKEEPER,
    DECK_EMPTY,
    FORCED_REMOVAL,
    JUNIOR,
    OK,
    PLACE,
    RAIN_MOVE,
    SMOKER,
)
from apixagon.geometry import NB, NCELLS, NONE, ROYAL
from boardkit import card, colour, errors, layer, lit, play, rig, special, started, x
from smartboard import buttons, referee, settings, tag, view
from smartboard.board import OVER, PLAY, SETUP
from smartboard.report import refused_text
from smartboard.sim import replay


def test_profile_a_placements_and_the_hint_view():
    r = started("a-hints")
    play(r, [("put", "A1", card(0, 0))])
    g = r.board.ref.game
    assert g.owner(x("A1")) == 0 and g.side_to_play() == 1
    assert colour(r, "A1") == view.LAST
    # Hint mode: gold's legal cells are lit, and exactly the rules' ones.
    out = bytearray(NCELLS)
    g.legal_cells(1, out)
    legal = sorted(lit(r, view.LEGAL))
    assert legal == [c for c in range(NCELLS) if out[c] and c not in view.CORNERS]
    assert x("A2") not in legal  # beside black, no run: not for gold
    # The free corners show whose turn it is: gold.
    assert colour(r, "I9") == view.SIDE1
    assert layer(r, "E5") == view.ROYAL_LOCKED  # §3.1: nobody has a run of 3


def test_adult_mode_shows_only_last_move_errors_and_turn():
    r = started("a-adult", display=view.ADULT)
    play(r, [("put", "A1", card(0, 0)), ("put", "A2", card(1, 4))])  # illegal
    assert lit(r, view.LEGAL) == [] and lit(r, view.ROYAL_LOCKED) == []
    assert layer(r, "A2") == view.ERR_RED | view.FAST
    assert r.board.ref.reason == ADJACENT_OPPONENT
    assert colour(r, "A1") == view.LAST


def test_illegal_placement_waits_until_lifted_then_play_goes_on():
    r = started("a-illegal")
    play(
        r,
        [
            ("put", "A1", card(0, 0)),
            ("put", "A2", card(1, 4)),  # red, the game waits
            ("put", "I9", card(1, 5)),  # still waiting: two differences
        ],
    )
    g = r.board.ref.game
    assert g.ply() == 1 and not g.board[x("I9")]
    play(r, [("lift", "A2", None)])
    assert g.ply() == 2 and g.owner(x("I9")) == 1 and errors(r) == []


def test_lift_put_back_and_take_back():
    r = started("a-lift")
    play(r, [("put", "A1", card(0, 0)), ("put", "I9", card(1, 1)), ("lift", "A1", None)])
    assert errors(r) == [(x("A1"), referee.AMBER)]
    assert layer(r, "A1") == view.ERR_AMBER | view.FAST
    play(r, [("put", "A1", card(0, 0))])
    assert errors(r) == [] and r.board.ref.game.ply() == 2
    play(r, [("lift", "I9", None)])  # the last card: taken back
    assert r.board.ref.game.ply() == 1 and errors(r) == []


def test_unknown_and_duplicate_cards_are_errors_never_moves():
    r = started("a-unknown")
    r.cells.foreign[r.layout.sensor[x("C3")]] = 1
    play(r, [("put", "A1", card(0, 0)), ("put", "I9", card(0, 0))])
    assert r.board.ref.game.ply() == 1
    e = dict(errors(r))
    assert e[x("C3")] == referee.UNKNOWN
    assert e[x("A1")] == referee.UNKNOWN and e[x("I9")] == referee.UNKNOWN
    assert layer(r, "C3") == view.ERR_UNKNOWN | view.FAST


def test_card_query_lights_where_a_tapped_card_may_go():
    r = started("a-query", display=view.QUERY)
    play(r, [("put", "E3", card(0, 0)), ("put", "E7", card(1, 1)), ("put", "D3", card(0, 2))])
    g = r.board.ref.game
    play(r, [("tap", None, card(1, 3))])
    out = bytearray(NCELLS)
    g.card_cells(3, out, 1)
    shown = [c for c in range(NCELLS) if r.board.view.layer[c] & 0x3F in (3, 4, 5, 8)]
    want = [c for c in range(NCELLS) if out[c] and c not in view.CORNERS]
    assert shown == want and want
    # A block of black's run E3-D3 lights orange if gold's card 3 shares it.
    for c in want:
        if out[c] & 4:
            assert r.board.view.layer[c] & 0x3F == view.BLOCKS
    r.run(16000)  # the query fades
    assert lit(r, view.BLOCKS) == [] and lit(r, view.EXTEND) == []


def test_display_mode_button_cycles_and_is_kept():
    r = started("a-display")
    st = r.board.settings
    r.press(buttons.MODE)
    assert st.get(settings.DISPLAY) == view.QUERY
    r.press(buttons.MODE)
    assert st.get(settings.DISPLAY) == view.ADULT


def test_a_special_tapped_while_locked_is_refused_and_said():
    r = started("a-specials")
    g = r.board.ref.game
    play(r, [("put", "E3", card(0, 0))])
    # Specials are locked until the Royal Cell is taken (§3.1): the pad
    # refuses, the board says why, nothing is armed or moved. (Beekeeper
    # and Smoker moves are played in test_board_replay's full game.)
    play(r, [("tap", None, special(1, tag.SMOKER))])
    assert r.board.ref.armed == referee.ARM_NONE
    assert refused_text(r.board.ref) == "specials-locked G smoker"
    play(r, [("tap", None, special(0, tag.BEEKEEPER))])
    assert refused_text(r.board.ref) == "not-your-turn B beekeeper" and g.ply() == 1


def test_profile_b_pairs_the_pad_with_the_next_card():
    r = started("b-pair", profile="B")
    g = r.board.ref.game
    play(r, [("tap", None, card(0, 7)), ("put", "A1", tag.code(0, 0, 0))])
    assert g.card_at(x("A1")) == 7 and g.ply() == 1
    # Put down untapped: the cell asks for a tap; the tap then names it.
    play(r, [("put", "I9", 1)])
    assert errors(r) == [(x("I9"), referee.TAP)] and g.ply() == 1
    assert layer(r, "I9") == view.ERR_TAP | view.FAST
    play(r, [("tap", None, card(1, 9))])
    assert g.card_at(x("I9")) == 9 and g.ply() == 2 and errors(r) == []
    # Lift and put back: the game's card, no move.
    play(r, [("lift", "A1", None), ("put", "A1", 1)])
    assert g.ply() == 2 and errors(r) == []
    # Take back the last card and play it elsewhere: it keeps its name.
    play(r, [("lift", "I9", None), ("put", "H9", 1)])
    assert g.ply() == 2 and g.card_at(x("H9")) == 9


def test_profile_b_illegal_card_keeps_its_name_when_moved():
    r = started("b-illegal", profile="B")
    g = r.board.ref.game
    play(r, [("tap", None, card(0, 0)), ("put", "A1", 1)])
    play(r, [("tap", None, card(1, 4)), ("put", "A2", 1)])
    assert errors(r) == [(x("A2"), referee.RED)]
    play(r, [("lift", "A2", None), ("put", "I9", 1)])
    assert g.card_at(x("I9")) == 4 and g.owner(x("I9")) == 1 and errors(r) == []


def test_declarations_from_the_buttons():
    r = started("a-declare")
    play(r, [("put", "A1", card(0, 0))])
    r.press(buttons.DECLARE)  # deck empty for gold (to play): previewed
    assert r.board.declaration() == (DECK_EMPTY, 1)
    free = [c for c in range(NCELLS) if not r.board.ref.game.board[c] and c not in view.CORNERS]
    assert all(r.board.view.layer[c] == view.SIDE1 | view.SLOW for c in free)
    r.press(buttons.DECLARE)
    r.press(buttons.DECLARE)  # back to none (queens-gambit: no penalty)
    assert r.board.declaration() == (0, 0)
    r.press(buttons.DECLARE)
    r.press(buttons.CONFIRM)  # §3.3: the cards have run out: game over
    g = r.board.ref.game
    assert g.over() and r.board.phase == OVER
    assert colour(r, "I9") == view.SIDE0  # black wins on count (D-6)
    r.press(buttons.CONFIRM)  # a new match: clear the board first
    assert r.board.phase == SETUP and colour(r, "A1") == view.CLEAR


def test_forced_removal_in_a_silent_mode():
    r = rig("a-forced")
    for _ in range(BEEHIVE):
        r.press(buttons.MODE)
    r.press(buttons.CONFIRM)
    assert r.board.ref.game.mode == BEEHIVE
    for _ in range(5):
        r.press(buttons.DECLARE)  # pass, deck A, deck B, forced A, forced B
    assert r.board.declaration() == (FORCED_REMOVAL, 1)
    r.press(buttons.CONFIRM)
    assert r.board.ref.game.forced_removals(1) == 1 and r.board.phase == PLAY


def test_a_junior_match_from_hands():
    # Junior's cards belong to nobody: the board used to give the core the
    # side to play (0), which refused every card (not-allowed-in-mode).
    for profile in ("A", "B"):
        r = rig("junior-" + profile, profile)
        for _ in range(JUNIOR):
            r.press(buttons.MODE)
        r.press(buttons.CONFIRM)
        g = r.board.ref.game
        assert g.mode == JUNIOR and r.board.phase == PLAY
        steps = [("put", "E5", card(0, 18)), ("put", "D4", card(0, 25))]
        if profile == "B":
            steps = [("tap", None, card(0, 18)), steps[0], ("tap", None, card(0, 25)), steps[1]]
        play(r, steps)
        assert g.card_at(x("E5")) == 18 and g.card_at(x("D4")) == 25, r.board.ref.refusal
        assert g.nmoves() == 2 and errors(r) == [] and r.board.ref.refusal is None
        play(r, [("lift", "D4", None)])  # the last card: taken back
        assert g.nmoves() == 1 and errors(r) == []


def test_long_confirm_abandons_the_match():
    r = started("a-abandon")
    play(r, [("put", "A1", card(0, 0))])
    r.press(buttons.CONFIRM, True)
    assert r.board.phase == SETUP and r.board.message == "match abandoned"
    assert colour(r, "A1") == view.CLEAR


def _replayed(name, upto):
    # the scripted 6-player game's record up to (not including) line upto,
    # played from hands on a simulated board
    r = rig(name, "A")
    with open("tests/data/beehive_full.apx") as f:
        replay.play(r, f.read().splitlines()[: upto - 1])
    return r


def _hot_cells(r):
    sensor = r.layout.sensor
    return {c for c in range(NCELLS) if r.board._hot[sensor[c]]}


def _near_last(g):
    # the last move's cell and its neighbours: read first for take-backs
    kind, p = g.last_move()
    c = p[-1] if kind in (PLACE, RAIN_MOVE, BEEKEEPER) else p[1]
    return {c} | {NB[c * 6 + d] for d in range(6) if NB[c * 6 + d] != NONE}


def test_an_armed_smoker_reads_its_targets_first():
    # §3.2: a Smoker removes an opponent card, not the Royal card nor a
    # sealed one: once the pad armed it, those cards are where the next
    # change comes, read first; the player's own cards are not (with every
    # card read first, ~15 a lane, its lift waited ~0.2 s on the chip).
    r = _replayed("a-armed-smoker", 51)  # line 51: A2 smoker E7
    g = r.board.ref.game
    t = g.side_to_play()
    play(r, [("tap", None, special(t, tag.SMOKER))])
    assert r.board.ref.armed == referee.ARM_SMOKER
    targets = {c for c in range(NCELLS) if g.check_smoker(t, c) == OK}
    own = {c for c in range(NCELLS) if g.owner(c) == t}
    hot = _hot_cells(r)
    assert x("E7") in targets and targets <= hot
    assert hot - targets <= _near_last(g), sorted(hot - targets)
    assert own - _near_last(g) and not (own - _near_last(g)) & hot
    play(r, [("lift", "E7", None)])
    assert g.nmoves() == 46 and g.last_move()[0] == SMOKER and errors(r) == []


def test_an_armed_beekeeper_reads_the_cards_it_may_lift_then_where_it_may_go():
    r = _replayed("a-armed-beekeeper", 56)  # line 56: B2 beekeeper A4 E1
    g = r.board.ref.game
    t = g.side_to_play()
    play(r, [("tap", None, special(t, tag.BEEKEEPER))])
    movable = {c for c in range(NCELLS) if g.board[c] and c != ROYAL and not g.is_sealed(c)}
    assert movable <= _hot_cells(r)
    src = x("A4")
    code = r.cells.cells[r.layout.sensor[src]] - 1
    play(r, [("lift", "A4", None)])
    assert r.board.ref.src == src
    dests = {c for c in range(NCELLS) if g.check_beekeeper(t, src, c) == OK}
    hot = _hot_cells(r)
    assert x("E1") in dests and dests | {src} <= hot
    assert hot - dests - {src} <= _near_last(g), sorted(hot - dests)
    n = g.nmoves()
    play(r, [("put", "E1", code)])
    assert g.nmoves() == n + 1 and g.last_move()[0] == BEEKEEPER and errors(r) == []


def test_a_placement_is_shown_before_the_cells_read_first_are_chosen_again():
    # The next change's cells (legal cells, the lanes' lists: ~3 ms of the
    # chip) are chosen after the frame that shows this one, not before it.
    r = started("a-frame-first")
    b = r.board
    g = b.ref.game
    calls = []
    frame, prioritise = b.view.frame, b._prioritise

    def framed(now):
        calls.append(("frame", g.nmoves()))
        return frame(now)

    def chosen():
        calls.append(("prioritise", g.nmoves()))
        return prioritise()

    b.view.frame, b._prioritise = framed, chosen
    play(r, [("put", "E3", card(0, 0))])
    assert g.nmoves() == 1
    first = calls.index(("prioritise", 1))
    assert ("frame", 1) in calls[:first], calls[: first + 1]

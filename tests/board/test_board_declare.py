# The DECLARE button's cycle and CONFIRM through the real Board loop: the
# tactical void's pass (RULES §4 D-9), the keeper's empty reserve (D-14),
# Junior's players and "player n is out" (§6 D-13), each previewed on the
# free cells and committed (or refused) as the rules say. Plain functions:
# also run under the MicroPython unix port.
from apixagon import record
from apixagon.codes import (
    BEEHIVE,
    CANNOT_PASS,
    DECK_EMPTY,
    JUNIOR,
    OUT,
    OUT_DECLARED,
    PASS,
    RESERVE,
    SILENT_SWARM,
)
from apixagon.geometry import NCELLS, ROW_START
from boardkit import card, layer, play, rig
from smartboard import buttons, settings, view
from smartboard.board import OVER, PLAY
from smartboard.report import refused_text


def _started(name, mode):
    r = rig(name)
    r.board.settings.set(settings.GAME_MODE, mode, 0)
    r.press(buttons.CONFIRM)
    assert r.board.phase == PLAY, r.board.message
    return r


def _declare(r, want):
    """DECLARE until the cycle shows want ((kind, arg)), in at most 8 presses."""
    for _ in range(8):
        if r.board.declaration() == want:
            return
        r.press(buttons.DECLARE)
    assert r.board.declaration() == want, r.board.declaration()


def _free(r):
    g = r.board.ref.game
    return [c for c in range(NCELLS) if not g.board[c] and c not in view.CORNERS]


def _last_line(r):
    return record.last_move(r.board.ref.game)[2]


def test_the_cycle_of_a_reserve_mode_starts_with_the_pass():
    r = _started("d-cycle", BEEHIVE)
    seen = []
    for _ in range(6):
        r.press(buttons.DECLARE)
        seen.append(r.board.declaration())
    # the pass of the seat to play (A1), deck empty of A then B, forced
    # removal of A then B, none again
    assert seen == [(PASS, 0), (DECK_EMPTY, 0), (DECK_EMPTY, 1), (7, 0), (7, 1), (0, 0)]


def test_a_pass_in_the_tactical_void_and_one_outside_it():
    r = _started("d-pass", BEEHIVE)
    play(r, [("put", "C1", card(0, 0)), ("put", "I9", card(1, 0))])
    g = r.board.ref.game
    assert g.seat_to_play() == 2  # A2
    _declare(r, (DECK_EMPTY, 0))
    assert all(r.board.view.layer[c] == view.SIDE0 | view.SLOW for c in _free(r))
    r.press(buttons.CONFIRM)
    assert _last_line(r) == "A deck-empty"
    _declare(r, (PASS, 0))
    # previewed steady in the colour of the seat that passes (A2)
    assert all(r.board.view.layer[c] == view.SEAT + 1 for c in _free(r))
    r.press(buttons.CONFIRM)  # 6 players: a pass at will (D-9)
    assert _last_line(r) == "A2 pass" and g.side_to_play() == 1 and g.seat_to_play() == 2
    assert r.board.declaring == 0 and r.board.ref.refusal is None
    _declare(r, (PASS, 1))  # B2: team B declared no deck empty
    r.press(buttons.CONFIRM)
    assert r.board.ref.reason == CANNOT_PASS
    assert refused_text(r.board.ref) == "cannot-pass B2 pass"
    assert g.side_to_play() == 1 and _last_line(r) == "A2 pass"  # nothing changed


def test_confirm_alone_in_the_keepers_turn_is_the_empty_reserve():
    # D-14: A1 (the keeper of 4 players) declares its deck empty in its
    # own turn, with nothing of A's on the board: CONFIRM with nothing
    # lifted is the empty reserve, and the turn goes on to B1.
    r = _started("d-empty", SILENT_SWARM)
    g = r.board.ref.game
    _declare(r, (DECK_EMPTY, 0))
    r.press(buttons.CONFIRM)
    assert g.reserve_due()
    r.press(buttons.CONFIRM)
    assert g.last_move() == (RESERVE, b"\0") and _last_line(r) == "A1 reserve"
    assert g.reserve_used(0) and g.side_to_play() == 1 and r.board.ref.refusal is None


def test_the_empty_reserve_is_refused_while_a_card_may_come_back():
    r = _started("d-empty-no", SILENT_SWARM)
    play(
        r,
        [
            ("put", "C1", card(0, 0)),
            ("put", "I9", card(1, 0)),
            ("put", "C2", card(0, 1)),
            ("put", "I7", card(1, 1)),
        ],
    )
    g = r.board.ref.game
    _declare(r, (DECK_EMPTY, 0))
    r.press(buttons.CONFIRM)
    assert g.reserve_due()  # A1 again: its turn is the reserve
    r.press(buttons.CONFIRM)  # C1-C2, a group of two, may come back
    assert refused_text(r.board.ref) == "bad-target A1 reserve"
    assert g.reserve_due() and _last_line(r) == "A deck-empty"
    play(r, [("lift", "C1", None)])  # the keeper takes C1 back
    r.press(buttons.CONFIRM)
    assert _last_line(r) == "A1 reserve C1" and r.board.ref.refusal is None


def test_junior_players_are_chosen_in_set_up_and_shown_in_their_colours():
    r = rig("d-junior-setup")
    st = r.board.settings
    st.set(settings.GAME_MODE, JUNIOR, 0)
    r.settle(100)
    counts = []
    for _ in range(5):
        r.press(buttons.CONFIRM, True)  # §6: 2 to 6 players
        counts.append(st.get(settings.JPLAYERS))
    assert counts == [3, 4, 5, 6, 2]
    assert st.get(settings.PLAYERS) == 4  # Teen's own count is left alone
    for _ in range(4):
        r.press(buttons.CONFIRM, True)
    row = ROW_START[6]  # G3..G9: a cell per player, each in their colour
    assert [r.board.view.layer[row + i] for i in range(7)] == [
        view.player_colour(n) for n in range(1, 7)
    ] + [view.OFF]
    assert len(set(view.player_colour(n) for n in range(1, 7))) == 6
    r.press(buttons.CONFIRM)
    g = r.board.ref.game
    assert g.mode == JUNIOR and g.players == 6 and g.share == 5


def test_junior_player_out_from_the_buttons_ends_the_match_in_their_colour():
    r = rig("d-junior-out")
    st = r.board.settings
    st.set(settings.GAME_MODE, JUNIOR, 0)
    st.set(settings.JPLAYERS, 6, 0)
    r.press(buttons.CONFIRM)
    g = r.board.ref.game
    # six cards: player 3 may have placed its five (D-13: the board names
    # nobody, so it counts every unnamed card as possibly theirs)
    cells = ("E5", "E6", "E7", "E8", "E9", "F9")
    play(r, [("put", cells[k], card(0, k)) for k in range(6)])
    assert _last_line(r) == "J 5 F9" and g.nmoves() == 6
    seen = []
    for _ in range(7):
        r.press(buttons.DECLARE)
        seen.append(r.board.declaration())
    # one "player n is out" per player, and no deck-empty nor penalty (§6)
    assert seen == [(OUT, n) for n in range(1, 7)] + [(0, 0)]
    _declare(r, (OUT, 3))
    assert all(r.board.view.layer[c] == view.player_colour(3) | view.SLOW for c in _free(r))
    r.press(buttons.CONFIRM)
    assert g.over() == OUT_DECLARED and g.winner() == 3 and r.board.phase == OVER
    assert _last_line(r) == "J3 out" and record.result(g)[1] == "player 3"
    assert layer(r, "A1") == view.player_colour(3) | view.SLOW  # the winner's colour


# Records with the new lines, played from hands by the simulator's record
# player (PLAY): the DECLARE cycle and CONFIRM must make exactly them.
PASS_AND_EMPTY_RESERVE = (
    "mode beehive",
    "start A",
    "A1 0 C1",
    "B1 0 I9",
    "A2 1 C2",
    "B2 1 I5",
    "A3 2 C3",
    "B3 2 G9",
    "A1 3 C4",
    "B1 3 G5",
    "A deck-empty",
    "A2 pass",
    "B2 4 E9",
    "A3 reserve",
    "B3 5 A5",
    "A deck-empty",
)
JUNIOR_OUT = ("mode junior", "players 6", "J 0 E5", "J 1 E6", "J 2 E7", "J 3 E8", "J 4 E9")
JUNIOR_OUT += ("J 5 F9", "J3 out")


def test_records_with_a_pass_an_empty_reserve_and_an_out_play_from_hands():
    from smartboard.sim import replay

    for name, lines in (("d-replay-bh", PASS_AND_EMPTY_RESERVE), ("d-replay-j", JUNIOR_OUT)):
        r = rig(name)
        replay.play(r, lines, None, False)
        g = r.board.ref.game
        assert tuple(record.lines(g)) == lines and r.board.phase == OVER, name
        r = None

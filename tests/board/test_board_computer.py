# Playing against the computer on the board (smartboard.computer): set-up
# names its seat and level; when it moves its target pulses in its colour
# and the board takes only that card on that cell; a person's reply is
# taken as soon as the computer's card is down; the match is logged with
# tags naming the computer, and the log replays.
import os

from apixagon import dealer, record
from apixagon import engine as E
from apixagon.codes import DECK_EMPTY, OK, PASS, PLACE, RESERVE, SILENT_SWARM, THREE_VS_TWO
from apixagon.game import Game
from apixagon.geometry import cell_name, neighbours
from boardkit import TMP, card, layer, rig, settings_path
from computerkit import carry_out
from smartboard import buttons, referee, settings, view
from smartboard.board import OVER, PLAY
from smartboard.logstore import records as R
from smartboard.logstore import writer as W
from smartboard.report import expect_text, refused_text


def vs_computer(name, level=1, seat_mask=8, log=False):
    """A rig set for a 2-player match, the computer playing Gold (mask 8:
    side 1 seat 1) at level, started; with log, its match log."""
    r = rig(name)
    st = r.board.settings
    st.set(settings.DISPLAY, view.HINT, 0)
    st.set(settings.COMPUTER, seat_mask, 0)
    st.set(settings.LEVEL, level - 1, 0)
    ml = None
    if log:
        settings_path(name)
        root = "%s/logs-%s" % (TMP, name)
        try:
            for f in os.listdir(root):
                os.remove(root + "/" + f)
        except OSError:
            pass
        ml = W.MatchLog(root, (("Board", "sim"),))
        r.board.log = ml
        r.board.listener = ml
    r.press(buttons.CONFIRM)
    assert r.board.phase == PLAY, r.board.message
    return r, ml


def test_the_computers_move_pulses_and_only_its_card_is_taken():
    r, _ = vs_computer("cmp-wrong")
    g = r.board.ref.game
    r.put("E3", card(0, 12))
    r.settle()
    assert g.nmoves() == 1 and g.side_to_play() == 1
    ref = r.board.ref
    m = ref.expect
    assert E.kind_of(m) == PLACE, m
    c, x = E.arg_a(m), E.arg_b(m)
    line = expect_text(r.board)
    assert line == "G %d %s" % (c, cell_name(x)), line
    # its target pulses in Gold's colour; no hints meanwhile
    assert r.board.view.layer[x] == view.SIDE1 | view.SLOW
    assert not [y for y in range(61) if r.board.view.layer[y] & 0x3F == view.LEGAL]
    # another Gold card on its cell: refused in words, the target still pulsing
    other = (c + 1) % 31
    while g.loc[31 + other]:
        other = (other + 1) % 31
    r.put(cell_name(x), card(1, other))
    r.settle()
    assert g.nmoves() == 1
    assert ref.reason == referee.WRONG_MOVE
    assert refused_text(ref).startswith("wrong-move G %d %s" % (other, cell_name(x)))
    r.lift(cell_name(x))
    r.settle()
    assert ref.expect == m and r.board.view.layer[x] == view.SIDE1 | view.SLOW
    # its card on another cell: refused too
    y = 0 if x else 1
    while g.board[y] or y == x:
        y += 1
    r.put(cell_name(y), card(1, c))
    r.settle()
    assert g.nmoves() == 1 and ref.reason == referee.WRONG_MOVE
    r.lift(cell_name(y))
    r.settle()
    # the right card, then at once a reply (Black's next card) on a cell
    # away from every card
    z = 0
    while g.board[z] or z == x or [n for n in neighbours(z) if g.board[n] or n == x]:
        z += 1
    r.put(cell_name(x), card(1, c))
    r.put(cell_name(z), card(0, 3))
    r.settle()
    assert g.nmoves() == 3, record.write(g)
    assert g.card_at(x) == c and g.owner(x) == 1 and g.card_at(z) == 3
    assert g.side_to_play() == 1 and ref.expect and ref.expect != m


def test_a_take_back_of_the_computers_card_asks_for_it_again():
    r, _ = vs_computer("cmp-back")
    r.put("E3", card(0, 12))
    r.settle()
    ref = r.board.ref
    m = ref.expect
    x = E.arg_b(m)
    r.put(cell_name(x), card(1, E.arg_a(m)))
    r.settle()
    assert ref.game.nmoves() == 2 and not ref.expect
    r.lift(cell_name(x))  # the players take the computer's card back
    r.settle()
    assert ref.game.nmoves() == 1 and ref.expect == m


def _play_out(r, level_black=1, limit=200):
    # Black's hands: a dealer of its own (a person's hand) and the engine
    # at level_black; Gold's: what the board says.
    g = r.board.ref.game
    mine = dealer.Table(g, [(0, 1)], 77)
    me = E.Engine(level_black, 5)
    n = 0
    while r.board.phase == PLAY and n < limit:
        n += 1
        t = g.side_to_play()
        if t == 1:
            m = r.board.ref.expect
            assert m, r.board.message
            carry_out(r, m, 1, r.board.ref.expect_cells)
            continue
        if not mine.piles[0] and not mine.hand(0, 1):
            r.board.declare(DECK_EMPTY, 0)  # §3.3: Black is out of cards
            continue
        m = dealer.choose(g, mine, me, 0, 1)
        if not m:
            r.board.declare(DECK_EMPTY, 0)
            continue
        before = g.nmoves()
        carry_out(r, m, 0)
        assert g.nmoves() == before + 1, (record.write(g), r.board.message)
        if E.kind_of(m) == PLACE:
            mine.played(0, 1, E.arg_a(m))
    return g


def test_a_whole_match_against_level_1_is_logged_and_replays():
    r, ml = vs_computer("cmp-match", 1, log=True)
    g = _play_out(r)
    assert r.board.phase == OVER and g.over(), record.write(g)
    ml.flush_all()
    with open(ml.path, "rb") as f:
        data = f.read()
    text = []

    def visit(kind, payload):
        if kind == R.UNDO:
            text.pop()  # the last move taken back
        elif kind != R.END:
            text.append(payload.decode())

    R.read_log(data, visit)
    assert '[Computer "G"]' in text and '[Level "1"]' in text, text[:6]
    # the record replays to the same end
    c = record.Checker(Game)
    record.read(text, c)
    assert not [x for x in c.verdicts if x[1] != OK], c.verdicts
    assert record.result(c.game) == record.result(g)


def test_the_board_offers_its_levels_on_the_link_settings():
    r = rig("cmp-set")
    st = r.board.settings
    st.set(settings.COMPUTER, 1, 0)
    st.set(settings.LEVEL, 4, 0)  # level 5, the board's strongest (computer.BOARD_LEVELS)
    r.press(buttons.CONFIRM)
    g = r.board.ref.game
    # the computer plays Black, which starts: its first move awaited at once
    assert g.side_to_play() == 0 and r.board.ref.expect
    assert layer(r, cell_name(E.arg_b(r.board.ref.expect))) == view.SIDE0 | view.SLOW


def test_the_set_up_buttons_name_the_computer_and_its_level():
    # In set-up a long CONFIRM (the player count of teen and junior) cycles
    # the computer in the other modes: nobody, Gold at 1..5, Black at 1..5;
    # row B shows its level in its side's colour.
    r = rig("cmp-buttons")
    st = r.board.settings
    assert st.get(settings.COMPUTER) == 0
    r.press(buttons.CONFIRM, True)
    assert (st.get(settings.COMPUTER), st.get(settings.LEVEL)) == (8, 0)
    assert layer(r, "B1") == view.SIDE1 and layer(r, "B2") == view.OFF
    for _ in range(2):
        r.press(buttons.CONFIRM, True)
    assert (st.get(settings.COMPUTER), st.get(settings.LEVEL)) == (8, 2)  # Gold, level 3
    assert [layer(r, c) for c in ("B1", "B2", "B3", "B4")] == [view.SIDE1] * 3 + [view.OFF]
    for _ in range(3):
        r.press(buttons.CONFIRM, True)
    assert (st.get(settings.COMPUTER), st.get(settings.LEVEL)) == (1, 0)  # Black, level 1
    assert layer(r, "B1") == view.SIDE0
    for _ in range(5):
        r.press(buttons.CONFIRM, True)
    assert st.get(settings.COMPUTER) == 0 and layer(r, "B1") == view.OFF


def _team_match(name, mode, mask, limit=400, declare_at=-1):
    # The computer on the seats of mask, people (the engine at level 3 with
    # hands of their own, a dealer of theirs) on the others: every move
    # carried out by hand on the simulated board, the people's declarations
    # on the board (deck-empty when their pile is out, a pass when allowed).
    r = rig(name)
    st = r.board.settings
    st.set(settings.GAME_MODE, mode, 0)
    st.set(settings.COMPUTER, mask, 0)
    st.set(settings.LEVEL, 2, 0)
    r.press(buttons.CONFIRM)
    g = r.board.ref.game
    people = [
        (t, s) for t in (0, 1) for s in range(1, g.seats[t] + 1) if not mask >> (t * 3 + s - 1) & 1
    ]
    mine = dealer.Table(g, people, 11)
    me = E.Engine(3, 5)
    n = 0
    while r.board.phase == PLAY and n < limit:
        n += 1
        if g.nmoves() == declare_at and not g.deck_declared_empty(0):
            # the players say team A's deck ran out (§4): its keeper's next
            # turn is the reserve, its other seat in a tactical void
            assert r.board.declare(DECK_EMPTY, 0) == OK
            mine.piles[0][:] = []
        t, seat = g.side_to_play(), g.seat_to_play()
        before = g.nmoves()
        if (t, seat) not in people:
            m = r.board.ref.expect
            assert m, (r.board.message, record.write(g)[-4:])
            carry_out(r, m, t, r.board.ref.expect_cells)
            assert g.nmoves() > before, (E.kind_of(m), r.board.message, r.board.ref.refusal)
            continue
        mine.sync(t)
        h = mine.hand(t, seat)
        if g.silent and not mine.piles[t] and not g.deck_declared_empty(t):
            if not g.reserve_used(t) or not len(h):
                r.board.declare(DECK_EMPTY, t)
                if g.nmoves() > before:
                    continue
        if not mine.piles[t] and not len(h) and not g.silent:
            r.board.declare(DECK_EMPTY, t)
            continue
        m = dealer.choose(g, mine, me, t, seat)
        if not m:
            if r.board.declare(PASS) != OK:
                r.board.declare(DECK_EMPTY, t)
            continue
        if E.kind_of(m) == PASS:
            assert r.board.declare(PASS) == OK
            continue
        cells = bytes(me.reserve_cells[: me.nres]) if E.kind_of(m) == RESERVE else b""
        carry_out(r, m, t, cells)
        assert g.nmoves() == before + 1, (E.kind_of(m), r.board.message, r.board.ref.refusal)
        if E.kind_of(m) == PLACE:
            mine.played(t, seat, E.arg_a(m))
        elif E.kind_of(m) == RESERVE:
            kind, p = g.last_move()
            mine.returned(t, [(p[i] - 1) & 31 for i in range(2, len(p), 2)])
    return r, g


def test_team_matches_with_computer_seats_beside_people():
    # silent-swarm with the computer on A1 (the keeper) and B2, 3v2 on A3
    # (its keeper) and B1; team A's deck declared empty after 8 moves: the
    # computer builds the reserve (the cells it names lifted, CONFIRM), to
    # the end
    for mode, mask in ((SILENT_SWARM, 1 | 16), (THREE_VS_TWO, 4 | 8)):
        r, g = _team_match("cmp-team-%d" % mode, mode, mask, declare_at=8)
        lines = record.write(g)
        assert g.over() and r.board.phase == OVER, lines[-6:]
        assert [x for x in lines if "reserve" in x], lines


def test_the_computer_out_of_cards_declares_and_the_match_ends():
    # §3.3: the computer with no card left in its pile nor its hand
    # declares its deck empty itself; with two players that ends the match
    # by the count, and the board says it is over
    r, _ = vs_computer("cmp-out")
    g = r.board.ref.game
    rem = r.board.remote
    rem.table.piles[1][:] = []
    rem.table.hands[(1, 1)][:] = []
    r.put("E3", card(0, 12))
    r.settle()
    assert g.over() and r.board.phase == OVER, record.write(g)
    assert record.write(g)[-1] == "G deck-empty"

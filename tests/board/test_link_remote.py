# A seat played from elsewhere by the host (docs/protocol.md, REMOTE and
# EXPECT): a player on another board. The board judges the move it is
# given by its own rules before it waits for it (a refused one changes
# nothing), refuses whatever that side puts down while its move is not
# known, and waits for the move as for the computer's. Plain functions:
# also run under the MicroPython unix port.
import sys

from apixagon.codes import SILENT_SWARM
from apixagon.geometry import NCELLS, cell_name, parse_cell
from boardkit import card
from eventkit import evs, started
from smartboard import board as B
from smartboard import remote, report, view
from smartboard.paint import GAMMA

assert report and remote  # imported by the link at its first REMOTE


def _black_moved(name):
    # Black (the people here) has played its first card; Gold is far
    bd = started(name)
    assert bd.ask("REMOTE G") == (True, "remote=G")
    bd.r.put("E3", card(0, 12))
    bd.r.settle()
    evs(bd)
    return bd


def _legal_cell(bd, c):
    g = bd.r.board.ref.game
    out = bytearray(NCELLS)
    g.card_cells(c, out, 1)
    for x in range(NCELLS):
        if out[x]:
            return cell_name(x)
    raise AssertionError("no cell for G%d" % c)


def test_remote_names_seats_only_in_a_match():
    bd = started("lr-seats")
    for bad in ("REMOTE X", "REMOTE G+Q", "REMOTE", "REMOTE G B C"):
        ok, reply = bd.ask(bad)
        assert not ok and reply.startswith("6 "), (bad, reply)
    assert bd.ask("REMOTE none") == (True, "remote=none")
    assert bd.r.board.remote is None
    assert bd.ask("REMOTE G") == (True, "remote=G")
    assert bd.status()["remote"] == "G"
    bd.r.board.new_match()  # set-up: no match to name seats of
    ok, reply = bd.ask("REMOTE G")
    assert not ok and reply.startswith("8 "), reply


def test_far_side_waits_then_its_move_is_taken_and_awaited():
    bd = _black_moved("lr-move")
    st = bd.status()
    assert st["remote"] == "G" and "expect" not in st, st
    # nothing of Gold's is taken before its move is known
    cell = _legal_cell(bd, 5)
    bd.r.put(cell, card(1, 5))
    bd.r.settle()
    assert [k for k, t in evs(bd) if k == "refused"] == ["refused"]
    assert bd.r.board.ref.game.nmoves() == 1
    bd.r.lift(cell)
    bd.r.settle()
    evs(bd)
    line = "G 5 " + cell
    assert bd.ask("EXPECT 1 " + line) == (True, "expect " + line)
    assert ("expect", line) in evs(bd)
    assert bd.status()["expect"] == line.replace(" ", "_")
    bd.r.put(cell, card(1, 5))
    bd.r.settle()
    got = evs(bd)
    assert ("move", "2 " + line) in got, got
    g = bd.r.board.ref.game
    assert g.nmoves() == 2 and g.side_to_play() == 0
    assert "expect" not in bd.status()
    if sys.implementation.name == "micropython":  # (one suite a process there)
        assert "apixagon.engine" not in sys.modules  # a far seat needs no engine


def test_a_move_the_rules_refuse_changes_nothing():
    bd = _black_moved("lr-refuse")
    g = bd.r.board.ref.game
    for line, want in (
        ("G 5 E3", "refused occupied G 5 E3"),  # Black's card lies there
        ("B 7 E5", "refused not-your-turn B 7 E5"),  # not the far seat's turn
        ("G 5 Z9", "refused bad-cell G 5 Z9"),
        ("G 44 E5", "refused unknown-card G 44 E5"),
        ("G hello E5", "refused bad-syntax G hello E5"),
        ("G forced-removal", "refused not-allowed-in-mode G forced-removal"),  # §4 only
    ):
        assert bd.ask("EXPECT 1 " + line) == (True, want), line
        assert g.nmoves() == 1 and not bd.r.board.ref.expect & 0xFFFF, line
    assert bd.ask("EXPECT 0 G 5 E5") == (True, "stale 1")
    for bad in ("EXPECT", "EXPECT 1", "EXPECT x G 5 E5", "EXPECT -1 G 5 E5"):
        ok, reply = bd.ask(bad)
        assert not ok and reply.startswith("6 "), (bad, reply)
    assert "expect" not in bd.status()
    assert bd.r.board.phase == B.PLAY


def test_expect_needs_a_far_seat():
    bd = started("lr-none")
    ok, reply = bd.ask("EXPECT 0 B 12 E3")
    assert not ok and reply.startswith("8 "), reply


def test_the_far_side_declares_at_its_own_board():
    bd = _black_moved("lr-declare")
    g = bd.r.board.ref.game
    assert bd.ask("DECLARE pass") == (True, "refused wrong-move G pass")
    assert bd.ask("DECLARE deck-empty G") == (True, "refused wrong-move G deck-empty")
    assert g.nmoves() == 1 and not g.over()
    # its declaration, given by the host, the board carries out itself
    assert bd.ask("EXPECT 1 G deck-empty") == (True, "2 G deck-empty")
    assert g.over()


def test_a_forced_removal_is_declared_at_the_guilty_teams_board():
    # RULES.md §4: the card it locks away is drawn from the guilty team's
    # deck, which is at its own board: the far team's is refused here and,
    # given by the host, carried out on any turn; this board's own team's
    # waits for its own turn (on the far seat's, the records would cross).
    bd = started("lr-forced", SILENT_SWARM)
    g = bd.r.board.ref.game
    assert bd.ask("REMOTE B1+B2") == (True, "remote=B1+B2")
    assert bd.ask("DECLARE forced-removal B") == (True, "refused wrong-move B forced-removal")
    assert bd.ask("EXPECT 0 B1 forced-removal")[1].startswith("refused bad-syntax")
    assert bd.ask("EXPECT 0 A forced-removal")[1].startswith("refused not-your-turn")
    assert g.nmoves() == 0
    assert bd.ask("EXPECT 0 B forced-removal") == (True, "1 B forced-removal")
    assert g.forced_removals(1) == 1 and g.side_to_play() == 0  # A1 still to play
    assert bd.ask("DECLARE forced-removal A") == (True, "2 A forced-removal")
    bd.r.put("E3", card(0, 12))
    bd.r.settle()
    assert g.nmoves() == 3, bd.r.board.ref.refusal
    assert bd.ask("DECLARE forced-removal A") == (True, "refused wrong-move A forced-removal")
    assert g.forced_removals(0) == 1 and g.nmoves() == 3


def _pixel(bd, name, entry):
    # the LED of cell name in the lit phase, and what entry looks like there
    r = bd.r
    v = r.board.view
    p = r.board.hw.painter
    v.dirty = True
    v.frame(0)
    want = tuple(GAMMA[c] * p.brightness // 255 for c in view.colour_of(entry))
    return r.strip.rgb(r.layout.led[parse_cell(name)]), want


def test_a_replay_marks_the_better_cell_until_the_next_move():
    # A host replaying a match with its review: both sides far, each move
    # awaited and put down, then the better cell lit GOOD (the hint mode's
    # good cell: a colour the replay's own highlights never use) until
    # the next move, in the colour-blind palette too
    from smartboard import cbpalette

    bd = started("lr-mark")
    assert bd.ask("REMOTE B+G") == (True, "remote=B+G")
    assert bd.ask("EXPECT 0 B 12 E3") == (True, "expect B 12 E3")
    bd.r.put("E3", card(0, 12))
    bd.r.settle()
    assert ("move", "1 B 12 E3") in evs(bd)
    for bad in ("MARK", "MARK Z9", "MARK D4 E5", "MARK d"):
        ok, reply = bd.ask(bad)
        assert not ok and reply.startswith("6 "), (bad, reply)
    assert bd.ask("MARK D4") == (True, "mark=D4")
    v = bd.r.board.view
    assert v.layer[parse_cell("D4")] == view.GOOD
    assert v.layer[parse_cell("E3")] & 0x3F == view.LAST  # the move itself
    got, want = _pixel(bd, "D4", view.GOOD)
    assert got == want and got != (0, 0, 0)
    cbpalette.use(bd.r.board, 1)
    try:
        got, want = _pixel(bd, "D4", view.GOOD)
        assert got == want and got != (0, 0, 0)
    finally:
        cbpalette.use(bd.r.board, 0)
    # the next move awaited: the better cell stays lit until it is made
    cell = _legal_cell(bd, 5)
    assert bd.ask("EXPECT 1 G 5 " + cell) == (True, "expect G 5 " + cell)
    assert v.layer[parse_cell("D4")] == view.GOOD or cell == "D4"
    bd.r.put(cell, card(1, 5))
    bd.r.settle()
    assert ("move", "2 G 5 " + cell) in evs(bd)
    assert not [c for c in v.layer if c == view.GOOD]
    # a mark taken off by the host
    assert bd.ask("MARK B2") == (True, "mark=B2")
    assert v.layer[parse_cell("B2")] == view.GOOD
    assert bd.ask("MARK none") == (True, "mark=none")
    assert not [c for c in v.layer if c == view.GOOD]
    bd.r.board.new_match()  # set-up: no match to mark a cell of
    ok, reply = bd.ask("MARK D4")
    assert not ok and reply.startswith("8 "), reply

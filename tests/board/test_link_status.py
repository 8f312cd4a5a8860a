# What a host reads of the match (docs/protocol.md): the set-up in words
# (STATUS start= option= players=), a `changed` event for what no move or
# phase event announces, the move count to the match's end. Plain
# functions: also run under MicroPython at 96 wK.
from apixagon import record
from apixagon.codes import JUNIOR, TEEN
from boardkit import card, play
from eventkit import evs, started, watched
from logkit import is_move
from smartboard import buttons


def test_setup_is_named_in_status_and_each_choice_is_a_changed_event():
    bd = watched("ev-setup")
    st = bd.status()
    assert (st["mode"], st["start"], st["option"]) == ("queens-gambit", "black", "none")
    assert "players" not in st  # only where the mode takes a count
    evs(bd)
    bd.r.press(buttons.DECLARE)
    assert evs(bd) == [("changed", "")] and bd.status()["start"] == "gold"
    bd.r.press(buttons.DECLARE, True)
    assert evs(bd) == [("changed", "")] and bd.status()["option"] == "special_then_place"
    bd.ask("SET mode %d" % TEEN)
    st = bd.status()
    assert (st["mode"], st["players"], st["start"]) == ("teen", "4", "B")  # teams of 2
    bd.r.press(buttons.CONFIRM, True)
    assert evs(bd) == [("changed", "")] and bd.status()["players"] == "6"
    bd.ask("SET mode %d" % JUNIOR)
    st = bd.status()
    assert "start" not in st and st["option"] == "special_then_place"
    assert st["players"] == "2"  # §6: Junior's own count, 2 to 6 (D-13)
    bd.ask("SET mode %d" % TEEN)
    bd.r.press(buttons.CONFIRM)  # the match the set-up named
    st = bd.status()
    assert (st["phase"], st["mode"], st["players"], st["start"]) == ("play", "teen", "6", "B")
    assert st["option"] == "special_then_place"


def test_status_moves_count_the_records_move_lines_to_the_end():
    # A match that ends on a declaration: ply, the turn counter, stops at
    # 1 (declarations do not advance it, nor does a move that ends the
    # match); moves= counts the record's lines, as the move events do
    bd = started("ev-moves")
    play(bd.r, [("put", "A1", card(0, 0))])
    bd.r.press(buttons.DECLARE)
    bd.r.press(buttons.CONFIRM)  # gold's deck empty: the match ends (§3.3)
    ev = evs(bd)
    assert ev == [
        ("move", "1 B 0 A1"),
        ("changed", ""),  # the declaration previewed
        ("move", "2 G deck-empty"),
        ("phase", "over"),
    ]
    st = bd.status()
    assert (st["phase"], st["moves"], st["ply"]) == ("over", "2", "1")
    # the rule that ended it (§3.3: the cards declared run out) and the
    # count that decided it (D-6: sequences of 3, then of 4): none, a draw
    assert (st["end"], st["runs"], st["winner"]) == ("cards-run-out", "0:0:0:0", "draw")
    lines = 0
    for line in record.lines(bd.r.board.ref.game):
        lines += is_move(line)
    assert lines == 2
    bd.r.press(buttons.CONFIRM)  # OVER to SETUP: no phase event, a changed one
    assert evs(bd) == [("changed", "")] and bd.status()["phase"] == "setup"


def test_set_players_is_judged_by_the_mode():
    bd = watched("dl-players")
    # refused with what the mode takes (docs/protocol.md, SET): none here
    assert _err(bd, "SET players 4") == "6 bad arguments: SET players - queens-gambit"
    bd.ask("SET mode %d" % TEEN)
    assert _err(bd, "SET players 3") == "6 bad arguments: SET players 2,4,6 teen"
    assert bd.ask("SET players 6") == (True, "players=6")
    bd.ask("SET mode %d" % JUNIOR)
    assert bd.ask("SET players 3") == (True, "players=3")  # §6: 2 to 6
    assert bd.status()["players"] == "3" and "players=3" in bd.ask("CONF")[1]
    assert _err(bd, "SET players 1") == "6 bad arguments: SET players 2..6 junior"
    bd.ask("SET mode %d" % TEEN)
    assert bd.status()["players"] == "6"  # each mode keeps its own count
    assert "players=6" in bd.ask("CONF")[1]


def _err(bd, text):
    ok, reply = bd.ask(text)
    assert not ok, (text, reply)
    return reply


# docs/guide/rules/finished.apx: Black's second sequence of 4 on its last move
FINISHED = (
    "B 0 C2", "G 1 E8", "B 5 C3", "G 6 E9", "B 10 C4", "G 20 C5", "B 15 C1", "G 11 E7",
    "B 2 G6", "G 16 E6", "B 7 G5", "G 22 G7", "B 12 G4", "G 4 I9", "B 17 G3",
)  # fmt: skip


def test_status_names_the_rule_that_ended_the_match():
    # §3.3: two distinct sequences of 4 end the match at once (no count)
    bd = started("ev-end")
    steps = []
    for line in FINISHED:
        side, c, cell = line.split()
        steps.append(("put", cell, card("BG".index(side), int(c))))
    play(bd.r, steps)
    st = bd.status()
    assert (st["phase"], st["winner"], st["end"]) == ("over", "B", "two-sequences-of-4"), st
    assert "runs" not in st

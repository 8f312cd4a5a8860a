# The computer's seat over the link (docs/protocol.md): SET computer and
# level name it in set-up, STATUS says computer= and the move it waits for
# (expect=), the `expect` event names it, a wrong card is refused in words
# (wrong-move), CONF lists the settings. Plain functions: also run under
# the MicroPython unix port.
from apixagon import engine as E
from apixagon.codes import BEEHIVE, JUNIOR, THREE_VS_TWO, TWO_VS_ONE
from apixagon.geometry import cell_name
from boardkit import card, play
from eventkit import evs, watched
from smartboard import buttons, report, view

assert report  # imported by the link at its first STATUS with a computer


def test_set_names_the_computer_and_the_board_waits_for_its_move():
    bd = watched("lc-set")
    assert bd.ask("SET computer G") == (True, "computer=G")
    assert bd.ask("SET level 2") == (True, "level=2")
    assert bd.ask("SET assist 2") == (True, "assist=2")
    assert bd.ask("SET hintlimit 3") == (True, "hintlimit=3")
    conf = bd.ask("CONF")[1]
    assert "computer=8 level=2 assist=2 hintlimit=3" in conf, conf
    for bad in ("SET computer X", "SET level 7", "SET level 0", "SET assist 3", "SET hintlimit 9"):
        ok, reply = bd.ask(bad)
        assert not ok and reply.startswith("6 "), (bad, reply)
    bd.r.press(buttons.CONFIRM)
    evs(bd)
    bd.r.put("E3", card(0, 12))
    bd.r.settle()
    got = evs(bd)
    ex = [t for k, t in got if k == "expect"]
    ref = bd.r.board.ref
    m = ref.expect
    line = "G %d %s" % (E.arg_a(m), cell_name(E.arg_b(m)))
    assert ex == [line], got
    st = bd.status()
    assert st["computer"] == "G:2" and st["expect"] == line.replace(" ", "_"), st
    # another card on its cell: refused in words, the move still awaited
    wrong = 0 if E.arg_a(m) else 1
    bd.r.put(cell_name(E.arg_b(m)), card(1, wrong))
    bd.r.settle()
    refused = [t for k, t in evs(bd) if k == "refused"]
    assert refused == ["wrong-move G %d %s" % (wrong, cell_name(E.arg_b(m)))], refused
    assert bd.status()["expect"] == line.replace(" ", "_")


def test_status_says_the_heap_free_at_the_end_of_the_computers_search():
    # Under MicroPython the search runs with the collector held off, so the
    # heap free when it ends is its lowest (what the benchmarks read in a
    # real match); CPython cannot tell and says nothing.
    import sys

    bd = watched("lc-heap")
    assert bd.ask("SET computer G") == (True, "computer=G")
    bd.r.press(buttons.CONFIRM)
    st = bd.status()
    assert "searchheap" not in st, st  # no search yet
    bd.r.put("E3", card(0, 12))
    bd.r.settle()
    st = bd.status()
    assert "expect" in st, st
    if sys.implementation.name == "micropython":
        assert 0 < int(st["searchheap"]) <= int(st["heap"]) + 4096, st
        import gc

        assert gc.isenabled()  # given back after the search
    else:
        assert "searchheap" not in st, st


def _refused(bd, text):
    ok, reply = bd.ask(text)
    assert not ok, (text, reply)
    return reply


def test_a_refused_setting_says_what_it_takes_and_changes_nothing():
    # docs/protocol.md, SET: `SET KEY ALLOWED [MODE]` for the host to word
    bd = watched("lc-refused")
    conf = bd.ask("CONF")[1]
    for text, allowed in (
        ("SET level 0", "SET level 1..5"),
        ("SET level 99", "SET level 1..5"),
        ("SET level abc", "SET level 1..5"),
        ("SET level 6", "SET level 1..5"),  # the engine's 6 is the PC's
        ("SET hintlimit -1", "SET hintlimit 0..6"),
        ("SET hintlimit 7", "SET hintlimit 0..6"),
        ("SET assist 3", "SET assist 0..2"),
        ("SET computer X", "SET computer B,G queens-gambit"),
        ("SET computer A2+B1", "SET computer B,G queens-gambit"),
        ("SET computer G2", "SET computer B,G queens-gambit"),
        ("SET display 3", "SET display 0..2"),
    ):
        assert _refused(bd, text) == "6 bad arguments: " + allowed, text
    assert bd.ask("CONF")[1] == conf


def test_only_seats_the_mode_has_are_taken():
    # RULES §5: 3v2's team B has two seats, 2v1's one; a seat the mode
    # lacks was taken and the match started with no computer
    bd = watched("lc-seats", THREE_VS_TWO)
    seats = "6 bad arguments: SET computer A1,A2,A3,B1,B2 3v2"
    for bad in ("SET computer B3", "SET computer B1+B2+B3", "SET computer 32"):
        assert _refused(bd, bad) == seats, bad
    assert "computer=0 " in bd.ask("CONF")[1]
    assert bd.ask("SET computer A3+B2") == (True, "computer=A3+B2")
    bd.ask("SET mode %d" % TWO_VS_ONE)
    assert _refused(bd, "SET computer B2") == "6 bad arguments: SET computer A1,A2,B1 2v1"
    bd.ask("SET mode %d" % BEEHIVE)
    assert bd.ask("SET computer B1+B2+B3") == (True, "computer=B1+B2+B3")  # §4: three a team
    bd.r.press(buttons.CONFIRM)
    assert bd.status()["computer"] == "B1+B2+B3:1"


def test_junior_has_no_computer():
    # RULES §6 is a race of hands: no seat for the computer, not even by mask
    bd = watched("lc-junior", JUNIOR)
    for bad in ("SET computer 2", "SET computer G", "SET computer J1"):
        assert _refused(bd, bad) == "6 bad arguments: SET computer - junior", bad
    assert bd.ask("SET computer none") == (True, "computer=none")
    assert "computer=0 " in bd.ask("CONF")[1]


def test_assist_in_a_match_changes_the_hints_at_once():
    # the hints' assistance acts in the match in play, as the host says:
    # the cells to block go dark at once, not at the next card
    bd = watched("lc-assist")
    bd.r.press(buttons.CONFIRM)
    play(bd.r, [("put", "E3", card(0, 0)), ("put", "E7", card(1, 1)), ("put", "D3", card(0, 2))])
    evs(bd)
    layer = bd.r.board.view.layer
    assert view.BLOCKS in [v & 0x3F for v in layer]  # assist 1: gold may block E3-D3
    assert bd.ask("SET assist 0") == (True, "assist=0")
    assert view.BLOCKS not in [v & 0x3F for v in layer]
    assert ("changed", "") in evs(bd)
    assert bd.ask("SET assist 1") == (True, "assist=1")
    assert view.BLOCKS in [v & 0x3F for v in layer]

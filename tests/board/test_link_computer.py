# The computer's seat over the link (docs/protocol.md): SET computer and
# level name it in set-up, STATUS says computer= and the move it waits for
# (expect=), the `expect` event names it, a wrong card is refused in words
# (wrong-move), CONF lists the settings. Plain functions: also run under
# the MicroPython unix port.
from apixagon import engine as E
from apixagon.geometry import cell_name
from boardkit import card
from eventkit import evs, watched
from smartboard import buttons, report

assert report  # imported by the link at its first STATUS with a computer


def test_set_names_the_computer_and_the_board_waits_for_its_move():
    bd = watched("lc-set")
    assert bd.ask("SET computer G") == (True, "computer=G")
    assert bd.ask("SET level 2") == (True, "level=2")
    assert bd.ask("SET assist 2") == (True, "assist=2")
    assert bd.ask("SET hintlimit 3") == (True, "hintlimit=3")
    conf = bd.ask("CONF")[1]
    assert "computer=8 level=2 assist=2 hintlimit=3" in conf, conf
    ok, reply = bd.ask("SET level 6")
    assert not ok and "the board offers 1 to 5" in reply, reply
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

# What the link fuzz (tests/e2e/test_fuzz.py) found, each pinned down: a
# request with a word too many is refused and changes nothing (a DEL or
# a REBOOT was carried out on the words the board understood); an unsafe
# log name is bad arguments for PULLED and DEL as for GET; made-up verbs
# cost no heap for ever (getattr interned each one: MicroPython never
# frees an interned string). Plain functions: also run under the
# MicroPython unix port at 96 wK, where the heap is measured.
import gc

from logkit import MICROPYTHON
from smartboard import proto
from smartboard.sim.flash import SimFlash
from storekit import Board


def code(bd, text):
    ok, rest = bd.ask(text)
    return 0 if ok else int(rest.split()[0])


def test_a_word_too_many_is_refused_and_changes_nothing():
    flash = SimFlash()
    bd = Board("strict", flash)
    bd.play(2)
    bd.abandon()
    resets = []
    bd.link.reboot = lambda: resets.append(1)
    assert code(bd, "PULLED 0001.alog") == 0
    assert code(bd, "DEL 0001.alog 0002.alog") == proto.E_ARGS
    assert code(bd, "DEL") == proto.E_ARGS
    assert code(bd, "PULLED 0001.alog x") == proto.E_ARGS
    assert "logs/0001.alog" in flash.files  # not deleted
    assert code(bd, "REBOOT now") == proto.E_ARGS
    assert not resets  # not reset
    assert code(bd, "CONF x") == proto.E_ARGS
    assert code(bd, "HELLO 1 1") == proto.E_ARGS
    assert code(bd, "HELLO 1") == 0
    for name in ("../settings.alog", "0001.alog.tmp", "LAST", "x" * 40 + ".alog"):
        assert code(bd, "PULLED " + name) == proto.E_ARGS, name
        assert code(bd, "DEL " + name) == proto.E_ARGS, name
    assert code(bd, "DEL 0009.alog") == proto.E_NOT_FOUND
    assert code(bd, "DEL 0001.alog") == 0  # the one right form still works
    assert "logs/0001.alog" not in flash.files
    assert bd.status()["faults"] == "0"


def _letters(i):
    out = ""
    for _ in range(4):
        out += chr(65 + i % 26)
        i //= 26
    return "QZ" + out


def test_made_up_verbs_cost_no_heap():
    bd = Board("strict-verbs", SimFlash())
    for i in range(20):  # the link's own first-use allocations
        assert code(bd, _letters(i)) == proto.E_VERB
    del bd.port.out[:]
    gc.collect()
    free = gc.mem_free() if MICROPYTHON else 0
    for i in range(20, 620):
        bd.link.handle("@5 %s 1" % _letters(i))
        del bd.port.out[:]
    gc.collect()
    if MICROPYTHON:
        # interned, 600 names took some 14 KB, never given back
        lost = free - gc.mem_free()
        assert lost < 1024, lost
    assert code(bd, "STATUS") == 0 and bd.status()["faults"] == "0"

# A log number is never given twice (logstore.names.HIGH): the host knows a
# match by board and log name, so a new match under a deleted match's name
# would be taken for it. Simulated flash (smartboard.sim.flash); plain
# functions, also run under the MicroPython unix port at 96 wK.
from logkit import ROOT, collect
from smartboard.logstore.names import HIGH
from smartboard.sim.flash import PowerCut, SimFlash
from storekit import Board


def _match(bd, moves=3):
    bd.play(moves)
    bd.abandon()
    bd.log.flush_all()


def _pulled_and_deleted(bd, name):
    assert bd.ask("PULLED " + name) == (True, name)
    assert bd.ask("DEL " + name) == (True, name)


def test_a_deleted_newest_log_leaves_its_number_behind():
    flash = SimFlash()
    bd = Board("names-del", flash)
    _match(bd)
    _match(bd)
    assert bd.log.names() == ["0001.alog", "0002.alog"]
    _pulled_and_deleted(bd, "0001.alog")  # an older one: no mark needed
    assert not flash.exists(ROOT + "/" + HIGH)
    _pulled_and_deleted(bd, "0002.alog")
    assert bytes(flash.contents(ROOT + "/" + HIGH)) == b"2"
    assert bd.log.names() == []
    _match(bd)
    assert bd.log.names() == ["0003.alog"]  # not 0001 again
    bd = None
    collect()
    bd = Board("names-del", flash, fresh=False)  # after a reboot too
    _match(bd)
    assert bd.log.names() == ["0003.alog", "0004.alog"]


def test_a_cut_inside_a_delete_never_frees_a_number():
    for units in range(0, 4):  # in the mark's write, its rename, the removal
        flash = SimFlash()
        bd = Board("names-cut", flash)
        _match(bd)
        assert bd.ask("PULLED 0001.alog") == (True, "0001.alog")
        flash.cut_after(units)
        try:
            bd.ask("DEL 0001.alog")
        except PowerCut:
            pass
        flash.power_on()
        bd = None
        collect()
        bd = Board("names-cut", flash, fresh=False)
        _match(bd)
        names = bd.log.names()
        assert "0002.alog" in names and names[0] in ("0001.alog", "0002.alog"), (units, names)
        bd = None
        collect()


def test_an_unreadable_mark_falls_back_on_the_names():
    flash = SimFlash()
    bd = Board("names-bad", flash)
    _match(bd)
    flash.write(ROOT + "/" + HIGH, b"\xff junk")
    _match(bd)
    assert bd.log.names() == ["0001.alog", "0002.alog"]

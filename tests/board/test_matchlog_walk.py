# A LOGS from the start lists the folder afresh, but walks the archives'
# entry heads again only when the archives listed are not the ones walked
# last (their first numbers and sizes: the board only ever appends to one;
# a cut, a drop or a file put there changes the listing). On a flash twin
# whose listing gives sizes, as littlefs's does: the index and the listing
# are the same as a fresh walk's, whatever changed between two listings.
# Plain functions: also run under the MicroPython unix port.
from logkit import ROOT, collect
from packkit import fill, logs_of, pack_all
from pagekit import Host, logs_page
from smartboard.sim.flash import SimFlash


class Sized(SimFlash):
    """The twin listing sizes (littlefs's ilistdir), counting the archive
    reads (each entry head walked is one)."""

    def __init__(self):
        SimFlash.__init__(self, lfs=True)
        self.arc_reads = 0

    def ilistdir(self, d):
        pre = d + "/"
        for name in sorted(p[len(pre) :] for p in self.files if p.startswith(pre)):
            yield name.encode(), False, self.lens[pre + name]

    def read_into(self, path, offset, buf):
        if path.endswith(".pack"):
            self.arc_reads += 1
        return SimFlash.read_into(self, path, offset, buf)


def _listing(h):
    out = []
    more = 0
    while True:
        more = logs_page(h, more, lambda name, size, state: out.append((name, size, state)))[1]
        if not more:
            return out


def _packed_board(n=12):
    flash = Sized()
    log = fill(flash, n)
    data = logs_of(flash, log)
    pack_all(log)
    collect()
    return flash, data


def test_a_second_listing_walks_no_archive_and_lists_the_same():
    flash, data = _packed_board()
    h = Host(flash)  # a boot: the archives walked
    first = _listing(h)
    assert [(int(n[:4]), s) for n, s, _ in first] == [(k, v[0]) for k, v in sorted(data.items())]
    flash.arc_reads = 0
    assert _listing(h) == first
    assert flash.arc_reads == 0  # sizes and index kept from the walk
    assert h.log.packed(3) and not h.log.packed(12) and h.log.counts() == (12, 12)


def test_what_changes_the_archives_walks_them_again():
    flash, data = _packed_board()
    h = Host(flash)
    first = _listing(h)
    # the board deletes a packed log it was told was pulled: a D entry
    # appended, the archive longer: walked again, the log gone
    assert h.ask("PULLED 0003.alog")[0] and h.ask("DEL 0003.alog")[0]
    flash.arc_reads = 0
    after = _listing(h)
    assert flash.arc_reads > 0
    assert after == [e for e in first if e[0] != "0003.alog"]
    assert not h.log.packed(3) and h.log.packed(4)
    # unchanged again: no walk
    flash.arc_reads = 0
    assert _listing(h) == after and flash.arc_reads == 0


def test_a_packed_logs_own_file_put_back_is_read_from_its_file():
    # a log both packed and its own file (a cut before the pack removed
    # it, or a file copied back): as the walk finds it, dup, from its file
    flash, data = _packed_board()
    h = Host(flash)
    _listing(h)
    five = bytearray(data[5][0])
    assert h.log.read_into(5, 0, five) == len(five)
    flash.write(ROOT + "/0005.alog", bytes(five))
    flash.arc_reads = 0
    listed = _listing(h)
    assert flash.arc_reads == 0  # the archives are the ones walked
    assert ("0005.alog", len(five), "done") in listed
    assert not h.log.packed(5) and h.log.dup == 5 and h.log.packed(6)
    # gone again: packed again, as a fresh walk has it
    flash.remove(ROOT + "/0005.alog")
    _listing(h)
    assert h.log.packed(5)


def test_an_archive_removed_behind_the_boards_back_is_walked_again():
    flash, data = _packed_board()
    h = Host(flash)
    _listing(h)
    packs = sorted(p for p in flash.files if p.endswith(".pack"))
    flash.remove(packs[0])
    listed = _listing(h)
    gone = [n for n in data if not h.log.has("%04d.alog" % n)]
    assert gone and not [e for e in listed if int(e[0][:4]) in gone]
    assert h.log.counts()[0] == 12 - len(gone)


def test_the_packers_appends_keep_the_walk_so_the_next_listing_reads_no_archive():
    # The board packs between matches, after its boot walked the archives;
    # a pull's first LOGS then comes: the walk kept up by the packer
    # (Folder.walked_append) lists what a fresh walk lists, reading no
    # archive head, before and after the packed logs' own files are gone.
    flash = Sized()
    log = fill(flash, 6)
    data = logs_of(flash, log)
    pack_all(log)
    h = Host(flash)  # a boot: two archives' worth walked
    _listing(h)
    more = fill(flash, 14)  # the same folder, eight matches more
    data = logs_of(flash, more)
    h.log.rescan()
    flash.arc_reads = 0
    h.log.pack_wanted = True
    k = 0
    while h.log.pack_due() and h.log.pack_step():
        k += 1
        if k == 3:  # amid the packing: a log copied, its own file still there
            flash.arc_reads = 0
            amid = _listing(h)
            assert flash.arc_reads == 0
            assert amid == _listing(Host(flash))
            flash.arc_reads = 0
    assert h.log.packer.packed >= 7
    reads = flash.arc_reads  # the packer's own read-backs
    listed = _listing(h)
    assert flash.arc_reads == reads  # no walk: the walk kept up
    fresh = Host(flash)
    assert listed == _listing(fresh)
    assert [(int(n[:4]), s) for n, s, _ in listed] == [(k, v[0]) for k, v in sorted(data.items())]
    for n in sorted(data):
        assert h.log.packed(n) == fresh.log.packed(n), n
    assert (h.log.top, h.log.tail, h.log.dup) == (fresh.log.top, fresh.log.tail, fresh.log.dup)

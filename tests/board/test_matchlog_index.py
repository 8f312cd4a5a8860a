# The logs' index (smartboard.logstore.folder: a bit per log number, listed once
# at boot and at each LOGS from the start), through the serial link's own
# handlers: LOGS pages go by log number, so a log deleted between two pages
# moves no other one past the host; PULLED marks at once, its marker
# written when the host is quiet; a PULLED kept in memory on a full flash
# survives a fresh listing (DEL may still free the space); a marker left by
# another match of the same number never marks a new match pulled; past
# the highest number no log is made and the log says the flash is full,
# never crashes. Simulated flash (smartboard.sim.flash), the log's writer
# following a game, the link without a board (as in safe mode): light
# enough for many logs in MicroPython's 96 wK.
from apixagon.game import Game
from logkit import ROOT, collect
from pagekit import Host, logs_page
from smartboard import link
from smartboard.logstore import folder, records
from smartboard.logstore.names import HIGH
from smartboard.sim.flash import SimFlash

# a log of one header record (one 128-byte block of the twin each)
HEADER = bytes(records.encode(records.SEED, records.HEADER, b"mode queens-gambit")[0])


def _flash(n, pulled=0):
    flash = SimFlash(blocks=n + pulled)
    flash.mkdir(ROOT)
    data = HEADER
    for i in range(1, n + 1):
        flash.write("%s/%04d.alog" % (ROOT, i), data)
        if i <= pulled:
            flash.write("%s/%04d.pulled" % (ROOT, i), b"1")
    return flash


def test_logs_pages_go_by_number_so_a_delete_between_them_skips_none():
    k = link.LOGS_PER_REPLY
    h = Host(_flash(k + 2, 2))
    names, more = h.page()
    assert names == ["%04d.alog" % i for i in range(1, k + 1)] and more == k + 1
    # the host deletes two it stored before asking the next page
    for name in ("0001.alog", "0002.alog"):
        assert h.ask("DEL " + name) == (True, name)
    names, more = h.page(more)
    assert names == ["%04d.alog" % (k + 1), "%04d.alog" % (k + 2)] and not more
    assert h.page(k + 3) == ([], 0)  # past the last: an empty page
    assert h.log.counts() == (k, k)


def test_a_pulled_kept_in_memory_survives_a_fresh_listing():
    flash = _flash(3)
    h = Host(flash)
    flash.set_free(0)  # the marker cannot be written
    assert h.ask("PULLED 0002.alog") == (True, "0002.alog")
    if flash.exists(ROOT + "/0002.pulled"):
        # the twin made the file empty before it found no room; a flash
        # may make none at all: then only the board's memory knows
        flash.remove(ROOT + "/0002.pulled")
    ok, text = h.ask("LOGS")  # from the start: the folder listed afresh
    assert "0002.alog:%d:pulled" % len(HEADER) in text.split(), text
    assert h.ask("DEL 0002.alog") == (True, "0002.alog")  # frees the space
    assert h.ask("DEL 0001.alog")[0] is False  # never one not pulled
    assert h.log.counts() == (2, 2)


def test_pulled_marks_at_once_and_writes_its_marker_once_the_host_is_quiet():
    # the marker file (littlefs: ~30 ms on the RP2040) waits for a quiet
    # link, never slows a pull's requests; a cut before it forgets the mark
    flash = _flash(4)  # 0004 is the match in play
    h = Host(flash)
    for name in ("0001.alog", "0002.alog", "0003.alog"):
        assert h.ask("PULLED " + name) == (True, name)
    assert h.ask("PULLED 0001.alog") == (True, "0001.alog")  # again: nothing more waits
    assert h.log.marks == [1, 2, 3] and h.log.counts() == (4, 1)
    ok, text = h.ask("LOGS")  # from the start: the folder listed afresh
    assert text.split()[:3] == ["%04d.alog:%d:pulled" % (i, len(HEADER)) for i in (1, 2, 3)]
    assert h.ask("DEL 0003.alog") == (True, "0003.alog")  # a mark in memory is a mark
    assert not flash.exists(ROOT + "/0001.pulled")
    assert Host(flash).log.counts() == (3, 3)  # a cut now: offered again
    h.link.poll(1000)  # the first empty poll: quiet from here
    h.link.poll(1299)
    assert not flash.exists(ROOT + "/0001.pulled")
    h.link.poll(1300)  # one a poll
    assert flash.exists(ROOT + "/0001.pulled") != flash.exists(ROOT + "/0002.pulled")
    h.link.poll(1301)
    assert flash.exists(ROOT + "/0001.pulled") and flash.exists(ROOT + "/0002.pulled")
    assert h.log.marks == []
    assert not flash.exists(ROOT + "/0003.pulled")
    assert Host(flash).log.counts() == (3, 1)


def test_a_pulled_of_several_names_marks_all_or_none():
    # protocol 2: a request for many logs (4 ms of the RP2040's time each
    # when one a request); an error marks none of them
    flash = _flash(4)  # 0004 is the match in play
    h = Host(flash)
    assert h.ask("PULLED 0001.alog 0009.alog")[0] is False  # no 0009: none marked
    assert h.ask("PULLED 0001.alog 0004.alog")[0] is False  # in play: none marked
    assert h.ask("PULLED 0001.alog ../x.alog")[0] is False
    assert h.log.counts() == (4, 4)
    assert h.ask("PULLED 0001.alog 0002.alog 0003.alog") == (
        True,
        "0001.alog 0002.alog 0003.alog",
    )
    assert h.log.counts() == (4, 1) and h.log.marks == [1, 2, 3]


def test_a_pulled_of_ranges_marks_all_or_none():
    # protocol 4: "N+K" marks the logs N .. N+K-1 (a few bytes for a whole
    # archive, each byte ~70 us of the RP2040's USB reads); an error in any
    # word marks none
    flash = _flash(4)  # 0004 is the match in play
    h = Host(flash)
    for text, code in (
        ("PULLED 5+2", 7),  # no 0005, 0006
        ("PULLED 1+2 0009.alog", 7),
        ("PULLED 3+2", 8),  # 0004 in play
        ("PULLED 0+1", 6),
        ("PULLED 1+0", 6),
        ("PULLED 1+x", 6),
        ("PULLED 9999+2", 6),
        ("PULLED 1+2 ../x.alog", 6),
    ):
        ok, rest = h.ask(text)
        assert not ok and int(rest.split()[0]) == code, (text, rest)
    assert h.log.counts() == (4, 4)
    assert h.ask("PULLED 1+2 0003.alog") == (True, "1+2 0003.alog")
    assert h.log.counts() == (4, 1) and h.log.marks == [1, 2, 3]
    assert h.ask("PULLED 2+2") == (True, "2+2")  # marked already: nothing more waits
    assert h.log.marks == [1, 2, 3]


def test_a_marker_of_another_match_never_marks_a_new_one_pulled():
    # 0002.pulled without its log (a flash wiped but for it, LAST lost):
    # the next match is 0002, and it is not pulled
    flash = _flash(1)
    flash.write(ROOT + "/0002.pulled", b"1")
    h = Host(flash)
    assert h.log.counts() == (1, 1)
    h.match()
    assert not flash.exists(ROOT + "/0002.pulled")
    ok, text = h.ask("LOGS")
    assert text.split()[1].startswith("0002.alog:") and text.endswith(":done"), text
    assert h.ask("DEL 0002.alog")[0] is False


def test_past_the_highest_number_no_log_is_made_and_the_flash_reads_full():
    flash = SimFlash()
    flash.mkdir(ROOT)
    flash.write(ROOT + "/" + HIGH, b"9998")
    h = Host(flash)
    h.match()  # 9999.alog: the last number there is
    assert h.log.names() == ["9999.alog"] and h.page() == (["9999.alog"], 0)
    g = Game()
    h.log.begin(g)  # no number left: not logged, as on a full flash
    assert not h.log.flush() and h.log.failing and h.log.low()
    assert h.log.names() == ["9999.alog"]
    collect()
    flash = SimFlash()
    flash.mkdir(ROOT)
    flash.write(ROOT + "/" + HIGH, b"99999999999")  # no number: unreadable
    h = Host(flash)
    h.match()
    assert h.log.names() == ["0001.alog"]


def _header(pad):
    return bytes(
        records.encode(records.SEED, records.HEADER, b"mode queens-gambit" + b" " * pad)[0]
    )


class Listed(SimFlash):
    """The twin with a listing that gives sizes, as littlefs's does (in
    name order, or backwards): Folder._sizes_pass then reads each page's sizes
    from one pass going on from page to page. read: entries listed."""

    def __init__(self, backwards=False, blocks=70):
        SimFlash.__init__(self, blocks=blocks)
        self.backwards = backwards
        self.read = 0

    def ilistdir(self, d):
        pre = d + "/"
        names = sorted(p[len(pre) :] for p in self.files if p.startswith(pre))
        if self.backwards:
            names.reverse()
        for name in names:
            self.read += 1
            yield name.encode(), False, self.lens[pre + name]


def _listed(backwards, n=60):
    flash = Listed(backwards, n + 10)
    flash.mkdir(ROOT)
    for i in range(1, n + 1):
        flash.write("%s/%04d.alog" % (ROOT, i), _header(i % 7))  # sizes differ
    h = Host(flash)
    flash.read = 0
    seen = []
    more = 0
    while True:
        more = logs_page(h, more, lambda name, size, state: seen.append((name, size)))[1]
        if not more:
            break
    assert seen == [("%04d.alog" % i, len(HEADER) + i % 7) for i in range(1, n + 1)], seen
    return flash.read


def test_a_listing_that_gives_sizes_is_read_once_across_the_pages():
    # a page's worth, in name order or not: the rescan's pass keeps the
    # first page's sizes, so no second pass; every log once, at its size
    # (_listed checks). (The pass going on from page to page:
    # test_matchlog_scale's thousand logs.)
    assert _listed(False, 30) == 30
    collect()
    assert _listed(True, 30) == 30


def test_a_listing_out_of_order_keeps_the_sizes_of_the_lowest_numbers():
    # the first page's sizes, whatever order the entries come in (littlefs
    # lists in name order; another filesystem need not)
    head = bytearray(6 * folder.HEAD)
    k = 0
    order = [(i * 37) % 101 + 1 for i in range(101)]  # 1..101, shuffled
    for n in order:
        k = folder._keep_head(head, k, n, 1000 * n + 7)
    assert k == 6 * folder.HEAD
    assert [folder._head_n(head, j) for j in range(0, k, 6)] == list(range(1, folder.HEAD + 1))
    assert head[2:6] == (1007).to_bytes(4, "big")
    assert head[k - 4 : k] == (1000 * folder.HEAD + 7).to_bytes(4, "big")

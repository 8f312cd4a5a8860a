# Helpers of the match-log tests that list many logs (test_matchlog_index.py,
# test_matchlog_scale.py): one LOGS page read in the parts the board writes
# it, and Host: a match log and the serial link's handlers without a board
# (as in safe mode) - what LOGS, GET, PULLED and DEL need, light enough for
# a thousand logs in MicroPython's 96 wK.
from apixagon.game import Game
from apixagon.geometry import parse_cell
from logkit import ROOT, TAGS
from smartboard import link, proto
from smartboard.logstore import writer


def logs_page(bd, start=0, check=None):
    """One LOGS page of a storekit.Board, read in the parts the board wrote
    it (each what its buffer held, an entry never cut), its CRC chained
    over them. check(name, size, state) for each entry; returns (entries,
    the +next marker or 0)."""
    del bd.port.out[:]
    bd.link.handle("@1 LOGS" if not start else "@1 LOGS %d" % start)
    parts = bd.port.out
    assert parts[0].startswith(b"=1 OK"), parts[0]
    c = 0xFFFF
    more = 0
    n = 0
    for k in range(len(parts) - 1):
        c = proto.crc16(parts[k], c)
        for item in parts[k].split(b" ")[2 if k == 0 else 0 :]:
            if not item:
                continue
            if item[0] == 43:  # "+next"
                more = int(item[1:])
                continue
            name, size, state = item.decode().split(":")
            if check is not None:
                check(name, int(size), state)
            n += 1
    assert parts[-1] == proto.crc_tail(c), parts[-1]
    return n, more


class Port:
    """The serial link's port: nothing comes in, replies are kept."""

    def __init__(self):
        self.out = []

    def read_byte(self):
        return -1

    def write(self, data):
        self.out.append(bytes(data))  # a GET reply comes in pieces, one a memoryview


class Host:
    """The link's end of a match log: requests answered by its handlers."""

    def __init__(self, flash, root=ROOT):
        self.log = writer.MatchLog(root, TAGS, flash)
        self.log.unfinished()  # as at boot: the folder listed
        self.port = Port()
        self.link = link.Link(self.port, None, self.log)

    def ask(self, text):
        del self.port.out[:]
        self.link.handle("@1 " + text)
        line = b"".join(self.port.out)[:-1]
        kind, seq, ok, rest = proto.parse_reply(proto.body(line))
        return ok, rest

    def page(self, start=0):
        """(names, next) of one LOGS page."""
        names = []
        more = logs_page(self, start, lambda name, size, state: names.append(name))[1]
        return names, more

    def match(self):
        """A match of one move, abandoned: its log written."""
        g = Game()
        self.log.begin(g)
        assert g.place(0, 12, parse_cell("E4")) == 0
        self.log.sync(g)
        self.log.end_text = "abandoned"
        self.log.flush_all()

"""Spectators: the records of online matches, as their sides publish them
(retained on apixagon/v2/MATCH-ID/record, MAC'd under the code key: a
spectator needs the code), shown delayed by a number of moves
(a spectator beside a player could otherwise tell them the other side's
move before the board shows it). What is kept is checked first: a record
line the rules core does not take, or anything but header and move lines,
drops the whole message (a side's publish is never trusted more than a
move is). Hands are never in it: no message of the protocol carries one."""

import re
import threading

from apixagon import record
from apixagon.game import Game

from ..i18n import _
from . import protocol as P
from . import seal

DEFAULT_DELAY = 2  # moves held back from spectators
MAX_MATCHES = 1000  # matches kept at once (the oldest heard goes first)
KEEP = 8  # records kept a match, the newest first to be shown
_MID = re.compile(r"^[0-9a-f]{32}$")


def check_record(data, key):
    """(lines, moves) of a record message MAC'd under the match's code key,
    or ProtocolError."""
    msg = P.decode(data, key, None, ("record",))
    lines = msg["lines"]
    for x in lines:
        if not (P.is_move(x) or x.startswith("[") or x.split(" ")[0] in record_headers()):
            raise P.ProtocolError(_("malformed record: %r") % x[:40])
    game, verdicts = record.check(lines, Game)
    bad = [v for v in verdicts if v[1]]
    if bad:
        raise P.ProtocolError(_("record refused by the rules: line %d") % bad[0][0])
    return lines, sum(1 for x in lines if P.is_move(x))


def record_headers():
    return ("mode", "option", "start", "players")


class Watcher:
    """The latest record of every match heard on the broker."""

    def __init__(self, url, delay=DEFAULT_DELAY, client=None):
        from .transport import Transport

        self.delay = max(0, int(delay))
        self.url = url
        self.records = {}  # match id -> the last few record messages heard
        self.refused = 0
        self._lock = threading.Lock()
        self.net = Transport(url, client or "apixagon-watch-%d" % id(self))
        self.net.subscribe(P.ROOT + "/+/record")
        self._thread = None
        self._stop = False

    def start(self, timeout=10.0):
        self.net.start(timeout)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self):
        while not self._stop:
            item = self.net.get(0.2)
            if item is not None and item[0] == "msg":
                self.take(item[1], item[2])

    def take(self, topic, data):
        # kept by the match's id (its topic): its code, and so its key, is
        # known only when someone asks for it (view). The last few kept: one
        # published by someone without the code does not hide the real one
        parts = topic.split("/")
        if len(parts) != 4 or not _MID.match(parts[2]) or not data or len(data) > P.MAX_BYTES:
            return
        with self._lock:
            got = self.records.pop(parts[2], [])
            got = (got + [data])[-KEEP:]
            self.records[parts[2]] = got
            while len(self.records) > MAX_MATCHES:
                self.records.pop(next(iter(self.records)))

    def _record(self, code):
        try:
            c = P.check_code(code)
        except P.ProtocolError:
            return None
        key = seal.code_key(c)
        with self._lock:
            got = list(self.records.get(seal.match_id(c), []))
        for data in reversed(got):
            try:
                return check_record(data, key)
            except P.ProtocolError:
                self.refused += 1
        return None

    def view(self, code, delay=None):
        """The match as spectators see it: header and the moves but the
        last `delay` (at least the watcher's own); None if not heard."""
        d = self.delay if delay is None else max(self.delay, delay)
        rec = self._record(code)
        if rec is None:
            return None
        lines, moves = rec
        shown = max(0, moves - d)
        header = [x for x in lines if not P.is_move(x)]
        kept = [x for x in lines if P.is_move(x)][:shown]
        c = seal.group(P.check_code(code))
        return {"code": c, "moves": moves, "shown": shown, "delay": d, "lines": header + kept}

    def stop(self):
        self._stop = True
        self.net.stop(False)

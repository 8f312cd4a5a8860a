"""Spectators: the records of online matches, as their sides publish them
(retained on apixagon/v1/CODE/record), shown delayed by a number of moves
(a spectator beside a player could otherwise tell them the other side's
move before the board shows it). What is kept is checked first: a record
line the rules core does not take, or anything but header and move lines,
drops the whole message (a side's publish is never trusted more than a
move is). Hands are never in it: no message of the protocol carries one."""

import json
import threading

from apixagon import record
from apixagon.game import Game

from ..i18n import _
from . import protocol as P

DEFAULT_DELAY = 2  # moves held back from spectators
MAX_MATCHES = 1000  # codes kept at once (the oldest heard goes first)


def check_record(data):
    """(lines, moves) of a record message, or ProtocolError."""
    if len(data) > P.MAX_BYTES:
        raise P.ProtocolError(_("record too long"))
    try:
        body = json.loads(data.decode())
    except (UnicodeDecodeError, ValueError):
        raise P.ProtocolError(_("malformed record: not JSON")) from None
    lines = body.get("lines") if isinstance(body, dict) else None
    if not isinstance(lines, list) or not all(isinstance(x, str) and len(x) < 200 for x in lines):
        raise P.ProtocolError(_("malformed record: lines"))
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
        self.records = {}  # code -> (lines, moves)
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
        parts = topic.split("/")
        if len(parts) != 4 or not P.CODE_RE.match(parts[2]) or not data:
            return
        try:
            rec = check_record(data)
        except P.ProtocolError:
            self.refused += 1
            return
        with self._lock:
            self.records.pop(parts[2], None)
            self.records[parts[2]] = rec
            while len(self.records) > MAX_MATCHES:
                self.records.pop(next(iter(self.records)))

    def view(self, code, delay=None):
        """The match as spectators see it: header and the moves but the
        last `delay` (at least the watcher's own); None if not heard."""
        d = self.delay if delay is None else max(self.delay, delay)
        with self._lock:
            rec = self.records.get(code)
        if rec is None:
            return None
        lines, moves = rec
        shown = max(0, moves - d)
        header = [x for x in lines if not P.is_move(x)]
        kept = [x for x in lines if P.is_move(x)][:shown]
        return {"code": code, "moves": moves, "shown": shown, "delay": d, "lines": header + kept}

    def stop(self):
        self._stop = True
        self.net.stop(False)

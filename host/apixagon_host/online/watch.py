"""Spectators: the feeds of online matches (feed.py), as their hosts
publish them, already held back by at least feed.MIN_DELAY moves and signed
with each match's own Ed25519 key. A spectator is given the key's
fingerprint, never the match code. Only a record that verifies against the
fingerprint's key, is newer than the last one taken (a replayed older one
is not) and that the rules core takes is kept; anything else on the topic
is ignored and said in a log line. Hands are never in it: no message of the
protocol carries one."""

import sys
import threading

from ..i18n import _
from . import feed

DEFAULT_DELAY = feed.DEFAULT_DELAY  # moves held back from spectators
MAX_MATCHES = 1000  # matches kept at once (the oldest heard goes first)


class Watcher:
    """The newest verified record of every match heard on the broker."""

    def __init__(self, url, delay=DEFAULT_DELAY, client=None, log=None):
        from .transport import Transport

        self.delay = feed.check_delay(delay)
        self.url = url
        self.records = {}  # fingerprint -> the newest verified feed message
        self.refused = 0
        self.log = log or _stderr
        self._lock = threading.Lock()
        self.net = Transport(url, client or "apixagon-watch-%d" % id(self))
        self.net.subscribe(feed.ROOT + "/+")
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
        """Keep the feed message data heard on topic if it is the
        fingerprint's, newer than the one kept, and the rules take it."""
        fp = topic[len(feed.ROOT) + 1 :] if topic.startswith(feed.ROOT + "/") else ""
        try:
            fp = feed.check_fingerprint(fp)
            msg = feed.verify(data, fp)
            with self._lock:
                old = self.records.get(fp)
                if old is not None and msg["seq"] <= old["seq"]:
                    raise feed.FeedError(_("not newer than the record shown: a replay"))
                self.records.pop(fp, None)
                self.records[fp] = msg
                while len(self.records) > MAX_MATCHES:
                    self.records.pop(next(iter(self.records)))
        except feed.FeedError as e:
            self.refused += 1
            self.log(_("watch: ignored a record on {topic}: {why}").format(topic=topic[:80], why=e))

    def view(self, fp, delay=None):
        """The match as spectators see it: header and the moves but the
        last `delay` (at least the watcher's own and the host's); None if
        not heard or fp is no fingerprint."""
        try:
            fp = feed.check_fingerprint(fp)
        except feed.FeedError:
            return None
        with self._lock:
            msg = self.records.get(fp)
        if msg is None:
            return None
        d = max(self.delay, delay or 0, msg["held"])
        shown = max(0, msg["played"] - d)
        lines = msg["lines"]
        header = [x for x in lines if not feed.is_move(x)]
        kept = [x for x in lines if feed.is_move(x)][:shown]
        return {
            "fp": fp,
            "moves": msg["played"],
            "shown": shown,
            "delay": d,
            "lines": header + kept,
        }

    def stop(self):
        self._stop = True
        self.net.stop(False)


def _stderr(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()

"""One side of an online match: the board on this PC's serial link, the
broker, and protocol.Side between them. The loop is one thread: the
board's events and the broker's messages are queued and handled in turn,
so the protocol's state is never shared.

The board's own log is the truth of this side. On start, after the
board's power cut (it comes back resuming: once its cards are back, its
log is read again) and after a restart of this program, the record is
read from the log in play, the far seats are named (REMOTE) and the far
move awaited again (EXPECT); the other side gets our whole record
(snapshot) on every (re)connect and sends back what we lack."""

import json
import os
import threading
import time

from apixagon_host import link as L

from ..errors import EXIT_FAILED, CommandError
from ..i18n import _
from . import protocol as P
from .transport import Transport, redact

POLL_S = 0.5  # how often the board's STATUS is looked at (a reboot, a resume)
RESEND_S = 3.0  # moves not acknowledged this long: our record is sent again
LOG_WAIT_S = 8.0  # the log written up to the board's moves (quiet ticks)


class Gone(CommandError):
    def __init__(self, message):
        super().__init__(message, EXIT_FAILED)


class Session:
    def __init__(
        self,
        link,
        url,
        code,
        role,
        side=None,
        grace=P.GRACE_S,
        say=None,
        wait=60.0,
        ca=None,
        user=None,
        password=None,
        client=None,
    ):
        self.link = link
        self.url = url
        try:
            self.code = P.check_code(code)
        except P.ProtocolError as e:
            raise CommandError(str(e)) from None
        if role not in ("host", "join"):
            raise CommandError(_("role must be host or join, not %r") % role)
        self.role = role
        self.want_side = side
        self.grace = grace
        self.wait = wait
        self.say = say or (lambda text: None)
        self.tls = (ca, user, password)
        self.client = client or "apixagon-%s-%s-%s" % (self.code, role, os.urandom(3).hex())
        self.side = None  # protocol.Side once the sides are known
        self.net = None
        self.events = []  # the board's events, (kind, text), not handled yet
        self.calls = []  # (fn, done, box): run in the loop's thread (tests' hands)
        self.ready = False  # the board in play, its record read, seats named
        self.peer_online = None  # None: never heard; else True/False
        self.gone_at = None
        self.last_poll = 0.0
        self.unacked_at = None
        self.over = False
        self.errors = []  # messages refused (said, nothing changed)
        self.refused = []  # far moves this board refused
        self.setup = None
        self._stop = False
        self.done = threading.Event()
        self.status = {}
        self.finished = None  # the result once the match is over on both boards
        self.log_head = "-"  # NAME@LINK of the board's log as last read

    # ---- set-up ---------------------------------------------------------------------
    def start(self):
        self.link.on_event = self._on_board_event
        st = self._board_status()
        self._check_match(st)
        letters = st.get("sides", "")
        if len(letters) != 2 or letters in ("AB", "JJ") or st.get("players", "2") != "2":
            raise CommandError(
                _("online play is for two players, one at each board (this board is set for %s)")
                % st.get("mode", "?")
            )
        mine = self._setup_sides(st, letters)
        other = letters[1 - letters.index(mine)]
        self.side = P.Side(self.code, mine, other)
        self.net = Transport(
            self.url,
            self.client,
            P.topic_presence(self.code, mine),
            ca=self.tls[0],
            user=self.tls[1],
            password=self.tls[2],
        )
        self.net.subscribe(P.topic_from(self.code, other))
        self.net.subscribe(P.topic_presence(self.code, other))
        self._attach()
        self.net.start()
        if self.role == "host":
            self._publish_setup(st)
        self.say(_("online: match %s, this board plays %s") % (self.code, _side_name(mine)))
        return self

    def _setup_sides(self, st, letters):
        # The host says which side it plays, retained on the match's setup
        # topic; the joiner takes the other, and its board must be set for
        # the same match.
        if self.role == "host":
            w = (self.want_side or letters[0])[:1].upper()
            if w not in letters:
                raise CommandError(
                    _("side %r: this match's sides are %s") % (self.want_side, letters)
                )
            return w
        setup = self._fetch_setup()
        for key in ("mode", "start", "option"):
            if setup["setup"].get(key) != st.get(key):
                raise CommandError(
                    _("the boards are set for different matches: %s is %s there, %s here")
                    % (key, setup["setup"].get(key), st.get(key))
                )
        theirs = setup["side"]
        if theirs not in letters:
            raise CommandError(_("the host plays side %s, which this match does not have") % theirs)
        return letters[1 - letters.index(theirs)]

    def _fetch_setup(self):
        # the retained setup of the match named by the code, read once
        probe = Transport(
            self.url, self.client + "-probe", ca=self.tls[0], user=self.tls[1], password=self.tls[2]
        )
        probe.subscribe(P.topic_setup(self.code))
        probe.start()
        try:
            end = time.monotonic() + self.wait
            while time.monotonic() < end:
                item = probe.get(0.2)
                if item and item[0] == "msg" and item[2]:
                    try:
                        return P.decode(item[2], self.code)
                    except P.ProtocolError as e:
                        raise CommandError(_("the match %s's setup: %s") % (self.code, e))
        finally:
            probe.stop(False)
        raise CommandError(
            _(
                "no match %s on the broker %s within %g s (is the code right, and has the host "
                "started it?)"
            )
            % (self.code, redact(self.url), self.wait)
        )

    def _publish_setup(self, st):
        setup = {k: st.get(k, "") for k in ("mode", "start", "option", "players")}
        data = P.encode("hello", self.code, self.side.side, moves=0, head="", setup=setup)
        self.net.publish(P.topic_setup(self.code), data, retain=True)

    def _check_match(self, st):
        if st.get("phase") not in ("play", "resume", "over"):
            raise CommandError(
                _(
                    "no match on the board (phase %s): set it up and start it (CONFIRM), "
                    "then run this again"
                )
                % st.get("phase", "?")
            )

    def _board_status(self):
        self.status = L.fields(self.link.request("STATUS"))
        return self.status

    # ---- the board --------------------------------------------------------------------
    def _attach(self):
        """(Again) after a start, a reboot or a resume: watch the board, read
        its record from its log, name the far seats, await the far move."""
        self.ready = False
        st = self._board_status()
        if st.get("watch") != "1":
            self.link.request("WATCH", "1")
        if st.get("phase") == "resume":
            self.say(_("the board is resuming: put the cards back as its LEDs show"))
            return False
        if st.get("phase") not in ("play", "over"):
            raise CommandError(_("the board left the match (phase %s)") % st.get("phase"))
        lines = self._record(st)
        self.side.load(lines)
        if st.get("phase") == "play":
            try:
                self.link.request("REMOTE", self.side.other)
            except L.BoardError as e:
                if getattr(e, "board_code", 0) == 5:
                    raise CommandError(
                        _("this board's firmware has no REMOTE: update it")
                    ) from None
                raise
        self.ready = True
        # the moves the log has are not taken twice; one made while it was
        # read is still to come
        have = len(self.side.moves)
        self.events = [e for e in self.events if e[0] != "move" or _count(e[1]) > have]
        self.do(self.side._next_far())
        if self.net is not None and self.net.connected.is_set():
            self._hello()
        return True

    def _record(self, st):
        """The record of the match in play, from the board's log, once it
        holds as many moves as the board (the log is written on quiet
        ticks: it may lag a move)."""
        from smartboard.logstore import records

        name = st.get("log", "-")
        want = int(st.get("moves", "0"))
        if name == "-":
            if want:
                raise CommandError(_("the match is played unsaved: it cannot go online mid-way"))
            return []
        end = time.monotonic() + LOG_WAIT_S
        while True:
            size = dict((n, s) for n, s, _ in self.link.logs()).get(name)
            got = records.Lines()
            if size:
                link = records.read_log(self.link.fetch(name, 0, size), got)[3]
                # the log's own chain head (its last record's link): what a
                # pulled copy of this log can be checked against later
                self.log_head = "%s@%s" % (name, bytes(link).hex())
            if len(got.moves) >= want or time.monotonic() > end:
                return list(got.header) + list(got.moves)
            time.sleep(0.2)

    def _on_board_event(self, rest):
        kind, _, text = rest.partition(" ")
        if kind in ("move", "phase", "expect", "refused"):
            self.events.append((kind, text))

    def _board_events(self):
        while self.events:
            kind, text = self.events.pop(0)
            if kind == "phase":
                if text in ("start", "abandoned"):
                    raise CommandError(
                        _("the board's match ended (%s): online match stopped") % text
                    )
                if text == "over":
                    self.over = True
                if text == "resumed" and not self.ready:
                    self._attach()
                continue
            if kind != "move" or not self.ready:
                continue
            w = text.split(" ", 1)
            try:
                n = int(w[0])
            except ValueError:
                continue
            self.do(self.side.board_move(n, w[1] if len(w) > 1 else None))

    def _poll(self):
        # a board that rebooted (a power cut) stops watching: attach again
        now = time.monotonic()
        if now - self.last_poll < POLL_S:
            return
        self.last_poll = now
        st = self._board_status()
        if st.get("watch") != "1" or not self.ready:
            if st.get("watch") != "1":
                self.say(_("the board restarted: reading its log"))
            self._attach()
            return
        if st.get("phase") == "over":
            self.over = True

    # ---- the network ------------------------------------------------------------------
    def _hello(self):
        s = self.side
        self.send("hello", moves=len(s.moves), head=s.head(), setup={})
        self.send("snapshot", **s.snapshot(self.log_head))
        self.do([("record", s.lines())])

    def send(self, kind, **fields):
        data = P.encode(kind, self.code, self.side.side, **fields)
        self.net.publish(P.topic_from(self.code, self.side.side), data)

    def _network(self, timeout):
        item = self.net.get(timeout)
        while item is not None:
            self._net_item(item)
            item = self.net.get(0)

    def _net_item(self, item):
        if item[0] == "up":
            self.say(_("connected to the broker %s") % redact(self.url))
            if self.ready:
                self._hello()
            return
        if item[0] == "down":
            self.say(_("lost the broker (%s): reconnecting") % item[1])
            return
        _kind, topic, payload = item
        if topic == P.topic_presence(self.code, self.side.other):
            online = payload == b"online"
            if online and self.peer_online is not True:
                self.say(_("the other side (%s) is here") % _side_name(self.side.other))
            elif not online and self.peer_online:
                self.say(
                    _("the other side is away: waiting %g s before declaring it gone") % self.grace
                )
            self.peer_online = online
            self.gone_at = None if online else time.monotonic()
            return
        if not self.ready:
            return  # the snapshot after our attach brings it again
        self.do(self.side.message(payload))

    def do(self, actions):
        for a in actions:
            kind = a[0]
            if kind == "send":
                self.send(a[1], **a[2])
            elif kind == "expect":
                self._expect(a[1], a[2])
            elif kind == "record":
                if len(self.side.moves) < self.side.peer_moves:
                    continue  # the other side's is newer: spectators keep it
                body = {"lines": a[1], "moves": len(self.side.moves), "head": self.side.head()}
                self.net.publish(P.topic_record(self.code), json.dumps(body).encode(), retain=True)
            elif kind == "say":
                self.say(a[1])
            elif kind == "error":
                self.errors.append(a[1])
                self.say("refused a message: %s" % a[1])
            elif kind == "unexpect":
                try:
                    self.link.request("REMOTE", self.side.other)  # its expect cleared
                except L.BoardError as e:
                    self.say(_("the board cannot stop waiting: %s") % e)
            elif kind == "resync":
                self.say(a[1])
                self._attach()
            elif kind == "diverged":
                raise CommandError(_("online match stopped: %s") % a[1], EXIT_FAILED)

    def _expect(self, n, line):
        try:
            reply = self.link.request("EXPECT", n - 1, *line.split())
        except L.BoardError as e:
            self.side.expecting = 0
            self.say(_("the board cannot wait for move %d now: %s") % (n, e))
            return
        if reply.startswith("refused"):
            self.refused.append((n, line, reply))
        self.do(self.side.expect_answer(n, line, reply))

    # ---- the loop ---------------------------------------------------------------------
    def step(self, timeout=0.02):
        while self.calls:
            fn, box, ev = self.calls.pop(0)
            try:
                box.append((True, fn(self.link)))
            except Exception as e:  # noqa: BLE001 - handed back to the caller's thread
                box.append((False, e))
            ev.set()
        try:
            self.link.read_frame(time.monotonic() + timeout)
            self._board_events()
            self._poll()
            self._board_events()
        except L.LinkLost as e:
            self._board_lost(e)
        except L.BoardError as e:
            # a board busy booting (a power cut) answers nothing for a
            # moment: looked at again at the next poll, the network served
            # meanwhile
            if self.ready:
                self.say(_("the board does not answer (%s): waiting for it") % e)
            self.ready = False
        self._network(timeout)
        now = time.monotonic()
        s = self.side
        if self.ready and s.unacked():
            if self.unacked_at is None:
                self.unacked_at = now
            elif now - self.unacked_at > RESEND_S and self.net.connected.is_set():
                self.send("snapshot", **s.snapshot(self.log_head))
                self.unacked_at = now
        else:
            self.unacked_at = None
        if self.gone_at is not None and now - self.gone_at > self.grace:
            raise Gone(
                _(
                    "the other side has been away for %g s: the match is paused on this board "
                    "(its log keeps it); run the same command again to go on"
                )
                % self.grace
            )
        if self.over and self.ready and not s.unacked() and s.peer_moves >= len(s.moves):
            self.finished = self.status.get("winner", "?")
            return False
        return True

    def _board_lost(self, e):
        # unplugged (a real board's USB goes with its power): the port is
        # opened again once it is back; the broker is served meanwhile
        if self.ready:
            self.say(_("%s: waiting for the board") % e)
        self.ready = False
        port = self.link.port
        self.link.close()
        time.sleep(0.5)
        try:
            link = L.connect(port, timeout=5)
        except L.BoardError:
            return
        link.on_event = self._on_board_event
        self.link = link
        self.last_poll = 0.0

    def run(self, seconds=0):
        """Until the match is over on both boards (0), an error, stop(),
        or `seconds`."""
        end = time.monotonic() + seconds if seconds else None
        try:
            while not self._stop and self.step():
                if end and time.monotonic() > end:
                    break
            if self.finished is not None:
                self.say(_("match over (winner: %s): both boards have every move") % self.finished)
                if self.role == "host":
                    self.net.publish(P.topic_setup(self.code), b"", retain=True)
        finally:
            self.done.set()

    def call(self, fn, timeout=30):
        """fn(link) run in the loop's thread (the tests' hands on the
        simulated board share its one serial link); its result."""
        box, ev = [], threading.Event()
        self.calls.append((fn, box, ev))
        end = time.monotonic() + timeout
        while not ev.wait(0.05):
            if self.done.is_set() or time.monotonic() > end:
                raise TimeoutError("the session did not run the call (it ended)")
        ok, v = box[0]
        if not ok:
            raise v
        return v

    def stop(self):
        self._stop = True

    def close(self, clean=True):
        """clean=False: as a killed program (no goodbye: the broker sends
        the last will once it sees the connection gone)."""
        self._stop = True
        if self.net is not None:
            if clean:
                self.net.stop()
            else:
                self.net.client.loop_stop()  # no reconnect after the cut
                self.net.drop()
        self.link.on_event = None


def _count(text):
    try:
        return int(text.split(" ", 1)[0])
    except ValueError:
        return -1


def _side_name(letter):
    return {"B": "Black", "G": "Gold"}.get(letter, letter)

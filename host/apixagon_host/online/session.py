"""One side of an online match: the board on this PC's serial link, the
broker, and protocol.Side between them. The loop is one thread: the
board's events and the broker's messages are queued and handled in turn,
so the protocol's state is never shared.

The board's own log is the truth of this side. On start, after the
board's power cut (it comes back resuming: once its cards are back, its
log is read again) and after a restart of this program, the record is
read from the log in play, the far seats are named (REMOTE) and the far
move awaited again (EXPECT); the other side gets our whole record
(snapshot) on every (re)connect and sends back what we lack.

The seats: the host draws the code (or is given its own again) and
publishes its set-up with its public key; the first board to join with
the code takes the other seat (an X25519 exchange: seal.py), every later
one is refused. Both keep their seat on disk (seal.Keep), so the same
command started again takes the same seat. Every message is MAC'd under
the sender's seat key; anything else is dropped and said."""

import os
import threading
import time

from apixagon_host import link as L

from .. import matchend
from ..errors import EXIT_FAILED, CommandError
from ..i18n import _
from . import feed, seal
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
        state_dir=None,
        watch_delay=feed.DEFAULT_DELAY,
    ):
        self.link = link
        self.watch_delay = feed.check_delay(watch_delay)
        self.watch_key = None  # the host's key signing the spectators' feed (feed.py)
        self.watch_fp = None  # its fingerprint: what spectators are given
        self.url = url
        if role not in ("host", "join"):
            raise CommandError(_("role must be host or join, not %r") % role)
        if code is None and role == "host":
            code = seal.new_code()
        try:
            self.code = P.check_code(code)
        except P.ProtocolError as e:
            raise CommandError(str(e)) from None
        self.mid = seal.match_id(self.code)  # the topics' name: no code in it
        self.ckey = seal.code_key(self.code)
        self.state_dir = seal.state_dir(state_dir)
        self.keep = None  # seal.Keep: this side's seat, on disk
        self.counter = seal.Counter()
        self.my_key = None  # this seat's MAC key, once both seats are known
        self.peer_pub = None
        self.will_seq = None  # the number of our last will (presence offline)
        self.will_data = None
        self.peer_will = None  # the other side's, from its last presence online
        self.peer_presence = 0  # the newest presence number heard from it
        self.peer_said = None  # the number of the last presence taken
        self.setup_data = None  # our retained set-up (host)
        self.setup_again = 0.0  # when it was overwritten by someone else
        self.presence_data = None  # our retained presence
        self.presence_again = 0.0  # when it was overwritten by someone else
        self.dropped = []  # messages dropped unread (not authentic, old, too long)
        self.end_text = None
        self.role = role
        self.want_side = side
        self.grace = grace
        self.wait = wait
        self.say = say or (lambda text: None)
        self.tls = (ca, user, password)
        # no code in the client id either: a broker's log shows it
        self.client = client or "apixagon-%s-%s-%s" % (self.mid[:8], role, os.urandom(3).hex())
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
        self.teams = False  # a team game (RULES.md §4, §5, §7): sides A and B
        self.far_seats = None  # REMOTE's argument: the other side's seats (B1+B2)

    # ---- set-up ---------------------------------------------------------------------
    def start(self):
        self.link.on_event = self._on_board_event
        st = self._board_status()
        self._check_match(st)
        letters = st.get("sides", "")
        if letters == "JJ":
            # RULES.md §6: Junior is a race, every player turning a card at
            # once and the first to name the symbol placing; across homes the
            # network's delay, not the children, would decide who was first.
            raise CommandError(
                _(
                    "Junior is not played online: it is a race to name the symbol first, "
                    "and over the network the faster connection would win it; play it at "
                    "one board"
                )
            )
        if len(letters) != 2 or letters[0] == letters[1]:
            raise CommandError(
                _("online play needs a match of two sides (this board is set for %s)")
                % st.get("mode", "?")
            )
        self.teams = letters == "AB"
        self.keep = seal.Keep(self.state_dir, self.mid, self.role)
        self.counter = seal.Counter(self.keep)
        self.pub = seal.public(self.keep.secret)
        if self.role == "host":
            self.watch_key = feed.load_key(self.state_dir, self.mid)
            self.watch_fp = feed.fingerprint(feed.public(self.watch_key))
        self.setup_fields = {k: st.get(k, "") for k in ("mode", "start", "option", "players")}
        if self.role == "host":
            # The host says which side it plays, retained on the match's
            # set-up topic; the joiner takes the other.
            mine = (self.want_side or letters[0])[:1].upper()
            if mine not in letters:
                raise CommandError(
                    _("side %r: this match's sides are %s") % (self.want_side, letters)
                )
            other = letters[1 - letters.index(mine)]
            self.side = P.Side(None, mine, other)
            self.far_seats = _far_seats(st, other, self.teams)
            peer = self.keep.get("peer")
            if peer:  # started again: the seat taken before is still taken
                self._seat(bytes.fromhex(peer))
        else:
            mine, other, host_pub = self._meet(st, letters)
            self.side = P.Side(None, mine, other)
            self.far_seats = _far_seats(st, other, self.teams)
            self._seat(host_pub)
        self._open_net()
        self._attach()
        self.say(
            _("online: match {code}, this board plays {side}").format(
                code=seal.group(self.code), side=self._name(mine)
            )
        )
        if self.role == "host" and self.peer_pub is None:
            self.say(
                _(
                    "tell the other player this code (by phone, in person): {code}; "
                    "they run: apixagon online join {code}"
                ).format(code=seal.group(self.code))
            )
        return self

    def _name(self, letter):
        return _side_name(letter, self.teams)

    def _seat(self, peer_pub):
        """Both seats known: the seat keys (seal.seat_keys)."""
        s = self.side
        host_pub, join_pub = (self.pub, peer_pub) if self.role == "host" else (peer_pub, self.pub)
        keys = seal.seat_keys(
            self.ckey, seal.exchange(self.keep.secret, peer_pub), host_pub, join_pub
        )
        self.peer_pub = peer_pub
        self.my_key = keys(s.side)
        s.key = keys(s.other)
        if self.keep.get("peer") != peer_pub.hex():
            self.keep.set(peer=peer_pub.hex(), heard=0)
        s.heard = self.keep.get("heard", 0)

    def _open_net(self):
        """The broker connection, with our last will once our seat has a
        key (the host: opened again when the other seat is taken)."""
        if self.net is not None:
            self.net.stop(False)
        s = self.side
        net = Transport(
            self.url, self.client, ca=self.tls[0], user=self.tls[1], password=self.tls[2]
        )
        if self.my_key is not None:
            # presence: the will left with the broker, MAC'd like any message;
            # its number goes in each `online` so only this will counts
            self.will_seq = self.counter.next()
            self.will_data = P.encode(
                "presence", self.my_key, s.side, self.will_seq, state="offline", will=0
            )
            net.client.will_set(
                P.topic_presence(self.mid, s.side), self.will_data, qos=1, retain=True
            )
        net.subscribe(P.topic_from(self.mid, s.other))
        net.subscribe(P.topic_presence(self.mid, s.other))
        if self.my_key is not None:
            net.subscribe(P.topic_presence(self.mid, s.side))  # someone else's there: ours again
        if self.role == "host":
            net.subscribe(P.topic_join(self.mid))
            net.subscribe(P.topic_setup(self.mid))  # someone else's there: ours again
        self.net = net
        net.start()

    def _meet(self, st, letters):
        """The joiner: the host's set-up (its board must be set for the same
        match), then the seat asked for and granted; (mine, other, the
        host's public key). A board refused says why."""
        probe = Transport(
            self.url, self.client + "-probe", ca=self.tls[0], user=self.tls[1], password=self.tls[2]
        )
        probe.subscribe(P.topic_setup(self.mid))
        probe.subscribe(P.topic_seat(self.mid))
        probe.start()
        mine = other = host_pub = None
        asked = 0.0
        me = self.pub.hex()
        try:
            end = time.monotonic() + self.wait
            while time.monotonic() < end:
                if host_pub is not None and time.monotonic() - asked > 2.0:
                    data = P.encode("join", self.ckey, mine, self.counter.next(), pub=me)
                    info = probe.client.publish(P.topic_join(self.mid), data, qos=1)
                    asked = time.monotonic()
                    if self.keep.get("peer") == host_pub.hex():
                        # this board's seat already (a restart): the host
                        # hears the join when it is there
                        try:
                            info.wait_for_publish(2)
                        except (RuntimeError, ValueError):
                            pass
                        return mine, other, host_pub
                item = probe.get(0.2)
                if not item or item[0] != "msg" or not item[2]:
                    continue
                try:
                    msg = P.decode(item[2], self.ckey, None, ("setup", "seat", "taken"))
                except P.ProtocolError as e:
                    self._drop(str(e))
                    continue
                if msg["t"] == "setup" and item[1] == P.topic_setup(self.mid):
                    mine, other = self._their_setup(msg, st, letters)
                    host_pub = bytes.fromhex(msg["pub"])
                elif msg["t"] in ("seat", "taken") and msg["pub"] == me and host_pub:
                    if msg["t"] == "taken":
                        raise CommandError(
                            _(
                                "match {code}: the seat of {side} is taken by another board "
                                "(the first to join holds it)"
                            ).format(code=seal.group(self.code), side=self._name(mine))
                        )
                    self.side = P.Side(None, mine, other)
                    self._seat(host_pub)
                    if seal.same(seal.mac(self.side.key, b"seat " + me.encode()), msg["proof"]):
                        return mine, other, host_pub
                    self._drop(_("a seat answer the host did not sign: dropped"))
        finally:
            probe.stop(False)
        if host_pub is None:
            raise CommandError(
                _(
                    "no match {code} on the broker {url} within {s:g} s (is the code right, "
                    "and has the host started it?)"
                ).format(code=seal.group(self.code), url=redact(self.url), s=self.wait)
            )
        raise CommandError(
            _(
                "match {code}: the host did not answer within {s:g} s (is its program running?)"
            ).format(code=seal.group(self.code), s=self.wait)
        )

    def _their_setup(self, msg, st, letters):
        for key in ("mode", "start", "option", "players"):
            if msg["setup"].get(key, "") != st.get(key, ""):
                raise CommandError(
                    _("the boards are set for different matches: %s is %s there, %s here")
                    % (key, msg["setup"].get(key), st.get(key))
                )
        theirs = msg["side"]
        if theirs not in letters:
            raise CommandError(_("the host plays side %s, which this match does not have") % theirs)
        mine = letters[1 - letters.index(theirs)]
        return mine, theirs

    def _publish_setup(self):
        self.setup_data = P.encode(
            "setup",
            self.ckey,
            self.side.side,
            self.counter.next(),
            setup=self.setup_fields,
            pub=self.pub.hex(),
        )
        self.net.publish(P.topic_setup(self.mid), self.setup_data, retain=True)
        self.setup_again = 0.0

    def _on_join(self, payload):
        """The host: a board asks for the other seat. The first holds it;
        the same board again (restarted) is answered yes again; any other
        is refused, on both sides in words."""
        try:
            msg = P.decode(payload, self.ckey, self.side.other, ("join",))
        except P.ProtocolError as e:
            self._drop(str(e))
            return
        pub = bytes.fromhex(msg["pub"])
        if self.peer_pub is None:
            self._seat(pub)
            self.say(_("a board joined: it plays {side}").format(side=self._name(self.side.other)))
            self._open_net()  # our last will, now that our seat has a key
        elif pub != self.peer_pub:
            self.say(
                _(
                    "another board asked for the seat of {side}: refused, the board that "
                    "joined first holds it"
                ).format(side=self._name(self.side.other))
            )
            data = P.encode("taken", self.ckey, self.side.side, self.counter.next(), pub=msg["pub"])
            self.net.publish(P.topic_seat(self.mid), data)
            return
        proof = seal.mac(self.my_key, b"seat " + msg["pub"].encode())
        data = P.encode(
            "seat", self.ckey, self.side.side, self.counter.next(), pub=msg["pub"], proof=proof
        )
        self.net.publish(P.topic_seat(self.mid), data)

    def _drop(self, text):
        # said without any secret (no key, no MAC); a flood is said in part
        self.dropped.append(text)
        n = len(self.dropped)
        if n <= 20 or n % 100 == 0:
            self.say(_("ignored a message (%d so far): %s") % (n, text))

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
                self.link.request("REMOTE", self.far_seats)
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
        if self.my_key is None:
            return  # no seat joined yet: nobody to tell
        self.send("hello", moves=len(s.moves), head=s.head(), setup={})
        self.send("snapshot", **s.snapshot(self.log_head))
        self.do([("record", s.lines())])

    def send(self, kind, **fields):
        if self.my_key is None:
            return
        data = P.encode(kind, self.my_key, self.side.side, self.counter.next(), **fields)
        self.net.publish(P.topic_from(self.mid, self.side.side), data)

    def _presence_online(self):
        if self.my_key is None:
            return
        data = P.encode(
            "presence",
            self.my_key,
            self.side.side,
            self.counter.next(),
            state="online",
            will=self.will_seq,
        )
        self.presence_data = data
        self.presence_again = 0.0
        self.net.publish(P.topic_presence(self.mid, self.side.side), data, retain=True)

    def _on_presence(self, payload):
        # only the other seat's own words count: an `online` newer than the
        # last, or the very last will its `online` named
        if not payload:
            return
        try:
            msg = P.decode(payload, self.side.key, self.side.other, ("presence",))
        except P.ProtocolError as e:
            self._drop(str(e))
            return
        if msg["seq"] == self.peer_said:
            return  # the retained one again, sent on each (re)subscribe
        if msg["state"] == "online" and msg["seq"] > self.peer_presence:
            self.peer_presence = msg["seq"]
            self.peer_will = msg["will"]
            online = True
        elif msg["state"] == "offline" and msg["seq"] == self.peer_will:
            self.peer_will = None
            online = False
        else:
            self._drop(_("an old presence message: dropped"))
            return
        self.peer_said = msg["seq"]
        if online and self.peer_online is not True:
            self.say(_("the other side (%s) is here") % self._name(self.side.other))
        elif not online and self.peer_online:
            self.say(
                _("the other side is away: waiting %g s before declaring it gone") % self.grace
            )
        self.peer_online = online
        self.gone_at = None if online else time.monotonic()

    def _network(self, timeout):
        item = self.net.get(timeout)
        while item is not None:
            self._net_item(item)
            item = self.net.get(0)

    def _net_item(self, item):
        if item[0] == "up":
            self.say(_("connected to the broker %s") % redact(self.url))
            if self.role == "host" and self.finished is None:
                # again on every connect: a broker started again without its
                # retained messages still has the set-up for a joiner
                self._publish_setup()
            self._presence_online()
            if self.ready:
                self._hello()
            return
        if item[0] == "down":
            self.say(_("lost the broker (%s): reconnecting") % item[1])
            return
        _kind, topic, payload = item
        if topic == P.topic_presence(self.mid, self.side.other):
            self._on_presence(payload)
            return
        if topic == P.topic_join(self.mid):
            self._on_join(payload)
            return
        if topic == P.topic_setup(self.mid):
            if payload != self.setup_data and self.finished is None and not self.setup_again:
                self.setup_again = time.monotonic()  # someone else's: ours again soon
            return
        if topic == P.topic_presence(self.mid, self.side.side):
            # a retained presence not ours would hide us from the other side
            # when it (re)subscribes: ours again soon
            if payload not in (self.presence_data, self.will_data) and not self.presence_again:
                self.presence_again = time.monotonic()
            return
        if not self.ready:
            return  # the snapshot after our attach brings it again
        heard = self.side.heard
        self.do(self.side.message(payload))
        if self.side.heard != heard:
            self.keep.set(heard=self.side.heard)  # a replay stays old after a restart

    def do(self, actions):
        for a in actions:
            kind = a[0]
            if kind == "send":
                self.send(a[1], **a[2])
            elif kind == "expect":
                self._expect(a[1], a[2])
            elif kind == "record" and self.watch_key is not None:
                # only the host publishes for spectators, and only the
                # record held back by watch_delay moves: never the live one
                data = feed.encode(self.watch_key, self.counter.next(), a[1], self.watch_delay)
                self.net.publish(feed.topic(self.watch_fp), data, retain=True)
            elif kind == "say":
                self.say(a[1])
            elif kind == "error":
                self.errors.append(a[1])
                self.say(_("refused a message: %s") % a[1])
            elif kind == "drop":
                self._drop(a[1])
            elif kind == "unexpect":
                try:
                    self.link.request("REMOTE", self.far_seats)  # its expect cleared
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
        elif reply.startswith("expect"):
            # the board pulses the target; said too, for players who type
            # their hands on the simulated board
            self.say(
                _("the other side played move {n}: {line}; this board waits for its card").format(
                    n=n, line=line
                )
            )
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
        if self.setup_again and now - self.setup_again > 0.5 and self.net.connected.is_set():
            self._publish_setup()
        if self.presence_again and now - self.presence_again > 0.5 and self.net.connected.is_set():
            self._presence_online()
        if self.gone_at is not None and now - self.gone_at > self.grace:
            raise Gone(
                _(
                    "the other side has been away for %g s: the match is paused on this board "
                    "(its log keeps it); run the same command again to go on"
                )
                % self.grace
            )
        if self.over and self.ready and not s.unacked() and s.peer_moves >= len(s.moves):
            # the board's STATUS read now: the one polled before the last
            # move may not name the winner yet
            st = self._board_status()
            self.finished = st.get("winner") or "?"
            self.end_text = matchend.end_text(st)
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
                self.say(_("{end}; both boards have every move").format(end=self.end_text))
                if self.role == "host":
                    self.net.publish(P.topic_setup(self.mid), b"", retain=True)
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
                if self.will_data is not None and self.net.connected.is_set():
                    # our goodbye is our last will itself: the other side
                    # takes only that one
                    info = self.net.client.publish(
                        P.topic_presence(self.mid, self.side.side),
                        self.will_data,
                        qos=1,
                        retain=True,
                    )
                    try:
                        info.wait_for_publish(2)
                    except (RuntimeError, ValueError):
                        pass
                self.net.stop(False)
            else:
                self.net.client.loop_stop()  # no reconnect after the cut
                self.net.drop()
        self.link.on_event = None


def _count(text):
    try:
        return int(text.split(" ", 1)[0])
    except ValueError:
        return -1


def _side_name(letter, teams=False):
    if teams:
        return _("team %s") % letter
    return {"B": _("Black"), "G": _("Gold")}.get(letter, letter)


def _far_seats(st, letter, teams):
    """REMOTE's argument for the other side: its letter with two players,
    every seat of its team in a team game (RULES.md §4, §5: one board plays
    all of a team's seats, the other board all of the other's)."""
    from apixagon.codes import MODES, seats_of

    if not teams or st.get("mode") not in MODES:
        return letter
    try:
        players = int(st.get("players") or 0)
    except ValueError:
        players = 0
    n = seats_of(MODES.index(st["mode"]), players)["AB".index(letter)]
    return "+".join("%s%d" % (letter, i) for i in range(1, n + 1))

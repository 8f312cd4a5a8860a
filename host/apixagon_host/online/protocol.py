"""The online match's protocol, pure: messages, topics, the moves' hash
chain, and the state machine of one side (Side). No network and no board
here: the session (session.py) feeds it what the board and the broker
say and carries out the actions it returns, so every rule of the protocol
is tested without either (tests/online/test_protocol.py).

Each board referees every move itself. A side never applies what the
other says: it asks its own board to wait for the move (EXPECT), and the
board's rules judge it first. What travels is only what lies on the
table: the record lines of moves, never a hand.

Messages are JSON objects of at most MAX_BYTES (longer ones are dropped
unread), each with the protocol version `v`, its type `t`, the sender's
`side` letter, the sender's message number `seq` (rising: one not newer
than the last taken from that sender is a replay, dropped) and `mac`, the
HMAC-SHA256 of the rest under the key of the sender's seat (seal.py):

  hello    {moves, head, setup}           sent on every (re)connect
  snapshot {lines, moves, head, log}      the .apx record so far (header
                                          and moves) and the heads of its
                                          chains; on every (re)connect and
                                          when asked (want)
  move     {n, line, head}                the sender's move number n (the
                                          match's move count after it)
  ack      {n, head}                      move n is on the sender's board
  refused  {n, line, reason}              the sender's board refused move n
  want     {}                             send me your snapshot
  undo     {n, line}                      the sender's players took back
                                          their move n (the last one)
  presence {state, will}                  online (will: the number of the
                                          last will it left) or offline;
                                          retained

Under the code key (whoever knows the code), the seats' meeting:

  setup    {setup, pub}                   the host's match and its public
                                          key; retained, sent again on
                                          every reconnect
  join     {pub}                          a board asks for the other seat
  seat     {pub, proof}                   the host's yes to that board: the
                                          proof is a MAC under the host's
                                          seat key, which only that board
                                          can derive too
  taken    {pub}                          the host's no: the seat is held
  record   {lines, moves, head}           the record so far, retained, for
                                          spectators

A message whose MAC is wrong, whose number is old, or that is too long is
dropped and said, and changes nothing."""

import hashlib
import json
import re

from ..i18n import _
from . import seal

VERSION = 2
MAX_BYTES = 16384  # a whole record of the longest match fits many times
ROOT = "apixagon/v2"
KINDS = (
    "hello",
    "snapshot",
    "move",
    "ack",
    "refused",
    "want",
    "undo",
    "presence",
    "setup",
    "join",
    "seat",
    "taken",
    "record",
)
# what a /watch/CODE address may hold before it is read as a code
CODE_RE = re.compile(r"^[0-9A-Za-z -]{4,24}$")
GRACE_S = 30.0  # an absent side is declared gone after this long
_LETTERS = "BGAJ"


class ProtocolError(ValueError):
    """A message that cannot be taken: said, and nothing changes."""


class Dropped(ProtocolError):
    """A message not from the seat it names (its MAC), too long, or a
    replay: dropped unread, and nothing in it steers the session."""


def check_code(code):
    """The match code, normalised (seal.parse_code); ProtocolError if it
    is not one."""
    try:
        return seal.parse_code(code)
    except seal.CodeError as e:
        raise ProtocolError(str(e)) from None


def check_code_or_usage(code):
    """check_code for the command line: a bad code is a usage error."""
    from ..errors import CommandError

    try:
        return check_code(code)
    except ProtocolError as e:
        raise CommandError(str(e)) from None


# ---- topics: the match's id (a hash of its code), never the code -----------------
def topic_from(mid, side):
    """Where a side publishes its messages (the other subscribes)."""
    return "%s/%s/from/%s" % (ROOT, mid, side)


def topic_presence(mid, side):
    return "%s/%s/presence/%s" % (ROOT, mid, side)


def topic_record(mid):
    """The record so far, retained, for spectators (never a hand)."""
    return "%s/%s/record" % (ROOT, mid)


def topic_setup(mid):
    """The host's match settings, retained: who plays which side."""
    return "%s/%s/setup" % (ROOT, mid)


def topic_join(mid):
    """Boards asking for the joiner's seat."""
    return "%s/%s/join" % (ROOT, mid)


def topic_seat(mid):
    """The host's answers to them."""
    return "%s/%s/seat" % (ROOT, mid)


# ---- the moves' chain -------------------------------------------------------------
def norm(line):
    """A move line as both boards write it: a reserve's cells sorted (each
    board lists them in the order its keeper lifted them)."""
    w = line.split()
    if w[1:2] == ["reserve"]:
        w = w[:2] + sorted(w[2:])
    return " ".join(w)


def chain(moves, head=""):
    """The head of the moves' hash chain: each move's sha256 over the head
    before and the line. Two boards whose moves agree have the same head,
    whatever their logs' other lines (a date, a tag)."""
    for line in moves:
        head = hashlib.sha256((head + "\n" + norm(line)).encode()).hexdigest()[:16]
    return head


def is_move(line):
    """A record line that is a move (a side letter, its seat, then what)."""
    w = line.split()
    return (
        len(w) >= 2
        and w[0][0] in _LETTERS
        and len(w[0]) <= 2
        and (len(w[0]) == 1 or w[0][1] in "123456")
    )


def mover(line):
    """The side letter of a move line."""
    return line.split()[0][0]


# ---- messages ---------------------------------------------------------------------
def _body(msg):
    return json.dumps(msg, separators=(",", ":"), sort_keys=True).encode()


def encode(kind, key, side, seq, **fields):
    """The message's bytes, MAC'd under key (the sender's seat key, or the
    code key for the seats' meeting and the record)."""
    if kind not in KINDS:
        raise ProtocolError(_("unknown message type %r") % kind)
    msg = dict(fields, v=VERSION, t=kind, side=side, seq=seq)
    msg["mac"] = seal.mac(key, _body(msg))
    data = _body(msg)
    if len(data) > MAX_BYTES:
        raise ProtocolError(_("message too long: %d bytes") % len(data))
    return data


_FIELDS = {
    "hello": {"moves": int, "head": str, "setup": dict},
    "snapshot": {"lines": list, "moves": int, "head": str, "log": str},
    "move": {"n": int, "line": str, "head": str},
    "ack": {"n": int, "head": str},
    "refused": {"n": int, "line": str, "reason": str},
    "want": {},
    "undo": {"n": int, "line": str},
    "presence": {"state": str, "will": int},
    "setup": {"setup": dict, "pub": str},
    "join": {"pub": str},
    "seat": {"pub": str, "proof": str},
    "taken": {"pub": str},
    "record": {"lines": list, "moves": int, "head": str},
}


def authentic(data, key):
    """The message in data (bytes) if its MAC is right under key; Dropped
    (saying no secret) otherwise. Nothing else is looked at first."""
    if len(data) > MAX_BYTES:
        raise Dropped(_("a message too long (%d bytes): dropped") % len(data))
    try:
        msg = json.loads(data.decode())
    except (UnicodeDecodeError, ValueError):
        raise Dropped(_("a message that is not JSON: dropped")) from None
    if not isinstance(msg, dict):
        raise Dropped(_("a message that is not an object: dropped"))
    tag = msg.pop("mac", None)
    if not isinstance(tag, str) or key is None or not seal.same(seal.mac(key, _body(msg)), tag):
        raise Dropped(
            _("a message of type %s not signed by the other seat: dropped")
            % (str(msg.get("t"))[:12],)
        )
    return msg


def decode(data, key, side=None, kinds=None):
    """The message in data (bytes) MAC'd under key, from the side expected
    (None: any), of one of kinds (None: any); Dropped for a message not
    authentic, ProtocolError saying what is wrong otherwise."""
    msg = authentic(data, key)
    if msg.get("v") != VERSION:
        raise ProtocolError(
            _("protocol version %r not supported (this is %d)") % (msg.get("v"), VERSION)
        )
    kind = msg.get("t")
    if kind not in _FIELDS or (kinds and kind not in kinds):
        raise ProtocolError(_("unknown message type %r") % (str(kind)[:20],))
    s = msg.get("side")
    if not isinstance(s, str) or len(s) != 1 or s not in _LETTERS or (side and s != side):
        raise ProtocolError(
            _("message from side %r, not %s") % (str(s)[:4], side or _("a side of this match"))
        )
    seq = msg.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**63:
        raise ProtocolError(_("malformed %s: its number") % kind)
    for name, typ in _FIELDS[kind].items():
        v = msg.get(name)
        if not isinstance(v, typ) or isinstance(v, bool):
            raise ProtocolError(_("malformed %s: field %s") % (kind, name))
        if typ is int and name != "will" and not 0 <= v <= 100000:
            raise ProtocolError(_("malformed %s: %s out of range") % (kind, name))
    if kind in ("snapshot", "record"):
        if not all(isinstance(x, str) and len(x) < 200 for x in msg["lines"]):
            raise ProtocolError(_("malformed %s: lines") % kind)
        if sum(1 for x in msg["lines"] if is_move(x)) != msg["moves"]:
            raise ProtocolError(_("malformed snapshot: its moves do not count %d") % msg["moves"])
    if kind in ("move", "refused", "undo") and not is_move(msg["line"]):
        raise ProtocolError(_("malformed %s: %r is not a move line") % (kind, msg["line"][:40]))
    if kind in ("move", "refused", "undo") and msg["n"] < 1:
        raise ProtocolError(_("malformed %s: move number %d") % (kind, msg["n"]))
    if kind in ("setup", "join", "seat", "taken") and not seal.is_pub(msg["pub"]):
        raise ProtocolError(_("malformed %s: its key") % kind)
    return msg


_SEATED = ("hello", "snapshot", "move", "ack", "refused", "want", "undo")


# ---- one side's state -----------------------------------------------------------
class Side:
    """One board's side of an online match. Its truth is its own board's
    record (header and moves: `local`); what the other side says is
    checked against it, never written into it. Actions returned:

      ("send", kind, fields)     publish a message
      ("expect", n, line)        ask the board to wait for the far move
                                 numbered n (EXPECT n-1 line)
      ("record", lines)          publish the record so far (spectators)
      ("say", text)              tell the players
      ("error", text)            a message refused: nothing changed
      ("drop", text)             a message not authentic, too long or
                                 a replay: dropped unread
      ("resync", text)           read the board's record again (load)
      ("unexpect",)              the board waits for no far move (REMOTE again)
      ("diverged", text)         the boards' matches differ: stop
    """

    def __init__(self, key, side, other, heard=0):
        self.key = key  # the other seat's MAC key (None: no seat joined yet)
        self.heard = heard  # the newest message number taken from the other seat
        self.side = side
        self.other = other
        self.header = []
        self.moves = []  # the local board's move lines, in order
        self.acked = 0  # the highest of our moves the other side has on its board
        self.peer_moves = 0  # the other side's move count, as last heard
        self.far = {}  # n -> line: far moves heard, not yet on our board
        self.expecting = 0  # the far move number the board was asked to wait for
        self.refused = set()  # (n, line) of far moves our board refused
        self.owed = {}  # n -> line: our moves the other board has and ours lost
        self.lifting = {}  # n -> line: far moves their players took back, to lift here

    # what the board says ---------------------------------------------------
    def load(self, lines):
        """The board's record (its log in play): header and moves."""
        self.header = [x for x in lines if not is_move(x)]
        self.moves = [x for x in lines if is_move(x)]
        self.expecting = 0

    def head(self):
        return chain(self.moves)

    def lines(self):
        return self.header + self.moves

    def board_move(self, n, line):
        """The board's `move` event: its move count n and last move line
        (None when no move is left). A count at or below ours is a
        take-back (the players took the last card back), or a take-back
        and another move in the same instant."""
        out = []
        have = len(self.moves)
        if line is None or n < have or (n == have and norm(self.moves[n - 1]) == norm(line)):
            out += self._taken_back(n)
            out += self._next_far()
            return out + [("record", self.lines())]
        if n == have:
            out += self._taken_back(n - 1)  # its last move replaced by another
        if n != len(self.moves) + 1:
            return out + [
                ("resync", _("the board is at move %d, this side at %d") % (n, len(self.moves)))
            ]
        owed = self.owed.pop(n, None)
        if owed is not None and norm(owed) != norm(line):
            return out + [
                (
                    "diverged",
                    _("move %d here is %r, but the other board has %r: take it back and play %s")
                    % (n, line, owed, owed),
                )
            ]
        self.moves.append(line)
        if mover(line) == self.side:
            out.append(("send", "move", {"n": n, "line": line, "head": self.head()}))
        else:
            self.far.pop(n, None)
            self.expecting = 0
            out.append(("send", "ack", {"n": n, "head": self.head()}))
            out += self._next_far()
        return out + [("record", self.lines())]

    def _taken_back(self, keep):
        # our board's record is the truth. A move of ours taken back is
        # taken back at the other board too (undo), as the last move of
        # the match there; what the other side answered to it is void. A
        # far move taken back here is awaited again, unless its own
        # players took it back (then this board stops waiting for it).
        out = []
        for i in range(len(self.moves) - 1, keep - 1, -1):
            x = self.moves[i]
            if mover(x) == self.side:
                out.append(("send", "undo", {"n": i + 1, "line": x}))
            elif self.lifting.get(i + 1) == norm(x):
                del self.lifting[i + 1]
                out.append(("unexpect",))
            else:
                self.far[i + 1] = x
        for n in [n for n in self.far if n > keep + 1 and mover(self.far[n]) != self.side]:
            if any(mover(x) == self.side for x in self.moves[keep:]):
                del self.far[n]  # an answer to a move of ours taken back
        del self.moves[keep:]
        self.acked = min(self.acked, keep)
        self.expecting = 0
        return out

    def _on_undo(self, msg):
        n, line = msg["n"], msg["line"]
        if mover(line) != self.other:
            return [
                ("error", _("undo %d refused: %r is not a move of side %s") % (n, line, self.other))
            ]
        have = len(self.moves)
        if n == have + 1 and norm(self.far.get(n, "")) == norm(line):
            # not on this board yet: it waits for it no more
            del self.far[n]
            self.expecting = 0
            return [
                ("unexpect",),
                ("say", _("the other side took back move %d (%s)") % (n, line)),
            ]
        if n == have and norm(self.moves[n - 1]) == norm(line):
            self.lifting[n] = norm(line)
            return [
                ("say", _("the other side took back move %d (%s): lift its card") % (n, line)),
            ]
        if n < have and n <= len(self.moves) and norm(self.moves[n - 1]) == norm(line):
            return [
                ("send", "refused", {"n": n, "line": line, "reason": "played-on"}),
                (
                    "say",
                    _("the other side took back move %d (%s), but this board has played on")
                    % (n, line),
                ),
            ]
        return [("error", _("undo %d refused: no such move %r here") % (n, line))]

    # what the other side says ---------------------------------------------------
    def message(self, data):
        """Actions for a message (bytes) from the other side."""
        try:
            msg = decode(data, self.key, self.other, _SEATED)
        except Dropped as e:
            return [("drop", str(e))]
        except ProtocolError as e:
            return [("error", str(e))]
        if msg["seq"] <= self.heard:
            # an exact repeat, or an old message sent again by a third party
            return [
                (
                    "drop",
                    _("a %s numbered %d, not newer than %d: a replay, dropped")
                    % (msg["t"], msg["seq"], self.heard),
                )
            ]
        self.heard = msg["seq"]
        return getattr(self, "_on_" + msg["t"])(msg)

    def _on_hello(self, msg):
        self.peer_moves = msg["moves"]
        return [("send", "snapshot", self.snapshot())]

    def _on_want(self, msg):
        return [("send", "snapshot", self.snapshot())]

    def snapshot(self, log=""):
        return {"lines": self.lines(), "moves": len(self.moves), "head": self.head(), "log": log}

    def _on_snapshot(self, msg):
        theirs = [x for x in msg["lines"] if is_move(x)]
        if chain(theirs) != msg["head"]:
            return [("error", _("snapshot refused: its moves do not make its head"))]
        self.peer_moves = len(theirs)
        mine = self.moves
        k = min(len(mine), len(theirs))
        for i in range(k):
            if norm(mine[i]) != norm(theirs[i]):
                return [
                    (
                        "diverged",
                        _("the boards' matches differ at move %d: here %r, there %r")
                        % (i + 1, mine[i], theirs[i]),
                    )
                ]
        out = []
        # ours they lack: send again (numbered: they take each once)
        for i in range(len(theirs), len(mine)):
            if mover(mine[i]) == self.side:
                out.append(
                    ("send", "move", {"n": i + 1, "line": mine[i], "head": chain(mine[: i + 1])})
                )
        self.acked = max(self.acked, min(len(theirs), len(mine)))
        # theirs we lack: far moves to await; a move of ours there and
        # not here was lost by our board (a power cut before its log had
        # it): the players play it again, and only that move is taken
        for i in range(len(mine), len(theirs)):
            if mover(theirs[i]) == self.side:
                if i + 1 not in self.owed:
                    out.append(
                        (
                            "say",
                            _("this board lost move %d (%s), the other board has it: play it again")
                            % (i + 1, theirs[i]),
                        )
                    )
                self.owed[i + 1] = theirs[i]
                break
            self.far[i + 1] = theirs[i]
        return out + self._next_far()

    def _on_move(self, msg):
        n, line = msg["n"], msg["line"]
        if mover(line) != self.other:
            return [
                ("error", _("move %d refused: %r is not a move of side %s") % (n, line, self.other))
            ]
        if n <= len(self.moves):
            if norm(self.moves[n - 1]) == norm(line):
                return [("send", "ack", {"n": n, "head": chain(self.moves[:n])})]  # a repeat
            return [
                ("diverged", _("move %d differs: here %r, there %r") % (n, self.moves[n - 1], line))
            ]
        if n > len(self.moves) + 1 + len(self.far):
            return [("send", "want", {})]  # a gap: ask for the whole record
        self.far[n] = line
        self.peer_moves = max(self.peer_moves, n)
        return self._next_far()

    def _on_ack(self, msg):
        n = msg["n"]
        if n > len(self.moves):
            return [("error", _("ack %d refused: this board has %d moves") % (n, len(self.moves)))]
        if chain(self.moves[:n]) != msg["head"]:
            return [("diverged", _("ack %d: the other board's moves differ from ours") % n)]
        self.acked = max(self.acked, n)
        self.peer_moves = max(self.peer_moves, n)
        return []

    def _on_refused(self, msg):
        return [
            (
                "say",
                _("the other board refused move %d (%s): %s")
                % (msg["n"], msg["line"], msg["reason"]),
            )
        ]

    # the far moves, one at a time -------------------------------------------------
    def _next_far(self):
        n = len(self.moves) + 1
        line = self.far.get(n)
        if line is None or self.expecting == n or (n, norm(line)) in self.refused:
            return []
        self.expecting = n
        return [("expect", n, line)]

    def expect_answer(self, n, line, reply):
        """The board's answer to EXPECT for far move n: a refusal is
        reported to both sides and the move dropped; `stale` asks again
        once the board's record is read."""
        w = reply.split()
        if w and w[0] == "refused":
            self.far.pop(n, None)
            self.refused.add((n, norm(line)))  # not asked again; another move n may come
            self.expecting = 0
            reason = w[1] if len(w) > 1 else "refused"
            return [
                ("send", "refused", {"n": n, "line": line, "reason": reason}),
                (
                    "say",
                    _("move %d from the other board refused by this board: %s %s")
                    % (n, reason, line),
                ),
            ]
        if w and w[0] == "stale":
            self.expecting = 0
            return [
                (
                    "say",
                    _("the board is at move %s: reading its log") % (w[1] if len(w) > 1 else "?"),
                )
            ]
        return []

    def unacked(self):
        """Our moves the other side has not acknowledged (sent again on a
        reconnect, by the snapshot)."""
        return [
            i + 1 for i in range(self.acked, len(self.moves)) if mover(self.moves[i]) == self.side
        ]

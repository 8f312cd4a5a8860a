# A seeded fuzzer of the board's serial link (docs/protocol.md): streams of
# frames, each with the replies it must get, in order. Valid frames of
# every verb with arguments drawn from numbers at the edges of the board's
# ints (2^30 on the RP2040, 2^31, 2^62, 2^63, negatives, 240 digits, forms
# such as "+1", "1e9", "0x10", "-0"); mutated frames (a bad CRC, a broken
# seq marker, an unknown verb, a cut, a line too long, random bytes with
# NUL, 0xFF and control characters); blank lines and CR LF endings. The
# expected reply of each is worked out from the protocol's documented
# ranges, not from the firmware's code: a board that accepts CLOCK 2^63 or
# answers a frame twice fails the check.
#
# Its own random numbers (Park and Miller's): a seed names a stream, on
# any machine. Used by tests/e2e/test_fuzz.py (a board on a pseudo-terminal
# through tests/e2e/fuzzwire.py, and the board's loop under CPython and
# MicroPython through tests/board/fuzzrun.py) and by `make soak`.
from smartboard import proto, tag

OK = 1  # a want's mask: bit 0 an OK reply, bit k an ERR k
MAX_SEQ = 999999
ANYWHERE = 1  # Fuzzer(reboot=)
LAST = 2


def err(code):
    return 1 << code


E1 = err(proto.E_FRAME)
E2 = err(proto.E_CRC)
E3 = err(proto.E_LONG)
E4 = err(proto.E_TRUNCATED)
E5 = err(proto.E_VERB)
E6 = err(proto.E_ARGS)
E7 = err(proto.E_NOT_FOUND)
E8 = err(proto.E_STATE)
E9 = err(proto.E_VERSION)

# The documented ranges (docs/protocol.md)
OFFSET_MAX = 1 << 24  # GET offset
FETCH_MAX = 32768  # FETCH's bytes in all (smartboard.link.MAX_FETCH)
START_MAX = 1 << 16  # LOGS start
CLOCK_LO = 946684800  # 2000-01-01
CLOCK_HI = 4102444800  # 2100-01-01
SETTINGS = (("display", 3), ("bright", 4), ("mode", 7), ("start", 2), ("option", 2), ("players", 7))
# CLOCK's second number: minutes east of UTC
EAST_LO = -720
EAST_HI = 840
PLAY_MAX = 65536  # the simulator's PLAY record, base64 characters

DIGITS240 = "9" * 240
EDGES = (
    "0", "1", "-1", "2", "99", "100",
    "1073741823", "1073741824", "-1073741824", "-1073741825",  # 2^30
    "2147483647", "2147483648", "2147483649", "-2147483648", "-2147483649",  # 2^31
    "4294967295", "4294967296",  # 2^32
    "4611686018427387903", "4611686018427387904", "-4611686018427387905",  # 2^62
    "9223372036854775807", "9223372036854775808", "-9223372036854775809",  # 2^63
    "1000000000000", DIGITS240,  # 10^12
    "+1", "1e9", "0x10", "-0", "00", "0001", "-", "--1", "1-", "1.5", "1_000",
    "2048", "2049", "65536", "65537", "16777216", "16777217", "60000", "255", "256",
    "946684799", "946684800", "1700000000", "4102444800", "4102444801",
)  # fmt: skip
CELLS = ("A1", "E4", "E5", "I5", "D3", "Z9", "e4", "E44", "A0", "J1", "E", "4E")
BUTTONS = ("mode", "confirm", "declare", "MODE", "reset", "")
KEYS = ("display", "bright", "mode", "start", "option", "players", "volume", "Display", "")
VERBS = ("HELLO", "STATUS", "WATCH", "CELLS", "LOGS", "GET", "PULLED", "DEL", "CONF")
VERBS += ("SET", "CLOCK", "REBOOT", "FETCH", "HANDS", "DECLARE")
# DECLARE's declarations and the words each takes (the side of a
# deck-empty or forced-removal, the player of an out)
DECLARATIONS = (("deck-empty", 1), ("forced-removal", 1), ("pass", 0), ("out", 1), ("reserve", 0))
SIDES = ("A", "B", "G", "J", "black", "gold", "b", "Black", "white", "")
SIM_VERBS = ("HAND", "PLAY")
UNKNOWN = ("FROB", "GETS", "STATU", "G3T", "HELLO!", "cmd_status", "_safe", "Q", "POLL", "EV")
# seq markers that make a frame no request (answered ERR 1 at seq 0)
BAD_SEQ = ("@", "@ ", "@x", "@-5", "@+5", "@5.0", "=5", "5", "#5", "! EV", "@1234567890", "@@5")
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


def number(text, lo, hi):
    """The value of a number the protocol accepts in lo..hi (an optional
    minus and at most 10 characters of digits), else None."""
    n = len(text)
    if n == 0 or n > 10:
        return None
    i = 1 if text[0] == "-" else 0
    if i == n:
        return None
    for k in range(i, n):
        if not "0" <= text[k] <= "9":
            return None
    v = int(text)
    return v if lo <= v <= hi else None


def optional(verb, v):
    """The mask of HELLO, LOGS or CLOCK with its one optional number v."""
    if verb == "LOGS":
        return OK if number(v, 0, START_MAX) is not None else E6
    if verb == "CLOCK":
        return OK if number(v, CLOCK_LO, CLOCK_HI) is not None else E6
    n = number(v, -(10**10), 10**10)
    if n is None or n < 0:
        return E6
    if n <= proto.VERSION:
        return OK
    return E9 if n <= 99 else E6 | E9  # a newer version, or no version at all


def mutated(data, mask, it):
    # a line past MAX_IN is dropped as too long, whatever else is wrong
    if len(data) - 1 > proto.MAX_IN:
        mask = E3
    return Item(data, [(0, mask)], "mutated " + it.what)


def hand_mask(args):
    """The mask of the simulator's HAND with these words."""
    n = len(args)
    what = args[0] if args else ""
    ok = False
    if what == "put" and n == 3:
        ok = args[1] in CELLS[:5] and card_ok(number(args[2], 0, 255))
        if ok:
            return OK | E6  # E6: a card lies there already (lift it first)
    elif what == "lift" and n == 2:
        ok = args[1] in CELLS[:5]
    elif what == "clear" and n == 1:
        return OK | E8  # E8: not in set-up (a match is on the board)
    elif what == "tap" and n == 2:
        ok = card_ok(number(args[1], 0, 255))
    elif what == "wait" and n == 2:
        ok = number(args[1], 1, 60000) is not None
    elif what == "press" and n in (2, 3):
        ok = args[1] in BUTTONS[:3] and (n == 2 or args[2] == "long")
    return OK if ok else E6


def safe_name(name):
    return name.endswith(".alog") and len(name) < 32 and "/" not in name and ".." not in name


def card_ok(code):
    if code is None:
        return False
    return tag.decode(tag.encode(tag.side_of(code), tag.kind_of(code), tag.index_of(code))) == code


class Rand:
    """Park and Miller's minimal standard generator: small, and the same
    numbers under CPython and MicroPython (their `random` differ)."""

    def __init__(self, seed):
        self.x = seed % 2147483646 + 1

    def below(self, n):
        self.x = self.x * 48271 % 2147483647
        return self.x % n

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, k):
        return self.below(k) == 0


class Item:
    """A piece of the stream: its bytes and, in order, the replies it must
    get: (seq, mask) each. stale: a partial frame left without its newline
    (the driver lets a second of silence go by: ERR 4 at seq 0)."""

    def __init__(self, data, want, what, verb=None, name=None):
        self.data = data
        self.want = want
        self.what = what
        self.verb = verb  # DEL / PULLED / REBOOT: the driver's bookkeeping
        self.name = name
        self.args = ()  # a request's words after its verb (a DECLARE's: tools/soak.py)
        self.stale = False
        self.slow = False  # sent a byte or a few at a time, each poll late
        self.drain = False  # the board reads it before more is sent (else a burst)
        self.play = None  # PLAY: characters it adds to the record, -1 END


class Fuzzer:
    """Items, seeded: fz.item() one at a time, fz.batch(n) n of them then
    HELLO and STATUS. names: the log names a request may name (the board's
    own, kept up to date by the driver); sim: HAND and PLAY too (the
    simulator's verbs); reboot: a plain REBOOT now and then, ANYWHERE (a
    board without a reset: answered at seq 0 and at its own) or LAST, only
    as a batch's last frame (the board resets: only the seq-0 answer);
    hands: HAND puts, lifts, taps and presses (else only waits); stale: partial
    frames left to go stale (a second of silence each)."""

    def __init__(self, seed, names=(), sim=True, reboot=0, hands=True, stale=False):
        self.r = Rand(seed)
        self.stale = stale  # partial frames left to go stale (a second each)
        self.seq = 0
        self.names = list(names)
        self.sim = sim
        self.reboot = reboot
        self.hands = hands
        self.play_total = 0  # PLAY characters the board holds
        self.frames = 0  # items made
        self.valid = 0  # of them well-formed requests
        verbs = VERBS + SIM_VERBS if sim else VERBS
        self.verbs = verbs

    def next_seq(self):
        self.seq = self.seq % MAX_SEQ + 1
        return self.seq

    # ---- arguments -------------------------------------------------------------
    def num(self):
        r = self.r
        if r.chance(6):
            return str(r.below(20))
        return r.choice(EDGES)

    def name(self):
        r = self.r
        k = r.below(10)
        if k < 4 and self.names:
            return r.choice(self.names)
        if k < 6:
            return "%04d.alog" % r.below(30)
        if k == 6:
            return r.choice(
                ("../settings.alog", "logs/0001.alog", "..alog", ".alog", "0001.alog.tmp")
            )
        if k == 7:
            return r.choice(("LAST", "0001.pulled", "0001", "settings.bin", "x" * 40 + ".alog"))
        return self.num()

    # ---- one request, well-formed: (args, mask) ---------------------------------
    def args_of(self, verb):
        r = self.r
        if verb in ("HELLO", "LOGS", "CLOCK"):
            if r.chance(3):
                return [], OK
            v = self.num()
            return [v], optional(verb, v)
        if verb in ("STATUS", "CELLS", "CONF", "HANDS"):
            return [], OK
        if verb == "WATCH":
            v = r.choice(("0", "1", "1", "0", "2", "-0", "01", "yes", self.num()))
            return [v], OK if v in ("0", "1") else E6
        if verb == "GET":
            name = self.name()
            off = r.choice(("0", "0", "10", "100000")) if r.chance(2) else self.num()
            n = r.choice(("10", "2048", "64")) if r.chance(2) else self.num()
            if number(off, 0, OFFSET_MAX) is None or number(n, 1, proto.MAX_CHUNK) is None:
                return [name, off, n], E6
            return [name, off, n], (OK | E7) if safe_name(name) else E6
        if verb == "FETCH":
            return self.fetch()
        if verb == "PULLED" or verb == "DEL":
            name = self.name()
            return [name], (OK | E7 | E8) if safe_name(name) else E6
        if verb == "SET":
            key = r.choice(KEYS)
            v = self.num() if r.chance(2) else str(r.below(9))
            for k, limit in SETTINGS:
                if k == key:
                    mask = OK if number(v, 0, limit - 1) is not None else E6
                    if key == "players" and mask == OK:
                        mask = OK | E6  # a count the mode set takes, or ERR 6
                    return [key, v], mask
            return [key, v], E6
        if verb == "REBOOT":
            return [], OK
        if verb == "DECLARE":
            return self.declare()
        if verb == "HAND":
            return self.hand()
        if verb == "PLAY":
            if r.chance(4):
                return ["END"], OK | E6
            n = r.below(200) + 1
            return ["".join(r.choice(B64) for _ in range(n))], OK  # (see request())
        return [], E5

    def declare(self):
        # the board's answer depends on the match (none: ERR 8; a side or
        # player it has not: ERR 6; the rules' refusal: OK): a form right
        # gets one of those, a form wrong ERR 6
        r = self.r
        what, n = r.choice(DECLARATIONS)
        args = [what]
        if n:
            args.append(r.choice(SIDES) if what != "out" else self.num())
        if not args[-1]:
            return args[:-1], E6
        if what == "out" and number(args[1], 1, 6) is None:
            return args, E6 | E8
        return args, OK | E6 | E8

    def hand(self):
        r = self.r
        what = r.choice(("put", "lift", "tap", "wait", "press", "put", "lift", "drop"))
        if not self.hands and what in ("put", "lift", "tap", "press"):
            what = "wait"  # (the cards are someone else's: a match is played)
        if what == "put":
            args = [what, r.choice(CELLS), self.code()]
        elif what == "lift":
            args = [what, r.choice(CELLS)]
        elif what == "tap":
            args = [what, self.code()]
        elif what == "wait":
            v = str(r.below(300)) if r.chance(2) else self.num()
            args = [what, "6000" if v == "60000" else v]  # (a minute of sim time: slow)
        elif what == "press":
            args = [what, r.choice(BUTTONS)]
            if r.chance(4):
                args.append(r.choice(("long", "short", "LONG")))
        else:
            args = [what]
        return args, hand_mask(args)

    def code(self):
        return str(self.r.below(256)) if self.r.chance(2) else self.num()

    # ---- items ------------------------------------------------------------------
    def item(self):
        """The next item of the stream."""
        it = self._next()
        it.drain = self.r.chance(3)
        return it

    def _next(self):
        r = self.r
        self.frames += 1
        k = r.below(100)
        if k < 55:
            return self.request()
        if k < 62:
            return self.request(arity=True)
        if k < 66:
            return self.unknown()
        if k < 70:
            return self.bad_seq()
        if k < 76:
            return self.bad_crc()
        if k < 80:
            return self.cut()
        if k < 84:
            return self.too_long()
        if k < 90:
            return self.junk()
        if k < 93:
            return self.blank()
        if k < 96:
            return self.boundary()
        if k < 98:
            return self.odd_seq()
        if self.stale and k == 98:
            return self.stale_item()
        it = self.request()
        it.slow = True
        return it

    def batch(self, n):
        """n items, then HELLO and STATUS (the board still answers); a plain
        REBOOT now and then last of all when reboot is on."""
        out = [self.item() for _ in range(n)]
        out.append(self.plain("HELLO", [], OK))
        out.append(self.plain("STATUS", [], OK))
        if self.reboot == LAST and self.r.chance(15):
            it = self.plain("REBOOT", [], OK)
            it.want = [(0, OK)]  # then the board resets
            out.append(it)
        return out

    def plain(self, verb, args, mask):
        seq = self.next_seq()
        self.valid += 1
        return self._item(seq, "@%d" % seq, verb, args, mask)

    def _item(self, seq, marker, verb, args, mask):
        body = marker + " " + " ".join([verb] + args)
        data = proto.frame(body)
        if len(data) - 1 > proto.MAX_IN:
            return Item(data, [(0, E3)], body[:40] + "... too long")
        want = [(seq, mask)]
        if verb.upper() == "REBOOT" and mask == OK:
            want = [(0, OK), (seq, OK)]  # "=0 OK rebooting" first
        name = args[0] if verb.upper() in ("DEL", "PULLED") and args else None
        it = Item(data, want, body, verb.upper(), name)
        it.args = args
        return it

    def _verb(self, arity=False):
        v = self.r.choice(self.verbs)
        if v == "REBOOT" and not (self.reboot == ANYWHERE or arity):
            v = "STATUS"  # with an argument it must be refused, never reset
        return v

    def request(self, arity=False, commit=True):
        """A well-formed request (arity: with one argument too many or too
        few). commit: it goes out as it is (the PLAY record it adds to is
        counted); a mutation of it is made with commit False."""
        verb = self._verb(arity)
        args, mask = self.args_of(verb)
        if arity:
            if args and self.r.chance(2):
                args = args[:-1]
            else:
                args = args + [self.num()]
            mask = self.arity_mask(verb, args, mask)
        play = None
        if verb == "PLAY" and len(args) == 1:
            if args[0] == "END":
                play = -1  # the record is played (or refused) and dropped
            else:
                # a chunk kept; one past the simulator's limit is refused
                # and the record dropped
                mask = E6 if self.play_total > PLAY_MAX else OK
                play = len(args[0])
        if self.r.chance(8):
            verb = verb.lower()  # a verb is read in any case
        seq = self.next_seq()
        it = self._item(seq, "@%d" % seq, verb, args, mask)
        it.play = play
        if commit:
            self._commit(it)
        return it

    def _commit(self, it):
        if it.want and it.want[0][0]:
            self.valid += 1
        if it.play is None or not it.want or it.want[0][1] == E3:
            return
        if it.play < 0 or it.want[0][1] == E6:
            self.play_total = 0
        else:
            self.play_total += it.play

    def fetch(self):
        # protocol 2: GETs of several logs, a reply frame per chunk. The
        # masks here are of one frame: a valid FETCH is of one item of at
        # most a chunk, or ends with a log none has (ERR 7 before any
        # frame); anything of a bad form is ERR 6, all checked first.
        r = self.r
        args, total, bad = [], 0, False
        for _ in range(r.below(3) + 1):
            item = self.args_of("GET")[0]
            if r.chance(4):
                item[2] = r.choice(("4096", "32768", "32769", "0"))
            k = number(item[2], 1, FETCH_MAX)
            bad = bad or k is None or number(item[1], 0, OFFSET_MAX) is None
            bad = bad or not safe_name(item[0])
            total += k or 0
            args += item
        if bad or total > FETCH_MAX:
            return args, E6
        if total == FETCH_MAX:  # a byte more than a FETCH takes
            return args + ["9990.alog", "0", "1"], E6
        if len(args) > 3 or total > proto.MAX_CHUNK:
            return args + ["9990.alog", "0", "1"], E7  # nothing sent
        return args, OK | E7

    def arity_mask(self, verb, args, mask):
        n = len(args)
        if verb in ("STATUS", "CELLS", "CONF", "REBOOT", "HANDS"):
            return OK if n == 0 else E6
        if verb in ("HELLO", "LOGS", "CLOCK"):
            if verb == "CLOCK" and n == 2:  # the host's offset from UTC (minutes)
                east = number(args[1], EAST_LO, EAST_HI)
                return optional(verb, args[0]) if east is not None else E6
            return OK if n == 0 else optional(verb, args[0]) if n == 1 else E6
        if verb == "DECLARE":
            return self.declare_mask(args)
        if verb == "HAND":
            return hand_mask(args)
        if verb == "PLAY":
            return OK | E6 if n == 1 else E6  # (a chunk: request() sees to it)
        if verb == "PULLED" and n:
            # protocol 2: several names, each of a safe form, else none marked
            return (OK | E7 | E8) if all(safe_name(a) for a in args) else E6
        if verb == "FETCH":
            return mask if n and n % 3 == 0 else E6  # (n is one off a multiple of 3)
        want = {"WATCH": 1, "GET": 3, "PULLED": 1, "DEL": 1, "SET": 2}[verb]
        return mask if n == want else E6

    def declare_mask(self, args):
        for what, n in DECLARATIONS:
            if args and args[0] == what:
                if len(args) != 1 + n:
                    return E6
                if what == "out" and number(args[1], 1, 6) is None:
                    return E6 | E8
                return OK | E6 | E8
        return E6

    def unknown(self):
        r = self.r
        seq = self.next_seq()
        if r.chance(2):
            verb = r.choice(UNKNOWN)
        else:
            verb = "".join(chr(65 + r.below(26)) for _ in range(r.below(8) + 1))
            if verb.upper() in self.verbs:
                verb += "X"
        if not self.sim and r.chance(3):
            verb = r.choice(SIM_VERBS)  # the simulator's only
        args = [self.num() for _ in range(r.below(3))]
        return self._item(seq, "@%d" % seq, verb, args, E5)

    def odd_seq(self):
        # seq markers outside 1..999999 or written with leading zeros: no
        # request (docs/protocol.md), answered ERR 1 at seq 0, carried out
        # never (a DEL on "@00002" was carried out as request 2)
        r = self.r
        verb = r.choice(("STATUS", "HELLO", "CELLS", "CONF", "LOGS", "DEL 0001.alog"))
        k = r.below(3)
        if k == 0:
            marker = "@" + "0" * (r.below(3) + 1) + str(r.below(999999) + 1)
        elif k == 1:
            marker = "@0"
        else:
            marker = "@%d" % (1000000 + r.below(999000000))
        body = marker + " " + verb
        return Item(proto.frame(body), [(0, E1)], body)

    def bad_seq(self):
        marker = self.r.choice(BAD_SEQ)
        body = marker + " STATUS" if marker not in ("@", "@ ") else marker + "STATUS"
        if marker == "@ ":
            body = "@ 5 STATUS"
        data = proto.frame(body)
        return Item(data, [(0, E1)], body)

    def bad_crc(self):
        r = self.r
        it = self.request(commit=False)
        data = it.data
        n = len(data) - 1  # the newline stays
        if len(it.want) != 1 or it.want[0][0] == 0:
            return Item(proto.frame("@ STATUS"), [(0, E1)], "@ STATUS")
        k = r.below(6)
        if k == 0:  # a CRC digit changed
            i = n - 1 - r.below(4)
            c = ord(r.choice("0123456789ABCDEF".replace(chr(data[i]), "")))
            code = E2
        elif k == 1:  # a body character changed (any change: CRC-16 sees it)
            i = r.below(n - 5)
            c = 32 + r.below(95)
            if c == data[i] or c == 42:
                c = 48 if data[i] != 48 else 49
            code = E2
        elif k == 2:  # no "*"
            i, c = n - 5, None
            code = E1
        elif k == 3:  # a CRC digit that is no hex digit
            i = n - 1 - r.below(4)
            c = ord(r.choice("GZz -*!~"))
            code = E1
        elif k == 4:  # a byte that is no printable ASCII, inside the body
            i = r.below(n - 5)
            c = r.choice((0, 1, 2, 4, 5, 7, 8, 9, 11, 12, 27, 127, 128, 200, 255))
            return mutated(data[:i] + bytes((c,)) + data[i:], E1, it)
        else:  # a lowercase CRC: still a good frame
            tail = bytes(b + 32 if b >= 65 else b for b in data[n - 4 : n])
            self._commit(it)
            out = Item(data[: n - 4] + tail + b"\n", it.want, it.what + " (crc in lowercase)")
            out.verb, out.name, out.args = it.verb, it.name, it.args
            return out
        mid = b"" if c is None else bytes((c,))
        return mutated(data[:i] + mid + data[i + 1 :], code, it)

    def cut(self):
        r = self.r
        it = self.request(commit=False)
        n = len(it.data) - 1
        k = r.below(n - 1) + 1  # 1..n-1 characters of it
        data = it.data[:k] + (b"\r\n" if r.chance(3) else b"\n")
        if k > proto.MAX_IN:
            return Item(data, [(0, E3)], "cut long")
        return Item(data, [(0, E1 | E2)], "cut %s at %d" % (it.what[:30], k))

    def too_long(self):
        r = self.r
        seq = self.next_seq()
        n = proto.MAX_IN + 1 + (r.below(40) if r.chance(2) else r.below(1200))
        body = "@%d PLAY " % seq
        body += "A" * (n - 5 - len(body))
        data = proto.frame(body)
        return Item(data, [(0, E3)], "a frame of %d bytes" % (len(data) - 1))

    def boundary(self):
        # a good frame of exactly MAX_IN bytes is read; one more is not
        r = self.r
        seq = self.next_seq()
        body = "@%d PULLED " % seq
        extra = r.below(2)
        body += "x" * (proto.MAX_IN + extra - 5 - len(body))
        data = proto.frame(body)
        if extra:
            return Item(data, [(0, E3)], "PULLED of %d bytes" % (len(data) - 1))
        self.valid += 1
        return Item(data, [(seq, E6)], "PULLED of %d bytes" % (len(data) - 1))

    def junk(self):
        r = self.r
        n = r.below(600) + 1 if r.chance(3) else r.below(80) + 1
        out = bytearray(n)
        for i in range(n):
            b = r.below(256)
            while b == 3 or b == 10 or b == 13:  # Ctrl-C hands over to the REPL
                b = r.below(256)
            out[i] = b
        data = bytes(out) + b"\n"
        if n > proto.MAX_IN:
            return Item(data, [(0, E3)], "%d random bytes" % n)
        return Item(data, [(0, E1 | E2)], "%d random bytes" % n)

    def blank(self):
        r = self.r
        data = r.choice((b"\n", b"\r\n", b"\r", b"\r\n\r\n", b"\n\n\n"))
        if r.chance(2):
            # a good frame ended the way a terminal ends it
            it = self.request()
            out = Item(it.data[:-1] + b"\r\n" + data, it.want, it.what + " CR LF", it.verb, it.name)
            out.args = it.args
            return out
        return Item(data, [], "blank lines")

    def stale_item(self):
        """A partial frame whose newline never comes (ERR 4 once a second
        of silence has passed), then nothing."""
        it = self.request(commit=False)
        k = self.r.below(len(it.data) - 2) + 1
        out = Item(it.data[:k], [(0, E4)], "partial " + it.what[:30])
        out.stale = True
        return out


class Replies:
    """The board's replies, in order, against the items' wants. feed()
    takes its output bytes, whatever the pieces; each reply must be the
    next wanted one (seq, and OK or an error its mask allows), each line a
    good frame (never a traceback or the REPL's prompt)."""

    def __init__(self):
        self.want = []  # (seq, mask, item)
        self.i = 0
        self.buf = b""
        self.events = 0
        self.replies = 0
        self.acked = []  # (verb, name) of DEL and PULLED answered OK
        # (moves, record line) of each DECLARE the board took: a real move
        # in the match in play (tools/soak.py follows it)
        self.declared = []
        self.rebooted = 0
        self.status = None  # the last STATUS reply's fields

    def expect(self, item):
        for seq, mask in item.want:
            self.want.append((seq, mask, item))

    def pending(self):
        return len(self.want) - self.i

    def reset(self):
        self.want = []
        self.i = 0

    def feed(self, data):
        self.buf += bytes(data)
        while True:
            j = self.buf.find(b"\n")
            if j < 0:
                if len(self.buf) > 8192:
                    raise AssertionError("no newline in 8 KB: %r" % self.buf[:80])
                return
            line = self.buf[:j]
            self.buf = self.buf[j + 1 :]
            self.line(line)

    def line(self, line):
        if proto.check(line) != 0:
            raise AssertionError("not a frame from the board: %r" % line[:200])
        kind, seq, ok, rest = proto.parse_reply(proto.body(line))
        if kind == "!":
            self.events += 1
            return
        if kind != "=":
            raise AssertionError("neither reply nor event: %r" % line[:200])
        self.reply(seq, ok, rest)

    def reply(self, seq, ok, rest):
        self.replies += 1
        if self.i >= len(self.want):
            raise AssertionError("a reply nothing asked for: =%d %s" % (seq, rest[:80]))
        wseq, mask, item = self.want[self.i]
        self.i += 1
        got = OK if ok else err(int(rest.split()[0]))
        if seq != wseq or not got & mask:
            raise AssertionError(
                "%r wanted =%d %s, got =%d %s %s"
                % (item.what[:80], wseq, _mask_text(mask), seq, "OK" if ok else "ERR", rest[:80])
            )
        if ok and seq == wseq and wseq:
            v = item.verb
            if v == "DEL" or v == "PULLED":
                self.acked.append((v, item.name))
            elif v == "STATUS":
                self.status = _fields(rest)
            elif v == "DECLARE" and not rest.startswith("refused"):
                moves, _, line = rest.partition(" ")
                self.declared.append((int(moves), line))
        if ok and v_is_reboot(item) and seq == 0:
            self.rebooted += 1


def v_is_reboot(item):
    return item.verb == "REBOOT"


def _fields(text):
    out = {}
    for w in text.split():
        k, _, v = w.partition("=")
        out[k] = v
    return out


def _mask_text(mask):
    out = []
    if mask & OK:
        out.append("OK")
    for c in range(1, 11):
        if mask & err(c):
            out.append("ERR %d" % c)
    return "|".join(out)


# ---- the board-level runner's stream (tests/board/fuzzrun.py) ---------------
# A record: kind, length (2 bytes, big-endian), the bytes. Kinds: b burst
# (more follows at once), d the board reads it before more comes, s slow
# (a few bytes a poll, each poll late), p a partial frame then a second of
# silence, e the end of a batch (the runner checks the flash and says so).


def encode(items):
    out = []
    for it in items:
        kind = b"p" if it.stale else b"s" if it.slow else b"d" if it.drain else b"b"
        n = len(it.data)
        out.append(kind + bytes((n >> 8, n & 255)) + it.data)
    out.append(b"e\x00\x00")
    return b"".join(out)


class RunCheck:
    """The runner's output against the batches it was fed: each batch's
    replies in order (Replies), then its end: the board counted no fault,
    STATUS said faults=0, no log lost or changed on flash but by a DEL
    answered OK, and a deleted log never back."""

    def __init__(self, batches):
        self.batches = batches
        self.b = 0
        self.rp = Replies()
        self.deleted = set()
        self.flash = []  # the runner's findings on flash in this batch
        self.frames = 0
        self.done = None
        self._load()

    def _load(self):
        self.rp.reset()
        if self.b < len(self.batches):
            for it in self.batches[self.b]:
                self.rp.expect(it)
                self.frames += 1

    def feed(self, out):
        for line in out.split(b"\n"):
            if line.startswith(b"#"):
                self.marker(line.decode())
            elif line:
                self.rp.line(line)

    def marker(self, text):
        word, _, rest = text.partition(" ")
        rp = self.rp
        if word in ("#GONE", "#CHANGED", "#SHORT"):
            self.flash.append((word, rest))
        elif word == "#NAMES":
            for v, name in rp.acked:
                if v == "DEL":
                    self.deleted.add(name)
            back = self.deleted & set(rest.split())
            assert not back, "deleted logs back on flash: %r" % sorted(back)
            for word, name in self.flash:
                assert word == "#GONE" and name in self.deleted, "batch %d: %s %s" % (
                    self.b,
                    word,
                    name,
                )
            self.flash = []
        elif word == "#E":
            if rp.pending():
                seq, mask, item = rp.want[rp.i]
                raise AssertionError("batch %d: no reply to %r" % (self.b, item.what[:80]))
            assert rest == "crashes=0", "batch %d: the board counted faults: %s" % (self.b, rest)
            st = rp.status
            assert st is not None and st.get("faults") == "0", st
            rp.acked = []
            self.b += 1
            self._load()
        elif word == "#DONE":
            self.done = rest
        else:
            raise AssertionError("the runner said %r" % text[:200])

"""Online play measured (standalone: needs only the repository and Debian's
mosquitto; moves with tools/bench_* wherever they go).

Part `latency`: two simulated boards (the firmware in the MicroPython unix
port on pseudo-terminals), each with its own `apixagon online` session, on
a local mosquitto; the scripted 2-player record played from hands. For
each move: from the moment the mover's host reads its board's `move`
event (the board accepted the card) to the moment the other host reads
its board's first `leds` event after it asked the board to wait for that
move (its target pulsing). Both hosts run in this one process: one clock.
Budget: 300 ms at the median and the 95th percentile.

Both parts run on the project's own broker (broker.py: persistence on,
as `apixagon online host` starts it, on loopback) and say its settings.

Part `load`: one mosquitto and MATCHES simulated matches at once: two
simulated hosts each (protocol.Side and a paho client, no boards: a board
is taken to accept at once), 2*MATCHES MQTT connections driven by one
selector loop. Each side moves every INTERVAL seconds on its turn; every
move is published by session.py's own Session (do(), send()) as a real
match publishes it: the mover's `move`, the other side's `ack`, each MAC'd
under its sender's seat key and checked by the receiver (seal.py; the
seats' keys made as a join makes them), and the host's one retained feed
message for spectators, signed with its Ed25519 key (feed.py). Prints
messages/s through the broker, move latency
(publish to the other host's protocol handling it: median, p95, p99) and
the broker's CPU share.

  python tools/bench_online.py [--part latency|load|all] [--matches 500]
      [--seconds 20] [--interval 1.0] [--moves 40] [--json]"""

import argparse
import binascii
import json
import os
import random
import selectors
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "tools"), os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

from apixagon_host.online import feed, seal  # noqa: E402
from apixagon_host.online import protocol as P  # noqa: E402
from apixagon_host.online.broker import AUTOSAVE_S, Broker  # noqa: E402
from apixagon_host.online.session import Session  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "data", "queens_gambit_full.apx")
BUDGET_MS = 300


def _pct(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _lines():
    with open(RECORD) as f:
        return [x for x in f.read().splitlines() if x and not x.startswith("[")]


# ---- part 1: board to board ---------------------------------------------------------
def latency(moves, say):
    import build_mpy
    import devboard
    from apixagon_host import link as L

    lines = _lines()
    allm = [x for x in lines if P.is_move(x)]
    moves = min(moves, len(allm))
    tmp = tempfile.mkdtemp(prefix="bench-online-")
    fw = os.path.join(tmp, "fw")
    os.makedirs(fw)
    build_mpy.build_all(fw)
    homes = {}
    stamps = {"accept": {}, "expect": {}, "leds": []}
    code = seal.new_code()
    with Broker() as broker:
        settings = broker_settings(broker)
        _say_settings(settings, say)
        try:
            for letter, role in (("B", "host"), ("G", "join")):
                flash = os.path.join(tmp, letter)
                os.makedirs(flash)
                devboard.install(flash, fw)
                board = devboard.DevBoard(flash, "A").start()
                link = L.connect(board.port, timeout=10)
                link.request("HAND", "press", "confirm")
                s = Session(
                    link,
                    broker.url,
                    code,
                    role,
                    side="black",
                    wait=10,
                    state_dir=os.path.join(tmp, letter + "-seat"),
                )
                s.start()
                homes[letter] = (board, s)
                _hook(s, letter, stamps)
                threading.Thread(target=s.run, daemon=True).start()
            _wait(lambda: all(h[1].peer_online for h in homes.values()), "presence")
            for k in range(1, moves + 1):
                line = allm[k - 1]
                x = homes[line[0]][1]
                y = homes["G" if line[0] == "B" else "B"][1]
                _hands(x, lines, k)
                _wait(lambda: y.side.expecting == k or len(y.side.moves) >= k, "expect %d" % k)
                if len(y.side.moves) < k and line.split()[1] not in ("pass", "deck-empty"):
                    _wait(lambda: _led_after(stamps, line[0], k) is not None, "leds %d" % k)
                    _hands(y, lines, k)
                _wait(lambda: len(y.side.moves) >= k and x.side.acked >= k, "ack %d" % k)
        finally:
            for board, s in homes.values():
                s.close()
                s.done.wait(5)  # its loop out of the link before the link closes
                s.link.close()
                board.stop()
    out = []
    for k in range(1, moves + 1):
        mover = allm[k - 1][0]
        t0 = stamps["accept"].get((mover, k))
        t1 = _led_after(stamps, mover, k)
        if (
            t0 is not None
            and t1 is not None
            and allm[k - 1].split()[1] not in ("pass", "deck-empty")
        ):
            out.append((t1 - t0) * 1000)
    res = {
        "moves": len(out),
        "median_ms": round(_pct(out, 0.5), 1),
        "p95_ms": round(_pct(out, 0.95), 1),
        "max_ms": round(max(out), 1) if out else None,
        "budget_ms": BUDGET_MS,
        "broker": settings,
    }
    say(
        "latency: %d moves, board acceptance to the other board's LEDs: median %.1f ms, "
        "p95 %.1f ms, max %.1f ms (budget %d ms)"
        % (res["moves"], res["median_ms"], res["p95_ms"], res["max_ms"] or 0, BUDGET_MS)
    )
    return res


def _hook(s, letter, stamps):
    # the session's own event hook, wrapped: times read off the link
    orig = s._on_board_event
    orig_expect = s._expect

    def on_event(rest):
        now = time.monotonic()
        kind, _, text = rest.partition(" ")
        if kind == "move":
            w = text.split(" ", 1)
            if len(w) == 2 and w[1].split()[0][0] == letter:
                stamps["accept"].setdefault((letter, int(w[0])), now)
        elif kind == "leds":
            stamps["leds"].append((letter, now))
        orig(rest)

    def expect(n, line):
        stamps["expect"].setdefault((letter, n), time.monotonic())
        orig_expect(n, line)

    s.link.on_event = on_event
    s._on_board_event = on_event
    s._expect = expect


def _led_after(stamps, mover, k):
    other = "G" if mover == "B" else "B"
    t = stamps["expect"].get((other, k))
    if t is None:
        return None
    for who, when in stamps["leds"]:
        if who == other and when >= t:
            return when
    return None


def _hands(s, lines, upto):
    keep, n = [], 0
    for line in lines:
        if P.is_move(line):
            n += 1
            if n > upto:
                break
        keep.append(line)
    text = binascii.b2a_base64("\n".join(keep).encode(), newline=False).decode()

    def play(link):
        for i in range(0, len(text), 180):
            link.request("PLAY", text[i : i + 180])
        return link.request("PLAY", "END", timeout=60)

    return s.call(play, timeout=90)


def _wait(pred, what, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.002)
    raise RuntimeError("timed out waiting for " + what)


# ---- part 2: many matches on one broker -----------------------------------------------
class _Net:
    """What a Session publishes through (transport.Net's publish), on a paho
    client the shared selector loop drives."""

    def __init__(self, client, host, stats):
        self.client, self.host, self.stats = client, host, stats

    def publish(self, topic, payload, retain=False, qos=1):
        self.client.publish(topic, payload, qos=qos, retain=retain)
        self.stats["sent"] += 1
        if topic.startswith(feed.ROOT + "/"):
            self.stats["feed"] += 1
        self.stats["dirty"].add(self.host)


class _SimSession(Session):
    """A real Session (its do(), send() and the host's signed feed) whose
    board accepts a far move at once: EXPECT answered by the board's move."""

    def _expect(self, n, line):
        t0 = self.stats["sent_at"].pop((self.mid, n), None)
        if t0 is not None:
            self.stats["lat"].append(time.monotonic() - t0)
        self.do(self.side.board_move(n, line))


class SimHost:
    """One side of a simulated match: a Session (host or join) without a
    board, on a paho client whose network is driven by the shared selector
    loop. Each move is published as session.py publishes it: the mover's
    `move`, the other side's `ack`, and the host's signed feed (feed.py)
    after each of the two boards' moves that it holds."""

    def __init__(self, mqtt, broker, code, role, me, other, moves, stats, keys, folder):
        s = _SimSession(None, broker.url, code, role, state_dir=folder)
        s.stats = stats
        # the seat keys as a join makes them: every message MAC'd by its
        # sender and checked by the other (seal.py)
        s.side = P.Side(keys(other), me, other)
        s.side.load(["mode queens-gambit", "start black"])
        s.my_key = keys(me)
        if role == "host":
            s.watch_key = feed.load_key(folder, s.mid)
            s.watch_fp = feed.fingerprint(feed.public(s.watch_key))
        s.ready = True
        self.s, self.me, self.moves, self.stats = s, me, moves, stats
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=s.client)
        s.will_seq = s.counter.next()
        will = P.encode("presence", s.my_key, me, s.will_seq, state="offline", will=0)
        c.will_set(P.topic_presence(s.mid, me), will, qos=1, retain=True)
        c.on_message = self._on_message
        c.on_connect = self._on_connect
        c.connect(broker.host, broker.port, 60)
        s.net = _Net(c, self, stats)
        self.client = c
        self.up = False
        self.next_at = 0.0

    def _on_connect(self, client, userdata, flags, reason, properties=None):
        client.subscribe(P.topic_from(self.s.mid, self.s.side.other), qos=1)
        self.s._presence_online()
        self.up = True

    def _on_message(self, client, userdata, m):
        # as Session._net_item hands a far side's message to the protocol
        self.stats["recv"] += 1
        self.s.do(self.s.side.message(bytes(m.payload)))

    def errors(self):
        return len(self.s.errors) + len(self.s.dropped)

    def turn(self, now, interval):
        side = self.s.side
        n = len(side.moves) + 1
        if n > len(self.moves) or self.moves[n - 1][0] != self.me or now < self.next_at:
            return
        if side.acked < len(side.moves) and side.moves[-1][0] == self.me:
            return  # our last move not acknowledged yet
        self.next_at = now + interval
        self.stats["sent_at"][(self.s.mid, n)] = time.monotonic()
        self.s.do(side.board_move(n, self.moves[n - 1]))  # the board's `move` event


def broker_settings(broker):
    """The broker's settings the figures were measured with: the project's
    own (broker.py, as `apixagon online host` starts it)."""
    return {
        "mosquitto": _mosquitto_version(broker.exe),
        "listener": "%s (loopback, plain MQTT)" % broker.address,
        "persistence": broker.persistence,
        "autosave_s": AUTOSAVE_S if broker.persistence else None,
        "anonymous": not broker.users,
        "tls": bool(broker.tls),
        "max_queued_messages": 10000,
    }


def _mosquitto_version(exe):
    try:
        out = subprocess.run([exe, "-h"], capture_output=True, timeout=5).stdout.decode()
        return out.split("\n", 1)[0].replace("mosquitto version", "").strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def _say_settings(b, say):
    say(
        "broker: mosquitto %s on %s, persistence %s%s, %s, TLS %s; messages MAC'd per seat "
        "and checked by the receiver (protocol v%d); the spectators' feed signed (Ed25519)"
        % (
            b["mosquitto"],
            b["listener"],
            "on" if b["persistence"] else "off",
            " (autosave every %d s)" % b["autosave_s"] if b["persistence"] else "",
            "anonymous" if b["anonymous"] else "passwords",
            "on" if b["tls"] else "off",
            P.VERSION,
        )
    )


def load(matches, seconds, interval, say):
    import paho.mqtt.client as mqtt

    allm = [x for x in _lines() if P.is_move(x) and x.split()[1] not in ("pass", "deck-empty")]
    stats = {"sent": 0, "recv": 0, "feed": 0, "lat": [], "sent_at": {}, "dirty": set()}
    rnd = random.Random(5)
    folder = tempfile.mkdtemp(prefix="bench-online-seats-")  # the hosts' feed keys
    with Broker() as broker:
        settings = broker_settings(broker)
        _say_settings(settings, say)
        hosts = []
        sel = selectors.DefaultSelector()
        for i in range(matches):
            code = seal.new_code()
            h_secret, j_secret = seal.new_secret(), seal.new_secret()
            hp, jp = seal.public(h_secret), seal.public(j_secret)
            keys = seal.seat_keys(seal.code_key(code), seal.exchange(h_secret, jp), hp, jp)
            for role, me, other in (("host", "B", "G"), ("join", "G", "B")):
                h = SimHost(mqtt, broker, code, role, me, other, allm, stats, keys, folder)
                h.next_at = rnd.uniform(0, interval)  # matches out of step, as people are
                hosts.append(h)
                sel.register(h.client.socket(), selectors.EVENT_READ, h)
        t_start = time.monotonic()
        last_misc = 0.0
        last_turns = 0.0
        counted = None
        gen0 = time.process_time()
        while True:
            now = time.monotonic()
            if counted is None and now - t_start > 2.0:
                # the first 2 s are the connections' set-up: not counted
                counted = (
                    now,
                    stats["sent"],
                    stats["recv"],
                    stats["feed"],
                    len(stats["lat"]),
                    _cpu(broker.proc.pid),
                )
            if now - t_start > seconds + 2.0:
                break
            if now - last_turns > 0.01 and (all(h.up for h in hosts) or now - t_start > 10):
                for h in hosts:
                    h.turn(now, interval)
                last_turns = now
            # only the clients that queued something are written (a sweep
            # of a thousand want_write() calls per pass was the loop's cost)
            dirty = stats["dirty"]
            while dirty:
                h = dirty.pop()
                while h.client.want_write():
                    if h.client.loop_write():
                        break
            for key, _ in sel.select(0.002):
                key.data.client.loop_read(max_packets=20)
            if now - last_misc > 1.0:
                for h in hosts:
                    h.client.loop_misc()
                    if h.client.want_write():
                        dirty.add(h)
                last_misc = now
        t1 = time.monotonic()
        gen1 = time.process_time()
        cpu1 = _cpu(broker.proc.pid)
        for h in hosts:
            h.client.disconnect()
    shutil.rmtree(folder, ignore_errors=True)
    errors = sum(h.errors() for h in hosts)
    t0, s0, r0, f0, l0, c0 = counted
    lat = [x * 1000 for x in stats["lat"][l0:]]
    dt = t1 - t0
    res = {
        "matches": matches,
        "connections": 2 * matches,
        "seconds": round(dt, 1),
        "interval_s": interval,
        "published_per_s": round((stats["sent"] - s0) / dt),
        "delivered_per_s": round((stats["recv"] - r0) / dt),
        "feed_per_s": round((stats["feed"] - f0) / dt),
        "moves": len(lat),
        "median_ms": round(_pct(lat, 0.5), 1),
        "p95_ms": round(_pct(lat, 0.95), 1),
        "p99_ms": round(_pct(lat, 0.99), 1),
        "broker_cpu": round((cpu1 - c0) / dt, 2) if cpu1 is not None and c0 is not None else None,
        "hosts_cpu": round((gen1 - gen0) / dt, 2),
        "errors": errors,
        "broker": settings,
    }
    say(
        "load: %d matches (%d connections) for %.0f s: %d messages/s published (%d/s of them "
        "the signed feed), %d/s delivered to hosts; move latency median %.1f ms, p95 %.1f ms, "
        "p99 %.1f ms over %d moves; broker CPU %s of a core, the simulated hosts' %.0f %%; "
        "%d errors"
        % (
            matches,
            2 * matches,
            dt,
            res["published_per_s"],
            res["feed_per_s"],
            res["delivered_per_s"],
            res["median_ms"],
            res["p95_ms"],
            res["p99_ms"],
            len(lat),
            "%.0f %%" % (100 * res["broker_cpu"]) if res["broker_cpu"] is not None else "?",
            100 * res["hosts_cpu"],
            errors,
        )
    )
    return res


def _cpu(pid):
    # the broker's CPU time (user + system, seconds) from /proc
    try:
        with open("/proc/%d/stat" % pid) as f:
            w = f.read().rsplit(")", 1)[1].split()
        return (int(w[11]) + int(w[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", choices=("latency", "load", "all"), default="all")
    ap.add_argument("--matches", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between a side's moves")
    ap.add_argument("--moves", type=int, default=40, help="latency: moves of the record played")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    say = (lambda t: sys.stderr.write(t + "\n")) if a.json else print
    out = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    ok = True
    if a.part in ("latency", "all"):
        out["latency"] = latency(a.moves, say)
        ok = out["latency"]["p95_ms"] <= BUDGET_MS
    if a.part in ("load", "all"):
        out["load"] = load(a.matches, a.seconds, a.interval, say)
        ok = ok and out["load"]["errors"] == 0
    if a.json:
        print(json.dumps(out, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

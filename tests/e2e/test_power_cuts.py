"""Power cuts end to end (issue 4): the firmware (.mpy) in the MicroPython
unix port on a pseudo-terminal is SIGKILLed at seeded random moments while
the scripted 6-player game (tests/data/beehive_full.apx) is played from
hands (PLAY), and now and then just after a card was put down where the
log has none. At each cut, with the power held off, the flash's logs read
OK or TORN (never CORRUPT or BROKEN). After power-on every complete record
that was on flash is still there byte for byte, the board is in the resume
phase at the logged position (STATUS moves=), the cards that stayed on the
table are put right as the LEDs ask (missing ones put back, extra ones
lifted), and play goes on. At the end every match's log holds the whole
record.

A SIGKILL never tears a write() to a file on Linux, so the torn records
are shown by the board-level tests (tests/board/test_matchlog_cuts*.py),
where the simulated flash cuts the firmware's own writes."""

import binascii
import os
import random
import sys
import time

from apixagon import record
from apixagon.codes import BEEKEEPER, PLACE, RAIN_MOVE, RESERVE, SMOKER
from apixagon.game import Game
from apixagon.geometry import NCELLS, cell_name
from e2ekit import RECORD, connect
from smartboard import tag, view
from smartboard.logstore import records
from smartboard.referee import _code_of

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(_ROOT, "tools", "rp2040"))
import flashfs  # noqa: E402  (the board's archives walked by its own code)

CUTS = 30
SEED = 20240611
GAME_S = 0.1  # a whole game played from hands, wall clock (0.08-0.12 s here)


class Moves(record.Visitor):
    def __init__(self):
        self.moves = []  # (line, letter, kind, card, cells)

    def move(self, lineno, letter, seat, kind, card, cells):
        self.moves.append((lineno, letter, kind, card, list(cells)))


def record_moves():
    with open(RECORD) as f:
        lines = f.read().splitlines()
    v = Moves()
    record.read(lines, v)
    return lines, v.moves


LINES, MOVES = record_moves()
WANT = [line for line in LINES if line[:1] in ("A", "B") and line[1:2] in " 123"]


def norm(line):
    # a reserve lists its cells in the order the keeper lifted them
    w = line.split()
    return " ".join(w[:2] + sorted(w[2:])) if w[1:2] == ["reserve"] else line


def script_moves(moves, extra=()):
    """How many of the record's moves a log's move lines are, in order,
    or None when they are not the record's: a line of extra (a declaration
    the board took from a fuzzed DECLARE: tools/soak.py) may come between."""
    k = 0
    for x in moves:
        if k < len(WANT) and norm(x) == norm(WANT[k]):
            k += 1
        elif x not in extra:
            return None
    return k


def table_after(n):
    """{cell: tag code} of the cards on the table after the record's first
    n moves, as the simulator's hands lay them (a side's Rains alternate
    between its two Rain cards: smartboard.sim.replay)."""
    table = {}
    rains = [0, 0]
    for _, letter, kind, card, cells in MOVES[:n]:
        side = "AB".index(letter)
        if kind == PLACE:
            table[cells[0]] = tag.code(side, tag.NORMAL, card)
        elif kind == RAIN_MOVE:
            table[cells[0]] = tag.code(side, tag.RAIN, rains[side] & 1)
            rains[side] += 1
        elif kind == BEEKEEPER:
            table[cells[1]] = table.pop(cells[0])
        elif kind == SMOKER or kind == RESERVE:
            for x in cells:
                table.pop(x)
    return table


def send_play(link, wait=True):
    """The record in PLAY frames; END answered (wait) or left running."""
    text = binascii.b2a_base64("\n".join(LINES).encode(), newline=False).decode()
    for i in range(0, len(text), 180):
        assert link.request("PLAY", text[i : i + 180]) == "more"
    if wait:
        return link.request("PLAY", "END", timeout=120)
    link.send("PLAY", "END")


def logs_on_flash(board):
    """{name: bytes} of every match log on the flash: its own NNNN.alog, or
    packed into an archive once eight finished matches were there."""
    d = os.path.join(board.flash, "logs")
    files = []
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            files.append((name, f.read()))
    return flashfs.folder_logs(files)


def leds(link):
    """The LED layer the board shows now (WATCH events)."""
    link.request("WATCH", "0")
    del link.events[:]
    link.request("WATCH", "1")  # a new watcher gets the whole layer first
    end = time.monotonic() + 5
    while time.monotonic() < end:
        # The board sends it after the frames it is answering in that loop
        # tick: a STATUS sent at once may be answered first, now and then
        # some 30 of them in 20-30 ms (the soak's 1000 cuts met 50). Waited
        # for by the clock, not by a count of round trips.
        for ev in link.events:
            if ev.startswith("leds "):
                link.request("WATCH", "0")
                return binascii.unhexlify(ev[5:])
        link.request("STATUS")
    raise AssertionError("no leds event in 5 s: %r" % link.events[-5:])


def hand(link, *args):
    assert link.request("HAND", *args) == "ok"


def same(want, got):
    # either Rain card of a side is that side's Rain (view.matches)
    if want == got:
        return True
    if want is None or got is None:
        return False
    return tag.kind_of(want) == tag.RAIN == tag.kind_of(got) and want >> 7 == got >> 7


class Table:
    """What lies on the simulated board's table, as the test laid it."""

    def __init__(self):
        self.cards = {}

    def put(self, link, x, code):
        hand(link, "put", cell_name(x), code)
        self.cards[x] = code

    def lift(self, link, x):
        hand(link, "lift", cell_name(x))
        del self.cards[x]

    def clear(self, link):
        for x in list(self.cards):
            self.lift(link, x)


def test_power_cuts_while_matches_are_played(board):
    rnd = random.Random(SEED)
    kept = []  # (log name, its complete records' bytes) at each cut
    stats = {"cuts": 0, "resumed": 0, "lifted": 0, "put back": 0, "strays": 0, "torn": 0}
    link = connect(board)
    table = Table()
    at = []  # where each cut found the newest match: moves logged, or "end"
    for i in range(CUTS):
        # ---- play, and cut the power at a random moment ---------------------
        st = link.status()
        if st["phase"] == "over":
            hand(link, "press", "confirm")  # back to set-up: clear the board
            table.clear(link)
            st = link.status()
        done = match_moves(st)
        stray = None
        if i % 5 == 4:
            # Play on a little; then a card goes down where the log has none
            # (of the side not to play: not a move) just as the power goes.
            upto = min(len(MOVES) - 1, done + rnd.randrange(1, 8))
            play_upto(link, upto)
            on = table_after(upto)
            side = 1 - int(link.status()["turn"])
            free = [x for x in range(NCELLS) if x not in on]
            spare = [c for c in range(31) if tag.code(side, tag.NORMAL, c) not in on.values()]
            stray = (rnd.choice(free), tag.code(side, tag.NORMAL, rnd.choice(spare)))
            hand(link, "put", cell_name(stray[0]), stray[1])
            stats["strays"] += 1
            time.sleep(rnd.uniform(0, 0.02))
        else:
            # Played from hands up to a random move, then on without waiting:
            # the power goes a few moves later (a game takes ~0.1 s), now and
            # then after the end (the board idle, or writing its last records).
            upto = rnd.randrange(done, len(MOVES))
            if upto > done:
                play_upto(link, upto)
            send_play(link, wait=False)
            time.sleep(rnd.uniform(0, 0.02 if rnd.random() < 0.85 else GAME_S))
        boots = board.boots
        board.power_cut(hold=True)
        link.close()
        stats["cuts"] += 1
        # ---- the power is off: what is on flash --------------------------------
        logs = logs_on_flash(board)
        for name, data in logs.items():
            v, good, count, _ = records.read_log(data)
            assert v in (records.OK_LOG, records.TORN), (name, records.verdict_name(v))
            stats["torn"] += v == records.TORN
            kept.append((name, data[:good]))
        if logs:
            lines = records.Lines()
            records.read_log(logs[sorted(logs)[-1]], lines)
            at.append("end" if lines.result else len(lines.moves))
        # ---- power on: the resume ----------------------------------------------
        board.power_on()
        assert board.wait_boot(boots + 1), "".join(board.stderr)
        link = connect(board)
        check_kept(board, kept)
        table = Table()  # the simulator's table went with its process
        resume(link, logs, rnd, table, stats, stray)
    # ---- the last match played to its end -------------------------------------
    st = link.status()
    if st["phase"] == "over":
        hand(link, "press", "confirm")
        table.clear(link)
        st = link.status()
    if st["phase"] in ("play", "setup"):
        assert send_play(link).startswith("played")
    assert link.status()["phase"] == "over"
    link.logs()  # LOGS writes what is queued first
    link.close()
    check_kept(board, kept)
    logs = logs_on_flash(board)
    assert logs
    for name, data in logs.items():
        lines = records.Lines()
        v, good, count, _ = records.read_log(data, lines)
        assert v == records.OK_LOG and good == len(data), name
        assert [norm(x) for x in lines.moves] == [norm(x) for x in WANT], name
        assert lines.result is not None and lines.result.startswith("team A wins"), name
    assert stats["resumed"] >= CUTS // 2, stats
    print("%d cuts, zero complete records lost; %d matches; %r" % (CUTS, len(logs), stats))
    print("moves logged at each cut:", at)


def test_a_log_is_the_records_but_for_the_declarations_named():
    # (tools/soak.py: the declarations a fuzzed DECLARE made, and no other line)
    moves = WANT[:5] + ["B forced-removal"] + WANT[5:9]
    assert script_moves(WANT[:9]) == 9
    assert script_moves(moves) is None
    assert script_moves(moves, {"B forced-removal"}) == 9
    assert script_moves(moves, {"A forced-removal"}) is None
    assert script_moves(WANT[:5] + WANT[6:9], {"B forced-removal"}) is None


def check_kept(board, kept):
    logs = logs_on_flash(board)
    for name, prefix in kept:
        assert name in logs, name
        assert logs[name][: len(prefix)] == prefix, name  # byte for byte


def logged(logs, extra=()):
    """(game, moves, the record's moves among them) of the newest unfinished
    log among logs (the flash as the cut left it: once resumed, the board
    may write the E of a match whose last move was logged), or None. extra:
    declarations a fuzz may have made (script_moves)."""
    if not logs:
        return None
    lines = records.Lines()
    v, good, count, _ = records.read_log(logs[sorted(logs)[-1]], lines)
    if lines.result is not None or count == 0:
        return None
    g, verdicts = record.check(list(lines.lines()), Game)
    assert all(r == 0 for _, r in verdicts)
    k = script_moves(lines.moves, extra)
    assert k is not None, lines.moves
    return g, len(lines.moves), k


def match_moves(st):
    """How far into the record the board's match is (STATUS moves=)."""
    if st["phase"] not in ("play", "resume", "over"):
        return 0
    return int(st["moves"])


def play_upto(link, upto):
    """Play the record's first `upto` moves from wherever the match is."""
    keep, n = [], 0
    for line in LINES:
        if line[:1] in ("A", "B") and line[1:2] in " 123":
            n += 1
            if n > upto:
                break
        keep.append(line)
    text = binascii.b2a_base64("\n".join(keep).encode(), newline=False).decode()
    for i in range(0, len(text), 180):
        link.request("PLAY", text[i : i + 180])
    return link.request("PLAY", "END", timeout=120)


def resume(link, logs, rnd, table, stats, stray, extra=()):
    st = link.status()
    found = logged(logs, extra)
    if found is None:
        assert st["phase"] == "setup", st
        return
    g, n, k = found
    stats["resumed"] += 1
    assert int(st["moves"]) == n == g.nmoves(), st  # the logged position
    want = {}
    for x in range(NCELLS):
        if g.board[x]:
            want[x] = _code_of(g.board[x]) - 1
    if not want:
        assert st["phase"] == "play", st
        return
    assert st["phase"] == "resume", st
    # The cards that stayed on the table: the logged position as the hands
    # laid it, now and then with one more card (the next move's, whose
    # record was not written, or a stray one) or one fewer. (A declaration
    # puts down no card: the record's first k moves laid them.)
    cards = table_after(k)
    r = rnd.random()
    if stray is not None and stray[0] not in cards:
        cards[stray[0]] = stray[1]  # put down as the power went
    elif r < 0.3 and k < len(MOVES) and MOVES[k][2] == PLACE:
        _, letter, _, card, cells = MOVES[k]
        if cells[0] not in cards:  # played, its record not written yet
            cards[cells[0]] = tag.code("AB".index(letter), tag.NORMAL, card)
    elif r < 0.45:
        del cards[rnd.choice(sorted(cards))]  # knocked off when the power went
    # Extra cards first: with the logged ones all down the board would take
    # the next card put as a move.
    for x in sorted(cards, key=lambda x: x in want):
        table.put(link, x, cards[x])
    wait(link, table)
    for _ in range(4):
        st = link.status()
        if st["phase"] != "resume":
            break
        layer = leds(link)
        # The LEDs: a missing card blinks in its side's colour, a card to go
        # blinks red, a right one is dark.
        for x in range(NCELLS):
            w = want.get(x)
            got = table.cards.get(x)
            if same(w, got):
                assert layer[x] == view.OFF, cell_name(x)
            elif got is None:
                assert layer[x] == (view.SIDE0 + tag.side_of(w)) | view.SLOW, cell_name(x)
            else:
                assert layer[x] == view.ERR_RED | view.FAST, cell_name(x)
        # ...and the players do as they say.
        for x in range(NCELLS):
            if layer[x] == view.ERR_RED | view.FAST:
                table.lift(link, x)
                stats["lifted"] += 1
        for x in range(NCELLS):
            v = layer[x]
            if v & view.SLOW and v & 0x3F in (view.SIDE0, view.SIDE1):
                c = want[x]
                if tag.kind_of(c) == tag.RAIN and c in table.cards.values():
                    c += 1  # that side's other Rain card
                table.put(link, x, c)
                stats["put back"] += 1
        wait(link, table)
    assert link.status()["phase"] in ("play", "over")


def wait(link, table):
    """Let the board's scanners catch up: simulated time goes by with no
    hand on the board (a full board has no empty cell to lift)."""
    hand(link, "wait", 800)

"""Match review: each move of a stored match against the best move the
seat could have made with what it knew, a grade, the better move, the
match's turning points and each seat's accuracy. Pure: a record's lines
in, a dict out (the JSON schema is docs/guide/command-line.md's).

What a seat knew: its own hand and the public record (RULES §8: nobody
sees another's hand). The review never reads another seat's cards: the
evaluator is given the position (board, cards placed, specials left, all
public) and the seat's own hand only; where the opponent's answer
matters it deals the opponent's unseen cards again from a fixed seed,
as the engine's level 6 does (apixagon.engine, Information Set search's
determinizations).

The seat's hand: a board's match against the computer keeps the seed
its hands were dealt from ([Computer], [Seed]): the computer's seats'
hands are dealt again exactly ("dealt"). Any other seat's hand the board
never saw (§8): the review takes the card it played and the next cards
that seat placed, up to the hand limit (§3, §4, §5): the cards it most
likely held ("inferred"). Its own cards only, never another seat's.

Grades, from the drop in winning chance between the best move and the
move played, each move's chance a lichess-style logistic of what it
gains (its points after the opponent's best answer, WIN_SCALE; a win at
once, two sequences of 4, §3.3, counts as CAP points, about 99 %):
best (the best move, or within a point of it), good (under 5 %),
inaccuracy (under 10 %), mistake (under 20 %), blunder (20 % or more).
Accuracy of a seat: the mean over its graded moves of
103.1668 * exp(-0.04354 * drop) - 3.1669, clamped to 0..100 (lichess's
formula). Junior (§6, a race without turns): only whether the card
placed had a legal cell at an earlier ply (a slower hand than it could
have been); its accuracy is the share placed at the first chance.

A stronger engine plugs in as evaluate(game, view, must) -> (base,
{move: points}): view is a SeatView (side, seat, hand, limit, seed),
must the move played (scored too, whatever the evaluator keeps)."""

import hashlib
import math
import threading
from collections import namedtuple

from apixagon import dealer, record
from apixagon import engine as E
from apixagon.codes import (
    BEEKEEPER,
    JUNIOR,
    MODES,
    OK,
    PLACE,
    RAIN_MOVE,
    REASONS,
    RESERVE,
    SMOKER,
)
from apixagon.game import Game
from apixagon.geometry import NCELLS, NONE, cell_name

from .i18n import N_

SCHEMA = 1
LEVEL = 6  # the engine's strongest search (docs/guide/computer.md)
SEED = 7919  # the determinizations' seed, with the ply: the same review every run
WIN_SCALE = 80.0  # engine points for a 73 % winning chance (a 3 sealed next turn: ~65)
CAP = 400  # points: a win (WIN) counts as this much in the graph and the chances
# (grade, the largest drop in winning chance, in percent, it takes)
GRADES = (
    ("best", 0.0),
    ("good", 5.0),
    ("inaccuracy", 10.0),
    ("mistake", 20.0),
    ("blunder", 101.0),
)
GRADE_WORDS = {
    "best": N_("best"),
    "good": N_("good"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
    "missed": N_("missed"),
    "in-time": N_("in time"),
}
TURNING_POINTS = 3

SeatView = namedtuple("SeatView", "side seat hand limit seed")


class ReviewError(ValueError):
    """The record cannot be reviewed (an illegal line): said in words."""


# ---- the record, parsed -------------------------------------------------------
class _Collect(record.Visitor):
    def __init__(self):
        self.moves = []  # (lineno, letter, seat, kind, card, cells)
        self.tags = {}

    def tag(self, lineno, name, value):
        self.tags[name] = value

    def move(self, lineno, letter, seat, kind, card, cells):
        self.moves.append((lineno, letter, seat, kind, card, tuple(cells)))

    def bad(self, lineno, reason):
        raise ReviewError("line %d: %s" % (lineno, REASONS[reason]))


def _clip(v):
    return max(-CAP, min(CAP, v))


def chance(points):
    """Winning chance in percent of a position worth points to the seat."""
    return 100.0 / (1.0 + math.exp(-_clip(points) / WIN_SCALE))


def grade_of(drop, is_best):
    if is_best:
        return "best"
    for name, top in GRADES[1:]:
        if drop < top:
            return name
    return "blunder"


def move_accuracy(drop):
    a = 103.1668 * math.exp(-0.04354 * max(drop, 0.0)) - 3.1669
    return max(0.0, min(100.0, a))


def engine_move(kind, card, cells):
    """The engine's encoding of a parsed record line's move (0: not one
    the engine chooses among: declarations, passes, reserves)."""
    if kind == PLACE:
        return E.move(PLACE, card, cells[0])
    if kind == RAIN_MOVE:
        return E.move(RAIN_MOVE, 0, cells[0])
    if kind == BEEKEEPER:
        return E.move(BEEKEEPER, cells[0], cells[1])
    if kind == SMOKER:
        return E.move(SMOKER, 0, cells[0])
    return 0


def move_words(m, letter):
    """A move as the record writes it (NOTATION.md), side letter first."""
    k = E.kind_of(m)
    if k == PLACE:
        return "%s %d %s" % (letter, E.arg_a(m), cell_name(E.arg_b(m)))
    if k == RAIN_MOVE:
        return "%s rain %s" % (letter, cell_name(E.arg_b(m)))
    if k == BEEKEEPER:
        return "%s beekeeper %s %s" % (letter, cell_name(E.arg_a(m)), cell_name(E.arg_b(m)))
    if k == SMOKER:
        return "%s smoker %s" % (letter, cell_name(E.arg_b(m)))
    return letter


# ---- the evaluator: the engine's level 6, every candidate scored -------------
class _Reviewer(E.Engine):
    """The engine's search with no noise (the review is the same every
    run) and the move played always among those looked at one reply deep,
    so its score is comparable with the best's. Its choices otherwise are
    the engine's own (nothing in apixagon.engine changes)."""

    must = 0

    def _add(self, m, v, noise):
        E.Engine._add(self, m, v, 0)

    def _static(self, g, t, m):
        # the move's one-ply worth as choose() gives its candidates (§2
        # runs, the hand's cards, the specials' keep), for a move choose()
        # did not list (a Beekeeper to another cell than its best)
        P = E.LEVELS[self.level]
        see, rw = P[0], P[7]
        self._setup(g)
        for c in self._hand:
            self._card_av(t, c, 16)
        self._setup_lines(g.board)
        base = self._worth_now(t, see)
        b = g.board
        k, x = E.kind_of(m), E.arg_b(m)
        if k == PLACE:
            c = E.arg_a(m)
            self._card_av(t, c, -16)
            self._setup_lines(b)
            b[x] = 1 + (t << 5) + c
            v = self._worth(b, t, x, NONE, see) - base + E.ROOM[x] * rw
            b[x] = 0
            self._card_av(t, c, 16)
            self._setup_lines(b)
        elif k == RAIN_MOVE:
            b[x] = 1 + (t << 5) + 31
            v = self._worth(b, t, x, NONE, see) - base - E._KEEP[0]
            b[x] = 0
        elif k == SMOKER:
            o = b[x]
            b[x] = 0
            v = self._worth(b, t, x, NONE, see) - base - E._KEEP[2]
            b[x] = o
        else:
            a = E.arg_a(m)
            o = b[a]
            b[a] = 0
            b[x] = o
            v = self._worth(b, t, a, x, see) - base - E._KEEP[1]
            b[x] = 0
            b[a] = o
        return v

    def _look_ahead(self, g, t, P, limit):
        must = self.must
        if not must:
            return E.Engine._look_ahead(self, g, t, P, limit)
        cm, cv = self.cm, self.cv
        idx = -1
        for i in range(self.nc):
            if cm[i] == must:
                idx = i
        if idx < 0:
            self._add(must, self._static(g, t, must), 0)
            idx = self.nc - 1
        rank = 0
        for i in range(self.nc):
            if cv[i] > cv[idx]:
                rank += 1
        if rank < P[4]:
            return E.Engine._look_ahead(self, g, t, P, limit)
        # looked at first (its reply deducted from its own worth after)
        orig = cv[idx]
        lift = E.WIN * 16
        cv[idx] = lift
        E.Engine._look_ahead(self, g, t, P[:4] + (P[4] + 1,) + P[5:], limit)
        for i in range(self.nc):
            if cm[i] == must and cv[i] != E.WIN * 4:
                cv[i] = cv[i] - lift + orig


# One engine per thread (its tables made once): an engine's search keeps
# its state in the object. A review is still one per process at a time:
# the rules core's games share their scratch buffers (apixagon.base), so
# the web server runs each in a process of its own (web/reviews.py).
_local = threading.local()


def evaluate(game, view, must):
    """(base, {move: points}) for the seat to play in game, holding
    view.hand: the worth to the seat of the position now and, for each
    move looked at (the engine's best and the move played, must), how
    much it gains after the opponent's best answer over the deals of its
    unseen cards. Reads the game's public state and view.hand only."""
    eng = getattr(_local, "engine", None)
    if eng is None:
        eng = _local.engine = _Reviewer(LEVEL, SEED)
    eng.must = must
    eng.rng.seed(view.seed)
    hand = bytes(view.hand)
    specials = not game.placement_pending()
    eng.choose(game, hand, view.limit, specials)
    out = {}
    for i in range(eng.nc):
        out[eng.cm[i]] = eng.cv[i] / 4.0
    if must and must not in out:
        eng._hand = hand
        out[must] = float(eng._static(game, view.side, must))
    eng._setup(game)
    base = eng._worth_now(view.side, 2)
    return base, out


# ---- hands ---------------------------------------------------------------------
def _dealt_hands(tags, moves, lines):
    """{move index: hand} for the computer's seats of a board's match (its
    [Computer] seats dealt from [Seed], replayed as smartboard.computer
    replays a resumed match), those whose every card played was in hand."""
    seed = tags.get("Seed", "")
    if not tags.get("Computer") or not (seed.isdigit() and 0 < len(seed) < 6):
        return {}
    from smartboard.seats import mask_of, seats_of

    g = _game(lines, 0)
    held = seats_of(g, mask_of(g, tags["Computer"]))
    if not held:
        return {}
    tab = dealer.Table(g, held, int(seed))
    out = {}
    wrong = set()
    for i, (lineno, letter, seat, kind, card, cells) in enumerate(moves):
        t, s = g.side_to_play(), g.seat_to_play()
        mine = (t, s) in held
        if mine:
            tab.sync(t)
            if not g.reserve_due() and not g.placement_pending():
                if kind not in (RAIN_MOVE, BEEKEEPER, SMOKER):
                    tab.draw(t, s)
            h = list(tab.hand(t, s))
            if kind == PLACE and card not in h:
                wrong.add((t, s))
            out[i] = ((t, s), h)
        cards = []
        if kind == RESERVE:
            cards = [g.card_at(x) for x in cells]
        if record.apply_move(g, letter, seat, kind, card, cells) != OK:
            break
        if mine and kind == PLACE:
            tab.played(t, s, card)
        elif mine and kind == RESERVE:
            tab.returned(t, cards)
    return {i: h for i, (ts, h) in out.items() if ts not in wrong}


def _inferred_hand(seats, moves, i, limit):
    """The card played at move i and the next cards the same seat placed,
    up to the hand limit: the seat's own cards only."""
    me = seats[i]
    hand = [moves[i][4]] if moves[i][3] == PLACE else []
    for j in range(i + 1, len(moves)):
        if len(hand) >= limit:
            break
        if seats[j] == me and moves[j][3] == PLACE and moves[j][4] not in hand:
            hand.append(moves[j][4])
    return hand


# ---- the review ------------------------------------------------------------------
def parse(text_lines):
    """(tags, header lines, moves) of a record's lines."""
    c = _Collect()
    record.read(text_lines, c)
    header = [x for x in text_lines if not _is_move_line(x)]
    return c.tags, header, c.moves


def _is_move_line(line):
    f = line.split("#", 1)[0].split()
    if not f or line.lstrip().startswith("["):
        return False
    return f[0] not in ("mode", "option", "start", "players")


def _game(lines, upto):
    """The game after the first upto move lines of the record."""
    header = [x for x in lines if not _is_move_line(x)]
    moves = [x for x in lines if _is_move_line(x)]
    g, _v = record.check(header + moves[:upto], Game)
    return g


HAND_TAGS = ("Computer ", "Seed ")  # the tags a review reads (the dealt hands)


def record_hash(text_lines):
    """The review cache's key: the record's lines but its tags (players'
    names, dates: the review reads only those of HAND_TAGS), the
    review's version."""
    h = hashlib.sha256()
    h.update(("review %d level %d seed %d\n" % (SCHEMA, LEVEL, SEED)).encode())
    for x in text_lines:
        tag = x.lstrip().startswith("[")
        if not tag or x.lstrip()[1:].startswith(HAND_TAGS):
            h.update(x.encode() + b"\n")
    return h.hexdigest()


def _one(job):
    """One move's scores (a process pool's task): (index, base, scores)."""
    lines, i, view, must = job
    g = _game(lines, i)
    base, scores = evaluate(g, view, must)
    return i, base, scores


def review(text_lines, progress=None, jobs=1, evaluator=None):
    """The review of a record (its .apx lines) as a dict (SCHEMA).
    progress(done, total) is told after each move; jobs > 1 scores moves
    in a pool of that many processes; evaluator: evaluate() by default."""
    tags, header, moves = parse(text_lines)
    lines = [x for x in text_lines if x.strip()]
    g = _game(lines, 0)
    letters = record.side_letters(g)
    if g.mode == JUNIOR:
        return _junior(lines, moves, g, progress)
    seats = []
    jobs_todo = []
    seats_label = []
    gg = _game(lines, 0)
    dealt = _dealt_hands(tags, moves, lines)
    entries = []
    for i, (lineno, letter, seat, kind, card, cells) in enumerate(moves):
        t, s = gg.side_to_play(), gg.seat_to_play()
        seats.append((t, s))
        seats_label.append(letters[t] + ("%d" % s if gg.teams else ""))
        m = engine_move(kind, card, cells)
        gradable = m and not gg.over() and not gg.reserve_due()
        entries.append(
            {"ply": i + 1, "seat": seats_label[-1], "move": None, "m": m, "ok": gradable}
        )
        r = record.apply_move(gg, letter, seat, kind, card, cells)
        if r != OK:  # (NOTATION.md's reason codes: stable words, not translated)
            raise ReviewError("line %d: illegal %s" % (lineno, REASONS[r]))
        entries[-1]["move"] = record.move_text(gg, *list(gg.history())[-1])
    for i, en in enumerate(entries):
        if not en["ok"]:
            continue
        t, s = seats[i]
        limit = dealer.hand_limit(g, t)
        if i in dealt:
            hand, how = dealt[i], "dealt"
        else:
            hand, how = _inferred_hand(seats, moves, i, limit), "inferred"
        card = moves[i][4]
        if moves[i][3] == PLACE and card not in hand:
            hand.append(card)
        en["hand"] = how
        en["cards"] = sorted(hand)
        opp = dealer.hand_limit(g, t ^ 1)
        view = SeatView(t, s, bytes(hand), opp, SEED + 1009 * i)
        jobs_todo.append((lines, i, view, en["m"]))
    results = _run(jobs_todo, progress, jobs, evaluator)
    out_moves = []
    per_seat = {}
    adv = [0]
    ga = _game(lines, 0)
    worth = E.Engine(3, 1)
    for i, en in enumerate(entries):
        row = {"ply": en["ply"], "seat": en["seat"], "move": en["move"], "grade": None}
        if i in results:
            base, scores = results[i]
            m = en["m"]
            best_m = max(scores, key=lambda k: (scores[k], k == m))
            best, played = scores[best_m], scores[m]
            drop = max(0.0, chance(best) - chance(played))
            is_best = best - played <= 1.0
            letter = en["seat"]
            row.update(
                {
                    "grade": grade_of(drop, is_best),
                    "loss": round(min(best - played, CAP), 2),
                    "drop": round(drop, 2),
                    "score": round(_clip(played), 2),
                    "best_score": round(_clip(best), 2),
                    "better": None if is_best else move_words(best_m, letter),
                    "better_cells": [] if is_best else [cell_name(x) for x in E.cells_of(best_m)],
                    "hand": en["hand"],
                    "cards": en["cards"],
                }
            )
            per_seat.setdefault(en["seat"], []).append(move_accuracy(drop))
        lineno, letter, seat, kind, card, cells = moves[i]
        record.apply_move(ga, letter, seat, kind, card, cells)
        adv.append(_clip(worth.worth(ga, 0)))
        row["advantage"] = adv[-1]
        out_moves.append(row)
    return {
        "schema": SCHEMA,
        "mode": MODES[g.mode],
        "engine": {"level": LEVEL, "seed": SEED},
        "moves": out_moves,
        "advantage": adv,
        "turning_points": _turning(out_moves, adv, letters),
        "accuracy": {k: round(sum(v) / len(v), 1) for k, v in sorted(per_seat.items())},
    }


def _turning(rows, adv, letters):
    """The moves that swung the advantage most (Black's worth, RULES §2
    runs of both sides), largest first, at most TURNING_POINTS."""
    swings = []
    for i, row in enumerate(rows):
        d = adv[i + 1] - adv[i]
        mover = 1 if d > 0 else -1
        swings.append((abs(d), row["ply"], mover))
    swings.sort(key=lambda s: (-s[0], s[1]))
    return [
        {"ply": p, "swing": d, "towards": letters[0 if m > 0 else 1]}
        for d, p, m in swings[:TURNING_POINTS]
        if d > 0
    ]


def _run(todo, progress, jobs, evaluator):
    total = len(todo)
    out = {}
    if progress:
        progress(0, total)
    if evaluator is not None or jobs <= 1 or total < 4:
        ev = evaluator or evaluate
        for n, (lines, i, view, must) in enumerate(todo):
            out[i] = ev(_game(lines, i), view, must)
            if progress:
                progress(n + 1, total)
        return out
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        for n, (i, base, scores) in enumerate(pool.map(_one, todo, chunksize=1)):
            out[i] = (base, scores)
            if progress:
                progress(n + 1, total)
    return out


def _junior(lines, moves, g0, progress):
    """§6: each placement of a named player (D-13: `J2 12 E4`), whether
    its card, face up since that player's previous placement, had a legal
    cell at an earlier ply that another player took first."""
    g = _game(lines, 0)
    rows = []
    per = {}
    last = {}  # player -> the state after their previous placement
    total = len(moves)
    for i, (lineno, letter, seat, kind, card, cells) in enumerate(moves):
        row = {"ply": i + 1, "seat": "J%d" % seat if seat else "J", "grade": None}
        if kind == PLACE and seat and i > 0:
            early = None
            for k in range(last.get(seat, 1), i):
                gk = _game(lines, k)
                for x in range(NCELLS):
                    if gk.check_place(NONE, card, x) == OK:
                        early = {"ply": k + 1, "cell": cell_name(x)}
                        break
                if early:
                    break
            row["grade"] = "missed" if early else "in-time"
            row["earlier"] = early
            per.setdefault(row["seat"], []).append(0.0 if early else 100.0)
            last[seat] = i + 1
        record.apply_move(g, letter, seat, kind, card, cells)
        row["move"] = record.move_text(g, *list(g.history())[-1])
        rows.append(row)
        if progress:
            progress(i + 1, total)
    return {
        "schema": SCHEMA,
        "mode": "junior",
        "engine": None,
        "moves": rows,
        "advantage": [],
        "turning_points": [],
        "accuracy": {k: round(sum(v) / len(v), 1) for k, v in sorted(per.items())},
    }


# ---- the JSON schema (docs/guide/command-line.md) ---------------------------
_NUM = (int, float)
_OPT_STR = (str, type(None))
TOP = {
    "schema": int,
    "mode": str,
    "engine": (dict, type(None)),
    "moves": list,
    "advantage": list,
    "turning_points": list,
    "accuracy": dict,
}
MOVE = {"ply": int, "seat": str, "move": str, "grade": _OPT_STR}
GRADED = {
    "loss": _NUM,
    "drop": _NUM,
    "score": _NUM,
    "best_score": _NUM,
    "better": _OPT_STR,
    "better_cells": list,
    "hand": str,
    "cards": list,
    "advantage": _NUM,
}
TURN = {"ply": int, "swing": _NUM, "towards": str}


def check_schema(got):
    """What in a review's dict breaks the schema: [] when nothing."""
    bad = []

    def need(obj, spec, where):
        if not isinstance(obj, dict):
            bad.append("%s: not an object" % where)
            return
        for k, t in spec.items():
            if k not in obj:
                bad.append("%s: no %s" % (where, k))
            elif not isinstance(obj[k], t) or isinstance(obj[k], bool):
                bad.append("%s.%s: %r" % (where, k, obj[k]))

    need(got, TOP, "review")
    if bad:
        return bad
    for i, m in enumerate(got["moves"]):
        need(m, MOVE, "moves[%d]" % i)
        if isinstance(m, dict) and m.get("grade") in GRADES_ALL and got["mode"] != "junior":
            need(m, GRADED, "moves[%d]" % i)
        if isinstance(m, dict) and m.get("grade") is not None and m.get("grade") not in GRADES_ALL:
            bad.append("moves[%d].grade: %r" % (i, m["grade"]))
    for i, t in enumerate(got["turning_points"]):
        need(t, TURN, "turning_points[%d]" % i)
    for k, v in got["accuracy"].items():
        if not isinstance(v, _NUM) or not 0 <= v <= 100:
            bad.append("accuracy.%s: %r" % (k, v))
    return bad


GRADES_ALL = tuple(g for g, _t in GRADES) + ("missed", "in-time")

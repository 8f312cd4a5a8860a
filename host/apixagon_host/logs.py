"""`apixagon logs pull|list|show|export|render` and `apixagon status`,
`ports`: the board's matches on the PC (`monitor` is monitor.py)."""

import os
import sys
import time

from apixagon import record
from apixagon.game import Game

from . import link as L
from .errors import EXIT_FAILED, EXIT_USAGE, CommandError
from .i18n import N_, _, ngettext
from .progress import Progress
from .store import Store, apx_lines, as_json, default_path, record_tags, tag_pairs
from .termtext import clean, clean_lines

CHUNK = 2048  # smartboard.proto.MAX_CHUNK
BATCH = 32  # a long log's chunks between database commits (64 KB): a pull is resumable


class Bytes(Progress):
    """The bar of a download: percent, KB and KB/s (link.fetch_many calls
    it with each chunk's length)."""

    def __init__(self, total, label, force=False):
        Progress.__init__(self, total, force)
        self.label = label

    def __call__(self, n):
        if self.add(n):
            kb = self.done / 1024
            tail = "%3d%% %7.1f KB %6.0f KB/s" % (
                100 * self.done // self.total,
                kb,
                kb / self.seconds(),
            )
            self.draw("%-14s" % self.label, tail)


def _store(args, write=False):
    """The match database; only `logs pull` writes (and makes a new one).
    The read commands open it read-only: None when the user's default
    database is not there yet (nothing pulled: nothing stored)."""
    path = getattr(args, "db", None)
    try:
        return Store(path, write)
    except FileNotFoundError:
        if path is None:
            return None
        raise CommandError(
            _("no match database at %(path)s (apixagon logs pull --db %(path)s makes one)")
            % {"path": path},
            EXIT_USAGE,
        )


OVERLAP = 8  # stored bytes asked for again: the last record's link and CRC


def pull(state, args):
    """Download what is new on the board into the database. Idempotent (a
    log stored whole is not fetched again) and resumable (chunks are stored
    as they come, a later pull asks only for the bytes after them). A log
    that does not verify is reported and left on the board, unmarked, so
    it is never deleted; the others are still pulled (exit 1 at the end).
    A stored log is only ever extended by bytes that continue it: the
    fetch starts OVERLAP bytes back and those must match (the hash chain
    makes its last record's link stand for all before it). A board whose
    flash was wiped numbers its matches from 0001 again: the match stored
    under that name is then kept as NAME~1 and the board's is stored anew.
    --delete: each log stored whole is deleted from the board."""
    with _store(args, write=True) as store:
        return _pull(state, args, store)


def _pull(state, args, store):
    bad = {}  # name -> why it was not stored
    with L.connect(args.port) as link:
        board = link.info.get("id", "?")
        logs = link.logs()
        todo = []  # (name, size, board state, bytes we have)
        mark = []  # complete and stored, the board not told yet
        for name, size, bstate in logs:
            row = store.get(board, name)
            have = row[1] if row else b""
            if _stored_whole(row, size):
                if bstate != "pulled":
                    mark.append(name)
                continue
            if size < len(have):
                _retire(state, store, board, name)  # shorter: another match
                have = b""
            todo.append((name, size, bstate, have))
        bar = Bytes(
            sum(size - _start(have) for _, size, _, have in todo),
            _("pulling"),
            getattr(args, "progress", False),
        )
        done = set()  # stored whole by this pull
        try:
            foreign = _fetch(link, store, board, todo, bar, bad, done)
            for name, size, bstate, have in todo:
                if name in foreign and name not in bad:
                    _retire(state, store, board, name)
                    _fetch(link, store, board, [(name, size, bstate, b"")], bar, bad, done)
        except L.BoardError as e:
            # (a full disk says so itself): what came whole is stored, the
            # board keeps every log, none is marked.
            raise L.BoardError(
                _(
                    "%s; what was stored before is kept, the board keeps its logs: "
                    "pull again to go on"
                )
                % e,
                e.code,
            ) from None
        finally:
            bar.end()
        for name, size, bstate, have in todo:
            if name in done and name not in bad and bstate != "pulled":
                mark.append(name)
        link.mark_pulled(mark)  # the board may now delete them
        deleted = _delete(link, store, board) if getattr(args, "delete", False) else None
    new = len(todo) - len(bad)
    said = ngettext(
        "%(n)d log pulled from %(board)s, %(same)d up to date",
        "%(n)d logs pulled from %(board)s, %(same)d up to date",
        new,
    ) % {"n": new, "board": board, "same": len(logs) - len(todo)}
    if deleted is not None:
        said += _(", %d deleted from the board") % deleted
    state.out.write(said + "\n")
    if bad:
        for name in sorted(bad):
            sys.stderr.write(
                "apixagon: %s\n" % (_("%s: not stored, kept on the board") % bad[name])
            )
        raise CommandError(
            ngettext(
                "%d log did not verify (see above)", "%d logs did not verify (see above)", len(bad)
            )
            % len(bad),
            EXIT_FAILED,
        )
    return 0


def _stored_whole(row, size):
    """A stored row (Store.get) holds the board's log of `size` bytes whole,
    its match finished."""
    return row is not None and row[2] and len(row[1]) == size


def _start(have):
    return len(have) - OVERLAP if len(have) > OVERLAP else 0


def _fetch(link, store, board, todo, bar, bad, done):
    """Fetch and store the logs of todo, their chunks asked for across files
    in one pipelined download; a log is stored once it is whole, and a long
    one every BATCH chunks, as its chunks come (an interrupted pull goes on
    from there). The names stored whole, finished, go into done (to be
    marked PULLED at once: the database is not read again for them). The
    set of names whose board bytes do not continue what was stored."""
    data = {name: bytearray(have[: _start(have)]) for name, _, _, have in todo}
    kept = {name: have for name, _, _, have in todo}
    ends = {name: size for name, size, _, _ in todo}
    early = {name: {} for name in data}  # chunks come ahead of one asked again
    fresh = dict.fromkeys(data, 0)  # chunks since the log was last stored
    reqs = []
    for name, size, _st, have in todo:
        for off in range(_start(have), size, CHUNK):
            reqs.append((name, off, min(CHUNK, size - off)))
    # finished logs asked for from their start: whole (a range of numbers)
    whole = {name: size for name, size, st, have in todo if st != "play" and not _start(have)}
    foreign = set()

    def took(r, chunk):
        name = r[0]
        d = data[name]
        e = early[name]
        e[r[1]] = chunk
        while len(d) in e:
            d += e.pop(len(d))
            fresh[name] += 1
        if fresh[name] and (len(d) >= ends[name] or fresh[name] >= BATCH):
            fresh[name] = 0
            keep(name)

    def keep(name):
        have = kept[name]
        if name in bad or name in foreign:
            return
        if len(data[name]) >= len(have) and data[name][: len(have)] != have:
            foreign.add(name)  # not a continuation: nothing of it stored
            return
        try:
            _kept, complete, n = store.put(board, name, data[name])
        except ValueError as e:
            bad[name] = str(e)
            return
        if complete and n == ends[name]:
            done.add(name)

    if reqs:
        link.fetch_many(reqs, progress=bar, whole=whole, took=took)
    return foreign


def _retire(state, store, board, name):
    kept = store.retire(board, name)
    state.out.write(
        _(
            "%(name)s on the board is another match than the one stored under that name "
            "(the board's flash was wiped?): the stored one is kept as %(kept)s"
        )
        % {"name": name, "kept": kept}
        + "\n"
    )


def _delete(link, store, board):
    """DEL every log on the board that is stored whole (the board refuses
    a log in play or not marked pulled: those stay)."""
    n = 0
    for name, size, bstate in link.logs():
        if bstate == "pulled" and _stored_whole(store.get(board, name), size):
            link.request("DEL", name)
            n += 1
    return n


def list_(state, args):
    store = _store(args)
    rows, tags = [], {}
    if store is not None:
        with store:
            rows = store.list()
            tags = {r[0]: store.tags(r[0]) for r in rows}
    if not rows:
        state.out.write(_("no matches stored yet (apixagon logs pull)") + "\n")
        return 0
    row = "%4s  %-14s %-10s %-16s %5s  %-8s %-22s %s"
    state.out.write(
        row
        % (
            _("id"),
            _("board"),
            _("log"),
            _("date"),
            _("moves"),
            _("state"),
            _("players"),
            _("result"),
        )
    )
    state.out.write("\n")
    # A table for a person: what the database holds is shown, never acted on.
    for mid, board, name, moves, complete, result, at, size, date in rows:
        text = row % (
            mid,
            clean(board),
            clean(name),
            clean(date),
            moves,
            _("done") if complete else _("in play"),
            clean(players(tags[mid])) or "-",
            clean(str(result or "")),
        )
        state.out.write(text.rstrip() + "\n")
    return 0


# NOTATION.md tag pairs naming the players: the sides of a 2-player match,
# the teams of a team game (`logs tag ID Black=Anna Gold=Ben`).
PLAYER_TAGS = (("Black", "Gold"), ("A", "B"))


def players(tags):
    """ "Anna v Ben" from a match's player tags, "" when none is named."""
    for one, two in PLAYER_TAGS:
        if one in tags or two in tags:
            return _("%(one)s v %(two)s") % {"one": tags.get(one, "?"), "two": tags.get(two, "?")}
    return ""


def _load(args, more=False):
    """(board, name, Lines, verdict) of the match args.id; more: then its
    date and tags too."""
    store = _store(args)
    if store is None:
        raise CommandError(
            _("no stored match with id %s: nothing pulled yet (apixagon logs pull)") % args.id
        )
    with store:
        try:
            got = store.load(args.id)
            return got + (store.date(args.id), store.tags(args.id)) if more else got
        except KeyError:
            raise CommandError(_("no stored match with id %s (see apixagon logs list)") % args.id)


def show(state, args):
    """The record for a person: always cleaned of control characters (a
    hostile board's log may hold escape sequences)."""
    board, name, lines, verdict, date, tags = _load(args, more=True)
    from smartboard.logstore import records

    named = dict(record_tags(board, name, lines))["Board"]  # as the log names it
    where = board if named == board else "%s (%s)" % (named, board)
    state.out.write(
        _("match %(id)d: %(log)s on %(board)s, %(date)s (%(verdict)s)")
        % {
            "id": args.id,
            "log": clean(name),
            "board": clean(where),
            "date": clean(date),
            "verdict": records.verdict_name(verdict),
        }
        + "\n"
    )
    for line in apx_lines(board, name, lines, date, tags):
        state.out.write(clean(line) + "\n")
    return 0


def export(state, args):
    """The record as the log holds it, to a file or a pipe (JSON escapes
    control characters itself); on a terminal, cleaned as `show` is."""
    fmt = export_format(args.format, args.output)
    board, name, lines, verdict, date, tags = _load(args, more=True)
    if fmt == "json":
        text = as_json(args.id, board, name, lines, verdict, date, tags) + "\n"
    else:
        text = "\n".join(apx_lines(board, name, lines, date, tags)) + "\n"
    if args.output and args.output != "-":
        from . import outfile

        outfile.write_atomic(args.output, text.encode())  # whole or not at all
        state.out.write(_("wrote %s") % args.output + "\n")
    elif _isatty(state.out):
        state.out.write(clean_lines(text))
    else:
        state.out.write(text)
    return 0


FORMATS = {".apx": "apx", ".json": "json"}


def export_format(given, output):
    """The format of an export: --format, else the output file's extension
    (else apx); a --format the extension contradicts is a usage error."""
    ext = os.path.splitext(output or "")[1].lower() if output != "-" else ""
    said = FORMATS.get(ext)
    if given and said and given != said:
        raise CommandError(
            _("--format %(format)s but %(file)s ends in %(ext)s: give one or make them agree")
            % {"format": given, "file": output, "ext": ext},
            EXIT_USAGE,
        )
    return given or said or "apx"


def tag(state, args):
    """`logs tag ID Name=value ...`: set (or with `Name=` remove) a stored
    match's tag pairs (NOTATION.md): players, event. All or nothing."""
    try:
        tags = tag_pairs(args.tags)
    except ValueError as e:
        raise CommandError(str(e), EXIT_USAGE) from None
    path = getattr(args, "db", None) or default_path()
    if not os.path.isfile(path):  # (a writer would make an empty database)
        _load(args)  # the error a read gives: a mistyped --db, nothing pulled
    with Store(args.db, True) as store:
        try:
            store.set_tags(args.id, tags)
        except ValueError as e:
            raise CommandError(_("%s; nothing changed") % e, EXIT_USAGE) from None
        except KeyError:
            raise CommandError(_("no stored match with id %s (see apixagon logs list)") % args.id)
        now = store.tags(args.id)
    tags = "  ".join('%s="%s"' % kv for kv in now.items()) if now else _("no tags")
    state.out.write(_("match %(id)d: %(tags)s") % {"id": args.id, "tags": tags} + "\n")
    return 0


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def stopped_at(lines, ply):
    """How the match was stopped at its last position if the rules did not
    end it (the log's end: "abandoned"); None elsewhere. Drawn as "Gold to
    play" it read as a match still going."""
    if lines.result == "abandoned" and ply >= len(lines.moves):
        return "abandoned"
    return None


def game_at(lines, ply):
    """The game after `ply` moves of a stored match (all if None)."""
    moves = lines.moves if ply is None else lines.moves[:ply]
    if ply is not None and not 0 <= ply <= len(lines.moves):
        raise CommandError(
            _("ply %(ply)d out of range: the match has %(moves)d moves")
            % {"ply": ply, "moves": len(lines.moves)}
        )
    game, verdicts = record.check(lines.header + moves, Game)
    return game


# STATUS hw= names (docs/protocol.md), in words
PARTS = {
    "reader1": N_("cell reader 1"),
    "reader2": N_("cell reader 2"),
    "reader3": N_("cell reader 3"),
    "reader4": N_("cell reader 4"),
    "pad": N_("the action pad's reader"),
    "strip": N_("the LED strip"),
    "cells": N_("the cell scanner"),
}


# STATUS's fields as a reader sees them (docs/protocol.md, STATUS): the
# English is the board's own key
STATUS_LABELS = {
    "clock": N_("clock"),
    "display": N_("display"),
    "faults": N_("faults"),
    "free": N_("free"),
    "heap": N_("heap"),
    "hw": N_("hw"),
    "log": N_("log"),
    "logs": N_("logs"),
    "low": N_("low"),
    "mode": N_("mode"),
    "option": N_("option"),
    "phase": N_("phase"),
    "room": N_("room"),
    "sides": N_("sides"),
    "start": N_("start"),
    "unpulled": N_("unpulled"),
    "watch": N_("watch"),
    "winner": N_("winner"),
    "turn": N_("turn"),
    "moves": N_("moves"),
    "players": N_("players"),
    "computer": N_("computer"),
    "level": N_("level"),
    "end": N_("end"),
    "runs": N_("runs"),
    "last": N_("last"),
    "ply": N_("ply"),
    "to_play": N_("to_play"),
    "want": N_("want"),
}
# the words of the fields above whose values are a few names
STATUS_VALUES = {
    "black": N_("black"),
    "gold": N_("gold"),
    "none": N_("none"),
    "hint": N_("hint"),
    "adult": N_("adult"),
    "card_query": N_("card query"),
    "setup": N_("setup"),
    "play": N_("play"),
    "over": N_("over"),
    "resume": N_("resume"),
}


def status_width():
    """The label column of STATUS's lines in the language in use (the
    companion's own lines under them line up with it)."""
    return max([9] + [len(_(x)) for x in STATUS_LABELS.values()])


def status(state, args):
    with L.connect(args.port) as link:
        info = link.info
        st = link.status()
    head = _(
        "board %(id)s (%(board)s), firmware %(fw)s, protocol %(proto)s, profile %(profile)s"
    ) % {k: info.get(k) for k in ("id", "board", "fw", "proto", "profile")}
    lines = [head]
    labels = {k: _(STATUS_LABELS[k]) if k in STATUS_LABELS else k for k in st}
    width = max([status_width()] + [len(x) for x in labels.values()])
    for k in sorted(st):
        v = status_value(k, st[k])
        if k == "free" and info.get("board") == SIMULATOR:
            v += " " + _("(of a simulated Pico's 1408 KB filesystem)")
        lines.append("  %s %s" % (labels[k].ljust(width), v))
    lines += [_("warning: %s") % w for w in warnings(st)]
    state.out.write("".join(clean(x) + "\n" for x in lines))
    return 0


def selftest(state, args):
    """The board's first-boot self-test (docs/firmware/index.md): run it
    again (SELFTEST), or print the last run's report (SELFTEST last)."""
    with L.connect(args.port) as link:
        if args.last:
            rep = link.request("SELFTEST", "last")
        else:
            link.request("SELFTEST")
            rep = None
    if rep is None:
        state.out.write(
            _(
                "the board runs its self-test: follow it on its LEDs and buttons; "
                "`apixagon selftest --last` prints the report"
            )
            + "\n"
        )
        return 0
    head, _sep, words = rep.partition(" : ")
    fields = head.split()
    lines = [_("self-test: %s") % fields[0]] if fields else []
    lines += ["  %-8s %s" % tuple(f.split("=", 1)) for f in fields[1:] if "=" in f]
    lines += ["  " + w for w in words.split("; ") if w]
    state.out.write("".join(clean(x) + "\n" for x in lines))
    return 0 if not fields or fields[0] != "fail" else 1


SIMULATOR = "APIXAGON_simulator"  # HELLO board= of smartboard.sim.serial_main
CLOCK_SET = 1577836800  # 2020-01-01: a board clock before it was never set


def status_value(key, value):
    """A STATUS field in words: spaces for the `_` of a value that holds
    them (display=card_query, last=B_28_C4), the clock as a local date and
    time, bytes in KB/MB (docs/protocol.md, STATUS)."""
    if key in ("display", "start", "option", "phase") and value in STATUS_VALUES:
        return _(STATUS_VALUES[value])
    if key in ("display", "last"):
        return value.replace("_", " ")
    if key == "clock" and value.isdigit():
        t = int(value)
        if t < CLOCK_SET:
            return _("not set (%s s since the board started)") % value
        try:
            return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))
        except (OverflowError, OSError, ValueError):
            return value
    if key == "free" and value == "-1":
        return _("unknown (the board cannot tell)")
    if key in ("free", "heap") and value.isdigit():
        return size_text(int(value))
    return value


def size_text(n):
    """Bytes for a person: 512 bytes, 12.5 KB, 1.4 MB."""
    if n < 1024:
        return ngettext("%d byte", "%d bytes", n) % n
    if n < 1024 * 1024:
        return "%.1f KB" % (n / 1024)
    return "%.1f MB" % (n / (1024 * 1024))


def warnings(st):
    """What STATUS says that a player should act on, in words."""
    out = []
    if st.get("phase") == "safe":
        out.append(
            _(
                "the board runs in safe mode (%s): its matches can be pulled; "
                "REBOOT it, or power it without MODE held, to play"
            )
            % st.get("error", "?").replace("_", " ")
        )
    if st.get("low") == "1":
        out.append(_("the board's storage is low: pull the matches"))
    from . import words

    out += words.storage_notes(st)
    hw = st.get("hw", "ok")
    if hw != "ok":
        parts = [_(PARTS[p]) if p in PARTS else p for p in hw.split(",") if p]
        out.append(
            ngettext(
                "a part of the board does not work: %s (it plays on with the rest)",
                "parts of the board do not work: %s (it plays on with the rest)",
                len(parts),
            )
            % ", ".join(parts)
        )
    faults = st.get("faults", "0")
    if faults.isdigit() and int(faults):
        n = int(faults)
        out.append(
            ngettext(
                "the board's main loop caught %d error since it started (it went on)",
                "the board's main loop caught %d errors since it started (it went on)",
                n,
            )
            % n
        )
    return out


def ports(state, args):
    found = 0
    for dev in L.candidate_ports():
        try:
            with L.Link(dev, 1.0) as link:
                info = link.hello()
            state.out.write(
                "%s  %s %s fw %s\n" % (dev, info.get("board"), info.get("id"), info.get("fw"))
            )
            found += 1
        except L.PortBusy:
            state.out.write(
                "%s  %s\n" % (dev, _("busy: another program (apixagon monitor?) is reading it"))
            )
        except CommandError:
            continue
    if not found:
        state.out.write(_("no APIXAGON board found on USB") + "\n")
        return L.EXIT_NO_BOARD
    return 0


def render(state, args):
    """Draw a stored match after --ply moves as SVG or PNG (the extension
    of --output says which). Checks the arguments before any work and
    writes the file whole or not at all."""
    out = args.output
    ext = os.path.splitext(out)[1].lower() if out else ".svg"
    if ext not in (".svg", ".png"):
        raise CommandError(_("--output must end in .svg or .png: %s") % out, EXIT_USAGE)
    if args.size is not None and not 64 <= args.size <= 8192:
        raise CommandError(_("--size must be 64..8192 pixels, not %d") % args.size, EXIT_USAGE)
    from . import outfile
    from . import render as R

    board, name, lines, verdict = _load(args)
    game = game_at(lines, args.ply)
    ply = len(lines.moves) if args.ply is None else args.ply
    # (an SVG title with a control character would not even be valid XML)
    title = clean(
        _("%(board)s \u00b7 %(log)s \u00b7 move %(ply)d of %(moves)d")
        % {"board": board, "log": name, "ply": ply, "moves": len(lines.moves)}
    )
    svg = R.render_svg(
        game,
        title=title,
        size=args.size,
        coordinates=not args.no_coords,
        stopped=stopped_at(lines, ply),
    )
    out = out or "match-%d-%d.svg" % (args.id, ply)
    if ext == ".png":
        try:
            data = R.svg_to_png(svg)
        except R.PngUnavailable as e:
            raise CommandError(
                _(
                    "PNG output needs CairoSVG and the cairo library (%s): "
                    "pip install 'apixagon[png]' (or pip install cairosvg) and the system's "
                    "cairo (e.g. apt install libcairo2); SVG output (-o FILE.svg) works "
                    "without them. Nothing written."
                )
                % e,
                EXIT_FAILED,
            )
    else:
        data = svg.encode("utf-8")
    outfile.write_atomic(out, data)
    state.out.write(_("wrote %s") % out + "\n")
    return 0


def replay(state, args):
    """Step through a stored match on the terminal board: with keys on a
    terminal (stepper.py), every position in turn on a pipe or with
    --delay (a pause between them)."""
    from .play import render as draw
    from .play import status_line

    delay = args.delay
    if delay is not None and not 0 <= delay <= 3600:  # (NaN too) sleep() takes no negative time
        raise CommandError(_("--delay must be 0..3600 seconds, not %s") % delay, EXIT_USAGE)
    board, name, lines, verdict = _load(args)
    fd = _fileno(state.inp)
    if delay is None and fd is not None and _isatty(state.out) and os.isatty(fd):
        return _step(state, args, board, name, lines, fd)
    for ply in range(len(lines.moves) + 1):
        game = game_at(lines, ply)
        state.out.write(
            "\n%s  %s\n" % (clean(lines.moves[ply - 1]) if ply else _("start"), status_line(game))
        )
        state.out.write(draw(game) + "\n")
        if delay:
            time.sleep(delay)
    if lines.result:
        state.out.write("\n" + _("result: %s") % clean(lines.result) + "\n")
    return 0


def _fileno(stream):
    try:
        return stream.fileno()
    except (AttributeError, ValueError, OSError):
        return None  # a test's StringIO


def _step(state, args, board, name, lines, fd):
    from . import stepper
    from .play import render as draw
    from .play import status_line

    n = len(lines.moves)
    games = {}

    def frame(ply, st):
        if ply not in games:
            games[ply] = game_at(lines, ply)
        game = games[ply]
        if ply:
            move = _("move %(ply)d of %(moves)d: %(move)s") % {
                "ply": ply,
                "moves": n,
                "move": lines.moves[ply - 1],
            }
        else:
            move = ngettext("start (%d move)", "start (%d moves)", n) % n
        head = _("match %(id)d: %(log)s on %(board)s") % {
            "id": args.id,
            "log": name,
            "board": board,
        }
        out = [clean("%s \u00b7 %s" % (head, move)), ""]
        out += draw(game).split("\n")
        out += ["", status_line(game)]
        if ply == n and lines.result:
            out.append(clean(_("result: %s") % lines.result))
        out.append("")
        if st.typing is not None:
            out.append(_("go to move: %s_   (Enter: go, Esc: cancel)") % st.typing)
        else:
            out.append(st.message)
        out.append(_(stepper.KEYS))
        return out

    stepper.run(state.out, fd, frame, n)
    return 0

"""Match logs the emulated board boots from (the resume and pull parts):
written by the firmware's own writer on the PC, and what the board
shows once a resumed match is on the table again."""

import os
import random
import shutil

import emuboard

from bench.emulated import RECORD, ROOT, SEED, read

TAKEBACK_LOG_RECORDS = 100  # "boot + resume of a 100-move match log <= 3 s"

# `logs pull`: an archive of long 2-player matches with take-backs (about
# 7 KB each: several GETs a log) and finished 6-player matches (1.4 KB:
# one GET a log), the long ones oldest (the newest log is finished: no
# resume at boot).
PULL_LONG = (4, 300)  # logs, move records each

PULL_SHORT = 32


def write_log(rev, play, tmp):
    """(name, bytes, game) of a match log written by the firmware's own
    smartboard.logstore.writer (CPython, files in tmp) while play(game, log)
    plays it; the board's tags in its header."""
    from smartboard.logstore import writer

    root = os.path.join(tmp, "logs")
    shutil.rmtree(root, ignore_errors=True)
    log = writer.MatchLog(root, (("Board", emuboard.pins_of(rev)["NAME"]),))
    g = play(log)
    name = log.current()
    return name, read(os.path.join(root, name)), g


def scripted_log(rev, tmp):
    """The scripted 6-player game, unfinished: every move but those that
    end it."""
    from apixagon import record
    from apixagon.game import Game

    def play(log):
        with open(RECORD) as f:
            g, verdicts = record.check(f, Game)
        while g.over():
            g.undo()
        log.begin(g)
        log.flush_all()
        return g

    return write_log(rev, play, tmp)


def random_move(g, rnd):
    """A legal placement (card, cell) for the side to play that does not
    end the match, or None."""
    from apixagon.geometry import NCELLS, NONE

    t = g.side_to_play()
    cards = [c for c in range(31) if g.where(t, c) == NONE]
    rnd.shuffle(cards)
    cells = list(range(NCELLS))
    rnd.shuffle(cells)
    for c in cards:
        for x in cells:
            if g.check_place(t, c, x) == 0:
                g.place(t, c, x)
                over = g.over()
                g.undo()
                if not over:
                    return c, x
    return None


def takeback_log(rev, tmp, records=TAKEBACK_LOG_RECORDS):
    """A long 2-player match (queens-gambit) of random legal placements
    with take-backs: `records` move records on the log (a move taken back
    is its M and a U), written as the board writes them, a record per
    move. Unfinished: where no move is left that does not end the match,
    the last one is taken back."""

    from apixagon.game import Game

    def play(log):
        rnd = random.Random(SEED)
        g = Game()
        log.begin(g)
        log.flush_all()
        moves = 0
        while moves < records:
            m = random_move(g, rnd)
            if m is not None:
                g.place(g.side_to_play(), m[0], m[1])
                log.sync(g)
                log.flush_all()
                moves += 1
            if m is None or moves < records and rnd.random() < 0.3 and g.nmoves() > 2:
                g.undo()  # taken back (and where no move is left that goes on)
                log.sync(g)
                log.flush_all()
        return g

    return write_log(rev, play, tmp)


def finished_log(rev, tmp):
    """The scripted 6-player game played to its end."""
    from apixagon import record
    from apixagon.game import Game

    def play(log):
        with open(RECORD) as f:
            g, verdicts = record.check(f, Game)
        log.begin(g)
        log.flush_all()
        return g

    return write_log(rev, play, tmp)


def pull_archive(rev, tmp):
    """[(name, bytes)] of the `logs pull` benchmark's archive."""
    n_long, records = PULL_LONG
    out = []
    data = takeback_log(rev, tmp, records)[1]
    for i in range(n_long):
        out.append(("%04d.alog" % (len(out) + 1), data))
    data = finished_log(rev, tmp)[1]
    for i in range(PULL_SHORT):
        out.append(("%04d.alog" % (len(out) + 1), data))
    return out


def log_lines(data):
    from smartboard.logstore import records

    lines = records.Lines()
    records.read_log(data, lines)
    return lines


def log_records(data):
    """{record type letter: how many} in a log ("M" moves, "U" take-backs)."""
    from smartboard.logstore import records

    out = {}

    def count(kind, payload):
        out[chr(kind)] = out.get(chr(kind), 0) + 1

    records.read_log(data, count)
    return out


def cards_of(game):
    """{cell: tag code} of the cards on the game's board."""
    from apixagon.geometry import NCELLS
    from smartboard import referee

    return {x: referee._code_of(game.board[x]) - 1 for x in range(NCELLS) if game.board[x]}


def match_frames(profile, lines, tmp):
    """The frames the strip can show once a resumed match is on the table
    again (the match screen, one per blink phase): the same log resumed on
    the CPython simulator with the cards found, painted by the real View
    and Painter."""
    from smartboard import board as B
    from smartboard import scan
    from smartboard.sim.rig import Rig
    from smartboard.sim.strip import phase_frames

    settings = os.path.join(tmp, "twin-settings.bin")
    for f in (settings, settings + ".deck"):
        if os.path.exists(f):
            os.remove(f)
    from smartboard.sim.supply import sim_supply

    # the emulated board's USB source, as its CC reading's twin: the same LED limit
    rev = "rev_a" if profile == "A" else "rev_b"
    supply = sim_supply(emuboard.wiring_of(rev), emuboard.CC_DEFAULT)
    rig = Rig(profile, settings, os.path.join(ROOT, "hardware", "layout.json"), supply=supply)
    b = rig.board
    if not b.resume(list(lines)):
        raise RuntimeError("the log does not resume on the simulator")
    for x in range(len(b.sensed)):
        w = b.want[x]
        b.sensed[x] = (scan.OCCUPIED if w else 0) if profile == "B" else w
    b._check_resume()
    if b.phase not in (B.PLAY, B.OVER):
        raise RuntimeError("the simulator did not leave the resume")
    lay = rig.layout
    p = b.hw.painter
    return set(phase_frames(b.view.layer, lay.led, lay.nleds, p.brightness, supply.led_budget_ma()))

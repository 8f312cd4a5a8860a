"""`make soak`: the link fuzz and power cuts at length, on the simulated
board (the firmware .mpy in the MicroPython unix port on a pseudo-terminal,
tools/devboard.py, its flash a folder).

    python tools/soak.py [--frames 100000] [--cuts 1000] [--seed N]

Rounds of: fuzzed frames (tests/fuzzkit.py through tests/e2e/fuzzwire.py:
every frame its one reply, faults=0, no traceback, no restart, every log
byte kept but by a DEL answered OK), then the scripted 6-player match
played from hands over the link (PLAY, HAND) up to a random move, and the
power cut (SIGKILL) at a random moment: while the match is being played
and written, just after a card was put down where the log has none, in
the middle of a burst of fuzzed frames, or idle. With the power held off,
every log on flash reads OK or TORN, never CORRUPT or BROKEN; after the
boot every complete record that was on flash at the cut is still there
byte for byte (no acknowledged record lost), the board resumes at the
logged position and the cards are put right as its LEDs ask
(tests/e2e/test_power_cuts.py), and play goes on. A fuzzed DECLARE the
rules take is a real move: the log must hold it where the board said (or,
sent just before a cut, may hold it); a match it took off the script is
abandoned and the board cleared, and its log checked as the script's
moves with those declarations between them. Prints its counts and exits 1
on any failure."""

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for d in ("tools", "tests/e2e", "tests"):
    sys.path.insert(0, os.path.join(ROOT, d))

import devboard  # noqa: E402
import fuzzkit  # noqa: E402
import test_power_cuts as pc  # noqa: E402
from apixagon.geometry import NCELLS, cell_name  # noqa: E402
from apixagon_host import link as L  # noqa: E402
from fuzzwire import FuzzWire  # noqa: E402
from smartboard import tag  # noqa: E402
from smartboard.logstore import records  # noqa: E402

BATCH = 50
SEATS = [s + str(i) for s in "AB" for i in (1, 2, 3)]  # the scripted match's (beehive)


class Soak:
    def __init__(self, board, seed, frames, cuts):
        self.board = board
        self.rnd = random.Random(seed)
        self.frames = frames
        self.cuts = cuts
        self.n = {
            "frames": 0,
            "replies": 0,
            "crashes": 0,
            "cuts": 0,
            "cuts mid-play": 0,
            "cuts mid-fuzz": 0,
            "cuts after a stray card": 0,
            "cuts idle": 0,
            "boots": 0,
            "records checked": 0,
            "lost": 0,
            "torn": 0,
            "resumed": 0,
            "matches": 0,
            "deleted in flight": 0,
            "declared": 0,
            "off the script": 0,
        }
        self.stats = {"cuts": 0, "resumed": 0, "lifted": 0, "put back": 0, "strays": 0, "torn": 0}
        self.kept = {}  # log name: its complete records' bytes at the last cut
        self.link = pc.connect(board)
        self.wire = FuzzWire(board, seed, hands=False, link=self.link)
        self.table = pc.Table()
        self.in_flight = ()  # logs a DEL sent just before a cut names
        self.declaring = set()  # record lines a DECLARE sent just before a cut may have made
        self.off_script = {}  # log name: the fuzz's declarations that took its match off the script

    def run(self):
        per_round = max(1, self.frames // max(1, self.cuts))
        t0 = time.monotonic()
        for i in range(self.cuts):
            self.fuzz(per_round * (i + 1))
            self.play_and_cut(i)
            if i % 50 == 49:
                self.progress(i + 1, t0)
        self.fuzz(self.frames)
        self.finish()
        return self.n

    def progress(self, i, t0):
        n = self.n
        print(
            "  %d cuts, %d frames, %d records checked, %d lost, %.0f s"
            % (i, n["frames"], n["records checked"], n["lost"], time.monotonic() - t0),
            flush=True,
        )

    # ---- fuzzed frames ---------------------------------------------------------
    def fuzz(self, upto):
        w = self.wire
        while w.frames < upto:
            reboots = w.reboots
            rp = w.batch(min(BATCH, max(1, upto - w.frames)))
            self.n["declared"] += len(rp.declared)
            extra = set(line for _, line in rp.declared)
            if w.reboots != reboots:
                # The board reset (a REBOOT among the frames): a board's
                # cards stay on the table, the simulator's went with its
                # process. They go back as the LEDs ask, as after a cut.
                self.table = pc.Table()
                pc.resume(
                    self.link,
                    pc.logs_on_flash(self.board),
                    self.rnd,
                    self.table,
                    {"resumed": 0, "lifted": 0, "put back": 0},
                    None,
                    extra,
                )
            self.follow(rp.declared, extra)
        self.n["frames"] = w.frames
        self.n["replies"] = w.replies

    # ---- a match played, the power cut ----------------------------------------------
    def play_and_cut(self, i):
        link = self.link
        rnd = self.rnd
        self.clear_play_record(link)
        st = link.status()
        if st["phase"] == "over":
            # back to set-up, the board cleared: the cards a PLAY put down
            # too (a fuzzed deck-empty may have ended the match)
            pc.hand(link, "press", "confirm")
            self.clear_board(link)
            st = link.status()
        done = pc.match_moves(st)
        stray = None
        k = rnd.random()
        if k < 0.15 and done < len(pc.MOVES) - 1:
            # a card down where the log has none (of the side not to play)
            upto = min(len(pc.MOVES) - 1, done + rnd.randrange(1, 8))
            pc.play_upto(link, upto)
            on = pc.table_after(upto)
            side = 1 - int(link.status()["turn"])
            free = [x for x in range(NCELLS) if x not in on]
            spare = [c for c in range(31) if tag.code(side, tag.NORMAL, c) not in on.values()]
            stray = (rnd.choice(free), tag.code(side, tag.NORMAL, rnd.choice(spare)))
            pc.hand(link, "put", cell_name(stray[0]), stray[1])
            self.stats["strays"] += 1
            self.n["cuts after a stray card"] += 1
            time.sleep(rnd.uniform(0, 0.02))
        elif k < 0.35:
            # a burst of fuzzed frames in flight, a match in play
            if done < len(pc.MOVES) - 1:
                pc.play_upto(link, rnd.randrange(done, len(pc.MOVES)))
            items = self.wire.burst(rnd.randrange(5, BATCH))
            self.in_flight = set(
                it.name for it in items if it.verb == "DEL" and it.want[0][1] & fuzzkit.OK
            )
            self.declaring = self.in_flight_lines(items)
            self.n["cuts mid-fuzz"] += 1
            time.sleep(rnd.uniform(0, 0.03))
        elif k < 0.45:
            self.n["cuts idle"] += 1  # (after the fuzz's last batch)
        else:
            # played from hands, then on without waiting: the power goes a
            # few moves later, now and then after the end
            upto = rnd.randrange(done, len(pc.MOVES))
            if upto > done:
                pc.play_upto(link, upto)
            pc.send_play(link, wait=False)
            self.n["cuts mid-play"] += 1
            time.sleep(rnd.uniform(0, 0.02 if rnd.random() < 0.85 else pc.GAME_S))
        self.cut(stray)

    # ---- the fuzz's declarations ----------------------------------------------------
    def follow(self, declared, extra):
        """After fuzzed frames: declared, the (moves, line) of each DECLARE
        the board took; extra, every line the fuzz may have declared. The
        log holds what the board answered; a match those lines took off the
        script (a deck-empty of the wrong side, a forced removal) cannot be
        played on by it: abandoned, the board cleared."""
        if not extra:
            return
        link = self.link
        link.logs()  # LOGS writes what is queued first
        logs = self.wire.logs()  # (the board running: it may pack a log as it is read)
        # the newest log made is the match's (numbers are never given twice)
        name = max(set(logs) | self.wire.deleted, default=None)
        if name not in logs:
            # none yet (a DECLARE was refused, ERR 8), or the match ended (a
            # deck-empty counts) and its log went by a DEL answered OK: the
            # round's set-up clears the board
            return
        lines = records.Lines()
        records.read_log(logs[name], lines)
        moves = lines.moves
        for n, line in declared:
            why = "%s: %r answered, %r logged" % (name, (n, line), moves)
            assert moves[n - 1 : n] == [line], why
        off = self.off_script.get(name, set())
        if pc.script_moves(moves, off) is not None:
            # the script's (its own declaration where it makes it), or a
            # match abandoned already that no new one followed (a PLAY of
            # no moves starts none)
            return
        why = "%s: %r, neither the script nor %r" % (name, moves, sorted(off | extra))
        assert pc.script_moves(moves, off | extra) is not None, why
        self.off_script[name] = off | (extra & set(moves))
        self.n["off the script"] += 1
        phase = link.status()["phase"]
        if phase == "play":
            pc.hand(link, "press", "confirm", "long")  # abandoned
        elif phase == "over":
            pc.hand(link, "press", "confirm")  # back to set-up
        self.clear_board(link)
        link.logs()  # the abandoned match's end on flash before anything else

    def clear_board(self, link):
        # every card off, the harness's and those PLAY's hands put down: a
        # match starts only on a clear board
        cells = link.request("CELLS")
        for x in range(len(cells) // 2):
            if cells[2 * x : 2 * x + 2] != "00":
                pc.hand(link, "lift", cell_name(x))
        pc.wait(link, None)
        assert link.request("CELLS") == "0" * len(cells), "cards left on the board"
        self.table = pc.Table()

    def in_flight_lines(self, items):
        """The record lines the DECLAREs among items (sent, never answered)
        may have made in the scripted match (sides A and B, docs/protocol.md:
        A plays the black cards)."""
        out = set()
        for it in items:
            if it.verb != "DECLARE" or not it.want or not it.want[0][1] & fuzzkit.OK:
                continue
            what = it.args[0]
            if what in ("pass", "reserve"):
                out.update("%s %s" % (seat, what) for seat in SEATS)
            elif what in ("deck-empty", "forced-removal"):
                w = it.args[1]
                side = {"black": "A", "gold": "B"}.get(w.lower(), w.upper())
                if side in ("A", "B"):
                    out.add("%s %s" % (side, what))
        return out

    def clear_play_record(self, link):
        # the fuzz's PLAY chunks the board holds go (PLAY END drops them,
        # and the fuzz counts none), and the display it may have set goes
        # back to hints: in card query a tap on the pad asks about a card,
        # it plays no special
        try:
            link.request("PLAY", "END", timeout=120)
        except L.BoardError:
            pass
        self.wire.fz.play_total = 0
        link.request("SET", "display", 1)

    def cut(self, stray):
        board = self.board
        boots = board.boots
        board.power_cut(hold=True)
        self.link.close()
        self.n["cuts"] += 1
        self.stats["cuts"] += 1
        # the power is off: what is on flash
        logs = pc.logs_on_flash(board)
        for name in self.wire.deleted:
            self.kept.pop(name, None)
        for name, data in logs.items():
            v, good, count, _ = records.read_log(data)
            if v not in (records.OK_LOG, records.TORN):
                raise AssertionError("%s reads %s at a cut" % (name, records.verdict_name(v)))
            self.n["torn"] += v == records.TORN
            self.kept[name] = data[:good]
        # power on: the boot, every complete record still there, the resume
        board.power_on()
        if not board.wait_boot(boots + 1):
            raise AssertionError("no boot after a cut: %s" % "".join(board.stderr)[-2000:])
        self.n["boots"] += 1
        self.link = link = pc.connect(board)
        # a DEL sent just before the cut and never answered may have been
        # carried out: that log is gone whole, or there whole
        on = pc.logs_on_flash(board)
        for name in self.in_flight:
            if name in self.kept and name not in on:
                self.wire.gone(name)
                del self.kept[name]
                self.n["deleted in flight"] += 1
        self.in_flight = ()
        self.check_kept()
        self.table = pc.Table()  # the simulator's table went with its process
        resumed = self.stats["resumed"]
        declaring, self.declaring = self.declaring, set()
        pc.resume(link, logs, self.rnd, self.table, self.stats, stray, declaring)
        self.n["resumed"] += self.stats["resumed"] - resumed
        self.wire.reattach(link)
        self.follow((), declaring)

    def check_kept(self):
        logs = pc.logs_on_flash(self.board)
        for name, prefix in self.kept.items():
            count = records.read_log(prefix)[2]
            self.n["records checked"] += count
            if logs.get(name, b"")[: len(prefix)] != prefix:
                got = records.read_log(logs.get(name, b""))[2]
                self.n["lost"] += max(1, count - got)
                raise AssertionError("%s lost records at a cut" % name)

    def finish(self):
        # the last match played to its end, every log whole
        link = self.link
        self.clear_play_record(link)
        st = link.status()
        if st["phase"] == "over":
            pc.hand(link, "press", "confirm")
            self.clear_board(link)
            st = link.status()
        if st["phase"] in ("play", "setup"):
            assert pc.send_play(link).startswith("played")
        assert link.status()["phase"] == "over"
        link.logs()  # LOGS writes what is queued first
        for name in self.wire.deleted:
            self.kept.pop(name, None)  # (a DEL answered OK since the last cut)
        self.check_kept()
        logs = pc.logs_on_flash(self.board)
        for name, data in logs.items():
            lines = records.Lines()
            v, good, count, _ = records.read_log(data, lines)
            assert v == records.OK_LOG and good == len(data), name
            # every match the script's, but for the fuzz's declarations
            # that took it off it (abandoned then, or ended by them)
            off = self.off_script.get(name, ())
            assert pc.script_moves(lines.moves, off) is not None, name
            if lines.result is not None and lines.result != "abandoned" and not off:
                self.n["matches"] += 1
                assert [pc.norm(x) for x in lines.moves] == [pc.norm(x) for x in pc.WANT], name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=100000, help="fuzzed frames (100000)")
    ap.add_argument("--cuts", type=int, default=1000, help="power cuts (1000)")
    ap.add_argument("--seed", type=int, default=20240611)
    a = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="apixagon-soak-")
    flash = os.path.join(tmp, "flash")
    os.mkdir(flash)
    devboard.install(flash)
    board = devboard.DevBoard(flash, "A").start()
    t0 = time.monotonic()
    print("soak: %d frames, %d power cuts, seed %d" % (a.frames, a.cuts, a.seed), flush=True)
    soak = None
    failed = None
    try:
        soak = Soak(board, a.seed, a.frames, a.cuts)
        soak.run()
    except Exception as e:  # noqa: BLE001 - every failure is reported, then exit 1
        failed = e
        traceback.print_exc()
    finally:
        board.stop()
    took = time.monotonic() - t0
    n = soak.n if soak is not None else {}
    if failed is not None and soak is not None:
        n["crashes"] += board.boots - 1 - n["boots"] - soak.wire.reboots > 0
    for k in ("frames", "replies", "crashes", "cuts", "records checked", "lost"):
        print("%-16s %d" % (k, n.get(k, 0)))
    rest = ", ".join("%s %d" % (k, v) for k, v in n.items() if k not in ("frames", "replies"))
    print("(%s; REBOOTs %d)" % (rest, soak.wire.reboots if soak else 0))
    print("%s in %.0f s" % ("FAILED" if failed else "passed", took))
    if failed is None:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print("the board's flash is kept in %s" % flash)
    return 1 if failed is not None or n.get("lost") or n.get("crashes") else 0


if __name__ == "__main__":
    sys.exit(main())

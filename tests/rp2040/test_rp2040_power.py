"""Power cuts on the emulated RP2040: the rev A image plays a 2-player
match from hands on the modelled readers while the power goes at seeded
random moments — at a random cycle of the chip, or inside a flash program
or erase, of which only part is written (the harness cuts the bootrom's
flash operation after a fraction of its bytes). With the power off the
flash is read as a PC would read it (littlefs, tools/rp2040/flashfs.py):
every log reads OK or TORN, and every record that was complete before is
still there byte for byte. Then the board boots from that flash: it
answers the host, resumes at the logged position (the cards put down
after it blink red and are lifted), and play goes on."""

import random
import shutil
import time

import emukit
from apixagon.game import Game
from apixagon.geometry import NCELLS, NONE, cell_name
from apixagon_host import link as L
from flashfs import FlashFs
from smartboard import tag
from smartboard.logstore import names, records

CUTS = emukit.size(9, 24)  # three of each kind in make test
SEED = 20261123
REV = "rev_a"


def random_move(g, rnd):
    """A legal placement (card, cell) for the side to play, or None."""
    t = g.side_to_play()
    cards = [c for c in range(31) if g.where(t, c) == NONE]
    rnd.shuffle(cards)
    cells = list(range(NCELLS))
    rnd.shuffle(cells)
    for c in cards[:6]:
        for x in cells:
            if g.check_place(t, c, x) == 0:
                return c, x
    return None


def logs_of(fs):
    return {n: fs.read("logs/" + n) for n in fs.listdir("logs") if n.endswith(names.SUFFIX)}


def logged_moves(data):
    lines = records.Lines()
    records.read_log(data, lines)
    return lines


def status(link, board=None):
    """STATUS as a dict; what the board printed instead, if it stops answering."""
    try:
        return L.fields(link.request("STATUS"))
    except L.BoardError as e:
        extra = ""
        if board is not None:
            c0 = board.cycle()
            time.sleep(2)
            extra = "; chip cycles %d -> %d; events %r" % (c0, board.cycle(), board.events[-4:])
        raise AssertionError("%s; the board printed: %r%s" % (e, link.noise[-20:], extra))


def replay(moves):
    g = Game()
    for side, c, x in moves:
        assert g.place(side, c, x) == 0
    return g


def first_move(board, link, rnd, table, moves):
    """Start a match and play its first move, on flash before going on:
    from then on the newest log holds a match that resumes (with none, the
    cards on the table would be a new match's)."""
    board.press("confirm")
    c, x = random_move(Game(), rnd)
    board.put(x, tag.code(0, tag.NORMAL, c))
    table[x] = tag.code(0, tag.NORMAL, c)
    moves.append((0, c, x))
    board.wait_ms(1500)
    assert status(link, board)["moves"] == "1"


def test_power_cuts_at_random_cycles_and_inside_flash_writes(tmp_path):
    rnd = random.Random(SEED)
    board = emukit.boot(REV, tmp_path)
    stats = {"cuts": 0, "in_program": 0, "in_erase": 0, "torn": 0, "resumed": 0, "lifted": 0}
    kept = {}  # log name -> the bytes of its complete records at a cut
    table = {}  # cell -> tag code: what lies on the modelled cells
    moves = []  # (side, card, cell) as the board should have them
    try:
        link = L.connect(board.port, timeout=30)
        first_move(board, link, rnd, table, moves)
        for i in range(CUTS):
            # ---- play, and the power goes ---------------------------------
            # one cut in three at a random cycle, the others inside the
            # board's next flash program (a log record, littlefs metadata)
            # or next erase (a new block), after a random part of its bytes
            mode = ("cycle", "program", "erase")[i % 3]
            g = replay(moves)
            if g.over() or random_move(g, rnd) is None:
                board.press("confirm")  # the match is over: a new one
                for x in list(table):
                    board.lift(x)
                    del table[x]
                moves.clear()
                first_move(board, link, rnd, table, moves)
                g = replay(moves)
            now = board.cycle()
            if mode == "cycle":
                board.cut(cycle=now + rnd.randrange(1, 125_000 * 700))
            else:
                board.cut(flash_op=1, kind=mode, frac=rnd.random())
            for k in range(12 if mode == "erase" else rnd.randrange(1, 3)):
                m = None if g.over() else random_move(g, rnd)
                if m is None or not board.on:
                    break
                side = g.side_to_play()
                g.place(side, m[0], m[1])
                board.put(m[1], tag.code(side, tag.NORMAL, m[0]))
                table[m[1]] = tag.code(side, tag.NORMAL, m[0])
                moves.append((side, m[0], m[1]))
                board.wait_ms(rnd.choice((0, 150, 400)) if mode != "erase" else 350)
            if board.on:
                board.cut(cycle=board.cycle() + 125_000 * 1500)  # none came: a cycle
            board.wait_for(lambda: not board.on, 300, "the power cut")
            link.close()
            stats["cuts"] += 1
            off = [e for e in board.events if e.get("ev") == "off"][-1]
            if "flash_op" in off:
                stats["in_" + off["flash_op"]] += 1
            # ---- power off: the flash as a PC reads it ----------------------
            image = str(tmp_path / ("cut-%02d.bin" % i))
            shutil.copy(board.flash, image)  # kept to reproduce a failure
            why = (i, off, image)
            logs = logs_of(FlashFs(board.flash))
            for name, data in logs.items():
                v, good, count, _ = records.read_log(data)
                assert v in (records.OK_LOG, records.TORN), (name, records.verdict_name(v), why)
                stats["torn"] += v == records.TORN
                if name in kept:
                    assert data[: len(kept[name])] == kept[name], (name, "lost a record", why)
                kept[name] = data[:good]
            newest = logs[sorted(logs)[-1]] if logs else b""
            n_logged = len(logged_moves(newest).moves) if newest else 0
            assert n_logged <= len(moves)
            # ---- power on: the board resumes at the logged position ----------
            board.power_on()
            board.wait_usb()
            link = L.connect(board.port, timeout=30)
            st = status(link, board)
            if n_logged:
                stats["resumed"] += 1
                assert int(st["moves"]) == n_logged, (st, why)
            extra = moves[n_logged:]
            moves = moves[:n_logged]
            if extra:
                assert st["phase"] == "resume", st
                # the moves the log never got: those cards blink red; lift them
                for _, _, x in extra:
                    board.lift(x)
                    del table[x]
                    stats["lifted"] += 1
            board.wait_ms(1200)
            st = status(link, board)
            assert st["phase"] in ("play", "over"), (st, [cell_name(x) for _, _, x in extra])
        # the board still plays on after the last cut
        g = replay(moves)
        m = None if g.over() else random_move(g, rnd)
        if m is not None:
            side = g.side_to_play()
            board.put(m[1], tag.code(side, tag.NORMAL, m[0]))
            board.wait_ms(1500)
            st = status(link, board)
            assert int(st["moves"]) == len(moves) + 1, st
        link.close()
    finally:
        board.close()
    assert stats["in_program"] >= CUTS // 4 and stats["in_erase"] >= 2, stats
    assert stats["resumed"] == CUTS, stats
    print("rp2040 power cuts: %r" % stats)

"""A thousand matches on the emulated RP2040: the rev A image boots on a
flash filled from the PC (tools/rp2040/flashfs.py, MicroPython's own
littlefs configuration: a few seconds, where the board would play for
days) with 999 short finished logs, 400 of them pulled, and the newest
unfinished: a 2-player match of more than 2000 records (random legal
moves, about every other one taken back: tools/bench/matchlogs.py's
take-back log, written by the firmware's own writer). The storage is
nearly full (a file takes the rest), as on a board never pulled.

The image boots and resumes the long match, says the storage is low and
counts the thousand (STATUS), answers LOGS through all 42 pages with each
log once, in order, its size and state right (`apixagon`'s own reader),
gives every byte of three logs (GET), marks one pulled and deletes it;
the cards put back as the LEDs ask, play goes on. The figures (chip time:
rp2040js counts the cycles) are printed: `pytest -s`."""

import os
import sys
import time

import emukit
import pytest
from apixagon_host import link as L
from emuboard import HZ
from emukit import EmuBoard
from flashfs import FlashFs
from smartboard.logstore import folder, records

sys.path.insert(0, os.path.join(emukit.ROOT, "tools"))
from bench import matchlogs  # noqa: E402 - its take-back log and the cards of a game

REV = "rev_a"
N = 1000
PULLED = 400
LOW = 48 * 1024  # the storage left: under folder.LOW_BYTES (64 KB)
TAKEBACK_MOVES = 1050  # move records of the long log: with the take-backs, > 2000 records


def small_log(i):
    """A short abandoned match: 3 records and its end (~110 bytes: inline
    in littlefs's metadata, as a thousand must be to fit 1.4 MB)."""
    out = bytearray()
    link = records.SEED
    lines = ((records.HEADER, "mode queens-gambit"), (records.MOVE, "B %d E4" % (i % 31)))
    for kind, text in lines + ((records.END, "abandoned"),):
        rec, link = records.encode(link, kind, text.encode())
        out += rec
    return bytes(out)


def ms(cycles):
    return cycles * 1000.0 / HZ


@pytest.mark.long
def test_a_thousand_logs_and_a_2000_record_match_on_the_rp2040(tmp_path):
    t0 = time.monotonic()
    name, long_log, game = matchlogs.takeback_log(REV, str(tmp_path), TAKEBACK_MOVES)
    kinds = matchlogs.log_records(long_log)
    assert sum(kinds.values()) > 2000 and kinds["U"] > 900, kinds
    flash = str(tmp_path / "flash.bin")
    ffs = FlashFs.new(flash, emukit.image(REV))
    for i in range(1, N):
        ffs.write("logs/%04d.alog" % i, small_log(i))
        if i <= PULLED:
            ffs.write("logs/%04d.pulled" % i, b"1")
    ffs.write("logs/%04d.alog" % N, long_log)
    ffs.write("filler.bin", b"\0" * (ffs.free() - LOW))
    ffs.save()
    made = time.monotonic() - t0
    board = EmuBoard(emukit.image(REV), REV, flash=flash, workdir=str(tmp_path), powered=False)
    try:
        for x, code in matchlogs.cards_of(game).items():
            board.put(x, code)  # the match's cards on the table as the power comes
        board.power_on()
        on = board.wait_for(lambda: [e for e in board.events if e.get("ev") == "on"], 60)[0]
        board.wait_usb()
        with L.connect(board.port, timeout=120) as link:
            hello = L.fields(link.request("HELLO", "1"))
            at_hello = board.cycle()
            link.timeout = 30
            st = L.fields(link.request("STATUS"))
            assert hello["profile"] == "A"
            assert st["logs"] == str(N) and st["unpulled"] == str(N - PULLED), st
            assert st["low"] == "1" and int(st["free"]) < folder.LOW_BYTES, st
            assert st["log"] == "%04d.alog" % N and st["moves"] == str(game.nmoves()), st
            heap = int(st["heap"])
            # ---- every log listed, each once, in order, size and state -------
            c0 = board.cycle()
            w0 = time.monotonic()
            logs = link.logs()
            pages_s = time.monotonic() - w0
            pages_ms = ms(board.cycle() - c0)
            assert [n for n, _, _ in logs] == ["%04d.alog" % i for i in range(1, N + 1)]
            for i, (n, size, state) in enumerate(logs[:-1]):
                assert size == len(small_log(i + 1)), n
                assert state == ("pulled" if i < PULLED else "done"), (n, state)
            assert logs[-1] == ("%04d.alog" % N, len(long_log), "play"), logs[-1]
            c0 = board.cycle()
            link.request("LOGS", 500)  # one page from the middle: the index and a pass
            page_ms = ms(board.cycle() - c0)
            # ---- a pull: every byte of three -----------------------------------
            for i in (1, 700):
                assert link.fetch("%04d.alog" % i, 0, len(small_log(i))) == small_log(i)
            c0 = board.cycle()
            assert link.fetch("%04d.alog" % N, 0, len(long_log)) == long_log
            get_ms = ms(board.cycle() - c0)
            assert link.request("PULLED", "0700.alog") == "0700.alog"
            assert link.request("DEL", "0700.alog") == "0700.alog"
            st = L.fields(link.request("STATUS"))
            assert st["logs"] == str(N - 1) and st["unpulled"] == str(N - PULLED - 1), st
            # ---- the cards are on the table: play goes on ------------------------
            board.wait_for(lambda: L.fields(link.request("STATUS"))["phase"] == "play", 120)
            st = L.fields(link.request("STATUS"))
            assert st["phase"] == "play" and st["moves"] == str(game.nmoves()), st
        print(
            "rp2040 with %d logs (%d pulled) and a %d-record match log (%d bytes, %s): "
            "flash made in %.1f s; boot to HELLO %.0f ms (the log verified and replayed); "
            "heap free %d bytes; LOGS, all %d pages: %.0f ms chip, %.1f s wall; one page "
            "from the middle %.0f ms; GET of the %d-byte log %.0f ms"
            % (
                N,
                PULLED,
                sum(kinds.values()),
                len(long_log),
                kinds,
                made,
                ms(at_hello - on["cycle"]),
                heap,
                (N + 23) // 24,
                pages_ms,
                pages_s,
                page_ms,
                len(long_log),
                get_ms,
            )
        )
    finally:
        board.close()
    assert os.path.getsize(flash) == 2 * 1024 * 1024

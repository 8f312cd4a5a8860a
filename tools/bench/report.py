"""The emulated RP2040's figures as rows: for the terminal (make bench)
and the figures page (figures.py)."""

from bench import budgets
from bench.emulated import PROFILE, REVS
from bench.memory import FIRMWARES, MEMORY_MATCHES


def _ms(us):
    return "%.2f ms" % (us / 1000.0) if us < 10000 else "%.1f ms" % (us / 1000.0)


def _us(us):
    return "-" if us is None else ("%.1f us" % us if us < 1000 else "%.2f ms" % (us / 1000.0))


def engine_rows(fig):
    e = fig.get("engine")
    if not e:
        return []
    rows = []
    for lv in sorted(int(k) for k in e["levels"]):
        d = e["levels"].get(str(lv))
        if d:
            rows.append(
                (
                    "computer level %d: answer at its worst position (%s, move %d)%s"
                    % (lv, e["record"], d["position"], "" if lv in e["offered"] else ": PC only"),
                    "%.0f ms (search allocates %.1f KB)" % (d["worst_ms"], d["alloc_bytes"] / 1024),
                    "",
                )
            )
    for m in e.get("matches", ()):
        rows.append(
            (
                "heap free at the end of a search, a match at level %d whose every move is "
                "the computer's, from move %d (%d searches, frozen rev A)"
                % (m["level"], m["from_move"], m["searches"]),
                "%.1f KB (lowest)" % (m["search_heap_lowest"] / 1024),
                "",
            )
        )
    return rows


def rows_of(fig):
    """(figure, emulated RP2040, unix port) rows for the terminal."""
    rows = engine_rows(fig)
    cal = fig.get("calibration")
    if cal:
        rows.append(
            (
                "pin loop p.value(1); p.value(0) (module level; in a function)",
                "%.1f us; %.1f us" % (cal["loop_us"], cal["loop_us_in_function"]),
                "real Pico: ~%d us (reported)" % cal["loop_us_real_pico_reported"],
            )
        )
    core = fig.get("core")
    if core:
        u = core.get("unix", {})
        where = "position %d, %d cards" % (core["position"], core["occupied"])
        worst = "position %d, %d cards, by %s" % (
            core["worst_position"],
            core["worst_occupied"],
            core["worst_found_by"],
        )
        rows += [
            ("full hint query, crowded (%s)" % where, _ms(core["hint_us"]), _us(u.get("hint_us"))),
            (
                "full hint query, worst (%s)" % worst,
                _ms(core["worst_hint_us"]),
                _us(u.get("worst_hint_us")),
            ),
            (
                "card query for every card in hand, crowded / worst",
                "%s / %s" % (_ms(core["cards_us"]), _ms(core["worst_cards_us"])),
                "%s / %s" % (_us(u.get("cards_us")), _us(u.get("worst_cards_us"))),
            ),
            ("placement check, crowded", _us(core["check_us"]), _us(u.get("check_us"))),
            ("place + undo, crowded", _us(core["push_us"]), _us(u.get("push_us"))),
        ]
    fw = fig.get("firmware")
    if fw:
        u = fw.get("unix", {})
        for w, label in (
            ("event", "one sensor event"),
            ("frame", "one LED frame, written to the strip (PIO, DMA)"),
            ("litframe", "one LED frame, every cell lit (current-limited)"),
            ("idle", "idle loop tick, profile B"),
        ):
            rows.append(
                (
                    "%s, move %d (%d cards)" % (label, fw["position"], fw["occupied"]),
                    _us(fw[w + "_us"]),
                    _us(u.get(w + "_us")),
                )
            )
            if "worst_%s_us" % w in fw:
                rows.append(
                    (
                        "  worst of the game (move %d, %d cards)"
                        % (fw["worst_%s_position" % w], fw["worst_%s_occupied" % w]),
                        _us(fw["worst_%s_us" % w]),
                        _us(u.get("worst_%s_us" % w)),
                    )
                )
    if fw and "strip_write_us" in fw:
        rows.append(("  of which the strip write (PIO, DMA)", _us(fw["strip_write_us"]), ""))
    boot = fig.get("boot")
    if boot:
        for rev in REVS:
            if rev in boot:
                rows.append(
                    (
                        "boot to HELLO answered, %s (USB up at %.0f ms)"
                        % (rev, boot[rev]["usb_ms"]),
                        "%.0f ms" % boot[rev]["hello_ms"],
                        "",
                    )
                )
    for rev in REVS:
        r = fig.get("resume_" + rev)
        if not r:
            continue
        for what, label in (("scripted", "6-player log"), ("takebacks", "2-player log")):
            x = r[what]
            rows.append(
                (
                    "boot + resume, %s, %s (%d moves, %d M + %d U records): HELLO / match screen"
                    % (rev, label, x["moves"], x["records"].get("M", 0), x["records"].get("U", 0)),
                    "%.0f / %.0f ms" % (x["hello_ms"], x["resumed_ms"]),
                    "",
                )
            )
    for rev in REVS:
        heap = []
        p = fig.get("play_" + rev)
        if rev in fig.get("boot", {}):
            heap.append("%d after boot" % fig["boot"][rev]["heap_setup"])
        elif p:
            heap.append("%d after boot" % p["heap_setup"])
        if p and p.get("heap_move10") is not None:
            heap.append("%d after 10 moves" % p["heap_move10"])
        if p:
            heap.append("%d lowest in play" % p["heap_lowest"])
        if heap:
            rows.append(("heap free (bytes), %s" % rev, ", ".join(heap), ""))
    pull = fig.get("pull")
    if pull:
        u = pull.get("unix")
        rows += [
            (
                "logs pull, %d logs, %.0f KB: KB/s of chip time (whole command; to the last GET; "
                "GETs alone)" % (pull["logs"], pull["bytes"] / 1024.0),
                "%.0f; %.0f; %.0f KB/s"
                % (pull["pull_kb_s"], pull.get("download_kb_s", 0), pull["get_kb_s"]),
                "%.0f KB/s wall (%d logs, %.0f KB)" % (u["kb"] / u["pull_s"], u["logs"], u["kb"])
                if u
                else "",
            ),
            (
                "  PULLED, each (its marker file written later, the host quiet)",
                "%.1f ms" % pull.get("pulled_ms_each", 0),
                "",
            ),
            (
                "logs pull vs mpremote cp of the same files (wall time)",
                "%.2f s vs %.1f s: %.1fx"
                % (pull["pull_wall_s"], pull["mpremote_wall_s"], pull["ratio"]),
                "%.2f s vs %.1f s: %.1fx" % (u["pull_s"], u["mpremote_s"], u["ratio"]) if u else "",
            ),
        ]
    for rev in REVS:
        p = fig.get("play_" + rev)
        if p:
            u = p.get("unix_sensing_ms")
            rows.append(
                (
                    "placement to LED, profile %s, %d placements: mean / 95 %% / worst"
                    % (PROFILE[rev], p["placements"]),
                    "%.0f / %.0f / %.0f ms" % (p["mean_ms"], p["p95_ms"], p["max_ms"]) + _missed(p),
                    "sensing alone (simulator): %d / %d / %d ms" % (u["mean"], u["p95"], u["max"])
                    if u
                    else "",
                )
            )
            for kind, what in KIND_NAMES:
                k = p.get(kind)
                if k:
                    rows.append(
                        (
                            "  %s, %d: mean / 95 %% / worst" % (what, k["n"]),
                            "%.0f / %.0f / %.0f ms" % (k["mean_ms"], k["p95_ms"], k["max_ms"])
                            + _missed(k),
                            "",
                        )
                    )
    cap = fig.get("capacity")
    if cap:
        st = cap["status"]
        rows.append(
            (
                "real matches on the flash (the four scripted ones, %d-%d bytes), packed by "
                "the chip, until the room rule says full"
                % (min(cap["log_bytes"]), max(cap["log_bytes"])),
                "%d (%d archives, %s bytes free)"
                % (cap["matches"], cap["files"]["archives"], st["free"]),
                "simulated board's block model: %d bytes free" % cap["model_free"],
            )
        )
        for name, s in cap["steps"].items():
            rows.append(
                (
                    "  a packing step, %s (%d): mean / worst" % (name, s["n"]),
                    "%.1f / %.1f ms" % (s["mean_ms"], s["max_ms"]),
                    "",
                )
            )
        rows.append(
            (
                "  boot to HELLO with them; LOGS, all pages",
                "%.0f ms; %.0f ms" % (cap["boot_hello_ms"], cap["logs_pages_ms"]),
                "",
            )
        )
    return rows


def memory_rows(fig):
    """The memory part as rows: each mode's match, the heap free (bytes)
    after boot and at the lowest point, per firmware and revision; and
    what the mode takes beyond the 2-player match (its lowest against
    2p's, the same firmware and revision)."""
    mem = fig.get("memory")
    if not mem:
        return []
    cols = [(k, r) for k in FIRMWARES for r in REVS if r in mem.get(k, {})]
    head = ["heap free, bytes (KB)"] + ["%s %s" % (k, r.replace("_", " ")) for k, r in cols]
    rows = [head]
    for name, record in MEMORY_MATCHES:
        got = [mem[k][r].get(name) for k, r in cols]
        if not any(got):
            continue
        x = next(g for g in got if g)
        label = "%s (%s%s, %d moves, %d taken back)" % (
            name,
            x["mode"],
            ", %d players" % x["players"] if x["players"] else "",
            x["moves"],
            x["takebacks"],
        )
        rows.append(["%s: after boot" % label] + [g and str(g["heap_boot"]) or "-" for g in got])
        low = []
        for (k, r), g in zip(cols, got):
            if not g:
                low.append("-")
                continue
            text = "%d (%.1f)" % (g["heap_lowest"], g["heap_lowest"] / 1024.0)
            two = mem[k][r].get("2p")
            if name != "2p" and two:
                text += " %+d" % (g["heap_lowest"] - two["heap_lowest"])
            low.append(text)
        rows.append(["  lowest in play (KB; free vs 2p)"] + low)
    for r in REVS:
        d = mem.get("deploy", {}).get(r)
        if d:
            rows.append(
                ["apixagon deploy, %s: heap after its restart" % r.replace("_", " ")]
                + [str(d["heap_after_restart"]) if c == ("deployed", r) else "" for c in cols]
            )
            if "lfs_blocks" in d:
                rows.append(
                    ["  the update path's littlefs blocks (4 KB) at rest"]
                    + [
                        str(d["lfs_blocks"])
                        if c == ("deployed", r)
                        else str(d["slot_blocks"])
                        if c == ("littlefs", r)
                        else ""
                        for c in cols
                    ]
                )
    return rows


def _missed(p):
    # samples the board never showed (each counted as the hands' timeout)
    n = p.get("missed")
    return " (%d never shown)" % n if n else ""


# the play part's other actions (bench/emulated.py KINDS), until shown
KIND_NAMES = (
    ("refused", "a card put where it may not go, until shown refused"),
    ("takeback", "the card just played taken back, until shown"),
    ("put_back", "and put back, until shown"),
    ("special", "a special's move (Beekeeper's card put, Smoker's lift), until shown"),
)


def print_report(fig, timing="ideal"):
    rows = [("figure", "emulated RP2040", "unix port")] + rows_of(fig)
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    print()
    print(
        "The firmware on an emulated RP2040 (rp2040js, 125 MHz cycles; frozen images; "
        "timing: %s):" % timing
    )
    for r in rows:
        print("  %-*s  %-*s  %s" % (w0, r[0], w1, r[1], r[2]))
    mem = memory_rows(fig)
    if mem:
        w = [max(len(r[i]) for r in mem) for i in range(len(mem[0]))]
        print()
        print(
            "The heap of each mode's match (STATUS heap=, after a collection, after every move "
            "and take-back; the frozen image, the firmware deployed into the ROMFS partition, "
            "and as .mpy into a slot of the littlefs):"
        )
        for r in mem:
            print("  " + "  ".join("%-*s" % (w[i], c) for i, c in enumerate(r)))
    budgets.print_verdicts(fig)

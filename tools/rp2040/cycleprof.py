"""Where the emulated RP2040's cycles go: a C-level profile by function.

board.js counts every instruction's cycles at its PC while a 'profile' is
on (EmuBoard.profile(True) ... EmuBoard.profile(False) -> the counts);
this names them with the image's .elf (arm-none-eabi-nm): each PC goes to
the function whose symbol covers it. Code MicroPython made at run time
(viper and native functions, in the RAM's heap) has no symbol: it is
counted as "[machine code in the heap]", the idle time (the core asleep
in WFI, waiting for an interrupt) as "[idle]".

    with EmuBoard(...) as b:
        b.profile(True)
        ...                      # the work measured
        counts = b.profile(False)
    print(cycleprof.report(counts, "build/firmware/apixagon-rev_a.elf"))
"""

import bisect
import subprocess

NM = "arm-none-eabi-nm"


def symbols(elf):
    """[(start, end, name)] of the .elf's functions and objects, by start."""
    out = subprocess.run(
        [NM, "-S", "-C", "--defined-only", elf], capture_output=True, text=True, check=True
    ).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 4 or parts[2].lower() not in ("t", "w"):
            continue
        start, size = int(parts[0], 16) & ~1, int(parts[1], 16)
        syms.append((start, start + size, parts[3]))
    syms.sort()
    return syms


def by_function(counts, elf):
    """{name: cycles}: the profile's PCs summed per function."""
    syms = symbols(elf)
    starts = [s[0] for s in syms]
    total = {}
    for pc_hex, n in counts["pcs"].items():
        pc = int(pc_hex, 16)
        i = bisect.bisect_right(starts, pc) - 1
        if i >= 0 and pc < syms[i][1]:
            name = syms[i][2]
        elif 0x20000000 <= pc < 0x20042000:
            name = "[machine code in the heap]"
        else:
            name = "[0x%08x]" % pc
        total[name] = total.get(name, 0) + n
    if counts.get("idle"):
        total["[idle]"] = counts["idle"]
    return total


def report(counts, elf, top=40, hz=125000000):
    """The top functions by cycles, as text: cycles, ms of the chip's clock
    and the share of the busy (not idle) cycles."""
    total = by_function(counts, elf)
    busy = sum(n for k, n in total.items() if k != "[idle]") or 1
    lines = ["%12s %9s %6s  %s" % ("cycles", "ms", "busy%", "function")]
    for name, n in sorted(total.items(), key=lambda kv: -kv[1])[:top]:
        share = "" if name == "[idle]" else "%5.1f%%" % (100.0 * n / busy)
        lines.append("%12d %9.2f %6s  %s" % (n, 1000.0 * n / hz, share, name))
    lines.append("%12d %9.2f %6s  busy in all" % (busy, 1000.0 * busy / hz, ""))
    return "\n".join(lines)

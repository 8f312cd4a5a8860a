"""The emulated parts' measures again on the MicroPython unix port, at the
same positions, for the column beside the chip's figures (wall time)."""

import os
import subprocess

import build_mpy

from bench import core as unix_core
from bench import firmware as unix_firmware
from bench.emulated import PROFILE, REVS, TOOLS, parse_time


class Unix:
    """tools/core_device.py and firmware_device.py under the unix port,
    at the positions the board was measured at (core.py's and
    firmware.py's repetitions)."""

    def __init__(self, tmp):
        core = os.path.join(tmp, "core")
        whole = os.path.join(tmp, "whole")
        build_mpy.build(core)
        build_mpy.build_all(whole)
        for lib, name in ((core, "core_device"), (whole, "firmware_device")):
            subprocess.run(
                [build_mpy.mpy_cross(), "-o", os.path.join(lib, name + ".mpy")]
                + [os.path.join(TOOLS, "bench", name + ".py")],
                check=True,
            )
        self.core = unix_core.Device(core)
        self.whole = unix_firmware.Device(whole)

    def positions(self):
        """(crowded, worst by the unix port's clock) of unix_core."""
        return unix_core.positions(self.core)

    def core_us(self, what, pos):
        return round(unix_core.timed(self.core, what, unix_core.K_TIME[what], pos)[0], 2)

    def sensing_ms(self, profile):
        """firmware.py's game: the simulator's placement latencies, its
        sensor time model alone (the processing costs no simulated time)."""
        out = self.whole.run(256, "game", profile)
        for line in out.splitlines():
            if line.startswith("LATENCY "):
                n, mean, p50, p95, worst = (int(v) for v in line.split()[1:])
                return {"n": n, "mean": mean, "p95": p95, "max": worst}
        raise RuntimeError("the game failed:\n" + out)

    def firmware_us(self, what, pos):
        k = unix_firmware.K_TIME.get(what, unix_firmware.K_TIME["frame"])  # litframe: as frame
        out = self.whole.run(256, what, str(k), str(pos))
        return round(parse_time(out, what)[0], 1)


def unix_figures(unix, fig):
    """The same measures on the unix port, at the positions the board was
    measured at; run when no emulator is running (they are wall-clock
    times)."""
    core = fig.get("core")
    if core:
        u = {
            w + "_us": unix.core_us(w, core["position"]) for w in ("hint", "cards", "check", "push")
        }
        u["worst_hint_us"] = unix.core_us("hint", core["worst_position"])
        u["worst_cards_us"] = unix.core_us("cards", core["worst_position"])
        core["unix"] = u
    fw = fig.get("firmware")
    if fw:
        u = {
            w + "_us": unix.firmware_us(w, fw["position"])
            for w in ("event", "frame", "litframe", "idle")
        }
        for w in ("event", "frame", "idle"):
            if "worst_%s_position" % w in fw:
                u["worst_%s_us" % w] = unix.firmware_us(w, fw["worst_%s_position" % w])
        fw["unix"] = u
    for rev in REVS:
        p = fig.get("play_" + rev)
        if p:
            p["unix_sensing_ms"] = unix.sensing_ms(PROFILE[rev])


def unix_pull(fig, say):
    """tools/bench/link.py: logs pull and mpremote cp over a pseudo-terminal
    to the unix port's simulated board (wall time), one round."""
    from bench import link as unix_link

    pull = fig.get("pull")
    if pull:
        say("  logs pull on the unix port (tools/bench/link.py) ...\n")
        pull["unix"] = unix_link.measure(rounds=1)

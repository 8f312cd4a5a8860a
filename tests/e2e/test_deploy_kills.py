"""Interrupted deploys on the simulated board: `apixagon deploy` / `update`
SIGKILLed (with its mpremote: the PC dies) at random moments, half the
time with a power cut of the board at the same instant, and then always a
power cycle. After each: the board boots into the old firmware or the new
one, never the bare REPL; every module of ours it runs comes from one
place (one slot, or the image's) holding the version HELLO names; and a
deploy then completes. On both kinds of board: a stock MicroPython (main.py
and lib/bootsel.mpy on the flash, no factory firmware to fall back on)
and one flashed with an image (the selector and its firmware frozen).

The board is the MicroPython unix port (tools/devboard.py): a power cut is
the process killed, its flash a folder, where a rename is atomic as
littlefs makes it. The moments are seeded; each kind takes KILLS kills
(12 in make test, 16 in make test-long: APIXAGON_LONG=1): APIXAGON_KILLS=N sets it,
APIXAGON_SOAK=1 makes it 150, APIXAGON_KILL_SEED another draw. Cuts inside
the flash's own writes are tests/rp2040/test_rp2040_deploy_cuts.py's."""

import os
import random
import sys
import time

import pytest
from apixagon_host import fwbuild
from apixagon_host import fwcheck as C
from apixagon_host import fwtransport as T
from deploykit import (
    Run,
    copy_with_version,
    one_origin,
    record,
    running_modules,
    slot_version,
    stock_flash,
)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402
import devboard  # noqa: E402

KILLS = int(
    os.environ.get("APIXAGON_KILLS")
    or (150 if os.environ.get("APIXAGON_SOAK") else 16 if os.environ.get("APIXAGON_LONG") else 12)
)
SEED = int(os.environ.get("APIXAGON_KILL_SEED", "1802"))
VERSIONS = ("kill-1", "kill-2")


@pytest.fixture(scope="module")
def fws(tmp_path_factory):
    """Two versions of a snapshot of firmware/, and the image's own."""
    t = tmp_path_factory.mktemp("fw")
    base = str(t / "base")
    copy_with_version(os.path.join(ROOT, "firmware"), base, "kill-0")
    out = {"kill-0": base}
    for v in VERSIONS:
        out[v] = copy_with_version(base, str(t / v), v)
    fwbuild.build(out["kill-1"], str(t / "stage-1"), arch=build_mpy.unix_arch())
    out["stage-1"] = str(t / "stage-1")
    return out


def power_cycle(board):
    board.power_cut(hold=True)
    board.power_on()


def check_boot(board, factory, fws):
    """The board's firmware after a power cycle: its version, and where
    its modules come from (one place, holding that version)."""
    fw = C.await_firmware(board.port, 15)["fw"]  # a bare REPL raises here
    booted, mods = running_modules(board.port)
    where = one_origin(booted, mods, factory)
    if where == "image":
        assert fw == "kill-0", "the image answers with %s" % fw
    else:
        assert slot_version(board.flash, where[3]) == fw
    T.restart(board.port)
    assert C.await_firmware(board.port, 15)["fw"] == fw
    return fw, where


def complete(board, fws, version, cmd="deploy"):
    r = Run(cmd, board.port, fws[version])
    rc, out = r.finish()
    assert rc == 0, out
    assert C.await_firmware(board.port, 15)["fw"] == version
    return time.monotonic() - r.t0


@pytest.mark.parametrize("kind", ["stock", "image"])
def test_a_killed_deploy_leaves_old_or_new_never_a_mix(kind, tmp_path, fws):
    rng = random.Random("%s-%s" % (SEED, kind))
    flash = str(tmp_path / "flash")
    factory = None
    if kind == "stock":
        stock_flash(flash, fws["stage-1"])
    else:
        os.makedirs(flash)
        devboard.place_layout(flash)
        factory = str(tmp_path / "image")
        devboard.install_image(factory, fws["kill-0"])
    board = devboard.DevBoard(flash, factory=factory)
    board.start()
    t0 = time.monotonic()
    outcomes = []
    try:
        fw = C.await_firmware(board.port, 15)["fw"]
        # How long each command's board part takes, from its first line to
        # its end: the span the kills are drawn in.
        span = {}
        for cmd, v in (("deploy", "kill-1"), ("update", "kill-2")):
            r = Run(cmd, board.port, fws[v])
            start = r.when("built fw")
            rc, out = r.finish()
            assert rc == 0, out
            span[cmd] = time.monotonic() - start
            fw = v
        for i in range(KILLS):
            old = fw
            new = VERSIONS[1 - VERSIONS.index(old)] if old in VERSIONS else VERSIONS[0]
            cmd = rng.choice(("deploy", "deploy", "update"))
            anchor = "verified" if rng.random() < 0.3 else "built fw"
            delay = rng.uniform(0, 0.4 if anchor == "verified" else span[cmd] * 1.05)
            cut = rng.random() < 0.5
            r = Run(cmd, board.port, fws[new])
            t = r.when(anchor)
            if t is not None:
                time.sleep(max(0.0, t + delay - time.monotonic()))
            if cut:
                board.power_cut(hold=True)
            r.kill()
            if cut:
                board.power_on()
            power_cycle(board)
            try:
                fw, where = check_boot(board, factory, fws)
            except Exception as e:
                raise AssertionError(
                    "kill %d (%s, %.3f s after %r, power cut %s): %s\nrecord %s\nits output:\n%s"
                    % (
                        i,
                        cmd,
                        delay,
                        anchor,
                        cut,
                        e,
                        record(flash),
                        "\n".join(line or "" for _, line in r.lines),
                    )
                )
            assert fw in (old, new), "kill %d: fw %s, neither %s nor %s" % (i, fw, old, new)
            outcomes.append((cmd, anchor, round(delay, 3), cut, "new" if fw == new else "old"))
            # and a deploy goes through from whatever the kill left
            nxt = VERSIONS[1 - VERSIONS.index(fw)] if fw in VERSIONS else VERSIONS[0]
            complete(board, fws, nxt, rng.choice(("deploy", "update")))
            fw = nxt
    finally:
        board.stop()
    olds = sum(1 for o in outcomes if o[-1] == "old")
    print(
        "%s: %d kills in %.0f s (spans: deploy %.2f s, update %.2f s): %d old, %d new"
        % (
            kind,
            len(outcomes),
            time.monotonic() - t0,
            span["deploy"],
            span["update"],
            olds,
            len(outcomes) - olds,
        )
    )
    # both sides of the switch hit: 16 kills a kind (make test-long) hit
    # both; 12 on a loaded PC once all landed after it (each kill is still
    # checked above: old or new, never a mix)
    if KILLS >= 16:
        assert 0 < olds < len(outcomes), outcomes

"""The core sleeps when the board has nothing to do: the rev B image on
its setup screen, nothing on its cells and no host talking, spends a good
part of its cycles asleep (WFE: the loop's sleep_ms(1) after a pass with
nothing due, boards/start.py). Before it slept, the core spun through the
loop at its full run current: 0 % asleep. Rev A's four readers keep it
busy (a lane's answer is due every few ms: scan.IDLE_US), so its figure
is not held to one."""

import emukit


def test_a_quiet_rev_b_board_sleeps_between_passes(tmp_path):
    b = emukit.boot("rev_b", tmp_path)
    try:
        b.wait_ms(1000)  # the boot's work done (its log index, a first frame)
        b.profile(True)
        b.wait_ms(300)
        counts = b.profile(False)
    finally:
        b.close()
    total = counts["idle"] + counts["other"] + sum(counts["pcs"].values())
    asleep = counts["idle"] / total
    # ~39 % measured (a pass of the loop ~1.6 ms of bytecode, then up to a
    # millisecond asleep); a quarter is the floor
    assert asleep >= 0.25, "asleep %.1f %% of the cycles" % (100 * asleep)

# The first-boot self-test (smartboard.selftest) on the simulated board,
# started as boards/start.py starts a board (Board.boot_check). The test
# plays the maker: it looks at the strip's frames to answer the LED
# questions, puts and lifts cards (magnets) and presses the buttons.
import sys

from apixagon.geometry import NCELLS, cell_name
from boardkit import TMP, settings_path, x
from smartboard import buttons, selftest, settings, view
from smartboard.sim.rig import Rig

STAGE = {n: i for i, n in enumerate(("supply", "walk", "ask", "find", "parts", "idle", "cells"))}


def booted(name, profile="B", fresh=True, held=0):
    """A board started (its settings file new, or as the last boot left it)."""
    path = settings_path(name) if fresh else "%s/%s-%s.bin" % (TMP, sys.implementation.name, name)
    return Rig(profile, path, boot=True, held=held)


def until(r, stage, ms=30000):
    """Run the board until the self-test reaches stage (or has ended: -1)."""
    end = r.now() + ms
    while r.now() < end:
        t = r.board.selftest
        if t is None or t.stage >= stage:
            return
        r.run(10)
    raise AssertionError("stage %d not reached: %s" % (stage, r.board.message))


def all_lit(r):
    f = r.strip.frame
    return all(f[3 * i] or f[3 * i + 1] or f[3 * i + 2] for i in range(r.strip.n))


def up_to_blue(r):
    # the maker's eyes in the halving: green LEDs up to a blue one, all lit
    f = r.strip.frame
    for i in range(r.strip.n):
        g, red, b = f[3 * i], f[3 * i + 1], f[3 * i + 2]
        if b and not g and not red:
            return True
        if not g:
            return False
    return False


def answer_leds(r):
    """The maker's answers to the LED questions, from what the strip shows."""
    until(r, STAGE["ask"])
    if all_lit(r):
        r.press(buttons.CONFIRM)
        return
    r.press(buttons.DECLARE)
    while r.board.selftest.stage == STAGE["find"]:
        r.press(buttons.CONFIRM if up_to_blue(r) else buttons.DECLARE)


def check_cells(r, skip_after=NCELLS):
    until(r, STAGE["cells"])
    t = r.board.selftest
    for i in range(skip_after):
        name = cell_name(t._cell)
        r.put(name, 1)
        r.run(150)
        r.lift(name)
        r.run(150)
        assert t.marks[x(name)] == 3, (name, r.board.message)
    if t.stage == STAGE["cells"]:
        r.press(buttons.CONFIRM)


def press_keys(r, keys=(buttons.MODE, buttons.CONFIRM, buttons.DECLARE)):
    for k in keys:
        r.press(k)
    r.run(200)


def full(r, skip_after=NCELLS, keys=(buttons.MODE, buttons.CONFIRM, buttons.DECLARE)):
    answer_leds(r)
    check_cells(r, skip_after)
    t = r.board.selftest
    press_keys(r, keys)
    end = r.now() + 35000
    while t.stage != 8 and r.now() < end:
        r.run(100)
    return t


def test_a_good_board_passes_every_step_and_keeps_it():
    r = booted("selftest-good")
    assert r.board.selftest is not None
    t = full(r)
    assert t.stage == 8
    assert r.board.message == "self-test passed: every step green", r.board.message
    assert t.report() == "pass supply=ok leds=ok parts=ok idle=ok cells=ok buttons=ok"
    lay = r.board.view.layer
    assert all(lay[c] == view.LEGAL for c in range(NCELLS))  # all green
    assert r.board.settings.get(settings.SELFTEST) == 1
    r.press(buttons.MODE)  # leaves the summary: set-up, as the next boot
    assert r.board.selftest is None and r.board.phase == 0
    assert selftest.last is t
    # the second boot plays: the record on flash says it ran
    again = booted("selftest-good", fresh=False)
    assert again.board.selftest is None
    assert again.board.settings.get(settings.SELFTEST) == 1


def test_the_first_boot_runs_it_again_until_it_ends():
    r = booted("selftest-cut")
    assert r.board.selftest is not None
    r.run(500)  # a power cut mid-walk: nothing kept
    again = booted("selftest-cut", fresh=False)
    assert again.board.selftest is not None


def test_confirm_held_at_power_on_runs_it_on_a_tested_board():
    r = booted("selftest-held")
    full(r, skip_after=0)
    r.press(buttons.MODE)
    assert r.board.settings.get(settings.SELFTEST) == 1
    assert booted("selftest-held", fresh=False).board.selftest is None
    held = booted("selftest-held", fresh=False, held=1 << buttons.CONFIRM)
    assert held.board.selftest is not None
    held.keys.mask = 0
    mode = booted("selftest-held", fresh=False, held=1 << buttons.DECLARE)
    assert mode.board.selftest is None  # only CONFIRM asks for it


def test_a_dead_led_is_found_and_named():
    r = booted("selftest-led")
    k = 23  # LED 24 dead: its DOUT drives nothing after it
    strip = r.strip
    real = strip.write

    def broken():
        real()
        f = strip.frame
        for i in range(3 * k, len(f)):
            f[i] = 0

    strip.write = broken
    t = full(r, skip_after=0)
    assert t.dark == k
    cell = cell_name([c for c in range(NCELLS) if r.layout.led[c] == k][0])
    words = "LED 24 (cell %s) stays dark, and every LED after it" % cell
    assert words in t.report(), t.report()
    assert t.report().startswith("fail supply=ok leds=fail parts=ok")
    assert r.board.message == "self-test failed: leds"
    assert r.board.settings.get(settings.SELFTEST) == 1 + 2


def test_a_stuck_reed_shows_its_cell_red_and_says_it():
    r = booted("selftest-reed")
    r.put("E4", 1)  # a reed switch closed with nothing on the board
    answer_leds(r)
    until(r, STAGE["cells"])
    t = r.board.selftest
    assert t.verdict[selftest.IDLE] == selftest.FAIL
    assert r.board.view.layer[x("E4")] == view.ERR_RED
    assert "E4 reads occupied: a stuck reed switch (check its orientation" in t.report()
    r.lift("E4")
    r.press(buttons.CONFIRM)  # the cell check skipped
    press_keys(r)
    r.run(500)
    assert t.report().startswith("fail supply=ok leds=ok parts=ok idle=fail cells=skip buttons=ok")
    assert r.board.view.layer[x("E4")] == view.ERR_RED  # in the summary too


def test_a_reader_that_does_not_answer_fails_the_parts_step():
    r = booted("selftest-reader", "A")
    r.readers[2].dead = True
    t = full(r, skip_after=0)
    assert t.verdict[selftest.PARTS] == selftest.FAIL
    assert "parts: cell reader 3 does not answer" in t.report(), t.report()
    assert "parts=fail" in t.report() and r.board.message == "self-test failed: parts"


def test_an_unpressed_button_fails_with_its_name():
    r = booted("selftest-keys")
    t = full(r, skip_after=0, keys=(buttons.MODE, buttons.CONFIRM))
    assert t.verdict[selftest.KEYS] == selftest.FAIL
    assert "buttons: DECLARE not pressed: check its solder joints" in t.report(), t.report()
    assert r.board.settings.get(settings.SELFTEST) == 1 + (1 << selftest.KEYS)


def test_the_supply_part_is_the_boards():
    from smartboard import board

    assert selftest.PART_SUPPLY == board.PART_SUPPLY


def test_a_board_with_settings_of_before_the_self_test_plays_at_boot():
    # a version 4 record (15 bytes): a board that has played, not a first boot
    from smartboard.tag import crc8

    path = settings_path("selftest-v4")
    old = bytearray((0x5A, 4, 1, 2, 3, 0, 0, 4, 0, 2, 0, 0, 1, 0, 0))
    old[14] = crc8(old, 14)
    with open(path, "wb") as f:
        f.write(old)
    r = Rig("B", path, boot=True)
    assert r.board.selftest is None
    assert r.board.settings.get(settings.GAME_MODE) == 3
    assert r.board.settings.get(settings.SELFTEST) == settings.OLDER


def test_the_pc_runs_it_again_and_reads_its_report():
    from eventkit import evs, watched

    bd = watched("selftest-link")
    r = bd.r
    assert bd.ask("SELFTEST last") == (True, "none : no self-test yet")
    assert bd.ask("SELFTEST") == (True, "started")
    assert bd.status()["selftest"] == "supply"
    assert bd.ask("SELFTEST")[0] is False  # running already
    assert bd.ask("SELFTEST now")[0] is False
    answer_leds(r)
    said = [t for k, t in evs(bd) if k == "say"]
    assert said[0].startswith("step 1, supply: ") and "step 2, LED walk: every LED lit" in said
    until(r, STAGE["cells"])
    assert bd.status()["selftest"] == "cells"
    assert bd.ask("SELFTEST last") == (
        True,
        "running supply=ok leds=ok parts=ok idle=ok cells=none buttons=none",
    )
    r.press(buttons.CONFIRM)
    press_keys(r)
    r.press(buttons.CONFIRM)  # the summary left
    assert "selftest" not in bd.status() and r.board.selftest is None
    ok, rep = bd.ask("SELFTEST last")
    assert ok and rep == "pass supply=ok leds=ok parts=ok idle=ok cells=skip buttons=ok", rep
    r.press(buttons.CONFIRM)  # a match in play: not now
    assert r.board.phase == 1 and bd.ask("SELFTEST")[0] is False

# A board that holds a thousand matches boots, resumes its newest match
# and plays on, the folder listed one entry at a time (smartboard.logstore.flash.Flash on
# the PC's disk, as littlefs on the board); with storage low it says so,
# deletes nothing and logs the next match beside the thousand. (LOGS, GET,
# PULLED and DEL over the thousand: test_matchlog_scale.py.) Plain
# functions: also run under the MicroPython unix port at 96 wK.
from logkit import collect
from scalekit import PULLED, N, log_bytes, log_size, thousand
from smartboard import board as B
from smartboard import buttons
from smartboard.logstore import flash, records
from storekit import Board


def test_a_thousand_matches_boot_and_the_newest_resumes():
    root = thousand("scale-boot")
    collect()
    bd = Board("scale-boot", None, root=root)
    b = bd.r.board
    # boots and resumes the newest match (5 moves logged)
    assert b.phase == B.RESUME and b.ref.game.nmoves() == 5, b.message
    st = bd.status()
    assert st["logs"] == str(N) and st["unpulled"] == str(N - PULLED), st
    assert st["log"] == "%04d.alog" % N
    # the players put the cards back: the match goes on in its own log
    bd.cards_back()
    assert b.phase == B.PLAY, b.message
    bd.play(6)
    bd.log.flush_all()
    assert log_size(root + "/%04d.alog" % N) > len(log_bytes(5, None))
    st = bd.status()
    assert st["moves"] == "6" and st["logs"] == str(N), st


class LowFlash(flash.Flash):
    """The real filesystem reporting 20 KB free (the board's flash nearly
    full of matches)."""

    def free(self, d):
        return 20 * 1024


def test_a_thousand_matches_on_a_low_flash_are_kept_and_the_board_says_so():
    root = thousand("scale-low")
    collect()
    bd = Board("scale-low", LowFlash(), root=root)
    b = bd.r.board
    st = bd.status()
    assert st["low"] == "1" and st["unpulled"] == str(N - PULLED), st
    assert bd.says.said("storage low: 20 KB free; download the match logs (the board deletes none)")
    # the match is abandoned, a new one played: its log goes beside the
    # thousand, none of which is touched
    bd.r.press(buttons.CONFIRM, True)
    bd.clear()
    assert b.phase == B.SETUP
    bd.play(2)
    bd.log.flush_all()
    st = bd.status()
    assert st["logs"] == str(N + 1) and st["log"] == "%04d.alog" % (N + 1), st
    assert st["unpulled"] == str(N + 1 - PULLED) and st["low"] == "1"
    for i in (1, PULLED, PULLED + 1, N - 1):  # the older logs as they were
        assert log_size(root + "/%04d.alog" % i) == len(log_bytes(3))
    assert records.read_log(log_bytes(3))[0] == records.OK_LOG

# On the board's chip the cells' lanes read on for a slice of time before
# the loop gets its turn (scan.NfcLanes.slice_us, up to scan.SLICE_US);
# the pad is read between two slices. A quick tap (a Beekeeper's or a
# Smoker's, ~150 ms) needs three agreeing reads (scan.STABLE): once the
# pad has seen a card it is read again every tick, and the ticks are short
# (no slice) until that card is confirmed or gone.
from boardkit import card, rig, started
from smartboard import scan


def sliced(r):
    """The rig with the chip's slices: a tick costs its slice too (the
    simulator's lanes have no clock: they return after one read)."""
    tick = r.tick

    def chip_tick():
        s = r.board.hw.cells.slice_us
        quiet = tick()
        r.now_us += s  # a slice ends early at a change: its longest
        return quiet

    r.tick = chip_tick
    return r


def test_a_quick_tap_is_seen_between_the_lanes_slices():
    # a card query: a normal card tapped on the pad in play (referee.pad);
    # without the pad read again at once, two taps in five were seen
    r = sliced(started("pad-slice"))
    r.run(300)
    seen = 0
    for i in range(5):
        r.board.ref.query = 0
        r.tap(card(0, 3 + i), 150)
        r.run(200)
        seen += r.board.ref.query != 0
    assert seen == 5


def test_no_slice_while_a_pad_card_is_confirmed_no_wait_while_the_pc_downloads():
    r = started("pad-slice-2")
    b = r.board
    assert b._slice(b.now) == scan.SLICE_US
    b.hw.pad.deb.feed(0, 5)  # a card seen once on the pad: not yet confirmed
    assert b.hw.pad.deb.pending(0) and b._slice(b.now) == 0
    b.hw.pad.deb.feed(0, scan.EMPTY)
    assert b._slice(b.now) == scan.SLICE_US
    b._pad_busy = True  # a pad read begun: collected on the next tick, not a slice later
    assert b._slice(b.now) == 0
    b._pad_busy = False
    b.brief = True
    assert b._slice(b.now) == scan.NO_WAIT


def test_no_wait_with_no_match_in_play():
    # between matches the loop's turn comes first (a PC's request, a
    # button): the lanes are stepped as each can answer, none waited for
    b = rig("pad-slice-3").board
    assert b.phase != 1 and b._slice(b.now) == scan.NO_WAIT

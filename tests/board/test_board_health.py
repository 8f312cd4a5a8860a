# Parts that fail on their own (smartboard.health): a cell reader that stops
# answering mid-match, the action pad's reader, an unplugged LED strip. The
# board plays on with what it has, keeps the cards the dead reader saw (no
# phantom lift), says what is wrong in words, names the parts down for
# STATUS, blinks the cells it cannot read, and notices when they come back.
from apixagon.geometry import cell_name
from boardkit import card, play, started, x
from smartboard import view
from smartboard.paint import GAMMA


def lane_of(r, name):
    return r.layout.sensor[x(name)] // 16


def test_a_dead_cell_reader_keeps_its_cards_and_blinks_its_cells():
    r = started("health-reader")
    k = lane_of(r, "E4")
    play(r, [("put", "E4", card(0, 12))])
    g = r.board.ref.game
    assert g.nmoves() == 1 and r.board.faults_text() == "ok"
    r.readers[k].dead = True
    r.settle(1500)
    assert r.board.faults_text() == "reader%d" % (k + 1)
    assert r.board.message == "cell reader %d does not answer: the cells it reads blink" % (k + 1)
    assert g.nmoves() == 1 and r.board.sensed[x("E4")]  # the card stays where it is
    dark = [cell_name(c) for c in range(61) if r.board.view.dark[c]]
    assert "E4" in dark and len(dark) == sum(1 for c in range(61) if r.layout.sensor[c] // 16 == k)
    # the other readers' cells still play
    other = [n for n in ("E6", "D6", "F6", "E3") if lane_of(r, n) != k][0]
    play(r, [("put", other, card(1, 3))])
    assert g.nmoves() == 2
    # and it comes back by itself when it answers again
    r.readers[k].dead = False
    r.settle(1500)
    assert r.board.faults_text() == "ok"
    assert r.board.message == "cell reader %d answers again" % (k + 1)
    assert not any(r.board.view.dark)
    assert g.nmoves() == 2 and r.board.sensed[x("E4")]


def test_dark_cells_blink_over_the_layer_in_the_frame():
    r = started("health-frame", display=view.ADULT)
    k = lane_of(r, "A1")
    r.readers[k].dead = True
    r.settle(1500)
    p = r.board.hw.painter
    v = r.board.view
    i = r.layout.led[x("A1")]
    v.dirty = True
    v.frame(0)  # the lit phase: a dark cell shows ERR_UNKNOWN whatever its layer
    want = tuple(GAMMA[c] * p.brightness // 255 for c in view.colour_of(view.ERR_UNKNOWN))
    assert r.strip.rgb(i) == want
    v.dirty = True
    v.frame(512)  # SLOW's dark phase
    assert r.strip.rgb(i) == (0, 0, 0)


def test_pad_and_strip_faults_are_named_and_said():
    r = started("health-parts", "B")
    r.padreader.dead = True
    r.settle(1200)
    assert r.board.faults_text() == "pad"
    assert "action pad does not answer" in r.board.message
    r.strip.plugged = False
    r.settle(1200)
    assert r.board.faults_text() == "pad,strip"
    assert r.board.message == "the LED strip is not connected"
    r.padreader.dead = False
    r.strip.plugged = True
    r.settle(1200)
    assert r.board.faults_text() == "ok"
    assert r.board.message in ("the action pad answers again", "the LED strip is back")

# A reader that hangs its bus mid-match, on the simulated board with its
# reset lines (sim/buses.py SimResetLine: a hung twin comes back only from
# a reset pulse): the board's recovery (smartboard/recover.py) pulses the
# line, sets the readers up again and the scan goes on; the card put on a
# cell of the hung reader meanwhile is played, no move lost. A reader
# that resets do not bring back is left down, in STATUS hw=, and said.
from boardkit import card, play, started, x
from smartboard import health, recover


def lane_of(r, name):
    return r.layout.sensor[x(name)] // 16


def test_a_hung_cell_reader_is_reset_and_the_move_put_meanwhile_is_played():
    r = started("recover-cells", resets=True)
    play(r, [("put", "E4", card(0, 12))])
    g = r.board.ref.game
    assert g.nmoves() == 1
    k = lane_of(r, "E6")
    r.readers[k].hung = True  # its bus hangs: nothing but a reset clears it
    r.put("E6", card(1, 3))  # white's move, on a cell only that reader sees
    r.settle(1500)
    assert not r.readers[k].hung and r.lines[0].pulses == 1
    assert g.nmoves() == 2, r.board.message  # played: nothing lost
    assert r.board.faults_text() == "ok"
    assert r.board.sensed[x("E4")]  # the cards the readers saw kept
    play(r, [("put", "E3", card(0, 4))])
    assert g.nmoves() == 3  # and play goes on


def test_a_reader_resets_do_not_bring_back_is_left_down_and_said():
    r = started("recover-dead", resets=True)
    k = lane_of(r, "E6")
    r.readers[k].dead = True  # gone for good: a reset does not help
    n = recover.ATTEMPTS
    r.settle(n * (recover.LOW_MS + recover.WAKE_MS + recover.RETRY_MS) + 1500)
    rec = r.recover[0]
    assert rec.gave_up() and rec.resets == n and r.lines[0].pulses == n
    assert r.board.faults_text() == "reader%d" % (k + 1)
    assert r.board.message == health.stuck(recover.CELLS, n)
    # the other readers still play
    play(r, [("put", "E4", card(0, 12))])
    assert r.board.ref.game.nmoves() == 1


def test_a_hung_pad_reader_is_reset():
    r = started("recover-pad", "B", resets=True)
    r.padreader.hung = True
    r.settle(1500)
    assert not r.padreader.hung and r.lines[0].pulses == 1
    assert r.board.faults_text() == "ok"

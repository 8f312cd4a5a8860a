# The self-test's steps (smartboard.selftest) on stand-ins of the board's
# parts, time given by the test: the walk's order and pace, the halving
# that finds the first dark LED, the cell check's marks, the buttons'
# time limit and the report kept in the settings. Plain functions: also
# run under the MicroPython unix port.
import os

from smartboard import buttons, scan, selftest, selftext, settings
from smartboard.paint import Painter
from smartboard.view import ERR_RED, LEGAL, SIDE0, SLOW, View

N = 61


class Strip:
    def __init__(self):
        self.n = N
        self.buf = bytearray(3 * N)
        self.frames = []

    def write(self):
        self.frames.append(bytes(self.buf))


class Keys:
    def __init__(self):
        self.events = []

    def poll(self, now):
        return self.events.pop(0) if self.events else buttons.NONE


class Cells:
    def __init__(self):
        self.state = bytearray(N)
        self.changed = []

    def scan_for_changes(self):
        # one change a pass, as the scanners report them
        if not self.changed:
            return -1
        ch, v = self.changed.pop(0)
        self.state[ch] = v
        return ch

    def set(self, ch, v):
        self.changed.append((ch, v))


class Layout:
    led = bytes(range(N))
    sensor = bytes(range(N))
    cell_of_channel = bytes(range(N))


class Hw:
    def __init__(self):
        self.cells = Cells()
        self.pad = None
        self.keys = Keys()
        self.painter = Painter(Strip(), Layout.led)
        self.layout = Layout()
        self.paired = True
        self.answers = [True]
        self.parts = ((1, self._pad_ok, 0, b"", None),)

    def _pad_ok(self):
        return self.answers[0]


class Board:
    def __init__(self, name):
        self.hw = Hw()
        self.view = View(self.hw.painter)
        path = "build/tmp-selftest-%s.bin" % name
        try:
            os.remove(path)
        except OSError:
            pass
        self.settings = settings.Settings(path)
        self.now = 0
        self.quiet = True
        self.sensed = bytearray(N)
        self.want = None
        self.ref = None
        self.selftest = None
        self.said = []
        self.shown = 0

    def _say(self, text):
        self.said.append(text)

    def _show_setup(self):
        self.shown += 1

    def _event(self, what):
        pass


def run(b, until_ms, step=5):
    while b.now < until_ms:
        b.now += step
        if b.selftest is None:
            return
        b.selftest.tick(b.now)


def started(name):
    try:
        os.mkdir("build")
    except OSError:
        pass
    b = Board(name)
    t = selftest.begin(b, 0)
    return b, t


def lit(frame):
    return sum(1 for i in range(N) if frame[3 * i] or frame[3 * i + 1] or frame[3 * i + 2])


def test_the_walk_lights_one_led_more_each_step_in_chain_order_per_colour():
    b, t = started("walk")
    run(b, 100)
    assert t.verdict[selftest.SUPPLY] == selftest.PASS and t.stage == 1
    frames = b.hw.painter.strip.frames
    del frames[:]
    run(b, 100 + 3 * N * 25 + 25)
    assert t.stage == 2  # the question
    walk = frames[: 3 * N]
    assert [lit(f) for f in walk] == list(range(1, N + 1)) * 3
    # red first (GRB: the second byte), then green, then blue
    assert walk[0][1] and not walk[0][0] and walk[N][0] and not walk[N][1] and walk[2 * N][2]
    assert lit(frames[-1]) == N  # all lit while it asks


def test_no_answer_to_the_led_question_fails_the_walk_after_its_time():
    b, t = started("noanswer")
    run(b, 5000)
    assert t.stage == 2
    run(b, 5000 + 19000)
    assert t.stage == 2
    run(b, 5000 + 21000)
    assert t.verdict[selftest.LEDS] == selftest.FAIL and t.dark == selftest.NO_ANSWER
    assert selftext.verdict(t, selftest.LEDS).endswith(
        "no answer to the question (CONFIRM or DECLARE)"
    )


def find(k):
    """The maker's answers for a chain dark from LED k: the LED found and
    the questions it took."""
    b, t = started("find%d" % k)
    run(b, 5000)
    b.hw.keys.events.append(buttons.DECLARE)
    run(b, b.now + 10)
    asked = 0
    while t.stage == 3:
        f = b.hw.painter.strip.frames[-1]
        blue = [i for i in range(N) if f[3 * i + 2] and not f[3 * i]]
        seen = blue and blue[0] < k  # LEDs k.. stay dark whatever is sent
        b.hw.keys.events.append(buttons.CONFIRM if seen else buttons.DECLARE)
        run(b, b.now + 10)
        asked += 1
    return t.dark, asked


def test_the_halving_finds_the_first_dark_led_in_six_questions():
    for k in (0, 1, 17, 30, 59, 60):
        dark, asked = find(k)
        assert dark == k and asked <= 6, (k, dark, asked)


def to_cells(b, t):
    run(b, 5000)
    b.hw.keys.events.append(buttons.CONFIRM)
    run(b, b.now + 4000)
    assert t.stage == 6


def test_the_cell_check_marks_put_and_lifted_cells_and_skips_the_stuck_ones():
    b, t = started("cells")
    run(b, 5000)
    b.hw.keys.events.append(buttons.CONFIRM)
    run(b, 5100)
    b.hw.cells.set(1, scan.OCCUPIED)  # stuck on the empty board
    to_cells(b, t)
    assert t.verdict[selftest.IDLE] == selftest.FAIL and b.view.layer[1] == ERR_RED
    b.hw.cells.set(1, scan.EMPTY)
    assert t._cell == 0 and b.view.layer[0] == SIDE0 | SLOW
    b.hw.cells.set(0, scan.OCCUPIED)
    b.hw.cells.set(0, scan.EMPTY)
    run(b, b.now + 20)
    assert b.view.layer[0] == LEGAL and t._cell == 2  # cell 1 (stuck) passed over
    b.hw.keys.events.append(buttons.DECLARE)  # cell 2 not seen
    run(b, b.now + 10)
    assert b.view.layer[2] == ERR_RED and t._cell == 3
    b.hw.keys.events.append(buttons.CONFIRM)  # the rest skipped: a failure stays one
    run(b, b.now + 10)
    assert t.verdict[selftest.CELLS] == selftest.FAIL and t.stage == 7
    assert "C1" not in selftext.verdict(t, selftest.CELLS)
    assert selftext.verdict(t, selftest.CELLS).startswith(
        "step 5, cells: A3 did not sense the magnet"
    )


def test_each_button_has_its_time_and_the_summary_is_kept():
    b, t = started("keys")
    b.hw.answers[0] = False  # the pad reader does not answer
    to_cells(b, t)
    b.hw.keys.events.append(buttons.CONFIRM)  # cells skipped
    run(b, b.now + 10)
    assert t.stage == 7 and t._key == buttons.MODE
    b.hw.keys.events.append(buttons.MODE)
    run(b, b.now + 10)
    assert t._key == buttons.CONFIRM
    run(b, b.now + 9900)
    assert t._key == buttons.CONFIRM  # within its 10 s
    run(b, b.now + 200)
    assert t._key == buttons.DECLARE and t.keys == 1 << buttons.CONFIRM
    b.hw.keys.events.append(buttons.DECLARE)
    run(b, b.now + 10)
    assert t.stage == 8
    m = (1 << selftest.PARTS) | (1 << selftest.KEYS)
    assert t.failed() == m and b.settings.get(settings.SELFTEST) == 1 + m
    assert b.said[-1] == "self-test failed: parts, buttons"
    kept = settings.Settings(b.settings.path)
    assert kept.load() and kept.get(settings.SELFTEST) == 1 + m  # on flash at once
    assert selftext.stored(1 + m) == (
        "fail supply=ok leds=ok parts=fail idle=ok cells=ok buttons=fail"
    )
    assert selftext.stored(0).startswith("none")
    assert selftext.stored(settings.OLDER).startswith("none")
    run(b, b.now + 61000)  # the summary's time up: the board plays
    assert b.selftest is None and b.shown == 1 and selftest.last is t

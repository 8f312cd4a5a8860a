# The platform's pieces the running board keeps: the buttons and the
# strip's sense line on GPIO pins, and the stand-ins for parts that failed
# to start. They live apart from the code that builds the board
# (boards/build.py) so that code can be forgotten once the loop runs: with
# the firmware deployed as .mpy into a slot of the littlefs its bytecode
# is heap, and an object of a class it defined would keep all of it.


class PinButtons:
    """Buttons to ground with pull-ups: pressed reads 0."""

    def __init__(self, pin_objects):
        self.pins = pin_objects

    def read(self):
        m = 0
        for i in range(len(self.pins)):
            if not self.pins[i].value():
                m |= 1 << i
        return m


class SenseLine:
    """The strip connector's sense line: tied to ground on the strip's
    side, pulled up here, so it reads 1 with the strip unplugged. Called,
    it says whether the strip is there."""

    def __init__(self, pin):
        self.pin = pin

    def __call__(self):
        return not self.pin.value()


class NoMux:
    def select(self, ch):
        pass


class NoStrip:
    """The painter's strip when the real one failed to start: frames go
    nowhere, the loop goes on."""

    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)

    def write(self):
        pass


class NoScanner:
    """A scanner that failed to start: it never reports a change."""

    PRIORITISED = False

    def __init__(self, n):
        self.state = bytearray(n)

    def scan_for_changes(self):
        return -1

    def prioritise(self, hot):
        pass

    def rest(self):
        return True  # nothing to read: the loop may sleep

# Stand-in for CircuitPython's `digitalio`: what neopixel.NeoPixel does with
# its data pin (an output), nothing more.


class Direction:
    INPUT = "input"
    OUTPUT = "output"


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.value = False

    def switch_to_output(self, value=False):
        self.direction = Direction.OUTPUT
        self.value = value

    def deinit(self):
        self.pin = None

# The LED strip on CircuitPython: adafruit_circuitpython_neopixel. The
# start-up code builds neopixel.NeoPixel(pin, n, auto_write=False,
# pixel_order=neopixel.GRB) and passes it in. Same interface as the
# MicroPython strip: the painter fills buf (GRB), write() sends it.


class CircuitPythonStrip:
    def __init__(self, pixels):
        self.pixels = pixels
        self.n = len(pixels)
        self.buf = bytearray(3 * self.n)

    def write(self):
        p = self.pixels
        b = self.buf
        for i in range(self.n):
            p[i] = (b[3 * i + 1], b[3 * i], b[3 * i + 2])
        p.show()

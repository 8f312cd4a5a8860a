# The LED strip through Adafruit's CircuitPython NeoPixel library
# (adafruit-circuitpython-neopixel): for a CircuitPython program of one's
# own, not the board's firmware, which runs on MicroPython only
# (hardware/README.md, LEDs). The caller builds
# neopixel.NeoPixel(pin, n, auto_write=False, pixel_order=neopixel.GRB) and
# passes it in. Same interface as the MicroPython strip: the painter fills
# buf (GRB, gamma, brightness and the current limit applied), write() sends
# it.
#
# The library keeps its own pixel buffer: a frame is handed over as one
# slice assignment of packed 0xRRGGBB ints (PixelBuf's "a list of colours
# sets each selected pixel"), one call where 61 `pixels[i] = (r, g, b)`
# made 61, and no tuple per pixel (ints below 2^30 are not allocated on
# MicroPython). A flat list of bytes would be cheaper still but only the
# built-in PixelBuf takes it; the pure-Python one reads it as 61 colours.


class CircuitPythonStrip:
    def __init__(self, pixels):
        self.pixels = pixels
        self.n = len(pixels)
        self.buf = bytearray(3 * self.n)
        self._rgb = [0] * self.n  # the frame as the library takes it
        # The painter has dimmed the bytes already: the library's own
        # brightness (a float multiply per byte) must stay at 1.0 or the
        # frame is dimmed twice, and each assignment must not send a frame.
        pixels.brightness = 1.0
        pixels.auto_write = False

    def write(self):
        b = self.buf
        rgb = self._rgb
        j = 0
        for i in range(self.n):
            rgb[i] = b[j + 1] << 16 | b[j] << 8 | b[j + 2]
            j += 3
        p = self.pixels
        p[:] = rgb
        p.show()

# The LED strip on MicroPython: the built-in neopixel module (on the rp2
# port it bit-banges through machine.bitstream, interrupts off ~1.8 ms per
# 61-LED frame). The start-up code builds neopixel.NeoPixel(Pin(pin), n)
# from the board's pin table and passes it in. One buffer, one write().


class NeoPixelStrip:
    def __init__(self, np):
        self.np = np
        self.n = len(np)
        self.buf = np.buf  # GRB bytes, painted in place: no copy per frame

    def write(self):
        self.np.write()

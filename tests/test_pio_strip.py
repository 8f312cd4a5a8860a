"""The PIO strip driver with stand-ins for rp2: it assembles its program
through the rp2 module it is given (never importing it), and write() hands
the painter's buffer to the state machine, one byte per word at the top."""

from smartboard.drivers.neopixel_pio import PioStrip, ws2812_program


class FakeSM:
    def __init__(self):
        self.puts = []

    def put(self, data, shift=0):
        self.puts.append([b << shift for b in data])


class FakeRp2:
    class PIO:
        OUT_LOW = 0
        SHIFT_LEFT = 0

    def __init__(self):
        self.config = None

    def asm_pio(self, **config):
        self.config = config
        return lambda f: f


def test_program_is_built_by_the_rp2_module_passed_in():
    rp2 = FakeRp2()
    prog = ws2812_program(rp2)
    assert callable(prog)
    assert rp2.config["pull_thresh"] == 8 and rp2.config["autopull"]


def test_write_sends_every_byte_of_the_buffer_at_the_top_of_a_word():
    sm = FakeSM()
    s = PioStrip(sm, 61)
    s.buf[0:3] = b"\x10\x20\x30"
    s.write()
    words = sm.puts[0]
    assert len(words) == 183 and words[:3] == [0x10 << 24, 0x20 << 24, 0x30 << 24]

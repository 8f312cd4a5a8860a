"""The WS2812 PIO program, run in an RP2040 PIO emulator (pioemu, from
rp2040-pio-emulator): the line it drives, followed clock cycle by clock
cycle, carries the bytes PioStrip.write() hands to the state machine, every
bit 10 cycles (1.25 us at 8 MHz), high for 7 cycles for a 1 and 2 for a 0.

The program is assembled by the module itself through the rp2 module it is
given; here that is a minimal stand-in for MicroPython's rp2 assembler,
covering only what this program uses."""

import types
from collections import deque

import pytest
from pioemu import State, emulate
from smartboard.drivers.neopixel_pio import PioStrip, ws2812_program

FREQ = 8_000_000
PERIOD = 10  # cycles per bit
HIGH_1 = 7
HIGH_0 = 2
LATCH = 400  # cycles of low after the frame: 50 us at 8 MHz
DATA = b"\x10\xff\x00\xa5\x5a\x01"
T = (2, 5, 3)  # T1, T2, T3 of the program body (MicroPython's WS2812 example)


# --- a minimal rp2: just enough of MicroPython's PIO assembler --------------


class _Instr:
    """One instruction as the assembler names build it: out(...).side(v)[d]."""

    def __init__(self, opcode, label=None):
        self.opcode = opcode  # 16 bits, delay/side-set field still zero
        self.label = label  # jump target, resolved once all labels are known
        self.side_value = None
        self.delay = 0

    def side(self, value):
        self.side_value = value
        return self

    def __getitem__(self, delay):
        self.delay = delay
        return self


class Program:
    def __init__(self, opcodes, wrap_target, wrap, sideset_count, config):
        self.opcodes = opcodes
        self.wrap_target = wrap_target
        self.wrap = wrap
        self.sideset_count = sideset_count
        self.config = config


class FakeRp2:
    """asm_pio() runs the program body with the assembler names as its only
    globals, as MicroPython's rp2.asm_pio does (it empties the module's
    globals while the body runs: a module-level constant used there is a
    NameError on the board, and here too), and assembles the instructions
    it records."""

    class PIO:  # the values of MicroPython's rp2.PIO constants
        IN_LOW = 0
        IN_HIGH = 1
        OUT_LOW = 2
        OUT_HIGH = 3
        SHIFT_LEFT = 0
        SHIFT_RIGHT = 1

    def asm_pio(self, **config):
        def decorator(f):
            return self._assemble(f, config)

        return decorator

    def _assemble(self, f, config):
        sideset_init = config.get("sideset_init")
        if sideset_init is None:
            sideset_count = 0
        elif isinstance(sideset_init, tuple):
            sideset_count = len(sideset_init)
        else:
            sideset_count = 1
        instrs = []
        labels = {}
        marks = {}

        def emit(opcode, label=None):
            instr = _Instr(opcode, label)
            instrs.append(instr)
            return instr

        def label(name):
            labels[name] = len(instrs)

        def wrap_target():
            marks["wrap_target"] = len(instrs)

        def wrap():
            marks["wrap"] = len(instrs) - 1  # the last instruction so far

        def out(dest, count):  # OUT: 011 | delay/side-set | dest | count
            return emit(0x6000 | dest << 5 | count & 0x1F)

        def jmp(cond, target=None):  # JMP: 000 | delay/side-set | cond | address
            if target is None:
                cond, target = 0, cond
            return emit(0x0000 | cond << 5, target)

        def nop():  # MOV y, y: 101 | delay/side-set | dest y | op none | src y
            return emit(0xA042)

        names = {
            "label": label,
            "wrap_target": wrap_target,
            "wrap": wrap,
            "out": out,
            "jmp": jmp,
            "nop": nop,
            "x": 1,  # OUT destination
            "not_x": 1,  # JMP condition !X
        }
        body = types.FunctionType(f.__code__, names, f.__name__, f.__defaults__, f.__closure__)
        body()

        # The 5-bit field at bits 8..12 holds the side-set value at its top
        # and the delay below it (no side-set enable bit: it is not optional).
        delay_bits = 5 - sideset_count
        opcodes = []
        for instr in instrs:
            side = instr.side_value or 0
            assert 0 <= side < 1 << sideset_count, "side-set value too large"
            assert 0 <= instr.delay < 1 << delay_bits, "delay too large"
            opcode = instr.opcode | (side << delay_bits | instr.delay) << 8
            if instr.label is not None:
                opcode |= labels[instr.label]
            opcodes.append(opcode)
        wrap_at = marks.get("wrap", len(opcodes) - 1)
        return Program(opcodes, marks.get("wrap_target", 0), wrap_at, sideset_count, config)


class FakeSM:
    def __init__(self):
        self.words = []

    def put(self, data, shift=0):
        self.words.extend(b << shift for b in data)


def with_delays(prog, T1=T[0], T2=T[1], T3=T[2]):
    """The program as other T1..T3 in its body would assemble it: the delay
    field (bits 8..11, one side-set bit) of each instruction replaced."""
    delays = [T3 - 1, T1 - 1, T2 - 1, T2 - 1]
    opcodes = [op & ~0x0F00 | d << 8 for op, d in zip(prog.opcodes, delays)]
    return Program(opcodes, prog.wrap_target, prog.wrap, prog.sideset_count, prog.config)


# --- emulation and decoding -------------------------------------------------


def words_for(data):
    """The TX FIFO words PioStrip.write() puts for a frame holding `data`."""
    sm = FakeSM()
    strip = PioStrip(sm, len(data) // 3)
    strip.buf[:] = data
    strip.write()
    return sm.words


def line_levels(prog, words, idle=LATCH, pin=0):
    """Level of the side-set pin on each clock cycle, the FIFO preloaded
    with `words`, until `idle` cycles past the time the frame takes (plus
    one bit time for the start: the first OUT stalls while autopull fills
    the empty OSR)."""
    config = prog.config
    assert config["sideset_init"] == FakeRp2.PIO.OUT_LOW
    bits = len(words) * config["pull_thresh"]
    steps = emulate(
        prog.opcodes,
        stop_when=lambda _opcode, state: state.clock >= (bits + 1) * PERIOD + idle,
        initial_state=State(transmit_fifo=deque(words)),
        auto_pull=config["autopull"],
        pull_threshold=config["pull_thresh"],
        shift_osr_right=config["out_shiftdir"] == FakeRp2.PIO.SHIFT_RIGHT,
        side_set_base=pin,
        side_set_count=prog.sideset_count,
        wrap_target=prog.wrap_target,
        wrap_top=prog.wrap,
    )
    levels = []
    for before, after in steps:
        # pioemu yields one step per instruction (or stalled cycle): the
        # delay cycles are folded into the clock, the side-set level holds
        # through them.
        levels.extend([after.pin_values >> pin & 1] * (after.clock - before.clock))
    return levels


class WaveformError(ValueError):
    pass


def runs(levels):
    """Run lengths of the levels: [(level, cycles), ...]."""
    out = []
    for level in levels:
        if out and out[-1][0] == level:
            out[-1][1] += 1
        else:
            out.append([level, 1])
    return [tuple(r) for r in out]


def decode(levels):
    """Bits -> bytes, MSB first, checking every bit is a 10-cycle period
    starting high, high for 7 (a 1) or 2 (a 0) cycles; the line idles low
    before and after. Returns (data, periods, highs)."""
    rs = runs(levels)
    if not rs or rs[0][0] != 0:
        raise WaveformError("the line does not start low")
    rs = rs[1:]
    if len(rs) % 2:
        raise WaveformError("the line does not end low")
    bits, periods, highs = [], [], []
    for i in range(0, len(rs), 2):
        high, low = rs[i][1], rs[i + 1][1]
        last = i + 2 == len(rs)
        if high == HIGH_1:
            bits.append(1)
        elif high == HIGH_0:
            bits.append(0)
        else:
            raise WaveformError("bit %d: high for %d cycles" % (i // 2, high))
        # The last bit's low runs on into the idle line.
        if last:
            if low < PERIOD - high + LATCH:
                raise WaveformError("no latch gap after the frame")
        elif high + low != PERIOD:
            raise WaveformError("bit %d: a %d-cycle period" % (i // 2, high + low))
        periods.append(PERIOD if last else high + low)
        highs.append(high)
    if len(bits) % 8:
        raise WaveformError("%d bits is not whole bytes" % len(bits))
    data = bytes(
        sum(bit << (7 - k) for k, bit in enumerate(bits[j : j + 8])) for j in range(0, len(bits), 8)
    )
    return data, periods, highs


# --- tests --------------------------------------------------------------------


def test_fake_assembler_matches_the_datasheet_encoding():
    prog = ws2812_program(FakeRp2())
    # pioasm's output for the same program (pico-examples ws2812.pio):
    #   0: out x, 1 side 0 [2]; 1: jmp !x, 3 side 1 [1];
    #   2: jmp 0 side 1 [4];    3: nop side 0 [4]
    assert prog.opcodes == [0x6221, 0x1123, 0x1400, 0xA442]
    assert (prog.wrap_target, prog.wrap, prog.sideset_count) == (0, 3, 1)
    # 1 side-set bit, no enable: bit 12 the side value, bits 8..11 the delay
    assert [op >> 12 & 1 for op in prog.opcodes] == [0, 1, 1, 0]
    t1, t2, t3 = T
    assert [op >> 8 & 0xF for op in prog.opcodes] == [t3 - 1, t1 - 1, t2 - 1, t2 - 1]
    assert [op >> 13 for op in prog.opcodes] == [0b011, 0b000, 0b000, 0b101]


def test_the_line_carries_the_frame_with_ws2812_timing():
    prog = ws2812_program(FakeRp2())
    words = words_for(DATA)
    assert words == [b << 24 for b in DATA]
    levels = line_levels(prog, words)

    data, periods, highs = decode(levels)

    assert data == DATA
    assert len(periods) == 8 * len(DATA)
    assert set(periods) == {PERIOD} and PERIOD / FREQ == pytest.approx(1.25e-6)
    expected = [b >> (7 - k) & 1 for b in DATA for k in range(8)]
    assert highs == [HIGH_1 if bit else HIGH_0 for bit in expected]
    # No gap between bytes (autopull refills the OSR in time), and the line
    # stays low once the FIFO runs dry: the >= 50 us latch.
    first_rise = levels.index(1)
    end = first_rise + PERIOD * len(periods)
    assert sum(levels[first_rise:end]) == sum(highs)
    assert not any(levels[end:]) and len(levels) - end >= LATCH


@pytest.mark.parametrize(
    "overrides",
    [{"T2": 4}, {"T2": 6}, {"T1": 3}, {"T3": 2}, {"T2": 4, "T3": 4}, {"T1": 1, "T3": 4}],
    ids=lambda o: ",".join("%s=%d" % kv for kv in o.items()),
)
def test_a_program_with_other_delays_is_rejected(overrides):
    prog = with_delays(ws2812_program(FakeRp2()), **overrides)
    assert prog.opcodes != ws2812_program(FakeRp2()).opcodes
    with pytest.raises(WaveformError):
        decode(line_levels(prog, words_for(DATA)))


def test_a_program_shifting_right_sends_other_bytes():
    rp2 = FakeRp2()
    prog = ws2812_program(rp2)
    prog.config = dict(prog.config, out_shiftdir=rp2.PIO.SHIFT_RIGHT)
    # Shifting right takes the low bits of the word: all zeros here.
    data, _, _ = decode(line_levels(prog, words_for(DATA)))
    assert data != DATA

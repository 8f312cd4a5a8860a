"""Reading a KiCad netlist back, and what the board's wiring says the
firmware's pin table must be.

derive(text) walks the netlist itself (not the Python that made it): the
RP2040's pins and the nets on them, the I2C and SPI functions those GPIOs
have on the chip, the TCA9548A's address pins, which reader sits on which
switch port and which antenna switch serves it, the order of the reed
registers along the chain from MISO, the LED chain from the GPIO through
the buffer, the connector and the cable, and the CC sense divider's
resistors. Whatever pins.py or the emulator's wiring says must equal
what this finds (tests/hardware)."""

import re

from . import circuit
from . import parts as P

_TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+')


def _parse(text):
    stack = [[]]
    for t in _TOKEN.findall(text):
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t[1:-1] if t.startswith('"') else t)
    return stack[0][0]


def _find(node, key):
    for x in node[1:]:
        if isinstance(x, list) and x and x[0] == key:
            return x
    return None


def _all(node, key):
    return [x for x in node[1:] if isinstance(x, list) and x and x[0] == key]


SPECS = {}  # libsource part name -> Spec (the passives: by value, bom.py)
for _v in vars(P).values():
    if isinstance(_v, P.Spec):
        assert SPECS.setdefault(_v.name, _v) is _v, "two parts named " + _v.name
for _d in (P.RESISTORS, P.CAPS, P.INDUCTORS):
    for _v in _d.values():
        SPECS.setdefault(_v.name, _v)


class Netlist:
    def __init__(self, text):
        tree = _parse(text)
        self.comps = {}  # ref -> {value, part, fields}
        for c in _all(_find(tree, "components"), "comp"):
            ref = _find(c, "ref")[1]
            fields = {}
            fl = _find(c, "fields")
            for f in _all(fl, "field") if fl else ():
                if len(f) > 2:
                    fields[_find(f, "name")[1]] = f[2]
            self.comps[ref] = {
                "value": _find(c, "value")[1],
                "part": _find(_find(c, "libsource"), "part")[1],
                "footprint": (_find(c, "footprint") or [None, ""])[1],
                "fields": fields,
            }
        self.nets = {}  # name -> [(ref, pin number)]
        self.net_of = {}  # (ref, pin number) -> name
        for n in _all(_find(tree, "nets"), "net"):
            name = _find(n, "name")[1]
            nodes = [(_find(x, "ref")[1], _find(x, "pin")[1]) for x in _all(n, "node")]
            self.nets[name] = nodes
            for nd in nodes:
                self.net_of[nd] = name

    def pin_name(self, ref, num):
        spec = SPECS[self.comps[ref]["part"]]
        for n, name, _ in spec.pins:
            if str(n) == num:
                return name
        raise KeyError((ref, num))

    def pin_num(self, ref, name):
        spec = SPECS[self.comps[ref]["part"]]
        got = [str(n) for n, nm, _ in spec.pins if nm == name]
        if len(got) != 1:
            raise KeyError((ref, name))
        return got[0]

    def net(self, ref, name):
        return self.net_of.get((ref, self.pin_num(ref, name)))

    def refs(self, part, **fields):
        return sorted(
            (r for r, c in self.comps.items() if c["part"] == part and _has(c, fields)),
            key=_refkey,
        )

    def on(self, net, part=None):
        """(ref, pin name) of the pins on a net, of one kind of part."""
        out = []
        for ref, num in self.nets.get(net, ()):
            if part is None or self.comps[ref]["part"] == part:
                out.append((ref, self.pin_name(ref, num)))
        return out

    def other_end(self, ref, net):
        """The net on the other side of a two-pin part."""
        a = self.net_of.get((ref, "1"))
        b = self.net_of.get((ref, "2"))
        return b if a == net else a


def _has(c, fields):
    return all(c["fields"].get(k) == str(v) for k, v in fields.items())


def _refkey(r):
    m = re.match(r"([A-Z]+)(\d+)", r)
    return (m.group(1), int(m.group(2))) if m else (r, 0)


def ohms(value):
    m = re.match(r"([\d.]+)([kM]?)$", value)
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]


class WiringError(Exception):
    pass


def _need(ok, why):
    if not ok:
        raise WiringError(why)


# RP2040 datasheet 1.4.3 'GPIO Functions': I2C on GPIO n is block
# (n >> 1) & 1, SDA on even n, SCL on odd; SPI on GPIO n is block
# (n >> 3) & 1, RX, CSn, SCK, TX for n % 4 = 0, 1, 2, 3; the ADC inputs are
# GPIO 26..29 (channels 0..3).
def i2c_bus(sda, scl):
    _need(sda % 2 == 0, "GPIO%d cannot be I2C SDA" % sda)
    _need(scl % 2 == 1, "GPIO%d cannot be I2C SCL" % scl)
    bus = (sda >> 1) & 1
    _need(bus == (scl >> 1) & 1, "GPIO%d and GPIO%d are on different I2C blocks" % (sda, scl))
    return bus


def spi_bus(sck, mosi, miso):
    for g, f, what in ((sck, 2, "SCK"), (mosi, 3, "TX (MOSI)"), (miso, 0, "RX (MISO)")):
        _need(g % 4 == f, "GPIO%d cannot be SPI %s" % (g, what))
    bus = (sck >> 3) & 1
    _need(
        bus == (mosi >> 3) & 1 == (miso >> 3) & 1,
        "SPI pins on different blocks: %d %d %d" % (sck, mosi, miso),
    )
    return bus


def derive(text):
    """The pin table the netlist implies: the keys of pins.py that the
    board's wiring decides, with their values."""
    nl = Netlist(text)
    (mcu,) = nl.refs("RP2040")
    gpio = {}  # net -> GPIO number
    for i in range(30):
        n = nl.net(mcu, "GPIO%d" % i)
        if n is not None:
            _need(n not in gpio, "net %s on two GPIOs" % n)
            gpio[n] = i

    def g(net):
        _need(net in gpio, "no GPIO on net %s" % net)
        return gpio[net]

    out = {}
    # the strip: GPIO -> buffer A; Y -> series R -> board connector pin ->
    # cable -> strip connector -> first LED's DIN; DOUT -> next DIN ...
    led_net = [n for n in gpio if nl.on(n, "74AHCT1G125")]
    _need(len(led_net) == 1, "one GPIO must drive the LED buffer")
    out["LED_PIN"] = gpio[led_net[0]]
    (buf,) = nl.refs("74AHCT1G125")
    _need(nl.net(buf, "OE") == "GND", "the LED buffer's OE must be tied low")
    y = nl.net(buf, "Y")
    rs = [r for r, _ in nl.on(y, "R")]
    _need(len(rs) == 1, "one series resistor after the LED buffer")
    data = nl.other_end(rs[0], y)
    chain = _strip_chain(nl, data)
    out["_LED_CELLS"] = chain
    # sense: GPIO -> board connector pin k -> cable -> the strip's ground
    sense = [n for n in gpio if _through_cable(nl, n) is not None and gpio[n] != out["LED_PIN"]]
    _need(len(sense) == 1, "one GPIO must reach the strip connector's sense pin")
    far = _through_cable(nl, sense[0])
    leds = nl.refs("WS2812B")
    _need(far == nl.net(leds[0], "VSS"), "the sense wire must be grounded on the strip's side")
    out["STRIP_SENSE"] = gpio[sense[0]]
    # the strip's load switch: its ON from a GPIO, pulled down
    (sw,) = nl.refs("TPS22965DSG")
    on = nl.net(sw, "ON")
    _need(on in gpio, "a GPIO must switch the strip's load switch (ON)")
    pulls = [r for r, _ in nl.on(on, "R") if nl.other_end(r, on) == "GND"]
    _need(len(pulls) == 1, "the load switch's ON must be pulled down (off through reset)")
    out["STRIP_EN"] = gpio[on]
    # buttons: a push switch from the GPIO to ground, by its value
    btn = {}
    for ref in nl.refs("SW_Push"):
        a, b = nl.net_of.get((ref, "1")), nl.net_of.get((ref, "2"))
        for x, y2 in ((a, b), (b, a)):
            if x in gpio and y2 == "GND":
                btn[nl.comps[ref]["value"]] = gpio[x]
    out["BUTTONS"] = tuple(btn[k] for k in ("MODE", "CONFIRM", "DECLARE"))
    # readers
    readers = nl.refs("PN532")
    pads = [r for r in readers if nl.comps[r]["fields"].get("Reader") == "PAD"]
    _need(len(pads) == 1, "one pad reader")
    pad = pads[0]
    sda, scl = nl.net(pad, "MOSI_SDA"), nl.net(pad, "NSS_P50_SCL")
    out["PAD_I2C"] = (i2c_bus(g(sda), g(scl)), g(sda), g(scl))
    # what each bus reaches: the parts its clock must suit (check.py)
    buses = {"PAD_I2C": [nl.comps[r]["part"] for r, _ in nl.on(scl, "PN532")]}
    out["_BUS_PARTS"] = buses

    def reset_line(net, what):
        # a reset input on a GPIO (the firmware clears a hung bus with it),
        # pulled up once: the part runs while the GPIO floats
        _need(net in gpio, "%s must be on a GPIO" % what)
        ups = [r for r, _ in nl.on(net, "R") if nl.other_end(r, net) == "+3V3"]
        _need(len(ups) == 1, "%s must be pulled up (once)" % what)
        return gpio[net]

    out["PAD_RSTPD"] = reset_line(nl.net(pad, "RSTPD_N"), "the pad reader's RSTPD_N")
    switches = nl.refs("TCA9548A")
    if switches:
        (sw,) = switches
        sda, scl = nl.net(sw, "SDA"), nl.net(sw, "SCL")
        out["CELL_I2C"] = (i2c_bus(g(sda), g(scl)), g(sda), g(scl))
        _need(out["CELL_I2C"][0] != out["PAD_I2C"][0], "the pad needs its own I2C block")
        addr = 0x70
        for bit, pin in enumerate(("A0", "A1", "A2")):
            lvl = nl.net(sw, pin)
            _need(lvl in ("GND", "+3V3"), "TCA9548A %s must be tied" % pin)
            addr |= (lvl == "+3V3") << bit
        out["CELL_SWITCH"] = addr
        out["CELL_SWITCH_RESET"] = reset_line(nl.net(sw, "RESET"), "the switch's RESET")
        rst = {nl.net(r, "RSTPD_N") for r in readers if r != pad}
        _need(len(rst) == 1, "the cell readers share one RSTPD_N line")
        out["CELL_RSTPD"] = reset_line(rst.pop(), "the cell readers' RSTPD_N")
        lanes = []
        cells = {}
        for k in range(8):
            on = nl.on(nl.net(sw, "SD%d" % k), "PN532") if nl.net(sw, "SD%d" % k) else []
            if not on:
                continue
            _need(len(lanes) == k, "readers must fill the switch's ports from 0")
            rd = on[0][0]
            _need(
                nl.net(rd, "NSS_P50_SCL") == nl.net(sw, "SC%d" % k),
                "reader on port %d: SCL on another port" % k,
            )
            name = nl.comps[rd]["fields"]["Reader"]
            # the lane's decoder: A0..A3 on GPIOs, output Yn high turns on
            # the MOSFETs that connect the reader's feed to channel n's coil
            decs = nl.refs("CD74HC4514", Lane=k)
            _need(len(decs) == 1, "lane %d needs one antenna decoder" % k)
            dec = decs[0]
            _need(nl.net(dec, "E") == "GND", "lane %d's decoder must be enabled" % k)
            _need(nl.net(dec, "LE") == "+3V3", "lane %d's decoder latch must pass" % k)
            lanes.append(tuple(g(nl.net(dec, "A%d" % s)) for s in range(4)))
            for n in range(16):
                net = nl.net(dec, "Y%d" % n)
                fets = [r for r, p in nl.on(net, "DMG1012T") if p == "G"] if net else []
                coils = set()
                for q in fets:
                    _need(
                        nl.net(q, "D").startswith(name + "_"),
                        "lane %d's switches are fed by another reader" % k,
                    )
                    # the run: the MOSFET's source, a series capacitor, the coil
                    for c, _ in nl.on(nl.net(q, "S"), "C"):
                        end = nl.other_end(c, nl.net(q, "S"))
                        coils |= {r for r, _ in nl.on(end, "Antenna_Coil")}
                _need(len(coils) <= 1, "lane %d output %d reaches several coils" % (k, n))
                _need(not coils or len(fets) == 2, "lane %d output %d: a MOSFET a leg" % (k, n))
                for ref in coils:
                    cells[nl.comps[ref]["fields"]["Cell"]] = 16 * k + n
        out["MUX_SELECT"] = tuple(lanes)
        out["LANE"] = 16  # a 4-to-16 decoder's outputs: antennas per reader
        out["_SENSOR_CELLS"] = cells
        # the switch and, through its ports, every reader behind it
        behind = [nl.comps[r]["part"] for r in readers if r != pad]
        buses["CELL_I2C"] = ["TCA9548A"] + behind
    regs = nl.refs("74HC165")
    if regs:
        # the chain from MISO: QH of position 0 on MISO, its SER from the
        # next one's QH, ...
        sck = {nl.net(r, "CLK") for r in regs}
        latch = {nl.net(r, "SH_LD") for r in regs}
        _need(len(sck) == 1 and len(latch) == 1, "the registers share CLK and SH/LD")
        miso = [n for n in gpio if nl.on(n, "74HC165")]
        miso = [n for n in miso if any(p == "QH" for _, p in nl.on(n, "74HC165"))]
        _need(len(miso) == 1, "one register's QH on a GPIO")
        mosi = [n for n in gpio if nl.on(n, "TestPoint")]
        _need(len(mosi) == 1, "the SPI's TX GPIO on its test pad")
        order = []
        net = miso[0]
        while True:
            on = [r for r, p in nl.on(net, "74HC165") if p == "QH"]
            if not on:
                break
            order.append(on[0])
            _need(len(order) <= len(regs), "the register chain loops")
            net = nl.net(on[0], "SER")
        _need(len(order) == len(regs), "every register on the chain")
        s_sck, s_mosi, s_miso = g(sck.pop()), g(mosi[0]), g(miso[0])
        out["SHIFT_SPI"] = (spi_bus(s_sck, s_mosi, s_miso), s_sck, s_mosi, s_miso)
        out["SHIFT_LATCH"] = g(latch.pop())
        out["SHIFT_BYTES"] = len(order)
        out["MATRIX_COLS"] = 8  # a 74HC165's parallel inputs (A..H): a row each
        buses["SHIFT_SPI"] = [nl.comps[r]["part"] for r in order]
        cells = {}
        for pos, r in enumerate(order):
            _need(nl.net(r, "CLK_INH") == "GND", "register %s must be clocked" % r)
            for c, pin in enumerate("ABCDEFGH"):
                for ref, _ in nl.on(nl.net(r, pin), "Reed_Switch"):
                    cells[nl.comps[ref]["fields"]["Cell"]] = 8 * pos + c
        out["_SENSOR_CELLS"] = cells
    # the USB-C CC sense: the ADC GPIO, and the divider from vRd to it
    cc = [n for n in gpio if n == "CC_SENSE"]
    _need(len(cc) == 1, "a GPIO on the CC sense node")
    adc = gpio[cc[0]]
    _need(26 <= adc <= 29, "GPIO%d has no ADC input" % adc)
    out["CC_SENSE"] = adc
    out["CC_LEVELS"] = _cc_levels(nl)
    return out


def _strip_chain(nl, data):
    """The cells of the LEDs in chain order, from the data net after the
    series resistor."""
    net = data if nl.on(data, "WS2812B") else _through_cable(nl, data)
    _need(net is not None, "the LED data must reach the strip through its connector")
    cells = []
    while True:
        on = [r for r, p in nl.on(net, "WS2812B") if p == "DIN"]
        if not on:
            break
        _need(len(on) == 1, "net %s drives two LEDs" % net)
        cells.append(nl.comps[on[0]]["fields"]["Cell"])
        net = nl.net(on[0], "DOUT")
        if net is None:
            break
    return cells


def _through_cable(nl, net):
    """The net at the strip's end of the cable for a net on the board's
    connector, or None. LEDs on the board itself (rev B) have no cable:
    their sense net is tied to their ground by a 0 Ohm link."""
    for ref, _ in nl.on(net, "R"):
        if ohms(nl.comps[ref]["value"]) == 0:
            return nl.other_end(ref, net)
    for ref, pin in nl.on(net, "Conn_01x04"):
        if nl.comps[ref]["fields"].get("Side") != "board":
            continue
        k = pin  # pins are named by number
        for cref, cpin in nl.on(net, "Cable_4way"):
            if cpin == "A" + k:
                return nl.net(cref, "B" + k)
    return None


def _cc_levels(nl):
    """ADC millivolts at the ends of vRd's ranges (the top of Default
    USB's, the bottom and top of 1.5 A's, the bottom of 3.0 A's: circuit.py),
    from the divider's resistors as the netlist has them."""

    def between(a, b):
        got = [ohms(nl.comps[r]["value"]) for r, _ in nl.on(a, "R") if nl.other_end(r, a) == b]
        _need(len(got) == 1, "one resistor between %s and %s" % (a, b))
        return got[0]

    rd = between("CC1", "GND")
    _need(between("CC2", "GND") == rd, "Rd must match on both CC pins")
    r1 = between("CC1", "CC_SENSE")
    _need(between("CC2", "CC_SENSE") == r1, "both CC pins feed the sense node alike")
    rg = between("CC_SENSE", "GND")
    idle = r1 + rd
    low = rg * idle / (rg + idle)
    k = low / (r1 + low)
    return tuple(
        round(v * k)
        for v in (
            circuit.VRD_USB_MAX_MV,
            circuit.VRD_1A5_MIN_MV,
            circuit.VRD_1A5_MAX_MV,
            circuit.VRD_3A0_MIN_MV,
        )
    )

"""The APIXAGON board's circuit, one function per revision, in SKiDL.

This file is the one source of the board's wiring: the KiCad netlist,
the BOM, the pin table, the firmware's pin tables
(firmware/boards/<rev>/pins.py) and the emulator's wiring
(hardware/<rev>/wiring.json) are all generated from it (`make hardware`,
tools/hardware/gen.py), and tests/hardware fails while any of them
disagrees with the netlist.

The GPIO of every signal is in GPIO below, one table per revision; the
rest of each function wires the parts as their datasheets ask. Every pin
left open is left open on purpose, through nc() with the reason, and the
reasons are the ERC's only waivers (hardware/<rev>/erc.txt)."""

import contextlib
import functools
import json
import os
import tempfile

from . import parts as P

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The RP2040's GPIO for each signal of the firmware's pin table. A pin
# changed here changes pins.py and the emulator's wiring at the next
# `make hardware`; until then tests/hardware fails.
GPIO = {
    "rev_a": {
        "LED_DATA": 16,
        "STRIP_SENSE": 17,
        "BTN_MODE": 10,
        "BTN_CONFIRM": 11,
        "BTN_DECLARE": 12,
        "CELL_SDA": 4,
        "CELL_SCL": 5,
        "PAD_SDA": 6,
        "PAD_SCL": 7,
        "MUX0_S0": 18,
        "MUX0_S1": 19,
        "MUX0_S2": 20,
        "MUX0_S3": 21,
        "MUX1_S0": 8,
        "MUX1_S1": 9,
        "MUX1_S2": 13,
        "MUX1_S3": 14,
        "MUX2_S0": 22,
        "MUX2_S1": 26,
        "MUX2_S2": 27,
        "MUX2_S3": 28,
        "MUX3_S0": 0,
        "MUX3_S1": 1,
        "MUX3_S2": 2,
        "MUX3_S3": 3,
        "CC_SENSE": 29,
        "STRIP_EN": 15,
        # Reset lines (pulled up: the parts run through the RP2040's reset
        # and boot); the firmware pulses them to clear a hung bus
        # (smartboard/recover.py): the switch's RESET, the four cell
        # readers' RSTPD_N (one line), the pad reader's RSTPD_N.
        "CELL_SWITCH_RESET": 23,
        "CELL_RSTPD": 24,
        "PAD_RSTPD": 25,
    },
    "rev_b": {
        "LED_DATA": 16,
        "STRIP_SENSE": 17,
        "BTN_MODE": 10,
        "BTN_CONFIRM": 11,
        "BTN_DECLARE": 12,
        "SHIFT_SCK": 2,
        "SHIFT_MOSI": 3,
        "SHIFT_MISO": 4,
        "SHIFT_LATCH": 5,
        "PAD_SDA": 6,
        "PAD_SCL": 7,
        "CC_SENSE": 29,
        "STRIP_EN": 15,
        "PAD_RSTPD": 25,  # rev A's number: one pad line on both revisions
    },
}

# The clock the firmware runs each bus at (pins.py's last item of each bus
# tuple, generated from here): never above the slowest part on the bus
# (parts.py bus_hz; tools/hardware/check.py fails otherwise). The readers
# behind the TCA9548A see CELL_I2C's clock through it.
BUS_HZ = {"CELL_I2C": 400000, "PAD_I2C": 400000, "SHIFT_SPI": 1000000}

# The CC sense divider (see usb_power): each CC pin through R_CC to the
# sense node, R_CC_GND from it to ground. Values in ohms.
RD = 5100  # USB Type-C sink pull-down on each CC pin
R_CC = 100000
R_CC_GND = 100000
# USB Type-C: a sink reads the source's current advertisement from vRd on
# the CC pin. The specification's sink table (USB Type-C Cable and
# Connector Specification, Table 4-36, 'Voltage on Sink CC pins (Multiple
# Source Current Advertisements)') gives each advertisement a range:
# Default USB 0.25-0.61 V, 1.5 A 0.70-1.16 V, 3.0 A 1.31-2.04 V, with the
# thresholds 0.66 V and 1.23 V in the gaps between them. The firmware
# moves to another advertisement only on a reading inside its range and
# keeps the one it has on a reading in a gap (smartboard/power.py): the
# gaps are its hysteresis, so a reading that wanders over a threshold
# never flips the LEDs' limit back and forth.
VRD_USB_MAX_MV = 610
VRD_1A5_MIN_MV = 700
VRD_1A5_MAX_MV = 1160
VRD_3A0_MIN_MV = 1310


def cc_divider():
    """The fraction of vRd seen at the ADC pin: the live CC pin drives the
    node through R_CC; the node has R_CC_GND to ground in parallel with
    R_CC + RD through the other (idle) CC pin's pull-down."""
    idle = R_CC + RD
    low = R_CC_GND * idle / (R_CC_GND + idle)
    return low / (R_CC + low)


def layout():
    with open(os.path.join(ROOT, "hardware", "layout.json")) as f:
        return json.load(f)


class Part:
    """A SKiDL part whose pins are found by exact name or number (SKiDL's
    own lookup also matches aliases: "P35" would find pin 35 as well)."""

    def __init__(self, part):
        self.part = part
        self.ref = part.ref
        self.pins = part.pins

    def __getitem__(self, key):
        if isinstance(key, int):
            got = [p for p in self.part.pins if p.num == str(key)]
        else:
            got = [p for p in self.part.pins if p.name == key]
            got = got or [p for p in self.part.pins if p.num == key]
        if len(got) != 1:
            raise KeyError("%s has %d pins %r" % (self.ref, len(got), key))
        return got[0]


@functools.lru_cache(maxsize=None)
def _skidl_dir():
    # this process's folder for SKiDL's own files (_skidl_here), gone at exit
    import atexit
    import shutil

    d = tempfile.mkdtemp(prefix="apixagon-skidl-")
    atexit.register(shutil.rmtree, d, True)
    return d


@contextlib.contextmanager
def _skidl_here():
    """SKiDL writes its logs (skidl_REPL.log, .erc) into the current folder
    when a circuit is made and removes them when told to write no files:
    two processes making circuits in one folder (make test's workers)
    removed each other's, and the second removal failed. Each process makes
    its circuits in a folder of its own."""
    old = os.getcwd()
    os.chdir(_skidl_dir())
    try:
        yield
    finally:
        os.chdir(old)


class Board:
    """A SKiDL circuit under construction, with the helpers every revision
    uses and the record of deliberate no-connects (the ERC's waivers)."""

    def __init__(self, rev):
        with _skidl_here():
            import skidl

            self.sk = skidl
            skidl.set_default_tool(skidl.KICAD8)
            self.circ = skidl.Circuit()
            self.circ.no_files = True
        self.rev = rev
        self.gpio = dict(GPIO[rev])
        self.waivers = []  # (ref, pin name, why)
        self._templates = {}
        self.specs = {}  # ref -> Spec
        self.counts = {}
        self.nets = {}
        # the block a part belongs to (its Block field): where the PCB
        # generator (tools/hardware/pcb.py) places it
        self.block = "board"
        for name in ("GND", "VBUS", "+5V", "+5V_LED", "+3V3", "+1V1"):
            self.net(name)

    # ---- building blocks ----------------------------------------------------
    # the rails: driven nets for the ERC (the strip's own exist only where
    # the strip is a separate board behind a cable)
    POWER_NETS = ("GND", "VBUS", "+5V", "+5V_LED", "+3V3", "+1V1", "STRIP_5V", "STRIP_GND")

    def net(self, name):
        if name not in self.nets:
            n = self.sk.Net(name, circuit=self.circ)
            if name in self.POWER_NETS:
                n.drive = self.sk.POWER
            self.nets[name] = n
        return self.nets[name]

    def part(self, spec, value=None, **fields):
        sk = self.sk
        key = id(spec)
        if key not in self._templates:
            types = {
                P.IN: sk.Pin.types.INPUT,
                P.OUT: sk.Pin.types.OUTPUT,
                P.BI: sk.Pin.types.BIDIR,
                P.PAS: sk.Pin.types.PASSIVE,
                P.PWR: sk.Pin.types.PWRIN,
                P.PWROUT: sk.Pin.types.PWROUT,
                P.OC: sk.Pin.types.OPENCOLL,
                P.NC: sk.Pin.types.NOCONNECT,
            }
            self._templates[key] = sk.Part(
                tool=sk.SKIDL,
                name=spec.name,
                ref_prefix=spec.prefix,
                dest=sk.TEMPLATE,
                pins=[sk.Pin(num=str(n), name=nm, func=types[t]) for n, nm, t in spec.pins],
            )
        k = self.counts.get(spec.prefix, 0) + 1
        self.counts[spec.prefix] = k
        ref = "%s%d" % (spec.prefix, k)
        p = self._templates[key](
            value=value or spec.name, footprint=spec.footprint, tag=ref, circuit=self.circ
        )
        p.ref = ref
        p.fields["Block"] = self.block
        p.fields["Manufacturer"] = spec.maker
        p.fields["MPN"] = spec.mpn
        if spec.datasheet:
            p.fields["Datasheet"] = spec.datasheet
        for k2, v in fields.items():
            p.fields[k2] = str(v)
        self.specs[ref] = spec
        return Part(p)

    def connect(self, name, *pins):
        n = self.net(name)
        for p in pins:
            n += p
        return n

    def nc(self, pin, why):
        self.circ.NC += pin
        self.waivers.append((pin.part.ref, pin.name, why))

    def R(self, value, a, b, **f):
        r = self.part(P.RESISTORS[value], value, **f)
        self.connect(a, r[1])
        self.connect(b, r[2])
        return r

    def C(self, value, a, b="GND", **f):
        c = self.part(P.CAPS[value], value, **f)
        self.connect(a, c[1])
        self.connect(b, c[2])
        return c

    def gp(self, mcu, signal):
        """The MCU's pin for a signal of the GPIO table."""
        return mcu["GPIO%d" % self.gpio[signal]]

    # ---- the common core ----------------------------------------------------
    def usb_power(self):
        """USB-C receptacle as a sink: Rd on each CC pin, the CC sense
        divider, ESD, a resettable fuse, the 5 V rails and the 3.3 V buck."""
        self.block = "power"
        j = self.part(P.USBC, "USB-C")
        self.connect("GND", j["A1B12"], j["B1A12"], j["SHIELD"])
        self.connect("VBUS", j["A4B9"], j["B4A9"])
        # USB 2.0 only: both orientations' D+/D- tied together
        self.connect("USB_CONN_DP", j["DP1"], j["DP2"])
        self.connect("USB_CONN_DM", j["DN1"], j["DN2"])
        self.nc(j["SBU1"], "sideband use: no alternate mode on this board")
        self.nc(j["SBU2"], "sideband use: no alternate mode on this board")
        # Rd = 5.1 kOhm on each CC pin: a sink (USB Type-C specification's
        # sink termination); one resistor per pin, never shared
        self.R("5.1k", "CC1", "GND")
        self.R("5.1k", "CC2", "GND")
        self.connect("CC1", j["CC1"])
        self.connect("CC2", j["CC2"])
        # CC sense: only the CC pin the cable uses carries vRd (0.25 to
        # 2.04 V); both feed one ADC node through 100 kOhm each, 100 kOhm
        # to ground: the node is vRd x cc_divider() (~0.34), under 1.9 V
        # even for a faulty 5.5 V on CC, and loads Rd by < 3 %. 10 nF
        # filters it (tau ~0.7 ms, far inside the 60 ms a sink has to
        # follow a lowered advertisement).
        self.R("100k", "CC1", "CC_SENSE")
        self.R("100k", "CC2", "CC_SENSE")
        self.R("100k", "CC_SENSE", "GND")
        self.C("10n", "CC_SENSE")
        esd = self.part(P.ESD_USB, "USBLC6-2SC6")
        self.connect("USB_CONN_DP", esd["IO1"], esd["IO1b"])
        self.connect("USB_CONN_DM", esd["IO2"], esd["IO2b"])
        self.connect("GND", esd["GND"])
        self.connect("VBUS", esd["VBUS"])
        # A PTC fuse that still holds at 50 C what the firmware plans to draw
        # at most (88 % of 3 A: 2.64 A; it holds 4.0 A there, parts.py
        # POLYFUSE) and trips at 8.5 A, under the strip connector's 10 A
        f = self.part(P.POLYFUSE, "5A")
        self.connect("VBUS", f[1])
        self.connect("+5V", f[2])
        self.C("10u", "+5V")
        # The strip's rail through a load switch with a slow rise (CT):
        # USB 2.0 allows a device 10 uF at attach; the strip's 470 uF
        # reservoir charges through the switch's ramp instead (TPS22965:
        # ~1 ms rise per nF of CT at 5 V). 22 nF: ~22 ms, ~0.1 A to charge
        # it (470 uF x 5 V / 22 ms), inside what Default USB leaves the
        # rest of the board (1 nF was ~2.4 A). ON is the firmware's
        # (STRIP_EN, mcu()), pulled down: the strip stays off through
        # reset and boot, and is switched on once the CC pins were read
        # and the supply can carry its dark LEDs (smartboard/paint.py).
        sw = self.part(P.LOADSW, "TPS22965")
        self.connect("+5V", sw[1], sw[2], sw["VBIAS"])
        self.connect("STRIP_EN", sw["ON"])
        self.R("100k", "STRIP_EN", "GND")
        self.connect("GND", sw[5], sw[9])
        self.connect("+5V_LED", sw[7], sw[8])
        self.C("22n", "LOADSW_CT")
        self.connect("LOADSW_CT", sw["CT"])
        # 3.3 V: a 2 A buck (five PN532 fields on rev A are ~0.5 A: too
        # much heat for a linear regulator from 5 V). Vout = 0.6 V x
        # (1 + 100k / 22.1k) = 3.31 V (TLV62569 datasheet, feedback divider)
        u = self.part(P.BUCK, "TLV62569")
        self.connect("+5V", u["VIN"], u["EN"])
        self.connect("GND", u["GND"])
        self.connect("BUCK_SW", u["SW"])
        lo = self.part(P.INDUCTOR_2U2, "2.2u")
        self.connect("BUCK_SW", lo[1])
        self.connect("+3V3", lo[2])
        self.C("10u", "+5V")
        self.C("22u", "+3V3")
        self.R("100k", "+3V3", "BUCK_FB")
        self.R("22.1k", "BUCK_FB", "GND")
        self.connect("BUCK_FB", u["FB"])

    def mcu(self):
        """RP2040 with its flash, crystal, decoupling, USB, buttons and
        the debug header (Raspberry Pi 'Hardware design with RP2040',
        minimal design)."""
        self.block = "mcu"
        m = self.part(P.RP2040, "RP2040")
        for pin in m.pins:
            if pin.name == "IOVDD":
                self.connect("+3V3", pin)
                self.C("100n", "+3V3")
        self.connect("+3V3", m["ADC_AVDD"], m["USB_VDD"], m["VREG_VIN"])
        self.C("100n", "+3V3")
        self.C("1u", "+3V3")  # VREG_VIN (datasheet 2.10: 1 uF)
        self.connect("+1V1", m["VREG_VOUT"])
        for pin in m.pins:
            if pin.name == "DVDD":
                self.connect("+1V1", pin)
                self.C("100n", "+1V1")
        self.C("1u", "+1V1")  # VREG_VOUT (datasheet 2.10: 1 uF)
        self.connect("GND", m["GND"], m["TESTEN"])
        # flash (the Pico's W25Q16: 2 MB, what the MicroPython image assumes)
        fl = self.part(P.W25Q16, "W25Q16JV")
        for a, b in (
            ("QSPI_SS", "CS"),
            ("QSPI_SD1", "DO_IO1"),
            ("QSPI_SD2", "WP_IO2"),
            ("QSPI_SD0", "DI_IO0"),
            ("QSPI_SCLK", "CLK"),
            ("QSPI_SD3", "HOLD_IO3"),
        ):
            self.connect(a, m[a], fl[b])
        self.connect("+3V3", fl["VCC"])
        self.connect("GND", fl["GND"])
        self.C("100n", "+3V3")
        # BOOTSEL: QSPI_SS to ground through 1 kOhm at reset (datasheet 2.8)
        bs = self.part(P.BUTTON, "BOOTSEL")
        self.R("1k", "QSPI_SS", "BOOTSEL_SW")
        self.connect("BOOTSEL_SW", bs[1])
        self.connect("GND", bs[2])
        # RUN: pulled up, a button to reset
        rst = self.part(P.BUTTON, "RESET")
        self.R("10k", "+3V3", "RUN")
        self.connect("RUN", m["RUN"], rst[1])
        self.connect("GND", rst[2])
        # 12 MHz crystal, 1 kOhm on XOUT, 15 pF loads
        y = self.part(P.XTAL12, "12MHz")
        self.connect("XIN", m["XIN"], y[1])
        self.R("1k", "XOUT", "XOUT_Y")
        self.connect("XOUT", m["XOUT"])
        self.connect("XOUT_Y", y[3])
        self.connect("GND", y[2], y[4])
        self.C("15p", "XIN")
        self.C("15p", "XOUT_Y")
        # USB: 27 Ohm series on D+ / D- (datasheet 4.1)
        self.R("27", "USB_DP", "USB_CONN_DP")
        self.R("27", "USB_DM", "USB_CONN_DM")
        self.connect("USB_DP", m["USB_DP"])
        self.connect("USB_DM", m["USB_DM"])
        # debug
        swd = self.part(P.SWD3, "SWD")
        self.connect("SWCLK", m["SWCLK"], swd[1])
        self.connect("GND", swd[2])
        self.connect("SWDIO", m["SWDIO"], swd[3])
        # the buttons: to ground, the RP2040's pull-ups on
        for name in ("MODE", "CONFIRM", "DECLARE"):
            b = self.part(P.BUTTON, name)
            self.connect("BTN_" + name, b[1], self.gp(m, "BTN_" + name))
            self.connect("GND", b[2])
        self.connect("CC_SENSE", self.gp(m, "CC_SENSE"))
        self.connect("STRIP_EN", self.gp(m, "STRIP_EN"))
        return m

    def strip(self, m, onboard=False):
        """The WS2812B chain: a 3.3 -> 5 V buffer (the WS2812B's VIH is
        0.7 x VDD = 3.5 V at 5 V: a 3.3 V GPIO is under it), 330 Ohm in
        series at the source (damps ringing on the line), the connector
        with its sense pin (onboard: none, the LEDs are on this board),
        then the strip: 470 uF at its input, 100 nF at each LED, LEDs in
        the order of hardware/layout.json."""
        lay = layout()
        self.block = "strip"
        sh = self.part(P.LEVEL_SHIFT, "74AHCT1G125")
        self.connect("LED_DATA", self.gp(m, "LED_DATA"), sh["A"])
        self.connect("GND", sh["OE"], sh["GND"])  # OE active low: always on
        self.connect("+5V_LED", sh["VCC"])
        self.C("100n", "+5V_LED")
        self.connect("LED_DATA_5V", sh["Y"])
        if onboard:
            # The LEDs sit on this board beside each cell's sensor (rev B's
            # PCB, hardware/rev_b/rev_b.kicad_pcb): no cable, the strip's
            # rail is the load switch's output and its ground the board's.
            # The sense line is tied low by a 0 Ohm link: the firmware reads
            # the strip as always present, as it would a plugged one.
            strip_5v, strip_gnd, din = "+5V_LED", "GND", "STRIP_DIN"
            self.R("0", "STRIP_SENSE", "GND")
        else:
            strip_5v, strip_gnd, din = "STRIP_5V", "STRIP_GND", "STRIP_DIN"
            # The board's connector, the strip's cable (its wires join pin
            # n of one end to pin n of the other: A n <-> B n) and the
            # strip's own connector: 1 +5 V, 2 data, 3 sense, 4 ground.
            # The sense wire is grounded on the strip's side, pulled up on
            # the board's: it reads 1 with the strip unplugged (firmware:
            # STRIP_SENSE).
            jb = self.part(P.JST_VH4, "STRIP", Side="board")
            cbl = self.part(P.CABLE4, "strip cable")
            js = self.part(P.JST_VH4, "STRIP", Side="strip")
            for n, (board, strip) in enumerate(
                (
                    ("+5V_LED", "STRIP_5V"),
                    ("STRIP_DATA", "STRIP_DIN"),
                    ("STRIP_SENSE", "STRIP_GND"),
                    ("GND", "STRIP_GND"),
                ),
                1,
            ):
                self.connect(board, jb[n], cbl["A%d" % n])
                self.connect(strip, js[n], cbl["B%d" % n])
            self.R("10k", "+3V3", "STRIP_SENSE")
        self.R("330", "LED_DATA_5V", din if onboard else "STRIP_DATA")
        self.connect("STRIP_SENSE", self.gp(m, "STRIP_SENSE"))
        self.C("470u", strip_5v, strip_gnd, Side="strip")
        cell_of_led = {v["led"]: k for k, v in lay["cells"].items()}
        prev = din
        n = lay["leds"]
        for i in range(n):
            d = self.part(P.WS2812B, "WS2812B", Cell=cell_of_led[i], Led=i)
            self.connect(prev, d["DIN"])
            self.connect(strip_5v, d["VDD"])
            self.connect(strip_gnd, d["VSS"])
            self.C("100n", strip_5v, strip_gnd, Cell=cell_of_led[i])
            if i == n - 1:
                self.nc(d["DOUT"], "the chain's last LED: nothing follows")
            else:
                prev = "LED_CHAIN_%d" % (i + 1)
                self.connect(prev, d["DOUT"])

    def pn532(self, name, sda, scl, antenna, rstpd="CELL_RSTPD"):
        """A PN532 on I2C (I0 high, I1 low: PN532 data sheet 'Host
        interfaces') with its 27.12 MHz crystal, supply decoupling, the
        EMC filter and matching network to antenna = (net +, net -), and
        its receive path (NXP AN10609 'PN532 application note', RF part).
        rstpd: the net of its RSTPD_N, a signal of the GPIO table (the cell
        readers share one)."""
        u = self.part(P.PN532, "PN532", Reader=name)
        for p in ("VBAT", "PVDD", "DVDD", "AVDD", "TVDD"):
            self.connect("+3V3", u[p])
            self.C("100n", "+3V3", Reader=name)
        self.C("4.7u", "+3V3", Reader=name)  # TVDD reservoir for the field
        self.connect("GND", u["DVSS"], u["TVSS1"], u["TVSS2"], u["AVSS"], u["EP"])
        self.connect("GND", u["TESTEN"], u["I1"])
        self.connect("+3V3", u["I0"])
        # RSTPD_N on its line (pulled up and on a GPIO where the line is
        # made: pad(), rev_a())
        self.connect(rstpd, u["RSTPD_N"])
        self.connect(sda, u["MOSI_SDA"])
        self.connect(scl, u["NSS_P50_SCL"])
        self.C("100n", "%s_SVDD" % name, Reader=name)
        self.connect("%s_SVDD" % name, u["SVDD"])
        # clock
        y = self.part(P.XTAL27, "27.12MHz", Reader=name)
        self.connect("%s_OSCIN" % name, u["OSCIN"], y[1])
        self.connect("%s_OSCOUT" % name, u["OSCOUT"], y[3])
        self.connect("GND", y[2], y[4])
        self.C("22p", "%s_OSCIN" % name, Reader=name)
        self.C("22p", "%s_OSCOUT" % name, Reader=name)
        # TX: EMC low-pass (L0, C0), then series C1 to the antenna and C2
        # across it (values from AN10609's reference, retuned per coil)
        for k, tx in ((1, "TX1"), (2, "TX2")):
            mid = "%s_TX%d_EMC" % (name, k)
            lo = self.part(P.INDUCTORS["560n"], "560n", Reader=name)
            self.connect("%s_%s" % (name, tx), u[tx], lo[1])
            self.connect(mid, lo[2])
            self.C("220p", mid, Reader=name)
            c1 = self.part(P.CAPS["33p"], "33p", Reader=name)
            self.connect(mid, c1[1])
            self.connect(antenna[k - 1], c1[2])
            self.C("100p", antenna[k - 1], Reader=name)
        # RX from the first EMC node through 1 kOhm + 100 nF, biased at VMID
        self.R("1k", "%s_TX1_EMC" % name, "%s_RXC" % name)
        self.C("100n", "%s_RXC" % name, "%s_RX" % name, Reader=name)
        self.connect("%s_RX" % name, u["RX"])
        self.R("2.7k", "%s_VMID" % name, "%s_RX" % name)
        self.connect("%s_VMID" % name, u["VMID"])
        self.C("100n", "%s_VMID" % name, Reader=name)
        unused = "unused with the host on I2C (PN532 data sheet, pin description)"
        for p in (
            "LOADMOD",
            "AUX1",
            "AUX2",
            "P35",
            "NC20",
            "NC21",
            "NC22",
            "P30_UART_RX",
            "RSTOUT_N",
            "MISO_P71",
            "SCK_P72",
            "P31_UART_TX",
            "P32_INT0",
            "P33_INT1",
            "P34_SIC_CLK",
            "SIGOUT",
            "SIGIN",
        ):
            self.nc(u[p], unused)
        self.nc(u["P70_IRQ"], "the firmware polls the status byte instead of an IRQ line")
        return u

    def reset_line(self, m, signal):
        """A reset input's line: 10 kOhm up keeps its parts running while
        the RP2040 resets and boots (the GPIO floats); the firmware pulses
        it low to clear a hung bus (smartboard/recover.py)."""
        self.R("10k", "+3V3", signal)
        self.connect(signal, self.gp(m, signal))

    def i2c_pullups(self, sda, scl):
        # 4.7 kOhm: 400 kHz on a short bus (I2C-bus specification, rise time)
        self.R("4.7k", "+3V3", sda)
        self.R("4.7k", "+3V3", scl)

    def pad(self, m):
        """The action pad: its own PN532 on I2C1, one antenna."""
        self.block = "pad"
        self.connect("PAD_SDA", self.gp(m, "PAD_SDA"))
        self.connect("PAD_SCL", self.gp(m, "PAD_SCL"))
        self.i2c_pullups("PAD_SDA", "PAD_SCL")
        self.pn532("PAD", "PAD_SDA", "PAD_SCL", ("PAD_ANT_P", "PAD_ANT_N"), "PAD_RSTPD")
        self.reset_line(m, "PAD_RSTPD")
        coil = self.part(P.COIL, "pad antenna", Cell="pad")
        self.connect("PAD_ANT_P", coil[1])
        self.connect("PAD_ANT_N", coil[2])

    def unused_gpios(self, m):
        used = set(self.gpio.values())
        for i in range(30):
            if i not in used:
                self.nc(m["GPIO%d" % i], "free GPIO")

    # ---- output -------------------------------------------------------------
    def erc(self):
        """Run SKiDL's ERC; the messages it logs, as (level, text)."""
        import logging

        with _skidl_here():  # (SKiDL opens its logs where it is first imported)
            from skidl.logger import erc_logger

        got = []

        class Keep(logging.Handler):
            def emit(self, record):
                got.append((record.levelname, record.getMessage()))

        h = Keep(logging.WARNING)
        erc_logger.addHandler(h)
        try:
            with _skidl_here():
                self.circ.ERC()
        finally:
            erc_logger.removeHandler(h)
        return got

    def netlist(self):
        import re

        with _skidl_here():
            text = str(self.circ.generate_netlist(track_src=False, do_backup=False))
        # the netlist is committed: no wall-clock date, no temp paths
        text = re.sub(r'\(date "[^"]*"\)', '(date "generated")', text, count=1)
        text = re.sub(r'\(source "[^"]*"\)', '(source "tools/hardware/circuit.py")', text)
        return text


# ---- rev A's antenna runs (docs/hardware/antenna-switching.md) --------------------
# Cell centres a pitch apart (hex cards ~43 mm across flats, 2 mm between:
# an assumption until the cards are drawn). Each reader sits under the
# centre of its 16 cells and reaches each coil by a trace pair routed along
# x then y, plus RUN_EXTRA_MM of fan-out at the feed and lead-in at the coil.
CELL_PITCH_MM = 45.0
RUN_EXTRA_MM = 15.0
# Each cell's series capacitors cancel its coil's and run's inductance so
# that every run looks alike to the reader's one matching network; a longer
# run brings more inductance and takes less capacitance. CS_IDEAL is the
# value per leg that puts the TX load's resonance at 13.56 MHz at the
# shortest and the longest run (tools/hardware/antenna.py tune(), ngspice),
# interpolated in between; each cell gets the pair of 2 % C0G values (one
# per leg, in series) nearest it.
CS_IDEAL = ((25.0, 282.9e-12), (262.0, 244.5e-12))
CS_VALUES = ("220p", "240p", "270p", "300p", "330p")
# The feed's bias: the feed nodes sit at 3.3 V x 33k / 133k = 0.82 V and
# every run at 0 V (a resistor to ground per leg). A switched-off MOSFET
# sees ~0.9 V of swing across it: its body diode is forward-biased by
# ~0.1 V at the peaks at most, where it passes nothing; the selected one
# keeps VGS >= ~1.7 V (DMG1012T data sheet DS31783: RDS(ON) 0.7 Ohm at
# most at 1.8 V). tools/hardware/antenna.py prints both margins; a 5 V
# gate drive would widen them (docs/hardware/antenna-switching.md).
FEED_BIAS = ("100k", "33k")


def cell_xy(cell):
    """A cell's centre in mm: column letter q (A = 0), rank r. Cells of a
    column are a pitch apart, and A1's neighbours are B1 and B2."""
    q = ord(cell[0]) - ord("A")
    r = int(cell[1:])
    return (q * CELL_PITCH_MM * 3**0.5 / 2, (r - q / 2) * CELL_PITCH_MM)


def reader_xy(k, lay=None):
    cells = [c for c, v in (lay or layout())["cells"].items() if v["sensor"] // 16 == k]
    pts = [cell_xy(c) for c in cells]
    return (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))


def run_mm(cell, lay=None):
    """The length of a cell's run from its reader's feed, in mm."""
    lay = lay or layout()
    x, y = cell_xy(cell)
    rx, ry = reader_xy(lay["cells"][cell]["sensor"] // 16, lay)
    return RUN_EXTRA_MM + abs(x - rx) + abs(y - ry)


def series_caps(run):
    """The cell's two series capacitors (CAPS keys) for a run of run mm."""
    (r0, c0), (r1, c1) = CS_IDEAL
    want = c0 + (c1 - c0) * (run - r0) / (r1 - r0)
    pf = {v: float(v[:-1]) * 1e-12 for v in CS_VALUES}
    pairs = [(a, b) for a in CS_VALUES for b in CS_VALUES if pf[a] <= pf[b]]
    best = min(pairs, key=lambda p: abs(2 * pf[p[0]] * pf[p[1]] / (pf[p[0]] + pf[p[1]]) - want))
    return tuple(v + " 2%" for v in best)


def antenna_switch(b, m, k, ant, cell_of_channel, lay):
    """Reader k's cell antennas (docs/hardware/antenna-switching.md). The
    antenna nets pn532() matched feed, through 2 x 560 nH a leg, a feed
    node; the inductors take the reactance pn532()'s C1/C2 want of an
    antenna, so the feed node swings ~0.7 V, not the tens of volts across
    a matched coil (tools/hardware/antenna.py). From the feed, each cell
    has one MOSFET per leg (both sides of its coil switched, as the
    MOSFET concept of NXP AN11314), its run, its own series capacitors
    (its tuning) and its coil. A CD74HC4514 turns on the MOSFETs of the
    cell its A0..A3 (MUXk_S0..S3) select; the others stay off, and a
    switched-off coil is left open: no closed resonant loop near 13.56
    MHz beside the selected one."""
    name = "READER%d" % k
    feed = (name + "_FEED_P", name + "_FEED_N")
    for a, f in zip(ant, feed):
        for x, y in ((a, f + "_L"), (f + "_L", f)):
            lo = b.part(P.INDUCTORS["560n"], "560n", Reader=name)
            b.connect(x, lo[1])
            b.connect(y, lo[2])
        b.R(FEED_BIAS[0], "+3V3", f)
        b.R(FEED_BIAS[1], f, "GND")
    dec = b.part(P.CD74HC4514, "CD74HC4514", Lane=k)
    b.connect("+3V3", dec["VCC"], dec["LE"])  # LE high: the latch passes A0..A3 through
    b.connect("GND", dec["GND"], dec["E"])  # E (inhibit) low: the selected output high
    b.C("100n", "+3V3")
    for s in range(4):
        sig = "MUX%d_S%d" % (k, s)
        b.connect(sig, dec["A%d" % s], b.gp(m, sig))
    for n in range(16):
        ch = 16 * k + n
        cell = cell_of_channel.get(ch)
        if cell is None:
            b.nc(dec["Y%d" % n], "sensor channel %d: no cell (layout.json has 61)" % ch)
            continue
        run = run_mm(cell, lay)
        gate = "SEL_%s" % cell
        b.connect(gate, dec["Y%d" % n])
        coil = b.part(P.COIL, "antenna", Cell=cell, Channel=ch, Run="%.0f" % run)
        for pin, (f, cap, side) in enumerate(zip(feed, series_caps(run), "PN"), 1):
            q = b.part(P.DMG1012T, "DMG1012T", Cell=cell)
            leg = "RUN_%s_%s" % (cell, side)
            b.connect(f, q["D"])
            b.connect(leg, q["S"])
            b.connect(gate, q["G"])
            b.R("100k", leg, "GND")
            b.C(cap, leg, "ANT_%s_%s" % (cell, side), Cell=cell)
            b.connect("ANT_%s_%s" % (cell, side), coil[pin])


# ---- the revisions -----------------------------------------------------------------
def rev_a():
    """Profile A: an NFC antenna under each cell. Four PN532 share I2C0
    behind a TCA9548A (they all answer at 0x24); reader k sits on the
    switch's port k and switches its field over 16 cell antennas with
    MOSFETs that a CD74HC4514 decoder turns on (its A0..A3 on the GPIOs
    MUXk_S0..S3; Board.antenna_switch). Antenna n of reader k is sensor
    channel 16k + n of hardware/layout.json."""
    b = Board("rev_a")
    b.usb_power()
    m = b.mcu()
    b.strip(m)
    lay = layout()
    cell_of_channel = {v["sensor"]: k for k, v in lay["cells"].items()}
    # the cell bus and its switch; address pins all low: 0x70
    b.connect("CELL_SDA", b.gp(m, "CELL_SDA"))
    b.connect("CELL_SCL", b.gp(m, "CELL_SCL"))
    b.i2c_pullups("CELL_SDA", "CELL_SCL")
    sw = b.part(P.TCA9548A, "TCA9548A")
    b.connect("CELL_SDA", sw["SDA"])
    b.connect("CELL_SCL", sw["SCL"])
    b.connect("GND", sw["A0"], sw["A1"], sw["A2"], sw["GND"])
    b.connect("+3V3", sw["VCC"])
    b.C("100n", "+3V3")
    # RESET pulled up (the switch runs through the RP2040's reset) and on a
    # GPIO: a low pulse of 6 ns or more (TCA9548A datasheet SCPS207, 6.7
    # Reset Timing Requirements, tW(L)) deselects every port and frees SDA
    # within 500 ns (6.8, trst): a reader holding its port's SDA low no
    # longer holds the cell bus. The readers' RSTPD_N share another GPIO.
    b.reset_line(m, "CELL_SWITCH_RESET")
    b.connect("CELL_SWITCH_RESET", sw["RESET"])
    b.reset_line(m, "CELL_RSTPD")
    for k in range(4):
        sda, scl = "READER%d_SDA" % k, "READER%d_SCL" % k
        b.connect(sda, sw["SD%d" % k])
        b.connect(scl, sw["SC%d" % k])
        b.i2c_pullups(sda, scl)  # each port needs its own (TCA9548A datasheet)
        ant = ("READER%d_ANT_P" % k, "READER%d_ANT_N" % k)
        b.pn532("READER%d" % k, sda, scl, ant)
        antenna_switch(b, m, k, ant, cell_of_channel, lay)
    for k in range(4, 8):
        b.nc(sw["SD%d" % k], "switch port %d unused: four readers" % k)
        b.nc(sw["SC%d" % k], "switch port %d unused: four readers" % k)
    b.pad(m)
    b.unused_gpios(m)
    return b


def rev_b():
    """Profile B: a reed switch under each cell, read by eight 74HC165 in
    a chain on SPI0 (SH/LD on a GPIO loads them all at once), plus the
    action pad's PN532. The register whose QH drives MISO holds channels
    0..7 (the first byte clocked out), its input D c channel c; the next
    register up the chain channels 8..15, and so on."""
    b = Board("rev_b")
    b.usb_power()
    m = b.mcu()
    b.strip(m, onboard=True)
    lay = layout()
    cell_of_channel = {v["sensor"]: k for k, v in lay["cells"].items()}
    for s in ("SHIFT_SCK", "SHIFT_LATCH", "SHIFT_MISO", "SHIFT_MOSI"):
        b.connect(s, b.gp(m, s))
    # SPI0's TX is claimed by the firmware's SPI set-up; nothing listens:
    # a test pad keeps the net probe-able and named
    tp = b.part(P.TESTPOINT, "SHIFT_MOSI")
    b.connect("SHIFT_MOSI", tp[1])
    nregs = 8
    b.block = "shift"
    for r in range(nregs):
        u = b.part(P.SN74HC165, "74HC165", Register=r)
        b.connect("+3V3", u["VCC"])
        b.C("100n", "+3V3", Register=r)
        b.connect("GND", u["GND"], u["CLK_INH"])
        b.connect("SHIFT_SCK", u["CLK"])
        b.connect("SHIFT_LATCH", u["SH_LD"])
        b.connect("SHIFT_MISO" if r == 0 else "SHIFT_Q%d" % r, u["QH"])
        if r == nregs - 1:
            b.connect("GND", u["SER"])  # the chain's far end shifts in zeros
        else:
            b.connect("SHIFT_Q%d" % (r + 1), u["SER"])
        b.nc(u["QH_N"], "the inverted output: the chain uses QH")
        # pull-ups: 47 kOhm (8 bussed) keep a closed reed at 70 uA
        rn = b.part(P.RNET8, "47k x8", Register=r)
        b.connect("+3V3", rn["COM"])
        for c, pin in enumerate("ABCDEFGH"):
            ch = 8 * r + c
            net = "REED_%d" % ch
            b.connect(net, u[pin], rn["R%d" % (c + 1)])
            cell = cell_of_channel.get(ch)
            if cell is None:
                continue  # pulled up: reads open, as the firmware expects
            sw = b.part(P.REED, "reed", Cell=cell, Channel=ch)
            b.connect(net, sw[1])
            b.connect("GND", sw[2])
    b.pad(m)
    b.unused_gpios(m)
    return b


REVISIONS = {"rev_a": rev_a, "rev_b": rev_b}

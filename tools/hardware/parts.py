"""The parts of the APIXAGON board: their pins (from each datasheet's pin
table, defined here so that no KiCad symbol library is needed), footprint,
maker and part number, price and supply current.

Prices: the stored public pages hold almost no distributor price lists.
Where a page gave a price it is cited (`src`, with its date); everything
else is an "estimate" of typical catalogue prices, marked so, with the
reason. Never a made-up source.

Currents: mA drawn from the named rail, with the datasheet line they come
from. `kind` says whether the figure is the datasheet's maximum, its
typical value, or an allowance of ours (and why)."""

from dataclasses import dataclass, field

# Pin electrical types (SKiDL's pin_types, by short name)
IN, OUT, BI, PAS, PWR, PWROUT, OC, NC = "in", "out", "bi", "pas", "pwr", "pwrout", "oc", "nc"

NO_PRICE = "estimate: no distributor price page among the stored public pages"


@dataclass
class Price:
    p1: float  # USD each, 1 board's worth
    p100: float
    p1000: float
    src: str = NO_PRICE  # where the figures come from, with the date seen


@dataclass
class Spec:
    name: str
    prefix: str
    pins: tuple  # (number, name, type)
    footprint: str
    maker: str
    mpn: str
    datasheet: str
    price: Price
    # supply current: (rail, mA, kind, source line)
    current: tuple = ()
    bom: bool = True  # False: copper on the PCB, nothing to buy
    fields: dict = field(default_factory=dict)
    # the fastest clock of the bus it sits on: (Hz, source line); () if none
    bus_hz: tuple = ()
    # a connector's current rating per contact: (A, source line); () if none
    amps: tuple = ()
    # the rows of `current` drawn only while the part's RF field is on
    # (power.boot_ma: the firmware keeps the fields off until it has read
    # the supply)
    rf: tuple = ()
    # an overcurrent part's figures: (hold A at 23 C, trip A at 23 C, hold A
    # at power.AMBIENT_C, that ambient in C, max volts, source line)
    trip: tuple = ()


def _two(name="R"):
    return ((1, "1", PAS), (2, "2", PAS))


def passive(prefix, value, footprint, maker, mpn, price, name=None, datasheet=""):
    return Spec(
        name or prefix,
        prefix,
        _two(),
        footprint,
        maker,
        mpn,
        datasheet,
        price,
    )


# ---- the microcontroller and its essentials ---------------------------------
# RP2040 QFN-56 pinout: RP2040 datasheet, section 1.4.1 "Pin Locations".
_rp_pins = [(1, "IOVDD", PWR)]
_rp_pins += [(2 + i, "GPIO%d" % i, BI) for i in range(8)]
_rp_pins += [(10, "IOVDD", PWR)]
_rp_pins += [(11 + i, "GPIO%d" % (8 + i), BI) for i in range(8)]
_rp_pins += [
    (19, "TESTEN", IN),
    (20, "XIN", IN),
    (21, "XOUT", OUT),
    (22, "IOVDD", PWR),
    (23, "DVDD", PWR),
    (24, "SWCLK", IN),
    (25, "SWDIO", BI),
    (26, "RUN", IN),
]
_rp_pins += [(27 + i, "GPIO%d" % (16 + i), BI) for i in range(6)]
_rp_pins += [(33, "IOVDD", PWR)]
_rp_pins += [(34 + i, "GPIO%d" % (22 + i), BI) for i in range(8)]
_rp_pins += [
    (42, "IOVDD", PWR),
    (43, "ADC_AVDD", PWR),
    (44, "VREG_VIN", PWR),
    (45, "VREG_VOUT", PWROUT),
    (46, "USB_DM", BI),
    (47, "USB_DP", BI),
    (48, "USB_VDD", PWR),
    (49, "IOVDD", PWR),
    (50, "DVDD", PWR),
    (51, "QSPI_SD3", BI),
    (52, "QSPI_SCLK", OUT),
    (53, "QSPI_SD0", BI),
    (54, "QSPI_SD2", BI),
    (55, "QSPI_SD1", BI),
    (56, "QSPI_SS", BI),
    (57, "GND", PWR),
]

RP2040 = Spec(
    "RP2040",
    "U",
    tuple(_rp_pins),
    "Package_DFN_QFN:QFN-56-1EP_7x7mm_P0.4mm_EP3.2x3.2mm",
    "Raspberry Pi",
    "RP2040",
    "https://datasheets.raspberrypi.com/rp2040/rp2040-datasheet.pdf",
    # The Register, 2021-06-01: "The single-unit price for RP2040 is $1"
    # (Eben Upton); reel prices were announced as lower, not given.
    Price(
        1.00,
        1.00,
        0.80,
        "1 and 100: $1 single-unit price (theregister.com, 2021-06-01, "
        "'Need some chips?'); 1000: estimate, reel price not published there",
    ),
    (
        (
            "3V3",
            40,
            "allowance",
            "RP2040 datasheet 5.4 'Power Consumption' lists measured supply "
            "currents per use case at 48 MHz; the firmware runs one core at "
            "125 MHz, so an allowance above those",
        ),
    ),
)

W25Q16 = Spec(
    "W25Q16JV",
    "U",
    (
        (1, "CS", IN),
        (2, "DO_IO1", BI),
        (3, "WP_IO2", BI),
        (4, "GND", PWR),
        (5, "DI_IO0", BI),
        (6, "CLK", IN),
        (7, "HOLD_IO3", BI),
        (8, "VCC", PWR),
    ),
    "Package_SO:SOIC-8_5.23x5.23mm_P1.27mm",
    "Winbond",
    "W25Q16JVSSIQ",
    "https://www.winbond.com/resource-files/w25q16jv%20spi%20revd%2008122016.pdf",
    # The Register, 2021-06-01: "a 10-20c external QSPI Flash is required"
    Price(
        0.20,
        0.15,
        0.10,
        "theregister.com 2021-06-01 ('a 10-20c external QSPI Flash'); "
        "the 1-off figure is an estimate at the top of that range",
    ),
    (("3V3", 25, "max", "W25Q16JV datasheet 9.4 DC characteristics: read current, quad"),),
)

XTAL12 = Spec(
    "Crystal_GND24",
    "Y",
    ((1, "1", PAS), (2, "GND", PAS), (3, "3", PAS), (4, "GND", PAS)),
    "Crystal:Crystal_SMD_3225-4Pin_3.2x2.5mm",
    "Abracon",
    "ABM8-272-T3",
    "https://abracon.com/Resonators/ABM8-272-T3.pdf",
    Price(0.60, 0.35, 0.25),
)

XTAL27 = Spec(
    "Crystal_GND24_27M",
    "Y",
    XTAL12.pins,
    "Crystal:Crystal_SMD_3225-4Pin_3.2x2.5mm",
    "Abracon",
    "ABM8-27.120MHZ-B2-T",
    "https://abracon.com/Resonators/ABM8.pdf",
    Price(0.60, 0.38, 0.28),
)

# ---- power ---------------------------------------------------------------------
# USB-C receptacle, USB 2.0 only (GCT USB4105-GF-A datasheet, pad names)
USBC = Spec(
    "USB_C_Receptacle_USB2.0",
    "J",
    (
        ("A1B12", "GND", PWR),
        ("B1A12", "GND", PWR),
        # a connector drives nothing: the VBUS net is marked as a supply
        ("A4B9", "VBUS", PAS),
        ("B4A9", "VBUS", PAS),
        ("A5", "CC1", BI),
        ("B5", "CC2", BI),
        ("A6", "DP1", BI),
        ("A7", "DN1", BI),
        ("B6", "DP2", BI),
        ("B7", "DN2", BI),
        ("A8", "SBU1", BI),
        ("B8", "SBU2", BI),
        ("S1", "SHIELD", PAS),
    ),
    "Connector_USB:USB_C_Receptacle_GCT_USB4105-xx-A_16P_TopMnt_Horizontal",
    "GCT",
    "USB4105-GF-A",
    "https://gct.co/files/drawings/usb4105.pdf",
    Price(0.90, 0.60, 0.45),
)

ESD_USB = Spec(
    "USBLC6-2SC6",
    "U",
    (
        (1, "IO1", PAS),
        (2, "GND", PWR),
        (3, "IO2", PAS),
        (4, "IO2b", PAS),
        (5, "VBUS", PWR),
        (6, "IO1b", PAS),
    ),
    "Package_TO_SOT_SMD:SOT-23-6",
    "STMicroelectronics",
    "USBLC6-2SC6",
    "https://www.st.com/resource/en/datasheet/usblc6-2.pdf",
    Price(0.45, 0.25, 0.15),
)

# The input's resettable fuse. It carries everything the board draws, at
# most DERATE_PCT of a 3.0 A advertisement (2.64 A), and must hold that at
# the warmest ambient the board is built for (power.AMBIENT_C, 50 C): the
# 3 A-hold MF-MSMF300 it replaces sat at its hold current at 23 C and
# below the budget once warm. Bourns MF-RG series data sheet, Electrical
# Characteristics: MF-RG500 16 V, Ihold 5.00 A / Itrip 8.50 A at 23 C,
# R1max 0.034 Ohm, 25 A trips it within 2.0 s; its Thermal Derating Chart
# gives 4.0 A hold at 50 C (as restated with that source in
# stevenwritescode/exopet, hardware/exopet-hat/REVIEW-FINDINGS.md: the
# chart itself is not among the stored pages).
POLYFUSE = Spec(
    "Polyfuse",
    "F",
    _two(),
    "Fuse:Fuse_Bourns_MF-RG500",
    "Bourns",
    "MF-RG500-2",
    "https://www.bourns.com/docs/Product-Datasheets/mfrg.pdf",
    Price(0.45, 0.30, 0.22),
    trip=(
        5.0,
        8.5,
        4.0,
        50,
        16,
        "Bourns MF-RG data sheet: MF-RG500 Ihold 5.00 A, Itrip 8.50 A at 23 C, Vmax 16 V "
        "(Electrical Characteristics); 4.0 A hold at 50 C (Thermal Derating Chart)",
    ),
)

# TLV62569 2 A buck, SOT-23-5 (TI TLV62569 datasheet, 'Pin Configuration')
BUCK = Spec(
    "TLV62569DBV",
    "U",
    ((1, "EN", IN), (2, "GND", PWR), (3, "SW", PWROUT), (4, "VIN", PWR), (5, "FB", IN)),
    "Package_TO_SOT_SMD:SOT-23-5",
    "Texas Instruments",
    "TLV62569DBVR",
    "https://www.ti.com/lit/ds/symlink/tlv62569.pdf",
    Price(0.60, 0.35, 0.25),
)

# TPS22965 load switch, WSON-8 (TI TPS22965 datasheet, 'Pin Configuration')
LOADSW = Spec(
    "TPS22965DSG",
    "U",
    (
        (1, "VIN", PWR),
        (2, "VIN", PWR),
        (3, "ON", IN),
        (4, "VBIAS", PWR),
        (5, "GND", PWR),
        (6, "CT", PAS),
        (7, "VOUT", PWROUT),
        (8, "VOUT", PAS),  # the same output's second pad
        (9, "GND", PWR),
    ),
    "Package_SON:WSON-8-1EP_2x2mm_P0.5mm_EP0.9x1.6mm",
    "Texas Instruments",
    "TPS22965DSGR",
    "https://www.ti.com/lit/ds/symlink/tps22965.pdf",
    Price(0.80, 0.50, 0.38),
)

INDUCTOR_2U2 = Spec(
    "L_Power",
    "L",
    _two(),
    "Inductor_SMD:L_Taiyo-Yuden_NR-40xx",
    "Taiyo Yuden",
    "NR4018T2R2M",
    "https://ds.yuden.co.jp/TYCOMPAS/ut/detail?pn=NR4018T2R2M",
    Price(0.30, 0.18, 0.12),
)

# ---- LEDs -------------------------------------------------------------------------
# WS2812B 5050, 4 pins: 1 VDD, 2 DOUT, 3 VSS, 4 DIN (Worldsemi WS2812B
# datasheet, 'PIN function'). Each channel is a constant-current output;
# the firmware estimates 20 mA per channel at full duty (paint.py) and
# ~1 mA per dark LED for its control IC.
WS2812B = Spec(
    "WS2812B",
    "D",
    ((1, "VDD", PWR), (2, "DOUT", OUT), (3, "VSS", PWR), (4, "DIN", IN)),
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "Worldsemi",
    "WS2812B-B/W",
    "https://cdn-shop.adafruit.com/datasheets/WS2812B.pdf",
    Price(
        0.60,
        0.12,
        0.08,
        "1: $0.60 (circuitguy.ca 'Individual WS2812B RGB LED', page stored "
        "2026); 100/1000: estimate, no reel price among the stored pages",
    ),
    (("5V_LED", 1, "allowance", "dark LED: the control IC's quiescent draw, as paint.py assumes"),),
)

LEVEL_SHIFT = Spec(
    "74AHCT1G125",
    "U",
    ((1, "OE", IN), (2, "A", IN), (3, "GND", PWR), (4, "Y", OUT), (5, "VCC", PWR)),
    "Package_TO_SOT_SMD:SOT-23-5",
    "Texas Instruments",
    "SN74AHCT1G125DBVR",
    "https://www.ti.com/lit/ds/symlink/sn74ahct1g125.pdf",
    Price(0.30, 0.15, 0.09),
    (
        (
            "5V_LED",
            1.5,
            "max",
            "SN74AHCT1G125 datasheet: ICC 10 uA plus delta-ICC 1.35 mA with "
            "one input at VCC - 2.1 V (a 3.3 V high)",
        ),
    ),
)

# JST VH 4-way: the strip's connector on the board and on the strip. The
# strip draws up to ~2.6 A through one pin pair (+5 V, ground): JST rates
# VH at 10 A a contact with AWG 16 wire (VH catalogue, 'Specifications');
# the PH the board had, 2 A a contact, would have run over its rating.
JST_VH4 = Spec(
    "Conn_01x04",
    "J",
    ((1, "1", PAS), (2, "2", PAS), (3, "3", PAS), (4, "4", PAS)),
    "Connector_JST:JST_VH_B4P-VH_1x04_P3.96mm_Vertical",
    "JST",
    "B4P-VH(LF)(SN)",
    "https://www.jst-mfg.com/product/pdf/eng/eVH.pdf",
    Price(0.30, 0.18, 0.12),
    amps=(10.0, "JST VH catalogue, Specifications: 10 A AC/DC (AWG 16)"),
)

# The strip's cable: two VHR-4N housings and eight contacts (BOM_EXTRAS),
# AWG 18 wire for 150 mm (0.1 V dropped at 2.6 A there and back);
# wire n joins pin An (board end) to pin Bn (strip end).
CABLE4 = Spec(
    "Cable_4way",
    "W",
    tuple(
        (n, "%s%d" % (e, k), PAS)
        for n, (e, k) in enumerate(
            [("A", k) for k in range(1, 5)] + [("B", k) for k in range(1, 5)], 1
        )
    ),
    "apixagon:Cable_JST_VH_4way_150mm",
    "-",
    "-",
    "",
    Price(0, 0, 0, "assembled from the housings and contacts listed apart"),
    bom=False,
)

SWD3 = Spec(
    "Conn_01x03",
    "J",
    ((1, "1", PAS), (2, "2", PAS), (3, "3", PAS)),
    "Connector_JST:JST_SH_SM03B-SRSS-TB_1x03-1MP_P1.00mm_Horizontal",
    "JST",
    "SM03B-SRSS-TB(LF)(SN)",
    "https://www.jst-mfg.com/product/pdf/eng/eSH.pdf",
    Price(0.35, 0.20, 0.14),
)

BUTTON = Spec(
    "SW_Push",
    "SW",
    _two(),
    "Button_Switch_SMD:SW_SPST_TL3342",
    "E-Switch",
    "TL3342F160QG/TR",
    "https://www.e-switch.com/product/tl3342f160qg-tr/",
    Price(0.40, 0.22, 0.15),
)

TESTPOINT = Spec(
    "TestPoint",
    "TP",
    ((1, "1", PAS),),
    "TestPoint:TestPoint_Pad_D1.0mm",
    "-",
    "-",
    "",
    Price(0, 0, 0, "copper pad: nothing to buy"),
    bom=False,
)

# ---- sensing ------------------------------------------------------------------------
# PN532 HVQFN-40 (NXP PN532/C1 product data sheet, 'Pinning information').
_pn_pins = (
    (1, "DVSS", PWR),
    (2, "LOADMOD", OUT),
    (3, "TVSS1", PWR),
    (4, "TX1", OUT),
    (5, "TVDD", PWR),
    (6, "TX2", OUT),
    (7, "TVSS2", PWR),
    (8, "AVDD", PWR),
    (9, "VMID", PAS),
    (10, "RX", IN),
    (11, "AVSS", PWR),
    (12, "AUX1", OUT),
    (13, "AUX2", OUT),
    (14, "OSCIN", IN),
    (15, "OSCOUT", OUT),
    (16, "I0", IN),
    (17, "I1", IN),
    (18, "TESTEN", IN),
    (19, "P35", BI),
    (20, "NC20", NC),
    (21, "NC21", NC),
    (22, "NC22", NC),
    (23, "PVDD", PWR),
    (24, "P30_UART_RX", BI),
    (25, "P70_IRQ", OUT),
    (26, "RSTOUT_N", OUT),
    (27, "NSS_P50_SCL", BI),
    (28, "MOSI_SDA", BI),
    (29, "MISO_P71", BI),
    (30, "SCK_P72", BI),
    (31, "P31_UART_TX", BI),
    (32, "P32_INT0", BI),
    (33, "P33_INT1", BI),
    (34, "P34_SIC_CLK", BI),
    (35, "SIGOUT", OUT),
    (36, "SIGIN", IN),
    (37, "SVDD", PWROUT),
    (38, "RSTPD_N", IN),
    (39, "DVDD", PWR),
    (40, "VBAT", PWR),
    (41, "EP", PWR),
)

PN532 = Spec(
    "PN532",
    "U",
    _pn_pins,
    "Package_DFN_QFN:HVQFN-40-1EP_6x6mm_P0.5mm_EP4.1x4.1mm",
    "NXP",
    "PN5321A3HN/C106,51",
    "https://www.nxp.com/docs/en/nxp/data-sheets/PN532_C1.pdf",
    Price(6.50, 4.80, 3.90),
    bus_hz=(400000, "PN532/C1 product data sheet, I2C interface: standard and fast mode, 400 kHz"),
    # The PN532's supply currents as the RAK13600 module data sheet restates
    # them (Electrical Characteristics table; RAKWireless/rakwireless-docs,
    # docs/Product-Categories/WisBlock/RAK13600/Datasheet/README.md): the
    # transmitter's ITVDD 60 mA typical, 150 mA at most, with the field on;
    # IDVDD 25 mA and IAVDD 6 mA typical, for which it gives no maximum.
    # NXP's own table is not among the stored pages.
    current=(
        (
            "3V3",
            150,
            "max",
            "PN532 ITVDD, the RF field on: 150 mA max (RAK13600 data sheet, "
            "Electrical Characteristics, restating the PN532's)",
        ),
        (
            "3V3",
            31,
            "typical",
            "PN532 IDVDD 25 mA + IAVDD 6 mA typical (same table: no maximum given)",
        ),
    ),
    rf=(0,),
)

# TCA9548A TSSOP-24 (TI TCA9548A datasheet, 'Pin Configuration and Functions')
_tca = [(1, "A0", IN), (2, "A1", IN), (3, "RESET", IN)]
for _k in range(4):
    _tca += [(4 + 2 * _k, "SD%d" % _k, BI), (5 + 2 * _k, "SC%d" % _k, BI)]
_tca += [(12, "GND", PWR)]
for _k in range(4, 8):
    _tca += [(13 + 2 * (_k - 4), "SD%d" % _k, BI), (14 + 2 * (_k - 4), "SC%d" % _k, BI)]
_tca += [(21, "A2", IN), (22, "SCL", BI), (23, "SDA", BI), (24, "VCC", PWR)]
TCA9548A = Spec(
    "TCA9548A",
    "U",
    tuple(_tca),
    "Package_SO:TSSOP-24_4.4x7.8mm_P0.65mm",
    "Texas Instruments",
    "TCA9548APWR",
    "https://www.ti.com/lit/ds/symlink/tca9548a.pdf",
    Price(1.60, 1.00, 0.75),
    (("3V3", 0.02, "max", "TCA9548A datasheet: standby ICC 20 uA (no bus traffic)"),),
    bus_hz=(400000, "TCA9548A datasheet, Features: 0 to 400 kHz clock frequency"),
)

# CD74HC4067 SOIC-24 (TI CD74HC4067 datasheet, 'Pin Configuration')
_mux = [(1, "COM", PAS)]
_mux += [(2 + i, "I%d" % (7 - i), PAS) for i in range(8)]
_mux += [(10, "S0", IN), (11, "S1", IN), (12, "GND", PWR), (13, "S3", IN), (14, "S2", IN)]
_mux += [(15, "E", IN)]
_mux += [(16 + i, "I%d" % (15 - i), PAS) for i in range(8)]
_mux += [(24, "VCC", PWR)]
CD74HC4067 = Spec(
    "CD74HC4067",
    "U",
    tuple(_mux),
    "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "Texas Instruments",
    "CD74HC4067M96",
    "https://www.ti.com/lit/ds/symlink/cd74hc4067.pdf",
    Price(1.10, 0.60, 0.45),
    (("3V3", 0.16, "max", "CD74HC4067 datasheet: ICC 160 uA at 85 C, VCC 6 V"),),
)

# 74HC165 SOIC-16 (TI SN74HC165 datasheet, 'Pin Configuration'): A..H are
# the parallel inputs D0..D7, QH the serial output (H first).
SN74HC165 = Spec(
    "74HC165",
    "U",
    (
        (1, "SH_LD", IN),
        (2, "CLK", IN),
        (3, "E", IN),
        (4, "F", IN),
        (5, "G", IN),
        (6, "H", IN),
        (7, "QH_N", OUT),
        (8, "GND", PWR),
        (9, "QH", OUT),
        (10, "SER", IN),
        (11, "A", IN),
        (12, "B", IN),
        (13, "C", IN),
        (14, "D", IN),
        (15, "CLK_INH", IN),
        (16, "VCC", PWR),
    ),
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "Texas Instruments",
    "SN74HC165DR",
    "https://www.ti.com/lit/ds/symlink/sn74hc165.pdf",
    Price(0.45, 0.22, 0.15),
    (("3V3", 0.08, "max", "SN74HC165 datasheet: ICC 80 uA at 85 C"),),
    # QH settles up to 205 ns after CLK at VCC 2.0 V, -40..85 C (NXP
    # 74HC165 data sheet Rev. 03, Table 7; the row that bounds 3.3 V): the
    # RP2040 samples MISO half a clock later, so at most ~2.4 MHz
    bus_hz=(2000000, "74HC165 CP to Q7 205 ns max at 2.0 V (NXP data sheet, Table 7)"),
)

REED = Spec(
    "Reed_Switch",
    "SW",
    _two(),
    # a surface-mount reed switch whose footprint KiCad's library has (a
    # maker orders the PCB with no footprint of ours to check)
    "Button_Switch_SMD:SW_SPST_REED_CT10-XXXX-G1",
    "Coto Technology",
    "CT10-1530-G1",
    "https://www.cotorelay.com/product/ct10-series-reed-switch/",
    Price(1.20, 0.70, 0.50),
)

# 8 bussed 47 k resistors, 9-pin SIP: pin 1 common (Bourns 4600X datasheet)
RNET8 = Spec(
    "R_Network08",
    "RN",
    tuple([(1, "COM", PAS)] + [(2 + i, "R%d" % (i + 1), PAS) for i in range(8)]),
    "Resistor_THT:R_Array_SIP9",
    "Bourns",
    "4609X-101-473LF",
    "https://www.bourns.com/docs/Product-Datasheets/4600x.pdf",
    Price(0.45, 0.25, 0.18),
)

# An NFC antenna: a PCB coil under a cell (or the pad); copper, not bought.
COIL = Spec(
    "Antenna_Coil",
    "AE",
    _two(),
    "apixagon:NFC_Coil_Cell_30mm",
    "-",
    "-",
    "NXP AN1445 'Antenna design guide for MFRC52x, PN51x, PN53x'",
    Price(0, 0, 0, "PCB copper: nothing to buy"),
    bom=False,
)

# ---- passives ------------------------------------------------------------------------
_R0402 = "Resistor_SMD:R_0402_1005Metric"
_C0402 = "Capacitor_SMD:C_0402_1005Metric"
_C0805 = "Capacitor_SMD:C_0805_2012Metric"


def R(value, mpn):
    return passive("R", value, _R0402, "Yageo", mpn, Price(0.10, 0.01, 0.004))


def C(value, mpn, fp=_C0402, maker="Murata", price=None):
    return passive("C", value, fp, maker, mpn, price or Price(0.10, 0.02, 0.008))


RESISTORS = {
    "0": R("0", "RC0402JR-070RL"),
    "27": R("27", "RC0402FR-0727RL"),
    "1k": R("1k", "RC0402FR-071KL"),
    "2.7k": R("2.7k", "RC0402FR-072K7L"),
    "4.7k": R("4.7k", "RC0402FR-074K7L"),
    "5.1k": R("5.1k", "RC0402FR-075K1L"),
    "10k": R("10k", "RC0402FR-0710KL"),
    "22.1k": R("22.1k", "RC0402FR-0722K1L"),
    "100k": R("100k", "RC0402FR-07100KL"),
    "330": R("330", "RC0402FR-07330RL"),
}

CAPS = {
    "15p": C("15p", "GRM1555C1H150JA01D"),
    "22p": C("22p", "GRM1555C1H220JA01D"),
    "33p": C("33p", "GRM1555C1H330JA01D"),
    "100p": C("100p", "GRM1555C1H101JA01D"),
    "220p": C("220p", "GRM1555C1H221JA01D"),
    "1n": C("1n", "GRM155R71H102KA01D"),
    "10n": C("10n", "GRM155R71H103KA88D"),
    "22n": C("22n", "GRM155R71H223KA12D"),
    "100n": C("100n", "GRM155R71C104KA88D"),
    "1u": C("1u", "GRM155R61A105KE15D"),
    "4.7u": C("4.7u", "GRM188R61A475KE15D", "Capacitor_SMD:C_0603_1608Metric"),
    "10u": C("10u", "GRM21BR61A106KE19L", _C0805, price=Price(0.15, 0.05, 0.03)),
    "22u": C("22u", "GRM21BR61A226ME44L", _C0805, price=Price(0.20, 0.08, 0.05)),
    # the strip's bulk capacitor: the WS2812 rail's reservoir (see circuit.py)
    "470u": passive(
        "C",
        "470u",
        "Capacitor_SMD:CP_Elec_8x10",
        "Panasonic",
        "EEE-FT1A471AP",
        Price(0.60, 0.35, 0.25),
    ),
}

INDUCTORS = {
    # the PN532's EMC low-pass (NXP PN532 application note AN10609, 'RF path')
    "560n": passive(
        "L",
        "560n",
        "Inductor_SMD:L_0805_2012Metric",
        "Murata",
        "LQW21HN R56J00L".replace(" ", ""),
        Price(0.25, 0.12, 0.08),
    ),
}

# Bought with the board but not on it: the strip's cable (2 housings, 8
# crimped contacts), listed in the BOM beside the parts of the netlist.
BOM_EXTRAS = (
    ("JST VH 4-way housing", "VHR-4N", "JST", 2, Price(0.15, 0.08, 0.05)),
    ("JST VH crimp contact (AWG 22-18)", "SVH-21T-P1.1", "JST", 8, Price(0.06, 0.03, 0.02)),
)

# ---- rev A's antenna switching (docs/hardware/antenna-switching.md) ------------------
# One N-MOSFET per leg of each cell's run, at the reader's low-voltage feed
# node (tools/hardware/antenna.py prints the swing there, ~0.75 V): under
# 1 Ohm with the 3.3 V decoder's drive, and
# ~10 pF off (Diodes DMG1012T data sheet DS31783 Rev. 3, 'Electrical
# Characteristics': RDS(ON) 0.4/0.5 Ohm at VGS 2.5 V, 0.5/0.7 at 1.8 V,
# VGS(th) 0.5-1.0 V, Ciss 60.67, Coss 9.68, Crss 5.37 pF typical at VDS
# 16 V). The fields are the simulation's switch model: RDS(ON) 0.8 Ohm, the
# 1.8 V row's 0.7 stretched to the ~1.7 V the feed's bias leaves it
# (circuit.FEED_BIAS); Coss doubled for the ~0.8 V it sees here (a
# MOSFET's output capacitance grows as VDS falls).
DMG1012T = Spec(
    "DMG1012T",
    "Q",
    ((1, "G", IN), (2, "S", PAS), (3, "D", PAS)),
    "Package_TO_SOT_SMD:SOT-523",
    "Diodes Incorporated",
    "DMG1012T-7",
    "https://www.diodes.com/assets/Datasheets/ds31783.pdf",
    Price(
        0.10,
        0.065,
        0.05,
        "100: EUR 0.06 (novapart.co listing of DMG1012TQ-7, Farnell stock, "
        "page stored 2026); 1 and 1000: estimate around it",
    ),
    fields={"rds_on_ohm": 0.8, "coss_f": 2 * 9.68e-12, "crss_f": 5.37e-12, "ciss_f": 60.67e-12},
)

# CD74HC4514 SOIC-24: a 4-bit latch and 4-to-16 decoder whose selected
# output goes high (CD4514B's function and pinout, TI CD4514B product page:
# 'Strobed input latch, Inhibit control'; the HC part takes the RP2040's
# 3.3 V levels at VCC 3.3 V). Pin numbers as the CD4514B's: check them
# against the CD74HC4514 data sheet before the PCB is laid out.
_dec = [(1, "LE", IN), (2, "A0", IN), (3, "A1", IN)]
_dec += [(4 + i, "Y%d" % (7 - i), OUT) for i in range(5)]  # Y7..Y3
_dec += [(9, "Y1", OUT), (10, "Y2", OUT), (11, "Y0", OUT), (12, "GND", PWR)]
_dec += [(13, "Y13", OUT), (14, "Y12", OUT), (15, "Y15", OUT), (16, "Y14", OUT)]
_dec += [(17, "Y9", OUT), (18, "Y8", OUT), (19, "Y11", OUT), (20, "Y10", OUT)]
_dec += [(21, "A2", IN), (22, "A3", IN), (23, "E", IN), (24, "VCC", PWR)]
CD74HC4514 = Spec(
    "CD74HC4514",
    "U",
    tuple(_dec),
    "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "Texas Instruments",
    "CD74HC4514M96",
    "https://www.ti.com/lit/ds/symlink/cd74hc4514.pdf",
    Price(1.20, 0.70, 0.50),
    (
        (
            "3V3",
            0.08,
            "allowance",
            "the HC family's quiescent ICC at 85 C (as the 74HC165's line); "
            "the gates it holds draw no DC",
        ),
    ),
)

# Each cell's series capacitors (one per leg, circuit.CS_BY_RUN): C0G,
# 2 % as NXP's PN544 antenna design guide AN145715 (section 2) asks of the
# matching capacitors.
for _v, _code in (("180p", "181"), ("200p", "201"), ("220p", "221"), ("240p", "241")):
    CAPS.setdefault(_v + " 2%", C(_v, "GRM1555C1H%sGA01D" % _code))
for _v, _code in (("270p", "271"), ("300p", "301"), ("330p", "331"), ("360p", "361")):
    CAPS.setdefault(_v + " 2%", C(_v, "GRM1555C1H%sGA01D" % _code))

# The copper's model for the simulation (tools/hardware/antenna.py), all
# estimates to be replaced by measurements of the first boards (AN145715,
# 4.1.1: the series equivalent circuit measured at 1 MHz). The cell coil
# (footprint apixagon:NFC_Coil_Cell_30mm): 4 turns, 30 mm outside, 0.5 mm
# track and gap: ~0.83 uH (the modified Wheeler formula), ~0.5 Ohm at
# 13.56 MHz (333 mm of 35 um copper, skin depth 18 um, x1.5 for proximity),
# 3 pF across it; AN145715 4.1.1 gives 0.3-3 uH, 0.3-8 Ohm, 3-30 pF as
# typical. k_neighbour: the coupling to the nearest other coil, a bound
# (coplanar 30 mm coils 45 mm apart couple far less).
COIL_MODEL = {"l": 0.83e-6, "r": 0.5, "c": 3e-12, "k_neighbour": 0.05}
# The run: a coupled pair of 0.4 mm tracks over the ground plane (~100 Ohm
# differential): loop inductance 0.6 nH and resistance 2.4 mOhm (skin
# effect) per mm, 0.06 pF between the tracks and 0.04 pF from each to
# ground per mm.
RUN_MODEL = {
    "l_per_mm": 0.6e-9,
    "r_per_mm": 2.4e-3,
    "c_pair_per_mm": 0.06e-12,
    "c_gnd_per_mm": 0.04e-12,
}
# The PN532's drive: a 0..TVDD square wave on TX1 and TX2 in opposite
# phase. r_out is an assumption (no output resistance among the stored
# data sheet pages); inductor_q the wirewound inductors' Q at 13.56 MHz,
# an assumption too (their ESR is most of the loop's loss: the Q window).
TX_MODEL = {"tvdd": 3.3, "r_out": 2.0, "inductor_q": 40.0}
# the feed's bias divider (circuit.FEED_BIAS)
RESISTORS.setdefault("33k", R("33k", "RC0402FR-0733KL"))

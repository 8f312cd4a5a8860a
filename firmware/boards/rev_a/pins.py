# APIXAGON rev A - profile A: an NFC antenna under each of the 61 cells.
# Raspberry Pi RP2040 GPIO numbers (the Pico's, same chip). Generated from
# the circuit (tools/hardware/circuit.py, hardware/rev_a/rev_a.net) by
# `make hardware`: do not edit here - change the circuit and regenerate;
# tests/hardware fails while this file disagrees with the netlist.
# See hardware/README.md and hardware/rev_a/pins.md.
NAME = "APIXAGON rev A (NFC per cell)"
PROFILE = "A"
LAYOUT = "layout_data"  # boards/layout_data.py: hardware/layout.json, frozen

LED_PIN = 16  # WS2812 data, through a 74AHCT1G125 buffer to 5 V
LED_DRIVER = "pio"  # "pio" (rp2.StateMachine) or "bitstream" (neopixel)
# The strip connector's sense pin: tied to ground on the strip's side, so
# with the pull-up on it reads 1 when the strip is unplugged (Board.check_parts).
STRIP_SENSE = 17
# The strip's load switch (TPS22965 ON, pulled down): off through reset,
# switched on once the supply can carry the strip's dark LEDs (paint.py).
STRIP_EN = 15
BUTTONS = (10, 11, 12)  # MODE, CONFIRM, DECLARE: to ground, pull-ups on

# The cells' readers (scan.NfcLanes): four PN532 on I2C0 behind a TCA9548A
# switch (they share the fixed address 0x24), each switching its RF output
# over 16 antennas with MOSFETs a CD74HC4514 decoder of its own selects
# (S0..S3 on its A0..A3).
# The readers settle their fields and talk to their tags at once, so a
# cell is come round to four times as often (<= 300 ms from a placement
# to the LEDs). Lane k serves sensor channels 16k .. 16k+15 of
# hardware/layout.json.
CELL_I2C = (0, 4, 5, 400000)  # bus id, SDA, SCL, Hz
CELL_SWITCH = 0x70  # TCA9548A address; reader k on its port k
LANE = 16
MUX_SELECT = ((18, 19, 20, 21), (8, 9, 13, 14), (22, 26, 27, 28), (0, 1, 2, 3))
# Reset lines, pulled up on the board (smartboard/recover.py pulses them
# low to clear a hung bus): the switch's RESET, the four readers' RSTPD_N.
CELL_SWITCH_RESET = 23
CELL_RSTPD = 24

# The action pad: its own PN532 on I2C1 (never switched: no settle time).
PAD_I2C = (1, 6, 7, 400000)
PAD_RSTPD = 25  # its RSTPD_N, pulled up: pulsed low to reset it

# The supply (smartboard/power.py): the USB-C CC pins' voltage through a
# divider on an ADC pin; CC_LEVELS are the ADC millivolts at the ends of
# vRd's ranges (Default USB up to 0.61 V, 1.5 A 0.70-1.16 V, 3.0 A from
# 1.31 V: USB Type-C, Table 4-36), POWER_REST_MA what the board draws
# from USB besides the LEDs with every reader's RF field on (hardware/
# README.md, power); RF_FIELDS readers' fields, RF_FIELD_MA each: the
# firmware keeps no more on at once than the supply carries
# (smartboard/power.py fields_allowed).
CC_SENSE = 29
CC_LEVELS = (207, 237, 393, 444)
POWER_REST_MA = 755
RF_FIELDS = 5
RF_FIELD_MA = 117

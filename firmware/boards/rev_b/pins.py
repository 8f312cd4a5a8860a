# APIXAGON rev B - profile B: a reed switch per cell (occupancy) plus the
# NFC action pad.
# Raspberry Pi RP2040 GPIO numbers (the Pico's, same chip). Generated from
# the circuit (tools/hardware/circuit.py, hardware/rev_b/rev_b.net) by
# `make hardware`: do not edit here - change the circuit and regenerate;
# tests/hardware fails while this file disagrees with the netlist.
# See hardware/README.md and hardware/rev_b/pins.md.
NAME = "APIXAGON rev B (reeds + action pad)"
PROFILE = "B"
LAYOUT = "layout_data"

LED_PIN = 16  # WS2812 data, through a 74AHCT1G125 buffer to 5 V
LED_DRIVER = "pio"  # "pio" (rp2.StateMachine) or "bitstream" (neopixel)
# The strip connector's sense pin: tied to ground on the strip's side, so
# with the pull-up on it reads 1 when the strip is unplugged (Board.check_parts).
STRIP_SENSE = 17
# The strip's load switch (TPS22965 ON, pulled down): off through reset,
# switched on once the supply can carry the strip's dark LEDs (paint.py).
STRIP_EN = 15
BUTTONS = (10, 11, 12)  # MODE, CONFIRM, DECLARE: to ground, pull-ups on

# Eight 74HC165 parallel-in shift registers (64 inputs, 61 used) on SPI0;
# the latch (SH/LD) loads all reeds at once, then 8 bytes clock out.
# bus id, SCK, MOSI (unused), MISO, Hz
SHIFT_SPI = (0, 2, 3, 4, 1000000)
SHIFT_LATCH = 5
SHIFT_BYTES = 8
MATRIX_COLS = 8  # the scanner's rows x cols view of the inputs: a register a row

PAD_I2C = (1, 6, 7, 400000)
PAD_RSTPD = 25  # the pad reader's RSTPD_N, pulled up: pulsed low to reset it

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
POWER_REST_MA = 197
RF_FIELDS = 1
RF_FIELD_MA = 117

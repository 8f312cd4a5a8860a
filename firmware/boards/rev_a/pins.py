# APIXAGON rev A — profile A: an NFC antenna under each of the 61 cells.
# Raspberry Pi Pico (RP2040) GPIO numbers. See hardware/README.md.
NAME = "APIXAGON rev A (NFC per cell)"
PROFILE = "A"
LAYOUT = "layout.json"  # hardware/layout.json, copied next to main.py

LED_PIN = 16  # WS2812 data, through a 74AHCT125 level shifter (5 V)
LED_DRIVER = "pio"  # "pio" (rp2.StateMachine) or "bitstream" (neopixel)
BUTTONS = (10, 11, 12)  # MODE, CONFIRM, DECLARE: to ground, pull-ups on

# The cells' reader: a PN532 on I2C0, its RF output switched over the 61
# antennas by four CD74HC4067 muxes (64 channels) that share S0..S3.
CELL_I2C = (0, 4, 5, 400000)  # bus id, SDA, SCL, Hz
MUX_SELECT = (18, 19, 20, 21)  # S0..S3
MUX_ENABLE = (22, 26, 27, 28)  # one per mux, active low

# The action pad: its own PN532 on I2C1 (never switched: no settle time).
PAD_I2C = (1, 6, 7, 400000)

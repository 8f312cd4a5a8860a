# APIXAGON rev B — profile B: a reed switch per cell (occupancy) plus the
# NFC action pad. Raspberry Pi Pico (RP2040) GPIO numbers.
NAME = "APIXAGON rev B (reeds + action pad)"
PROFILE = "B"
LAYOUT = "layout_data"

LED_PIN = 16
LED_DRIVER = "pio"
# The strip connector's sense pin: tied to ground on the strip's side, so
# with the pull-up on it reads 1 when the strip is unplugged (Board.check_parts).
STRIP_SENSE = 17
BUTTONS = (10, 11, 12)  # MODE, CONFIRM, DECLARE

# Eight 74HC165 parallel-in shift registers (64 inputs, 61 used) on SPI0;
# the latch (SH/LD) loads all reeds at once, then 8 bytes clock out.
SHIFT_SPI = (0, 2, 3, 4, 1000000)  # bus id, SCK, MOSI (unused), MISO, Hz
SHIFT_LATCH = 5
SHIFT_BYTES = 8
MATRIX_COLS = 8  # the scanner's rows x cols view of the 64 inputs

PAD_I2C = (1, 6, 7, 400000)

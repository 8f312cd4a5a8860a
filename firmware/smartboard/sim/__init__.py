# Simulated twins of the board's hardware: same interfaces, no hardware.

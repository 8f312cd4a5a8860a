"""Simulated twins of the board's hardware (same interfaces, no hardware):
the rig, the console, the record player. Never on the board."""

"""The rules core (RULES.md): one package run unchanged by MicroPython on
the board and by CPython on the host."""

VERSION = "0.1.0"

# Stand-in for CircuitPython's `microcontroller`: neopixel.py names
# microcontroller.Pin in its annotations (evaluated on CPython).


class Pin:
    def __init__(self, number):
        self.number = number

    def __repr__(self):
        return "GP%d" % self.number

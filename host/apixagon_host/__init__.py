"""APIXAGON host tools (CPython). The rules come from the firmware package
`apixagon` itself, installed from firmware/apixagon: one core, no copy."""

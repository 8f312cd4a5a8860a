"""The host tools on the player's PC (CPython): the `apixagon` command, the
companion (monitor, serve), the match database, pictures, firmware updates.
The rules come from the firmware package `apixagon` itself, installed from
firmware/apixagon: one core, no copy."""

# Settings kept on flash across restarts: display mode, brightness level,
# the game mode, who starts, the special_then_place house rule, the
# players of a teen game, the LED palette, the players of a Junior game,
# the seats the computer plays and its level, the hints' assistance and
# their limit per turn, and the first-boot self-test's result.
#
# One 16-byte record: magic, version (5), the 13 fields, CRC-8. A version 4
# record (15 bytes, before the self-test) keeps its fields, the self-test's
# OLDER: a board that has played is not a first boot. A version 3
# record (11 bytes, before the computer) or 2 (10 bytes, before Junior's
# players) keeps its fields, the later ones their defaults; a version 1
# record (9 bytes, before the palette)
# loads as the defaults, once: code to read it would cost the heap more
# than the settings are worth. It is written to
# a new file and renamed over the old one (atomic on LittleFS and on a PC),
# and only when a value changed and the board has been quiet for a moment
# (flash programming stops interrupts, and the scan with them). A missing, short, corrupt
# or out-of-range file loads as the defaults, with the reason kept in
# .error, and is not written over until a setting changes.
import os

from apixagon.compat import const

from .tag import crc8

_MAGIC = const(0x5A)
_VERSION = const(5)
_SIZE = const(16)
_NFIELDS = const(13)
BRIGHTNESS = (40, 90, 160, 255)  # levels of the brightness setting
SAVE_AFTER_MS = const(3000)

# field index, default, limit (exclusive)
DISPLAY = const(0)
BRIGHT = const(1)
GAME_MODE = const(2)
START = const(3)
STP = const(4)
PLAYERS = const(5)
PALETTE = const(6)  # 0 standard, 1 colour-blind safe (smartboard.cbpalette)
JPLAYERS = const(7)  # Junior's players, 2..6 (RULES §6, D-13); PLAYERS is Teen's
# The seats the computer plays (smartboard.computer): bit (side*3 + seat-1),
# side 0 Black / team A; 0 none. 2 players: 1 Black, 8 Gold.
COMPUTER = const(8)
LEVEL = const(9)  # the computer's level less one: 0..4 (smartboard.computer.BOARD_LEVELS)
# The hints' assistance (view.HINT): 0 the legal cells; 1 + the cells to
# block; 2 + the queried card's good cells (legal green, blinking) and poor ones (rose)
ASSIST = const(10)
HINT_LIMIT = const(11)  # card queries a turn: 0 no limit, 1..6
# The first-boot self-test (smartboard.selftest): 0 never run (it runs at
# the next boot), 1 + the mask of the steps that failed (1 passed), OLDER
# a record of before the self-test (Board.boot_check)
SELFTEST = const(12)
OLDER = const(65)
_DEFAULTS = (1, 2, 0, 0, 0, 4, 0, 2, 0, 0, 1, 0, 0)  # hint mode on: a family board
_LIMITS = (3, 4, 7, 2, 2, 7, 2, 7, 64, 5, 3, 7, 66)
LIMITS = _LIMITS  # smartboard.link: SET checks against them


class Settings:
    def __init__(self, path):
        self.path = path
        self.v = bytearray(_DEFAULTS)
        self.error = None
        self._dirty_since = -1

    def load(self):
        """Read the file; True if it held valid settings."""
        try:
            with open(self.path, "rb") as f:
                data = f.read(_SIZE + 1)
        except OSError:
            self.error = "no settings file: defaults"
            return False
        n = len(data) - 3  # the fields the record holds
        known = ((_VERSION, _NFIELDS), (4, 12), (3, 8), (2, 7))
        if n < 7 or data[0] != _MAGIC or (data[1], n) not in known:
            self.error = "settings file unreadable: defaults"
            return False
        if crc8(data, n + 2) != data[n + 2]:
            self.error = "settings file corrupt: defaults"
            return False
        for i in range(n):
            if data[2 + i] >= _LIMITS[i]:
                self.error = "settings out of range: defaults"
                return False
        self.v[:n] = data[2 : 2 + n]  # an older record: the later fields stay the defaults
        if n < _NFIELDS:
            self.v[SELFTEST] = OLDER
        self.error = None
        return True

    def get(self, i):
        return self.v[i]

    def set(self, i, value, now):
        """Change one setting; it reaches flash after SAVE_AFTER_MS quiet."""
        value %= _LIMITS[i]
        if self.v[i] != value:
            self.v[i] = value
            self._dirty_since = now

    def cycle(self, i, now, step=1):
        self.set(i, self.v[i] + step, now)
        return self.v[i]

    def dirty(self):
        """A change not yet on flash."""
        return self._dirty_since >= 0

    def due(self, now):
        return self._dirty_since >= 0 and now - self._dirty_since >= SAVE_AFTER_MS

    def save(self):
        rec = bytearray(_SIZE)
        rec[0] = _MAGIC
        rec[1] = _VERSION
        rec[2 : 2 + _NFIELDS] = self.v
        rec[_SIZE - 1] = crc8(rec, _SIZE - 1)
        tmp = self.path + ".new"
        with open(tmp, "wb") as f:
            f.write(rec)
        os.rename(tmp, self.path)
        self._dirty_since = -1

# Cards without a payload: the board learns their tag UIDs (issue 3, item 2).
#
# A deck whose tags were never written (or a replacement card) is taught by
# tapping its cards on the action pad in deck order — black (team A) normal
# cards 0..30, Rain, Rain, Beekeeper, Smoker, then gold (team B) the same —
# and the table maps each UID to the card from then on. Kept on flash as
# one record (magic, count, entries, CRC-8), written whole to a new file and
# renamed over the old one; a bad file loads as an empty table with the
# reason in .error, so an unknown tag stays an error on the LEDs, never a
# guess.
import os

from apixagon.compat import const

from . import tag

DECK = const(70)  # 2 x (31 normal + 2 Rain + Beekeeper + Smoker)
PER_SIDE = const(35)
UID_MAX = const(7)  # NTAG21x: 7-byte UIDs; 4-byte ones are zero-padded
_ENTRY = const(8)  # length byte + UID
_MAGIC = b"APXU"


def code_at(i):
    """Tag code of the i-th card of the teaching order."""
    side = i // PER_SIDE
    j = i % PER_SIDE
    if j < 31:
        return tag.code(side, tag.NORMAL, j)
    if j < 33:
        return tag.code(side, tag.RAIN, j - 31)
    return tag.code(side, tag.BEEKEEPER if j == 33 else tag.SMOKER, 0)


class UidTable:
    def __init__(self, path):
        self.path = path
        self.t = bytearray(DECK * _ENTRY)
        self.count = 0
        self.error = None

    def lookup(self, uid, n):
        """Card code of a UID (n bytes of uid), or -1."""
        if n <= 0 or n > UID_MAX:
            return -1
        t = self.t
        for i in range(self.count):
            p = i * _ENTRY
            if t[p] != n:
                continue
            k = 0
            while k < n and t[p + 1 + k] == uid[k]:
                k += 1
            if k == n:
                return code_at(i)
        return -1

    def learn(self, uid, n):
        """Add the next card of the teaching order; its code, or -1 if the
        UID is already known, malformed, or the deck is complete."""
        if self.count >= DECK or self.lookup(uid, n) >= 0 or not 0 < n <= UID_MAX:
            return -1
        p = self.count * _ENTRY
        self.t[p] = n
        for k in range(n):
            self.t[p + 1 + k] = uid[k]
        self.count += 1
        return code_at(self.count - 1)

    def forget(self):
        self.count = 0

    def load(self):
        self.count = 0  # whatever happens below, no stale half of a deck
        try:
            with open(self.path, "rb") as f:
                data = f.read(6 + DECK * _ENTRY + 2)
        except OSError:
            self.error = "no learned deck"
            return False
        n = data[5] if len(data) > 5 else 0
        size = 6 + n * _ENTRY + 1
        if data[:4] != _MAGIC or data[4] != 1 or n > DECK or len(data) != size:
            self.error = "learned deck file unreadable: ignored"
            return False
        if tag.crc8(data, size - 1) != data[size - 1]:
            self.error = "learned deck file corrupt: ignored"
            return False
        self.t[: n * _ENTRY] = data[6 : size - 1]
        self.count = n
        self.error = None
        return True

    def save(self):
        n = self.count
        rec = bytearray(6 + n * _ENTRY + 1)
        rec[:4] = _MAGIC
        rec[4] = 1
        rec[5] = n
        rec[6 : 6 + n * _ENTRY] = self.t[: n * _ENTRY]
        rec[-1] = tag.crc8(rec, len(rec) - 1)
        tmp = self.path + ".new"
        with open(tmp, "wb") as f:
            f.write(rec)
        os.rename(tmp, self.path)

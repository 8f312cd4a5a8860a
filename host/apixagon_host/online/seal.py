"""The online match's secrets: the match code the host draws, what is
derived from it (the match's topic name, the code key), the seats' keys
(an X25519 exchange at join), the keys kept on disk so that a side started
again keeps its seat, and the MAC every message carries.

Nothing here is a home-made primitive: random from `secrets`, MACs and
derivations HMAC-SHA256 from the standard library, the key exchange
X25519 from `cryptography`. docs/online.md says the threat model."""

import hashlib
import hmac
import json
import os
import secrets
import time

from ..i18n import _

# Crockford's base32: no I, L, O or U (misread aloud or by hand); what a
# person types is read with I and L as 1 and O as 0
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
RANDOM_SYMBOLS = 15  # 75 bits: far past guessing, on a shared broker too
CODE_LEN = RANDOM_SYMBOLS + 1  # the last symbol a check of the others
GROUP = 4
_TYPED = str.maketrans({"I": "1", "L": "1", "O": "0"})


class CodeError(ValueError):
    """A match code that cannot be: said, nothing done."""


def _check_symbol(body):
    # Luhn mod N over the 32 symbols: every single mistyped symbol and
    # most swaps of two neighbours change it (a hash's 5 bits let one
    # mistyped symbol in 32 through).
    n = len(ALPHABET)
    total = 0
    factor = 2
    for ch in reversed(body):
        a = factor * ALPHABET.index(ch)
        total += a // n + a % n
        factor = 3 - factor
    return ALPHABET[-total % n]


def new_code():
    """A new match code (normalised: 16 symbols, no separators)."""
    body = "".join(secrets.choice(ALPHABET) for _i in range(RANDOM_SYMBOLS))
    return body + _check_symbol(body)


def parse_code(text):
    """The normalised code of what a person typed (any case, groups
    separated by dashes or spaces); CodeError saying what is allowed."""
    raw = (text or "").strip()
    c = raw.upper().replace("-", "").replace(" ", "").translate(_TYPED)
    if len(c) != CODE_LEN or any(ch not in ALPHABET for ch in c):
        raise CodeError(
            _(
                "bad match code {code!r}: {n} symbols of 0-9 and A-Z but U, in groups of "
                "{g} (as the host printed it, e.g. 7KQ2-M9XD-4TPA-R8HC)"
            ).format(code=raw[:30], n=CODE_LEN, g=GROUP)
        )
    if _check_symbol(c[:-1]) != c[-1]:
        raise CodeError(
            _("match code {code}: a symbol is mistyped (its last symbol checks the others)").format(
                code=group(c)
            )
        )
    return c


def group(code):
    """The code as it is shown and read out: groups of 4 joined by dashes."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def entropy_bits():
    return RANDOM_SYMBOLS * 5


# ---- what the code gives --------------------------------------------------------
def _prf(key, *parts):
    return hmac.new(key, b"\x00".join(parts), hashlib.sha256).digest()


def match_id(code):
    """The match's name in its topics: a hash of the code, never the code
    (who lists the broker's topics learns no code)."""
    return _prf(code.encode(), b"apixagon v2 match id").hex()[:32]


def code_key(code):
    """The key of the set-up, the joins and the spectators' record: held by
    whoever knows the code."""
    return _prf(code.encode(), b"apixagon v2 code key")


def seat_keys(ckey, shared, host_pub, join_pub):
    """{letter of each seat: its MAC key}: from the code key and the
    X25519 secret both seats share (an eavesdropper who knows the code
    still lacks it)."""
    base = _prf(ckey, b"apixagon v2 seats", shared, host_pub, join_pub)
    return lambda letter: _prf(base, b"seat", letter.encode())


def mac(key, body):
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def same(a, b):
    return hmac.compare_digest(a, b)


# ---- a seat's own secret --------------------------------------------------------
def _x25519():
    try:
        from cryptography.hazmat.primitives.asymmetric import x25519
    except ImportError:  # the online extra installs it
        from ..errors import CommandError

        raise CommandError(
            _("online play needs the Python package cryptography (pip install cryptography)")
        ) from None
    return x25519


def new_secret():
    """A seat's private X25519 key, 32 random bytes."""
    return secrets.token_bytes(32)


def public(secret):
    x = _x25519()
    return x.X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()


def exchange(secret, their_pub):
    """The X25519 secret shared with the holder of their_pub (bytes)."""
    x = _x25519()
    me = x.X25519PrivateKey.from_private_bytes(secret)
    return me.exchange(x.X25519PublicKey.from_public_bytes(their_pub))


def is_pub(text):
    try:
        return isinstance(text, str) and len(bytes.fromhex(text)) == 32
    except ValueError:
        return False


RESERVE = 10**9  # numbers claimed on disk at a time (about 17 minutes of the clock)


class Counter:
    """A sender's message numbers: rising, and rising across restarts (the
    clock in microseconds, and never below what keep says was reserved
    before: a clock set back does not make our messages look old), so the
    other side can drop anything not newer than what it has."""

    def __init__(self, keep=None):
        self.keep = keep
        self.last = keep.get("sent", 0) if keep is not None else 0

    def next(self):
        self.last = max(self.last + 1, time.time_ns() // 1000)
        if self.keep is not None and self.last >= self.keep.get("sent", 0):
            self.keep.set(sent=self.last + RESERVE)  # written once per block
        return self.last


# ---- kept on disk ---------------------------------------------------------------
def state_dir(given=None):
    """Where a side keeps its seat: APIXAGON_STATE_DIR, else the XDG state
    folder."""
    if given:
        return given
    if os.environ.get("APIXAGON_STATE_DIR"):
        return os.environ["APIXAGON_STATE_DIR"]
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(base, "apixagon", "online")


class Keep:
    """One side's seat of one match, kept in a file only its user reads:
    its secret, the other seat's public key once known, the newest message
    number heard from it (a replay stays dropped after a restart)."""

    def __init__(self, folder, mid, role):
        self.path = os.path.join(folder, "%s-%s.json" % (mid, role))
        self.data = {}
        try:
            with open(self.path) as f:
                self.data = json.load(f)
        except (OSError, ValueError):
            self.data = {}
        if not isinstance(self.data, dict) or len(self.data.get("secret", "")) != 64:
            self.data = {"secret": new_secret().hex()}
            self.save()

    @property
    def secret(self):
        return bytes.fromhex(self.data["secret"])

    def get(self, name, default=None):
        return self.data.get(name, default)

    def set(self, **kw):
        if any(self.data.get(k) != v for k, v in kw.items()):
            self.data.update(kw)
            self.save()

    def save(self):
        folder = os.path.dirname(self.path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        tmp = self.path + ".tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(self.data, f)
        os.replace(tmp, self.path)

"""The spectators' feed of an online match: the record held back by a
number of moves, signed by the host with an Ed25519 key of its own for the
match (kept beside its seat file, so a restarted host signs with the same
key), published retained on apixagon/v2/watch/FINGERPRINT. The fingerprint
(a short SHA-256 of the public key) is all a spectator is given: it names
the topic and checks the key, and it is no secret of the players (the code
never reaches a spectator, and nothing here can sign a move or a seat).

Ed25519 from `cryptography`; the record checked by the rules core
(record.check) before it is shown. docs/online.md says the threat model."""

import hashlib
import json
import os
import re
import secrets

from apixagon import record
from apixagon.game import Game

from ..errors import EXIT_USAGE, CommandError
from ..i18n import _
from .protocol import is_move

# A watcher must never see a move sooner than both boards show it, so that
# nobody beside a player can tell them the live position. Two moves is one
# whole round: even when one board is still a move behind (a lost link, the
# far card not yet put down) or the last move is taken back, what is
# published is older than what either player already has on the table.
MIN_DELAY = 2
DEFAULT_DELAY = 2
MAX_DELAY = 200
FP_LEN = 32  # hex digits: 128 bits of SHA-256, far past forging a key for it
MAX_BYTES = 16384
ROOT = "apixagon/v2/watch"
_FP = re.compile(r"^[0-9a-f]{%d}$" % FP_LEN)
_HEADERS = ("mode", "option", "start", "players")


class FeedError(ValueError):
    """A record on the feed that is not shown: why, in words (no secret)."""


def check_delay(n, option="--watch-delay"):
    """n if it holds back at least MIN_DELAY moves; else CommandError (exit
    2) saying the minimum."""
    if not isinstance(n, int) or not MIN_DELAY <= n <= MAX_DELAY:
        raise CommandError(
            _(
                "{option} {n}: spectators are held back at least {min} moves (so nobody "
                "watching can tell a player the live position) and at most {max}"
            ).format(option=option, n=n, min=MIN_DELAY, max=MAX_DELAY),
            EXIT_USAGE,
        )
    return n


def _ed25519():
    try:
        from cryptography.hazmat.primitives.asymmetric import ed25519
    except ImportError:  # the online extra installs it
        raise CommandError(
            _("online play needs the Python package cryptography (pip install cryptography)")
        ) from None
    return ed25519


def key_path(folder, mid):
    return os.path.join(folder, "%s-watch.key" % mid)


def load_key(folder, mid):
    """The host's signing key of this match (32 bytes), made and written
    (readable by its user only) the first time."""
    path = key_path(folder, mid)
    try:
        with open(path) as f:
            secret = bytes.fromhex(f.read().strip())
        if len(secret) == 32:
            return secret
    except (OSError, ValueError):
        pass
    secret = secrets.token_bytes(32)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secret.hex())
    os.replace(tmp, path)
    return secret


def public(secret):
    ed = _ed25519()
    return ed.Ed25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()


def fingerprint(pub):
    return hashlib.sha256(pub).hexdigest()[:FP_LEN]


def topic(fp):
    return "%s/%s" % (ROOT, fp)


def check_fingerprint(text):
    """The fingerprint in text (any case), or FeedError saying what one is."""
    fp = (text or "").strip().lower()
    if not _FP.match(fp):
        raise FeedError(
            _(
                "bad watch fingerprint {fp!r}: {n} digits 0-9 and a-f, as the host printed it"
            ).format(fp=(text or "")[:40], n=FP_LEN)
        )
    return fp


def _body(msg):
    return json.dumps(msg, separators=(",", ":"), sort_keys=True).encode()


def encode(secret, seq, lines, delay):
    """The signed feed message of the record `lines`, its last `delay`
    moves left out: the live record never leaves the host."""
    moves = [x for x in lines if is_move(x)]
    shown = moves[: max(0, len(moves) - delay)]
    msg = {
        "v": 2,
        "t": "watch",
        "pub": public(secret).hex(),
        "seq": seq,
        "lines": [x for x in lines if not is_move(x)] + shown,
        "played": len(moves),
        "held": len(moves) - len(shown),
    }
    ed = _ed25519()
    msg["sig"] = ed.Ed25519PrivateKey.from_private_bytes(secret).sign(_body(msg)).hex()
    return _body(msg)


def verify(data, fp):
    """The message in data if it is signed by the key of fingerprint fp and
    the rules core takes its record; FeedError saying why not otherwise."""
    if not data or len(data) > MAX_BYTES:
        raise FeedError(_("empty or longer than %d bytes") % MAX_BYTES)
    try:
        msg = json.loads(data.decode())
    except (UnicodeDecodeError, ValueError):
        raise FeedError(_("not JSON")) from None
    if not isinstance(msg, dict):
        raise FeedError(_("not a JSON object"))
    sig = msg.pop("sig", None)
    pub = msg.get("pub")
    if not isinstance(sig, str) or not isinstance(pub, str):
        raise FeedError(_("unsigned"))
    try:
        pubb, sigb = bytes.fromhex(pub), bytes.fromhex(sig)
    except ValueError:
        raise FeedError(_("unsigned")) from None
    if len(pubb) != 32 or fingerprint(pubb) != fp:
        raise FeedError(_("signed by another key than the fingerprint's"))
    ed = _ed25519()
    from cryptography.exceptions import InvalidSignature

    try:
        ed.Ed25519PublicKey.from_public_bytes(pubb).verify(sigb, _body(msg))
    except (InvalidSignature, ValueError):
        raise FeedError(_("its signature does not verify")) from None
    lines, seq = msg.get("lines"), msg.get("seq")
    played, held = msg.get("played"), msg.get("held")
    if not (
        msg.get("v") == 2
        and msg.get("t") == "watch"
        and isinstance(lines, list)
        and all(isinstance(x, str) and len(x) < 200 for x in lines)
        and all(isinstance(n, int) and not isinstance(n, bool) for n in (seq, played, held))
    ):
        raise FeedError(_("malformed"))
    moves = sum(1 for x in lines if is_move(x))
    if held < 0 or moves != played - held or moves > max(0, played - MIN_DELAY):
        raise FeedError(_("held back fewer moves than the minimum (%d)") % MIN_DELAY)
    for x in lines:
        if not (is_move(x) or x.startswith("[") or x.split(" ")[0] in _HEADERS):
            raise FeedError(_("a line that is not a header or a move: %r") % x[:40])
    _game, verdicts = record.check(lines, Game)
    bad = [v for v in verdicts if v[1]]
    if bad:
        raise FeedError(_("refused by the rules: line %d") % bad[0][0])
    return msg

"""`apixagon online host|join CODE`: this board plays one side of a match
whose other side is a board in another home, over an MQTT broker."""

import os
import socket
import sys
import threading

from ..errors import CommandError
from ..i18n import _, ngettext
from . import feed, hands
from . import protocol as P
from .transport import DEFAULT_URL, parse_url


def add_args(p):
    p.add_argument(
        "role", choices=("host", "join"), help=_("host: start the match; join: the other")
    )
    p.add_argument(
        "code",
        nargs="?",
        help=_(
            "the match's code: host draws a new one when none is given (give it again to go "
            "on with that match); join: the code the host printed, e.g. 7KQ2-M9XD-4TPA-R8HC"
        ),
    )
    p.add_argument(
        "--broker",
        help=_(
            "mqtt://[USER:PASS@]HOST[:PORT] or mqtts://... (default: %s; `host` starts "
            "Debian's mosquitto there when nothing listens)"
        )
        % DEFAULT_URL,
    )
    p.add_argument("--port", "-p", help=_("serial port of the board (default: the first found)"))
    p.add_argument(
        "--side",
        help=_(
            "host: the side this board plays, black|gold (default black), or in a team "
            "game a|b (default a: this board plays every seat of team A)"
        ),
    )
    p.add_argument("--user", help=_("broker user name (or in the URL)"))
    p.add_argument(
        "--password-env",
        default="APIXAGON_MQTT_PASSWORD",
        help=_("the environment variable holding the broker's password (default: %(default)s)"),
    )
    p.add_argument("--ca", help=_("CA certificate file for mqtts:// (default: the system's)"))
    p.add_argument(
        "--grace",
        type=float,
        default=P.GRACE_S,
        help=_(
            "seconds the other side may be away before it is declared gone (default %(default)g)"
        ),
    )
    p.add_argument(
        "--wait", type=float, default=60, help=_("join: seconds to wait for the host's match")
    )
    p.add_argument(
        "--seconds", type=float, default=0, help=_("stop after this long (default: never)")
    )
    p.add_argument(
        "--watch-delay",
        type=int,
        default=feed.DEFAULT_DELAY,
        help=_(
            "host: moves the spectators' feed is held back (default %(default)s, at least {min})"
        ).format(min=feed.MIN_DELAY),
    )
    p.add_argument(
        "--hands",
        action="store_true",
        help=_(
            "the simulated board: read the players' hands (put, lift, tap, confirm) from the "
            "standard input (default: when it is a terminal)"
        ),
    )


def _listening(host, port):
    try:
        socket.create_connection((host, port), 0.5).close()
        return True
    except OSError:
        return False


def run(state, args):
    from .. import link as L
    from .session import Session

    said = threading.Lock()

    def say(text):
        # the network's thread says things too (connected, the other side
        # is here) while this one does: a text stream is not thread-safe,
        # the lock keeps each line whole
        with said:
            state.out.write("%s\n" % text)
            state.out.flush()

    side = args.side
    if side:
        side = {"black": "B", "gold": "G"}.get(side.lower(), side.upper())
    url = args.broker or DEFAULT_URL
    parse_url(url)  # a bad URL said before the board is touched
    if args.code is None and args.role == "join":
        raise CommandError(
            _("join needs the match code the host printed (e.g. 7KQ2-M9XD-4TPA-R8HC)")
        )
    if args.code is not None:
        P.check_code_or_usage(args.code)
    feed.check_delay(args.watch_delay)  # said before the board is touched
    broker = None
    if not args.broker and args.role == "host" and not _listening("127.0.0.1", 1883):
        from .broker import Broker

        broker = Broker(1883).start()
        say(
            _("started mosquitto on 127.0.0.1:1883 (this computer only; across homes use --broker)")
        )
    link = None
    session = None
    try:
        link = L.connect(args.port, timeout=5)
        session = Session(
            link,
            url,
            args.code,
            args.role,
            side=side,
            grace=args.grace,
            say=say,
            wait=args.wait,
            ca=args.ca,
            user=args.user,
            password=os.environ.get(args.password_env) if args.password_env else None,
            watch_delay=args.watch_delay,
        )
        session.start()
        if session.watch_fp is not None:
            say(
                _(
                    "spectators: give them the fingerprint {fp} (never the code); they watch "
                    "{n} moves behind at /watch/{fp} of apixagon serve --watch-broker URL"
                ).format(fp=session.watch_fp, n=args.watch_delay)
            )
        if getattr(link, "info", {}).get("board") == hands.SIMULATOR and (
            args.hands or sys.stdin.isatty()
        ):
            # no cards to put down on the simulated board: typed here
            say(
                _("the simulated board: type the players' hands here ({usage})").format(
                    usage=hands.USAGE
                )
            )
            hands.typed_hands(session, sys.stdin, say)
        session.run(args.seconds)
    except KeyboardInterrupt:
        say(_("stopped: the match stays on the board; run the same command to go on"))
    finally:
        if session is not None:
            session.close()
        if link is not None:
            link.close()
        if broker is not None:
            broker.stop()
    if session is not None and session.errors:
        n = len(session.errors)
        say(ngettext("%d message refused", "%d messages refused", n) % n)
    if session is not None and session.dropped:
        n = len(session.dropped)
        say(
            ngettext(
                "%d message dropped unread (not from the other seat, old, or too long)",
                "%d messages dropped unread (not from the other seat, old, or too long)",
                n,
            )
            % n
        )
    return 0


__all__ = ["add_args", "run", "CommandError"]

"""`apixagon serve`: the web companion on this computer (127.0.0.1 unless
--host names another address, and that only with --allow-remote): the
live board, the match library, the board's page. uvicorn serves it; the
serial link runs in the bridge's thread.

--allow-remote opens it to the network, guarded (guard.py): the Host
header must be one of this computer's names (or an address), and other
computers need the secret token in the URL it prints. With --watch-broker
it prints a second link too, for spectators: its own token opens the
watch pages only (guard.py), never the board or the library."""

import ipaddress
import secrets
import socket
import sys
import webbrowser

from ..errors import EXIT_USAGE, CommandError
from ..i18n import _
from ..online.feed import DEFAULT_DELAY, MIN_DELAY, check_delay

DEFAULT_PORT = 8765


def add_args(p):
    p.add_argument("--port", "-p", help=_("serial port of the board (default: the first found)"))
    p.add_argument("--db", help=_("SQLite file of the matches (default: the user data dir)"))
    p.add_argument(
        "--host", default="127.0.0.1", help=_("address to serve on (default %(default)s)")
    )
    p.add_argument(
        "--web-port", type=int, default=DEFAULT_PORT, help=_("TCP port (default %(default)s)")
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help=_(
            "answer other computers too: anyone on the network who has the printed "
            "address (it carries a secret token) can see and change the board and the "
            "match library; with --host 0.0.0.0 every network this computer is on"
        ),
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=_(
            "with --allow-remote: a name other computers use for this one (the Host "
            "header must be one of them or an address; repeatable; this computer's "
            "own name is allowed already)"
        ),
    )
    p.add_argument("--open", action="store_true", help=_("open the page in the default browser"))
    p.add_argument(
        "--watch-broker",
        metavar="URL",
        help=_(
            "spectators: show the online matches of this broker at /watch/FINGERPRINT "
            "(the fingerprint the host printed)"
        ),
    )
    p.add_argument(
        "--watch-delay",
        type=int,
        default=DEFAULT_DELAY,
        help=_("moves held back from spectators (default %(default)s, at least {min})").format(
            min=MIN_DELAY
        ),
    )


def _loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen(host, port):
    """A listening socket, or CommandError saying why not (exit 2)."""
    if not 0 <= port <= 65535:
        raise CommandError("--web-port must be 0..65535, not %d" % port, EXIT_USAGE)
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as e:
        raise CommandError("cannot serve on %s: %s" % (host, e.strerror), EXIT_USAGE)
    sock = socket.socket(info[0], socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(info[4])
    except OSError as e:
        sock.close()
        raise CommandError(
            "cannot serve on %s port %d: %s (--web-port chooses another)"
            % (host, port, e.strerror),
            EXIT_USAGE,
        )
    sock.listen(64)
    return sock


def run(state, args):
    if not _loopback(args.host) and not args.allow_remote:
        raise CommandError(
            "serving on %s lets other computers change the board: add --allow-remote "
            "if that is meant" % args.host,
            EXIT_USAGE,
        )
    try:
        import uvicorn

        from .app import create_app
        from .bridge import Bridge
    except ImportError as e:  # a partial install: the other commands still work
        raise CommandError(
            "the web companion is not installed (%s): pip install starlette uvicorn jinja2" % e
        )
    if args.watch_broker:
        check_delay(args.watch_delay)  # said before anything starts
    sock = listen(args.host, args.web_port)
    port = sock.getsockname()[1]
    bridge = Bridge(args.port)
    wildcard = args.host in ("0.0.0.0", "::")
    hosts = ["127.0.0.1", "localhost", "::1"] + list(args.allow_host)
    token = None
    if args.allow_remote:
        me = socket.gethostname()
        hosts += [me, me + ".local"] + ([] if wildcard else [args.host])
        token = secrets.token_urlsafe(18)
    server = None
    watcher = None
    watch_token = None
    if args.watch_broker:
        from ..online.watch import Watcher

        watcher = Watcher(args.watch_broker, args.watch_delay).start()
        if token is not None:
            watch_token = secrets.token_urlsafe(18)
    app = create_app(
        bridge,
        args.db,
        allow_remote=args.allow_remote,
        hosts=hosts,
        stopping=lambda: server is not None and server.should_exit,
        token=token,
        watcher=watcher,
        watch_token=watch_token,
    )
    shown = socket.gethostname() if wildcard else args.host
    name = "[%s]" % shown if ":" in shown else shown
    url = "http://%s:%d/" % (name, port)
    if token is not None:
        url += "?token=" + token
        sys.stderr.write(
            "warning: --allow-remote: anyone who has this address can see and change the "
            "board and the match library; names accepted: %s and addresses\n" % ", ".join(hosts)
        )
        sys.stderr.flush()
    if watch_token is not None:
        state.out.write(
            _(
                "spectators' link (it opens the watch pages only): "
                "{url}watch/FINGERPRINT?watch={token} (FINGERPRINT: what apixagon online host "
                "printed)\n"
            ).format(url=url.split("?")[0], token=watch_token)
        )
    # (on Ctrl-C the pages' event streams end themselves: stopping above;
    # a request still busy after 2 s is cut)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    bridge.start()
    state.out.write("APIXAGON web companion on %s (Ctrl-C stops it)\n" % url)
    state.out.flush()
    if args.open:
        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        bridge.stop()
        sock.close()
        if watcher is not None:
            watcher.stop()
    sys.stdout.flush()
    return 0

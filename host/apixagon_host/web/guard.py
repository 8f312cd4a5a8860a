"""The web companion's safety, as ASGI middleware around the app.

Guard, for a server on the user's own computer that can change a board
and a database:
- clients other than this computer are refused unless --allow-remote;
- the Host header must name this server: one of its names (loopback, the
  address it serves on, the names --allow-host gives) or an IP address
  typed as such. A web page of another site whose name resolves to this
  server (DNS rebinding) sends its own name and reaches nothing;
- with --allow-remote, a client on another computer needs the secret
  printed with the server's URL (as notebook servers do): the URL's
  `?token=` is exchanged once for a cookie, then every request carries it;
- a spectators' link (apixagon serve --watch-broker) carries another
  token, `?watch=`, exchanged likewise for its own cookie: it opens the
  watch pages of online matches and nothing else (a spectator is given
  the match's position, never the board, its settings or the library);
- every request that changes something (POST) must come from this
  server's own pages: its Origin (or Sec-Fetch-Site) says so, else 403;
- the pages run only this server's scripts (Content-Security-Policy) and
  cannot be framed by another site.

Quiet: no traceback ever reaches the terminal. A client that goes away
mid-request is nobody's error; anything else is one line on stderr and a
500 for the client, the server going on."""

import hmac
import ipaddress
import re
import sys
from urllib.parse import parse_qsl, urlencode

from starlette.requests import ClientDisconnect
from starlette.responses import PlainTextResponse, RedirectResponse

from ..i18n import _

COOKIE = "apixagon_token"
WATCH_COOKIE = "apixagon_watch"
# what the spectators' link opens: a watch page and its .apx, the icon
_WATCH_PATH = re.compile(r"^/watch/[0-9A-Za-z]{1,64}(\.apx)?$|^/favicon\.ico$")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")

# The pages load only this server's scripts and styles, and no other site
# may frame them (a click on a hidden frame of this page is no user's).
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


def local(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(value):
    """The name in a Host header, without its port ("[::1]:80" -> "::1")."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else ""
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _ip(name):
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def headers_of(scope):
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}


def same_origin(scope):
    headers = headers_of(scope)
    host = headers.get("host", "")
    origin = headers.get("origin")
    if origin is not None:
        return origin == "%s://%s" % (scope.get("scheme", "http"), host)
    # no Origin (an older browser's form post): the fetch metadata says
    return headers.get("sec-fetch-site") == "same-origin"


def _cookie(headers, name):
    for part in headers.get("cookie", "").split(";"):
        k, _eq, v = part.strip().partition("=")
        if k == name:
            return v
    return None


class Guard:
    """ASGI middleware: who may ask (local clients, or remote ones with the
    token), which Host names this server, same-origin writes. hosts: the
    names the Host header may carry (loopback ones are always allowed);
    token: the secret remote clients need (None: not served remotely)."""

    def __init__(self, app, allow_remote=False, hosts=(), token=None, watch_token=None):
        self.app = app
        self.allow_remote = allow_remote
        self.hosts = set(LOOPBACK_NAMES) | {h.lower().strip("[]") for h in hosts or ()}
        self.token = token
        self.watch_token = watch_token  # the spectators' link's (None: no spectators)

    def _host_ok(self, headers):
        name = host_name(headers.get("host", ""))
        if name in self.hosts:
            return True
        # An address typed as such was not looked up: no rebinding there.
        # Locally only the loopback ones (a page of this computer's).
        return self.allow_remote and _ip(name)

    def _watcher(self, given):
        return (
            self.watch_token is not None
            and given is not None
            and hmac.compare_digest(given.encode(), self.watch_token.encode())
        )

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = (scope.get("client") or ("", 0))[0]
        remote = not local(client)
        if remote and not self.allow_remote:
            return await _refuse(
                _(
                    "refused: this companion answers only this computer "
                    "(apixagon serve --host ADDRESS --allow-remote opens it)"
                ),
                scope,
                receive,
                send,
            )
        headers = headers_of(scope)
        if not self._host_ok(headers):
            return await _refuse(
                _(
                    "refused: this server is not {host} "
                    "(apixagon serve --allow-host NAME adds a name)"
                ).format(host=host_name(headers.get("host", ""))),
                scope,
                receive,
                send,
                400,
            )
        if remote and self.token is not None and not scope["path"].startswith("/static/"):
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            given = query.get("token")
            if given is not None and hmac.compare_digest(given, self.token):
                # the printed URL: its token becomes a cookie, then the
                # same page without it (it would stay in the history)
                del query["token"]
                url = scope["path"] + ("?" + urlencode(query) if query else "")
                r = RedirectResponse(url, 303)
                r.set_cookie(COOKIE, self.token, httponly=True, samesite="strict")
                return await r(scope, receive, send)
            watching = _WATCH_PATH.match(scope["path"]) is not None
            given = query.get("watch")
            if self._watcher(given) and watching:
                del query["watch"]  # as the token above: a cookie, the link again without it
                url = scope["path"] + ("?" + urlencode(query) if query else "")
                r = RedirectResponse(url, 303)
                r.set_cookie(WATCH_COOKIE, self.watch_token, httponly=True, samesite="strict")
                return await r(scope, receive, send)
            held = _cookie(headers, COOKIE)
            if held is not None and hmac.compare_digest(held, self.token):
                pass
            elif self._watcher(_cookie(headers, WATCH_COOKIE)):
                if not watching or scope["method"] not in ("GET", "HEAD"):
                    return await _refuse(
                        _(
                            "refused: a spectators' link opens only the watch pages of online "
                            "matches (/watch/FINGERPRINT), nothing else of this companion"
                        ),
                        scope,
                        receive,
                        send,
                    )
            else:
                return await _refuse(
                    _("refused: open the address apixagon serve printed (it carries the token)"),
                    scope,
                    receive,
                    send,
                )
        if scope["method"] not in ("GET", "HEAD") and not same_origin(scope):
            return await _refuse(
                _("refused: a change must come from this companion's own pages (same origin)"),
                scope,
                receive,
                send,
            )

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + HEADERS
            await send(message)

        return await self.app(scope, receive, send_with_headers)


async def _refuse(text, scope, receive, send, code=403):
    return await PlainTextResponse(text, code)(scope, receive, send)


class Quiet:
    """ASGI middleware, outermost: an exception never becomes a traceback
    on the terminal (uvicorn prints one for anything that reaches it)."""

    def __init__(self, app, err=None):
        self.app = app
        self.err = err

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = []

        async def tracked(message):
            if message["type"] == "http.response.start":
                started.append(1)
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except ClientDisconnect:
            return  # the client went away mid-request: nobody to answer
        except Exception as e:  # noqa: BLE001 - the server goes on, whatever the request
            err = self.err or sys.stderr
            err.write(
                "apixagon serve: %s %s failed: %s: %s\n"
                % (scope.get("method"), scope.get("path"), type(e).__name__, e)
            )
            err.flush()
            if not started:
                try:
                    await PlainTextResponse("internal error (the server goes on)", 500)(
                        scope, receive, send
                    )
                except Exception:  # noqa: BLE001 - the client is gone too
                    pass

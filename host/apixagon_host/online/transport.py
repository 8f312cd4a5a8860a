"""The online match's transport: MQTT through paho-mqtt, thin. It knows
topics and bytes, never what a message means (protocol.py does). What
arrives is queued (paho's network thread never touches the session's
state); presence is a retained message with the same `offline` as the
last will, so a side that vanishes (a cable pulled, a killed process) is
seen gone by the broker's keep-alive, and one that comes back says so."""

import getpass
import os
import queue
import ssl
import sys
import threading
import time
from urllib.parse import unquote, urlsplit

from ..errors import CommandError
from ..i18n import _

EXIT_NETWORK = 4  # the broker could not be reached or refused us
DEFAULT_URL = "mqtt://127.0.0.1:1883"
KEEPALIVE_S = 10  # the broker declares a silent client gone after 1.5x this
PASSWORD_ENV = "APIXAGON_MQTT_PASSWORD"  # the broker's password, never on the command line
ALLOWED = "mqtt://[USER@]HOST[:PORT] or mqtts://[USER@]HOST[:PORT]"


class NetworkError(CommandError):
    def __init__(self, message):
        super().__init__(message, EXIT_NETWORK)


def redact(url):
    """The broker URL as it may be shown or logged: its password replaced
    by *** (the user kept). Works on any text, even a URL too broken to
    parse: everything between :// and the last @ is user information (a
    broker URL has no path that could hold an @)."""
    s = "" if url is None else str(url)
    scheme, sep, rest = s.partition("://")
    if not sep:
        scheme, rest = "", s
    userinfo, at, hostpart = rest.rpartition("@")
    if not at:
        return s
    user, colon, _pw = userinfo.partition(":")
    return "%s%s%s%s@%s" % (scheme, sep, user, ":***" if colon else "", hostpart)


def _bad_url(url, why):
    return NetworkError(
        _("bad broker URL %(url)r: %(why)s (allowed: %(allowed)s)")
        % {"url": redact(url)[:80], "why": why, "allowed": ALLOWED}
    )


def parse_url(url):
    """(host, port, tls, user, password) of mqtt://[user:pass@]host[:port]
    or mqtts://; NetworkError for anything else, its message never
    showing the password."""
    text = url or DEFAULT_URL
    try:
        u = urlsplit(text)
        host = u.hostname
        port = u.port
    except ValueError:
        # an unclosed [IPv6 address, a port that is not a number or out of
        # range: urlsplit's own message may quote the password, so not shown
        raise _bad_url(text, _("its host or port cannot be read")) from None
    if u.scheme not in ("mqtt", "mqtts"):
        raise _bad_url(text, _("it must start with mqtt:// or mqtts://"))
    if not host:
        raise _bad_url(text, _("it names no host"))
    if u.path not in ("", "/") or u.query or u.fragment:
        raise _bad_url(text, _("a broker URL has no path, query or fragment"))
    tls = u.scheme == "mqtts"
    user = unquote(u.username) if u.username else None
    password = unquote(u.password) if u.password else None
    return host, port or (8883 if tls else 1883), tls, user, password


_asked = {}  # (user, host, port): the password typed once, for this run's connections


def password_for(user, host, port, environ=None, stdin=None):
    """The broker password for a user who gave none: the environment's
    PASSWORD_ENV, else asked at the terminal (not echoed), else None (the
    user alone is tried: a broker that wants a password refuses it)."""
    env = os.environ if environ is None else environ
    if env.get(PASSWORD_ENV):
        return env[PASSWORD_ENV]
    key = (user, host, port)
    if key in _asked:
        return _asked[key]
    stdin = sys.stdin if stdin is None else stdin
    try:
        interactive = stdin is not None and stdin.isatty()
    except (AttributeError, OSError, ValueError):  # closed or replaced standard input
        interactive = False
    if not interactive:
        return None
    try:
        pw = getpass.getpass(
            _("password of %(user)s on the broker %(host)s:%(port)d (or set %(env)s): ")
            % {"user": user, "host": host, "port": port, "env": PASSWORD_ENV}
        )
    except (EOFError, KeyboardInterrupt):
        raise NetworkError(_("no broker password given")) from None
    _asked[key] = pw
    return pw


def tls_context(ca):
    """The TLS context of an mqtts:// connection: the system's CAs, or the
    CA certificate file given; a missing or unreadable file, or one that
    holds no certificate, is said in words."""
    if ca and not os.path.exists(ca):
        raise NetworkError(_("the CA file %r does not exist (--ca: a PEM certificate file)") % ca)
    if ca and os.path.isdir(ca):
        raise NetworkError(_("the CA file %r is a folder (--ca: a PEM certificate file)") % ca)
    try:
        return ssl.create_default_context(cafile=ca or None)
    except ssl.SSLError as e:
        raise NetworkError(
            _("the CA file %(ca)r holds no certificate that can be read (%(why)s)")
            % {"ca": ca, "why": e.reason or e}
        ) from None
    except (OSError, ValueError) as e:
        raise NetworkError(
            _("the CA file %(ca)r cannot be read: %(why)s") % {"ca": ca, "why": e}
        ) from None


class Transport:
    """One MQTT connection: publish, subscribe, a queue of what arrived
    (("msg", topic, payload), ("up",), ("down", reason)) and presence."""

    def __init__(self, url, client_id, presence_topic=None, ca=None, user=None, password=None):
        import paho.mqtt.client as mqtt

        self._mqtt = mqtt
        host, port, tls, u, p = parse_url(url)
        self.host, self.port = host, port
        self.inbox = queue.Queue()
        self.presence_topic = presence_topic
        self.subs = []
        self.connected = threading.Event()
        self.refused = ""
        self.last_error = ""
        c = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=True,
        )
        if ca and not tls:
            raise NetworkError(
                _("--ca %(ca)r is for an mqtts:// broker, and %(url)s is mqtt://")
                % {"ca": ca, "url": redact(url)}
            )
        user = user or u
        password = password if password is not None else p
        if user and password is None:
            password = password_for(user, host, port)
        if user:
            c.username_pw_set(user, password)
        self.no_password = bool(user) and not password
        if tls:
            c.tls_set_context(tls_context(ca))
        if presence_topic:
            c.will_set(presence_topic, b"offline", qos=1, retain=True)
        c.reconnect_delay_set(0.2, 5)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_log = self._on_log
        self.client = c

    def start(self, timeout=10.0):
        """Connect (and keep reconnecting in paho's thread); NetworkError
        if the first connection does not come up within timeout."""
        try:
            # the first connection at once, here: a refused port, a name
            # that does not resolve or a certificate that does not verify is
            # said as it is (paho's own thread would only retry it)
            self.client.connect(self.host, self.port, KEEPALIVE_S)
        except (OSError, ValueError) as e:  # ssl.SSLError is an OSError
            raise NetworkError(
                _("cannot reach the broker %s:%d: %s") % (self.host, self.port, e)
            ) from None
        self.client.loop_start()
        end = time.monotonic() + timeout
        while not self.connected.wait(0.05):
            if self.refused or time.monotonic() > end:
                self.stop(False)
                why = (
                    _("the broker %s:%d refused the connection: %s")
                    % (self.host, self.port, self.refused)
                    + self._hint()
                    if self.refused
                    else _("no connection to the broker %s:%d within %g s%s")
                    % (self.host, self.port, timeout, self._why())
                )
                raise NetworkError(why)
        return self

    def _hint(self):
        # a user with no password: where the password goes
        if not self.no_password:
            return ""
        return " " + _("(no password was given: set it in %s)") % PASSWORD_ENV

    def _why(self):
        # paho keeps a failed TLS handshake's or connect's error to itself:
        # the last one it logged, if any
        return " (%s)" % self.last_error if self.last_error else ""

    def _on_connect(self, client, userdata, flags, reason, properties=None):
        if reason.is_failure:
            self.refused = str(reason)  # bad user or password, not allowed
            self.inbox.put(("down", _("broker refused: %s") % reason))
            return
        for t in self.subs:
            client.subscribe(t, qos=1)
        if self.presence_topic:
            client.publish(self.presence_topic, b"online", qos=1, retain=True)
        self.connected.set()
        self.inbox.put(("up",))

    def _on_disconnect(self, client, userdata, flags, reason, properties=None):
        self.connected.clear()
        self.inbox.put(("down", str(reason)))

    def _on_log(self, client, userdata, level, text):
        if level in (self._mqtt.MQTT_LOG_WARNING, self._mqtt.MQTT_LOG_ERR) or "rror" in text:
            self.last_error = text[:200]

    def _on_message(self, client, userdata, m):
        self.inbox.put(("msg", m.topic, bytes(m.payload)))

    def subscribe(self, topic):
        self.subs.append(topic)
        if self.connected.is_set():
            self.client.subscribe(topic, qos=1)

    def publish(self, topic, payload, retain=False, qos=1):
        # paho queues while disconnected and sends on reconnect (QoS 1);
        # the protocol's numbering makes a repeat harmless
        self.client.publish(topic, payload, qos=qos, retain=retain)

    def get(self, timeout):
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def drop(self):
        """Cut the connection as a network would (no DISCONNECT: the
        broker sends the last will); paho reconnects by itself."""
        sock = self.client.socket()
        if sock is not None:
            try:
                sock.shutdown(2)
            except OSError:
                pass

    def stop(self, say_offline=True):
        if say_offline and self.presence_topic and self.connected.is_set():
            info = self.client.publish(self.presence_topic, b"offline", qos=1, retain=True)
            try:
                info.wait_for_publish(2)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()


def wait_until(pred, timeout, step=0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()

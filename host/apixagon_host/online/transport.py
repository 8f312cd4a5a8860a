"""The online match's transport: MQTT through paho-mqtt, thin. It knows
topics and bytes, never what a message means (protocol.py does). What
arrives is queued (paho's network thread never touches the session's
state); presence is a retained message with the same `offline` as the
last will, so a side that vanishes (a cable pulled, a killed process) is
seen gone by the broker's keep-alive, and one that comes back says so."""

import queue
import ssl
import threading
import time
from urllib.parse import unquote, urlsplit

from ..errors import CommandError
from ..i18n import _

EXIT_NETWORK = 4  # the broker could not be reached or refused us
DEFAULT_URL = "mqtt://127.0.0.1:1883"
KEEPALIVE_S = 10  # the broker declares a silent client gone after 1.5x this


class NetworkError(CommandError):
    def __init__(self, message):
        super().__init__(message, EXIT_NETWORK)


def parse_url(url):
    """(host, port, tls, user, password) of mqtt://[user:pass@]host[:port]
    or mqtts://; NetworkError for anything else."""
    u = urlsplit(url or DEFAULT_URL)
    if u.scheme not in ("mqtt", "mqtts") or not u.hostname:
        raise NetworkError(
            _("bad broker URL %r: mqtt://HOST[:PORT] or mqtts://...") % (url or "")[:80]
        )
    tls = u.scheme == "mqtts"
    try:
        port = u.port or (8883 if tls else 1883)
    except ValueError:
        raise NetworkError(_("bad broker URL %r: its port") % url[:80]) from None
    user = unquote(u.username) if u.username else None
    password = unquote(u.password) if u.password else None
    return u.hostname, port, tls, user, password


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
        if user or u:
            c.username_pw_set(user or u, password if password is not None else p)
        if tls:
            ctx = ssl.create_default_context(cafile=ca)
            c.tls_set_context(ctx)
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
                    if self.refused
                    else _("no connection to the broker %s:%d within %g s%s")
                    % (self.host, self.port, timeout, self._why())
                )
                raise NetworkError(why)
        return self

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

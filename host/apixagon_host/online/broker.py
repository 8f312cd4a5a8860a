"""A local mosquitto for a match on this machine or this network, for the
tests and the benchmark: Debian's broker, listening on 127.0.0.1 only
(anonymous clients: nothing leaves the machine), its settings in a
temporary folder, stopped with its owner.

Persistence is on: the retained setup, records and presence of every
match, and the queued messages of the bridge, are saved in its state
folder (every AUTOSAVE_S and at a clean stop) and read back when it
starts again, so a match goes on after the broker's restart. It may be
bridged to another mosquitto (mosquitto's own bridge: the topics
apixagon/# both ways at QoS 1), one broker per home or per club."""

import os
import shutil
import socket
import subprocess
import tempfile
import time

from ..i18n import _
from .transport import NetworkError


def mosquitto():
    """The mosquitto binary, or None (Debian installs it in /usr/sbin,
    often not on a user's PATH)."""
    return shutil.which("mosquitto") or (
        "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None
    )


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


AUTOSAVE_S = 5  # a killed broker loses at most this long of retained messages
BRIDGE_RETRY_S = 1  # a cut bridge is tried again this soon (mosquitto's restart_timeout)


class Broker:
    def __init__(
        self,
        port=None,
        host="127.0.0.1",
        tls=None,
        users=None,
        state_dir=None,
        persistence=True,
        bridge=None,
        name="apixagon",
        folder=None,
    ):
        # tls: (certfile, keyfile) for an mqtts:// listener; users: {name:
        # password}, then only they may connect (mosquitto_passwd hashes them);
        # state_dir: where persistence keeps its database (kept at stop; by
        # default in the temporary folder, gone at stop); bridge: "HOST:PORT"
        # of a mosquitto to bridge to (anonymous, plain MQTT); folder: where
        # its settings and log go (kept at stop; default a temporary one)
        self.exe = mosquitto()
        if self.exe is None:
            raise NetworkError(
                _("mosquitto is not installed (apt-get install mosquitto), and no --broker given")
            )
        self.host = host
        self.port = port or free_port()
        self.tls = tls
        self.users = users
        self.own_dir = folder is None
        self.dir = tempfile.mkdtemp(prefix="apixagon-mqtt-") if folder is None else str(folder)
        os.makedirs(self.dir, exist_ok=True)
        self.state_dir = state_dir or os.path.join(self.dir, "state")
        os.makedirs(self.state_dir, exist_ok=True)
        self.persistence = persistence
        self.bridge = bridge
        self.name = name
        self.proc = None

    @property
    def url(self):
        return "%s://%s:%d" % ("mqtts" if self.tls else "mqtt", self.host, self.port)

    def start(self, timeout=10.0):
        conf = os.path.join(self.dir, "mosquitto.conf")
        self.log = os.path.join(self.dir, "mosquitto.log")
        text = (
            "listener %d %s\nmax_queued_messages 10000\n"
            "log_dest file %s\nlog_type error\nset_tcp_nodelay true\n"
            % (self.port, self.host, self.log)
        )
        if self.persistence:
            # mosquitto wants the folder with its trailing slash
            text += "persistence true\npersistence_location %s/\nautosave_interval %d\n" % (
                os.path.abspath(self.state_dir),
                AUTOSAVE_S,
            )
        else:
            text += "persistence false\n"
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            # as root mosquitto drops to the user `mosquitto`, who cannot
            # read this folder (its key, its password file): it stays the
            # owner here, a broker of this machine's own
            text += "user root\n"
        if self.tls:
            text += "certfile %s\nkeyfile %s\n" % self.tls
        if self.users:
            pw = os.path.join(self.dir, "passwd")
            open(pw, "w").close()
            tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
            for name, password in self.users.items():
                subprocess.run([tool, "-b", pw, name, password], check=True, capture_output=True)
            text += "allow_anonymous false\npassword_file %s\n" % pw
        else:
            text += "allow_anonymous true\n"
        if self.bridge:
            # last: the settings after `connection` are the bridge's own.
            # cleansession false keeps, on both brokers, what the bridge
            # has not yet passed on while it is cut
            text += (
                "connection %s-bridge-%d\naddress %s\ntopic apixagon/# both 1\n"
                "cleansession false\nrestart_timeout %d\nkeepalive_interval 10\n"
                "try_private true\nnotifications false\n"
                % (self.name, self.port, self.bridge, BRIDGE_RETRY_S)
            )
        with open(conf, "w") as f:
            f.write(text)
        self.proc = subprocess.Popen(
            [self.exe, "-c", conf],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace").strip()
                try:
                    with open(self.log) as f:
                        err = (err + " " + f.read()).strip()
                except OSError:
                    pass
                raise NetworkError(_("mosquitto did not start: %s") % err[-300:])
            try:
                socket.create_connection((self.host, self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise NetworkError(_("mosquitto did not listen on %s:%d") % (self.host, self.port))

    @property
    def address(self):
        """HOST:PORT, as another broker's `bridge` names this one."""
        return "%s:%d" % (self.host, self.port)

    def halt(self, kill=False):
        """The mosquitto process stopped, its folders kept: a clean stop
        saves the persistence database, kill=True is a crash (the last
        autosave is what remains)."""
        p = self.proc
        if p is not None and p.poll() is None:
            if kill:
                p.kill()
            else:
                p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        if p is not None and p.stderr:
            p.stderr.close()
        self.proc = None

    def restart(self, kill=False, timeout=10.0):
        """Stopped (or killed) and started again on the same port, with
        what persistence saved."""
        self.halt(kill)
        return self.start(timeout)

    def stop(self):
        self.halt()
        if self.own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

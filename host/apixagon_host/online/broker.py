"""A local mosquitto for a match on this machine or this network, for the
tests and the benchmark: Debian's broker, listening on 127.0.0.1 only
(anonymous clients: nothing leaves the machine), its settings in a
temporary folder, stopped with its owner."""

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


class Broker:
    def __init__(self, port=None, host="127.0.0.1", tls=None, users=None):
        # tls: (certfile, keyfile) for an mqtts:// listener; users: {name:
        # password}, then only they may connect (mosquitto_passwd hashes them)
        self.exe = mosquitto()
        if self.exe is None:
            raise NetworkError(
                _("mosquitto is not installed (apt-get install mosquitto), and no --broker given")
            )
        self.host = host
        self.port = port or free_port()
        self.tls = tls
        self.users = users
        self.dir = tempfile.mkdtemp(prefix="apixagon-mqtt-")
        self.proc = None

    @property
    def url(self):
        return "%s://%s:%d" % ("mqtts" if self.tls else "mqtt", self.host, self.port)

    def start(self, timeout=10.0):
        conf = os.path.join(self.dir, "mosquitto.conf")
        self.log = os.path.join(self.dir, "mosquitto.log")
        text = (
            "listener %d %s\npersistence false\nmax_queued_messages 10000\n"
            "log_dest file %s\nlog_type error\nset_tcp_nodelay true\n"
            % (self.port, self.host, self.log)
        )
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

    def stop(self):
        p = self.proc
        if p is not None and p.poll() is None:
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        if p is not None and p.stderr:
            p.stderr.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

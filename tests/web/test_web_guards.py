"""`apixagon serve` as a user starts it (the real command, uvicorn, a real
SQLite file), asked over raw sockets what no browser would send: ids past
SQLite's range, a client that drops a POST mid-body, other sites' Host
names, remote clients without the token. Nothing may trace back on the
terminal, ever."""

import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")

from apixagon_host.store import Store  # noqa: E402
from smartboard.logstore import records  # noqa: E402

RECORD = ["mode queens-gambit", "start black", "B 12 E4", "G 3 A1"]


def _db(tmp_path):
    path = str(tmp_path / "m.sqlite")
    out, prev = bytearray(), records.SEED
    for text in RECORD:
        kind = records.HEADER if text[0] in "ms[" else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    rec, prev = records.encode(prev, records.END, b"abandoned")
    s = Store(path)
    s.put("sim-A", "0001.alog", bytes(out + rec))
    s.close()
    return path


class Serve:
    """apixagon serve in a process of its own; its URL read from stdout."""

    def __init__(self, tmp_path, *args):
        exe = os.path.join(os.path.dirname(sys.executable), "apixagon")
        cmd = [exe, "serve", "--port", "/dev/null", "--web-port", "0", "--db", _db(tmp_path)]
        self.errf = open(tmp_path / "serve.err", "w+")
        self.p = subprocess.Popen(
            cmd + list(args), stdout=subprocess.PIPE, stderr=self.errf, text=True
        )
        line = self.p.stdout.readline()
        m = re.search(r"http://(\S+):(\d+)/(\S*)", line)
        assert m, line + self.err()
        self.name, self.port, self.rest = m.group(1), int(m.group(2)), m.group(3)

    def err(self):
        self.errf.seek(0)
        return self.errf.read()

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        self.p.wait(20)
        return self.err()


def ask(addr, port, method, path, host=None, headers=(), body=b"", cut=None):
    """(status, headers text, body) of one HTTP/1.1 request over a raw
    socket; cut: send only that much of the body, then close."""
    s = socket.create_connection((addr, port), timeout=10)
    try:
        head = "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n" % (
            method,
            path,
            host or "%s:%d" % (addr, port),
        )
        for h in headers:
            head += h + "\r\n"
        if body or cut is not None:
            head += "Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body)
        s.sendall(head.encode() + b"\r\n" + body[: len(body) if cut is None else cut])
        if cut is not None:
            time.sleep(0.2)
            return None
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    return int(lines[0].split()[1]), "\n".join(lines[1:]), rest


def test_bad_requests_get_answers_never_tracebacks(tmp_path):
    srv = Serve(tmp_path)
    try:
        a, port = "127.0.0.1", srv.port
        assert ask(a, port, "GET", "/match/1")[0] == 200
        code, head, body = ask(a, port, "GET", "/favicon.ico")  # no 404 in every log
        assert code == 200 and "image/svg+xml" in head and body.startswith(b"<svg")
        for mid in ("99999999999999999999999999", str(2**63), "0"):
            assert ask(a, port, "GET", "/match/%s" % mid)[0] == 404, mid
            assert ask(a, port, "GET", "/match/%s/download.apx" % mid)[0] == 404, mid
        # DNS rebinding: another site's name for this address reaches nothing
        assert ask(a, port, "GET", "/api/state", host="evil.example")[0] == 400
        assert ask(a, port, "GET", "/match/1/download.apx", host="evil.example:80")[0] == 400
        origin = "Origin: http://%s:%d" % (a, port)
        # a client that drops a POST mid-body: quiet, and the server goes on
        for path in ("/api/set", "/match/1/tags", "/api/command"):
            ask(a, port, "POST", path, headers=[origin], body=b'{"display": "hint"}' * 50, cut=7)
        assert ask(a, port, "GET", "/match/1")[0] == 200
    finally:
        err = srv.stop()
    assert "Traceback" not in err, err


def _own_address():
    """An address of this computer that is not loopback, or None."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        if not info[4][0].startswith("127."):
            return info[4][0]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # no packet is sent: the route's source address
        addr = s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()
    return None if addr.startswith("127.") else addr


def test_allow_remote_keeps_a_host_list_and_needs_the_token(tmp_path):
    addr = _own_address()
    if addr is None:
        pytest.skip("this computer has no address but loopback")
    srv = Serve(tmp_path, "--host", addr, "--allow-remote", "--allow-host", "board.lan")
    try:
        port = srv.port
        assert srv.rest.startswith("?token=")
        token = srv.rest[len("?token=") :]
        assert len(token) >= 20
        # another computer (this one's own address is not loopback) without it
        assert ask(addr, port, "GET", "/")[0] == 403
        assert ask(addr, port, "GET", "/?token=wrong")[0] == 403
        code, head, _ = ask(addr, port, "GET", "/library?token=" + token)
        assert code == 303 and "location: /library" in head.lower()
        assert "apixagon_token=%s" % token in head and "httponly" in head.lower()
        cookie = "Cookie: apixagon_token=" + token
        assert ask(addr, port, "GET", "/library", headers=[cookie])[0] == 200
        assert ask(addr, port, "GET", "/library", "board.lan:%d" % port, [cookie])[0] == 200
        # the token does not open the door to another site's name (rebinding)
        assert ask(addr, port, "GET", "/api/state", "evil.example", [cookie])[0] == 400
        origin = "Origin: http://%s:%d" % (addr, port)
        body = b'{"Event": "club"}'
        assert ask(addr, port, "POST", "/match/1/tags", headers=[origin], body=body)[0] == 403
        evil = "Origin: http://evil.example"
        assert ask(addr, port, "POST", "/match/1/tags", None, [cookie, evil], body)[0] == 403
        assert ask(addr, port, "POST", "/match/1/tags", None, [cookie, origin], body)[0] != 403
        assert ask(addr, port, "GET", "/static/app.css")[0] == 200  # no secret in a style
    finally:
        err = srv.stop()
    assert "warning: --allow-remote" in err and "board.lan" in err
    assert "Traceback" not in err, err

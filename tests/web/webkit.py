"""The web companion with real parts for the browser tests: the app
(create_app around a Bridge) served by uvicorn in a thread on a free port
of 127.0.0.1, the board on a pseudo-terminal (the simulated firmware, or
tests/e2e/fakeboard.py); the browser is the worker's one Chromium
(tests/conftest.py's `browser` fixture)."""

import json
import os
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENS = os.path.join(ROOT, "build", "screens")


class Server:
    """create_app(bridge, db) on 127.0.0.1:<free port>, in a thread."""

    def __init__(self, port, db, **kw):
        import uvicorn
        from apixagon_host.web.app import create_app
        from apixagon_host.web.bridge import Bridge
        from apixagon_host.web.serve import listen

        self.bridge = Bridge(port)
        self.app = create_app(self.bridge, db, stopping=lambda: self.server.should_exit, **kw)
        self.sock = listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
        )
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def start(self):
        self.bridge.start()
        self.thread.start()
        end = time.monotonic() + 10
        while not self.server.started and time.monotonic() < end:
            time.sleep(0.02)
        return self

    def wait(self, what, timeout=15):
        """Until what(state JSON) is true; the last state."""
        end = time.monotonic() + timeout
        while True:
            st = self.get_json("/api/state")
            if what(st):
                return st
            if time.monotonic() > end:
                st.pop("svg", None)
                raise AssertionError("the state never came: %r" % st)
            time.sleep(0.05)

    def get_json(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.load(r)

    def post(self, path, data, headers=None):
        """(status, body text) of a JSON POST; headers as given (no Origin
        unless given: urllib sends none)."""
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(data).encode(),
            headers=dict({"Content-Type": "application/json"}, **(headers or {})),
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def command(self, line):
        code, body = self.post("/api/command", {"line": line}, {"Origin": self.url})
        assert code == 200 and json.loads(body)["ok"], body
        return json.loads(body)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)
        self.bridge.stop()
        self.sock.close()


def get(server, path):
    """(status, body) of a GET on the server: an error status with an
    empty body, never an exception."""
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""


def screenshot(page, name):
    os.makedirs(SCREENS, exist_ok=True)
    path = os.path.join(SCREENS, name)
    page.screenshot(path=path, full_page=True)
    return path

"""The web companion with real parts for the browser tests: the app
(create_app around a Bridge) served by uvicorn in a thread on a free port
of 127.0.0.1, the board on a pseudo-terminal (the simulated firmware, or
tests/e2e/fakeboard.py); the browser is the worker's one Chromium
(tests/conftest.py's `browser` fixture)."""

import json
import os
import time
import urllib.error
import urllib.request

from webthread import ServedCompanion

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENS = os.path.join(ROOT, "build", "screens")


class Server(ServedCompanion):
    """create_app(bridge, db) on 127.0.0.1:<free port>, in a thread
    (tools/webthread.py), with what the tests ask of it."""

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

"""The web companion in a thread of this process: create_app around a
Bridge to the board's port, served by uvicorn on 127.0.0.1 on a free port.
The browser tests (tests/web/webkit.py) and the manual's screenshots
(tools/screenshots.py) drive it."""

import threading
import time


class ServedCompanion:
    """create_app(bridge, db, **kw) on 127.0.0.1:<free port>, in a thread:
    start() returns once uvicorn listens, stop() ends it and the bridge."""

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

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)
        self.bridge.stop()
        self.sock.close()

"""The live link for the web companion: monitor.Session (the link kept up
across reboots and unplugging) run in one background thread, which alone
touches the serial port. The web handlers ask it for things with call()
(a function run in that thread, between frames) and wait for news with
changed(): each event the board sends bumps a version number and wakes
every page's event stream.

A long job (pull, firmware update) runs in that thread too, with the live
link paused (one reader per port), its progress kept in a Job the pages
poll."""

import collections
import concurrent.futures
import contextlib
import contextvars
import io
import os
import select
import threading
import time

from .. import link as L
from ..companion import Args, _State
from ..errors import CommandError
from ..monitor import Session

LOG = 60  # events kept for the page's log
RETRY_S = 0.5
# The news after which the board's settings (CONF: the computer's seats and
# level, the hints) may have changed: a new link, a match begun or ended;
# in the set-up also a new STATUS or LEDs (the board's own buttons change
# them there). In play only a SET changes them: they are read again after
# each of the pages' calls (a request less after each move).
CONF_NEWS = ("link", "phase")
SETUP_NEWS = ("status", "leds")


class Job:
    """A pull or an update as the page shows it: what, how far (done of
    total, or total 0 while unknown), its output lines, and once over,
    whether it worked and why not."""

    def __init__(self, name):
        self.name = name
        self.done = 0
        self.total = 0
        self.lines = []
        self.running = True
        self.ok = None
        self.error = ""

    def progress(self, done, total):
        self.done, self.total = done, total

    def as_dict(self):
        return {
            "name": self.name,
            "done": self.done,
            "total": self.total,
            "lines": self.lines[-20:],
            "running": self.running,
            "ok": self.ok,
            "error": self.error,
        }


class Bridge:
    def __init__(self, port=None, session_class=Session):
        self.session = session_class(port, self._notify)
        self.log = collections.deque(maxlen=LOG)  # (seconds since the epoch, kind, text)
        self.version = 0
        self.job = None
        self.times = {}  # kind -> when its last event came (time.time(): the page's clock too)
        self._calls = collections.deque()
        self._lock = threading.Lock()
        self._waiters = set()  # (loop, asyncio.Event) of the open event streams
        self._wake_r, self._wake_w = os.pipe()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="apixagon-link", daemon=True)
        self._companion = None  # the page's companion (companion()): its tags wait in it
        self.db = None
        self.conf = {}  # the board's CONF: its settings, as the set-up shows them
        self._conf_stale = True

    def companion(self):
        """The one companion the pages' commands go through (in the link's
        thread): the players' names a page gives (`tag`) wait in it for the
        match to start, as the terminal companion's do."""
        if self._companion is None:
            from ..companion import Companion

            self._companion = Companion(self.session, db=self.db)
        return self._companion

    # ---- the thread ------------------------------------------------------------
    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._wake()
        self._thread.join(5)
        os.close(self._wake_r)
        os.close(self._wake_w)

    def _run(self):
        s = self.session
        try:
            while not self._stop.is_set():
                fds = [self._wake_r] + ([s.fileno()] if s.fileno() is not None else [])
                ready = select.select(fds, [], [], 0 if s.pending() else 0.1)[0]
                if self._wake_r in ready:
                    os.read(self._wake_r, 512)
                if s.fileno() is not None and s.fileno() in ready or s.pending():
                    s.pump()
                self._run_calls()
                s.tick()
                if self._conf_stale and s.connected:
                    self.read_conf(s)
                if self._companion is not None:
                    for line in self._companion.tick():
                        self._notify("note", line)
        finally:
            s.close()

    def _run_calls(self):
        while True:
            with self._lock:
                if not self._calls:
                    return
                fn, fut = self._calls.popleft()
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn(self.session))
            except BaseException as e:  # handed to the caller, who says it
                fut.set_exception(e)
            # a page's SET, or a command typed (`computer G`, `hintlimit 3`),
            # may have changed the settings the set-up shows
            self._conf_stale = True

    def _wake(self):
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def call(self, fn):
        """fn(session) run in the link's thread: a concurrent Future."""
        fut = concurrent.futures.Future()
        with self._lock:
            self._calls.append((fn, fut))
        self._wake()
        return fut

    def read_conf(self, s):
        """Ask the board its settings (in the link's thread): the set-up
        shows the computer's seats and level and the hints as they are,
        also in a match the set-up did not start from this page. A board
        that does not answer CONF (safe mode, older firmware) leaves none."""
        self._conf_stale = False
        try:
            conf = L.fields(s.request("CONF"))
        except CommandError:
            conf = {}
        if conf != self.conf:
            self.conf = conf
            self.changed()

    # ---- news -------------------------------------------------------------------
    def _notify(self, kind, text):
        self.times[kind] = time.time()
        if kind in CONF_NEWS or (
            kind in SETUP_NEWS and self.session.status.get("phase", "setup") == "setup"
        ):
            self._conf_stale = True
        if kind not in ("cells", "leds", "status"):
            self.log.append((time.time(), kind, text))
        self.changed()

    def changed(self):
        """Bump the version and wake every event stream."""
        with self._lock:
            self.version += 1
            waiters = list(self._waiters)
        for loop, ev in waiters:
            try:
                loop.call_soon_threadsafe(ev.set)
            except RuntimeError:  # that stream's loop is closed
                pass

    def watch(self, loop, ev):
        with self._lock:
            self._waiters.add((loop, ev))

    def unwatch(self, loop, ev):
        with self._lock:
            self._waiters.discard((loop, ev))

    # ---- jobs -------------------------------------------------------------------
    def run_job(self, what, run, **fields):
        """Start run(state, args) (a logs/deploy command's function; args:
        fields, the port and a progress callback) in the link's thread with
        the live link paused; the Job, or CommandError when one is running
        already."""
        if self.job is not None and self.job.running:
            raise CommandError("%s is running: wait for it to end" % self.job.name)
        job = self.job = Job(what)
        self.changed()

        def work(session):
            out = io.StringIO()
            err = io.StringIO()
            try:
                with session.paused(), contextlib.redirect_stderr(err):
                    run(_State(out), Args(port=session.port, progress=job.progress, **fields))
                job.ok = True
            except CommandError as e:
                job.ok, job.error = False, str(e)
            except Exception as e:  # a bug: said on the page, the server goes on
                job.ok, job.error = False, "%s: %s" % (type(e).__name__, e)
            job.lines = out.getvalue().splitlines() + [
                x for x in err.getvalue().replace("\r", "\n").splitlines() if x.startswith("apix")
            ]
            job.running = False
            self.changed()

        # in the link's thread with the asking request's context: the job's
        # words in that page's language (i18n.using)
        ctx = contextvars.copy_context()
        self.call(lambda s: ctx.run(work, s))
        return job

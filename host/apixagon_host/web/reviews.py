"""The match page's reviews (review.py), computed in the background: one
thread per record at a time, its progress asked for by the page (it
polls), the result kept in the review cache (reviewcache.py: computed
once, by the page or by `apixagon logs review`)."""

import threading

from .. import reviewcache
from ..i18n import _
from ..review import ReviewError, record_hash


class Reviews:
    def __init__(self, jobs=1):
        self.jobs = jobs
        self.lock = threading.Lock()
        self.running = {}  # record hash -> {"done", "total", "error"}

    def state(self, lines):
        """{"state": "none" | "running" | "done" | "failed", ...}: done
        carries the review, running done and total moves, failed the
        error in words."""
        got = reviewcache.load(lines)
        if got is not None:
            return {"state": "done", "review": got}
        with self.lock:
            job = self.running.get(record_hash(lines))
            if job is None:
                return {"state": "none"}
            if job.get("review"):  # (a data folder that cannot keep it)
                return {"state": "done", "review": job["review"]}
            if job["error"]:
                return {"state": "failed", "error": job["error"]}
            return {"state": "running", "done": job["done"], "total": job["total"]}

    def start(self, lines):
        """Start the review of a record unless it is done or running: its
        state."""
        key = record_hash(lines)
        with self.lock:
            job = self.running.get(key)
            if job is not None and not job["error"]:
                return self.state(lines)
            if reviewcache.load(lines) is not None:
                return self.state(lines)
            job = self.running[key] = {"done": 0, "total": 0, "error": ""}

        def told(done, total):
            job["done"], job["total"] = done, total

        def work():
            try:
                job["review"] = reviewcache.reviewed(lines, told, self.jobs)
            except ReviewError as e:
                job["error"] = _("this match cannot be reviewed: {why}").format(why=e)
                return
            except Exception as e:  # noqa: BLE001 - said on the page, not lost in a thread
                job["error"] = _("the review failed: {why}").format(why=e)
                return

        threading.Thread(target=work, name="review", daemon=True).start()
        return self.state(lines)

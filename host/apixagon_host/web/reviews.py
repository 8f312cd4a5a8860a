"""The match page's reviews (review.py), computed in the background: one
at a time per record, each in a process of its own (the rules core's games
share their scratch buffers, apixagon.base: a review in a thread of the
server would race the server's own games, the positions it draws), its
progress asked for by the page (it polls), the result kept in the review
cache (reviewcache.py: computed once, by the page or by `apixagon logs
review`)."""

import multiprocessing
import threading

from .. import reviewcache
from ..i18n import _
from ..review import record_hash


def _child(lines, conn):
    # the review in the child process: its progress, then its result or
    # why there is none, sent to the server
    from .. import review

    try:
        got = review.review(lines, progress=lambda d, t: conn.send(("progress", d, t)))
        conn.send(("done", got))
    except review.ReviewError as e:
        conn.send(("bad", str(e)))
    except Exception as e:  # noqa: BLE001 - said on the page, not lost in a child
        conn.send(("error", repr(e)))
    finally:
        conn.close()


class Reviews:
    def __init__(self):
        self.lock = threading.Lock()
        self.running = {}  # record hash -> {"done", "total", "error", "review"}

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
        threading.Thread(target=self._follow, args=(lines, job), name="review", daemon=True).start()
        return self.state(lines)

    def _follow(self, lines, job):
        # spawn, not fork: the server has threads (a fork copies their locks)
        ctx = multiprocessing.get_context("spawn")
        mine, theirs = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_child, args=(lines, theirs), daemon=True)
        try:
            child.start()
            theirs.close()
            while True:
                try:
                    msg = mine.recv()
                except EOFError:
                    job["error"] = _("the review failed: {why}").format(why=_("it stopped"))
                    return
                if msg[0] == "progress":
                    job["done"], job["total"] = msg[1], msg[2]
                    continue
                if msg[0] == "done":
                    reviewcache.keep(lines, msg[1])
                    job["review"] = msg[1]
                elif msg[0] == "bad":
                    job["error"] = _("this match cannot be reviewed: {why}").format(why=msg[1])
                else:
                    job["error"] = _("the review failed: {why}").format(why=msg[1])
                return
        except OSError as e:
            job["error"] = _("the review failed: {why}").format(why=e)
        finally:
            mine.close()
            child.join(5)

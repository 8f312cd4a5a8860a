"""Reviews computed once and kept: one JSON file per record under the
user's data dir (reviews/<sha256 of the record and the review's
version>.json), written whole or not at all (outfile.write_atomic). The
CLI and the web page share it: a match reviewed by either is shown by
both at once."""

import json
import os

from . import outfile, review
from .errors import CommandError
from .store import data_dir


def folder():
    return os.path.join(data_dir(), "reviews")


def path_of(lines):
    return os.path.join(folder(), review.record_hash(lines) + ".json")


def load(lines):
    """The cached review of the record's lines, or None."""
    try:
        with open(path_of(lines), encoding="utf-8") as f:
            got = json.load(f)
    except (OSError, ValueError):
        return None  # none yet, or a file cut short: computed again
    return got if isinstance(got, dict) and got.get("schema") == review.SCHEMA else None


def reviewed(lines, progress=None, jobs=1):
    """The review of the record's lines: the cache's, else computed and
    kept (a folder that cannot be written only loses the cache)."""
    got = load(lines)
    if got is not None:
        if progress:
            progress(1, 1)
        return got
    got = review.review(lines, progress=progress, jobs=jobs)
    keep(lines, got)
    return got


def keep(lines, got):
    """Keep a review of the record's lines (a folder that cannot be
    written only loses the cache)."""
    try:
        os.makedirs(folder(), exist_ok=True)
        outfile.write_atomic(path_of(lines), json.dumps(got).encode())
    except (OSError, CommandError):
        pass

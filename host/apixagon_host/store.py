"""The local match database: one SQLite file in the user's data directory
(APIXAGON_DATA, else $XDG_DATA_HOME/apixagon, else ~/.local/share/apixagon;
%APPDATA%\\apixagon on Windows). A log is stored as the board's own bytes,
verified by the one reader (smartboard.matchlog) — checksums and hash
chain — so what is exported later is exactly what the board wrote."""

import json
import os
import sqlite3
import sys
import time

from smartboard import matchlog

SCHEMA = """
CREATE TABLE IF NOT EXISTS logs (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    name TEXT NOT NULL,
    data BLOB NOT NULL,
    records INTEGER NOT NULL,
    complete INTEGER NOT NULL,
    result TEXT,
    pulled_at TEXT NOT NULL,
    moves INTEGER,
    UNIQUE (board, name)
);
"""


def data_dir():
    d = os.environ.get("APIXAGON_DATA")
    if d:
        return d
    if sys.platform == "win32":
        return os.path.join(os.environ.get("APPDATA", os.path.expanduser("~")), "apixagon")
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(base, "apixagon")


class Store:
    def __init__(self, path=None, create=True):
        """The database at path (default: the user's). create=False for
        the commands that only read: a mistyped --db is an error then,
        never a new empty file (FileNotFoundError)."""
        if path is None:
            d = data_dir()
            os.makedirs(d, exist_ok=True)
            path = os.path.join(d, "matches.sqlite")
        elif not create and not os.path.isfile(path):
            raise FileNotFoundError(path)
        self.path = path
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode=WAL")  # a commit per batch stays cheap
        self.db.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints, never torn
        self.db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self):
        # Databases made before the moves column: add it, count from the
        # stored bytes (the one reader), so `logs list` is right for them.
        cols = [r[1] for r in self.db.execute("PRAGMA table_info(logs)")]
        if "moves" not in cols:
            with self.db:
                self.db.execute("ALTER TABLE logs ADD COLUMN moves INTEGER")
        todo = self.db.execute("SELECT id, data FROM logs WHERE moves IS NULL").fetchall()
        if todo:
            with self.db:
                for mid, data in todo:
                    lines = matchlog.Lines()
                    matchlog.read_log(data, lines)
                    self.db.execute(
                        "UPDATE logs SET moves = ? WHERE id = ?", (len(lines.moves), mid)
                    )

    def close(self):
        self.db.close()

    def get(self, board, name):
        """(id, data, complete) of a stored log, or None."""
        return self.db.execute(
            "SELECT id, data, complete FROM logs WHERE board = ? AND name = ?", (board, name)
        ).fetchone()

    def put(self, board, name, data):
        """Store a log's bytes (the whole or a good prefix). Refuses data
        whose records do not verify: nothing is changed then."""
        lines = matchlog.Lines()
        verdict, good, count, _ = matchlog.read_log(data, lines)
        if verdict in (matchlog.CORRUPT, matchlog.BROKEN):
            raise ValueError("%s: %s at byte %d" % (name, matchlog.verdict_name(verdict), good))
        data = bytes(data[:good])
        complete = 1 if lines.result is not None else 0
        now = time.strftime("%Y-%m-%d %H:%M:%S")
        with self.db:
            self.db.execute(
                "INSERT INTO logs (board, name, data, records, complete, result, pulled_at, moves)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (board, name) DO UPDATE SET data = excluded.data,"
                " records = excluded.records, complete = excluded.complete,"
                " result = excluded.result, pulled_at = excluded.pulled_at,"
                " moves = excluded.moves",
                (board, name, data, count, complete, lines.result, now, len(lines.moves)),
            )
        return count, complete

    def retire(self, board, name):
        """Keep a stored log under NAME~k (the first k free): the board now
        has another match under its name. Its id does not change."""
        k = 1
        while self.get(board, "%s~%d" % (name, k)) is not None:
            k += 1
        kept = "%s~%d" % (name, k)
        with self.db:
            self.db.execute(
                "UPDATE logs SET name = ? WHERE board = ? AND name = ?", (kept, board, name)
            )
        return kept

    def list(self):
        return self.db.execute(
            "SELECT id, board, name, moves, complete, result, pulled_at, length(data)"
            " FROM logs ORDER BY board, name"
        ).fetchall()

    def load(self, match_id):
        """(board, name, Lines, verdict) of a stored match by its id."""
        row = self.db.execute(
            "SELECT board, name, data FROM logs WHERE id = ?", (match_id,)
        ).fetchone()
        if row is None:
            raise KeyError(match_id)
        lines = matchlog.Lines()
        verdict, _, _, _ = matchlog.read_log(row[2], lines)
        return row[0], row[1], lines, verdict


def apx_lines(board, name, lines):
    """The .apx record of a stored match (NOTATION.md)."""
    out = ['[Board "%s"]' % board, '[Log "%s"]' % name]
    if lines.result:
        out.append('[Result "%s"]' % lines.result)
    return out + [x for x in lines.lines() if not x.startswith("[Board ")]


def as_json(match_id, board, name, lines, verdict):
    return json.dumps(
        {
            "id": match_id,
            "board": board,
            "log": name,
            "verified": matchlog.verdict_name(verdict),
            "header": lines.header,
            "moves": lines.moves,
            "result": lines.result,
        },
        indent=1,
    )

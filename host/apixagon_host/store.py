"""The local match database: one SQLite file in the user's data directory
(APIXAGON_DATA, else $XDG_DATA_HOME/apixagon, else ~/.local/share/apixagon;
%APPDATA%\\apixagon on Windows). A log is stored as the board's own bytes,
verified by the one reader (smartboard.matchlog) — checksums and hash
chain — so what is exported later is exactly what the board wrote.

Only `logs pull` (and the companion) write: they make the file, bring an
older one up to date and commit a batch at a time (a full disk loses no
more than the batch in hand). The read commands open it read-only
(`mode=ro`): they never add a column, change its journal mode or make a
file, and a database of an older version is read as it stands. A file
that is not ours (another program's SQLite, a text file) is refused as it
is. Every SQLite failure becomes a CommandError with the file's name: 2
when the path is wrong (not a database, a folder one cannot write in),
1 when the disk fails (full, I/O errors, another program holding it)."""

import contextlib
import json
import os
import pathlib
import sqlite3
import sys
import time

from smartboard import matchlog

from .errors import EXIT_FAILED, EXIT_USAGE, CommandError

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
# The columns every version had: without them a `logs` table is not ours.
COLUMNS = ("id", "board", "name", "data", "records", "complete", "result", "pulled_at")


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


def default_path():
    return os.path.join(data_dir(), "matches.sqlite")


def failure(path, e, write=True):
    """The CommandError for an SQLite or OS error on the database at path."""
    text = (e.strerror if isinstance(e, OSError) else None) or str(e) or type(e).__name__
    low = text.lower()
    if "full" in low or getattr(e, "errno", None) == 28:  # ENOSPC
        return CommandError(
            "cannot write the match database %s: the disk is full (%s); what was stored "
            "before is kept, nothing is half-written: free some space and pull again"
            % (path, text),
            EXIT_FAILED,
        )
    if isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError):
        return CommandError("%s is not a match database: %s" % (path, text), EXIT_USAGE)
    if isinstance(e, OSError) or any(w in low for w in ("readonly", "unable to open")):
        if write:
            hint = "a file in a folder you can write in? --db or APIXAGON_DATA choose another"
        elif _wal(path):
            hint = "it is in WAL mode, which SQLite cannot read in a read-only folder; "
            hint += "an apixagon logs pull where it is writable turns that off"
        else:
            hint = "a file you can read?"
        return CommandError(
            "cannot %s the match database %s: %s (%s)"
            % ("write" if write else "read", path, text, hint),
            EXIT_USAGE,
        )
    return CommandError("the match database %s failed: %s" % (path, text), EXIT_FAILED)


def _wal(path):
    # The file header's read/write versions (bytes 18, 19) are 2 in WAL mode.
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return len(head) == 20 and head[18] == 2


def _uri(path):
    # as_uri() percent-encodes "?", "#" and "%" and writes a drive as
    # SQLite wants it (file:///C:/...).
    return pathlib.Path(os.path.abspath(path)).as_uri() + "?mode=ro"


class SafeLines(matchlog.Lines):
    """matchlog.Lines that never fails on a payload that is not UTF-8 (a
    board writes ASCII; a damaged or hostile one may send anything whose
    checksums hold): such bytes read as U+FFFD."""

    def __call__(self, kind, payload):
        try:
            payload.decode()
        except UnicodeDecodeError:
            payload = payload.decode("utf-8", "replace").encode()
        matchlog.Lines.__call__(self, kind, payload)


class Store:
    def __init__(self, path=None, write=True):
        """The database at path (default: the user's). write=False for the
        commands that only read: opened read-only, a missing file is
        FileNotFoundError (a mistyped --db is never a new empty file)."""
        self.path = path or default_path()
        self.write = write
        folder = os.path.dirname(self.path)
        if path is None and os.path.exists(folder) and not os.path.isdir(folder):
            # (a read would otherwise say "nothing stored" of a mistyped
            # APIXAGON_DATA, and a pull fail on the folder it cannot make)
            raise CommandError(
                "the data folder %s is a file, not a folder (APIXAGON_DATA or --db "
                "choose another)" % folder,
                EXIT_USAGE,
            )
        if write and path is None:
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as e:
                why = "it is a file" if os.path.isfile(folder) else e.strerror or e
                raise CommandError(
                    "cannot make the data folder %s: %s (APIXAGON_DATA or --db choose another)"
                    % (folder, why),
                    EXIT_USAGE,
                ) from None
        if not write and not os.path.isfile(self.path):
            raise FileNotFoundError(self.path)
        try:
            self.db = sqlite3.connect(self.path if write else _uri(self.path), uri=not write)
        except sqlite3.Error as e:
            raise failure(self.path, e, write) from None
        try:
            with self._failing():
                self._check()
                if write:
                    self.db.execute("PRAGMA journal_mode=WAL")  # a commit per batch stays cheap
                    self.db.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints
                    self.db.executescript(SCHEMA)
                    self.has_moves = "moves" in self._columns()
                    self._migrate()
        except BaseException:
            self.db.close()
            raise

    @contextlib.contextmanager
    def _failing(self):
        try:
            yield
        except sqlite3.Error as e:
            raise failure(self.path, e, self.write) from None

    def _columns(self):
        return [r[1] for r in self.db.execute("PRAGMA table_info(logs)")]

    def _check(self):
        """Refuse, before any change, a database that is not ours: other
        tables and no `logs`, or a `logs` table of other columns."""
        tables = [
            r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        cols = self._columns()
        if not cols and tables:
            raise CommandError(
                "%s is not a match database: it holds other tables (%s), no logs"
                % (self.path, ", ".join(sorted(tables)[:5])),
                EXIT_USAGE,
            )
        missing = [c for c in COLUMNS if cols and c not in cols]
        if missing:
            raise CommandError(
                "%s is not a match database: its logs table has no %s"
                % (self.path, ", ".join(missing)),
                EXIT_USAGE,
            )
        self.empty = not cols  # a new file (or no table yet): nothing stored
        self.has_moves = "moves" in cols

    def _migrate(self):
        # Databases made before the moves column: add it, count from the
        # stored bytes (the one reader), so `logs list` is right for them.
        # (Only a writer: the read commands count them as they read.)
        if not self.has_moves:
            with self.db:
                self.db.execute("ALTER TABLE logs ADD COLUMN moves INTEGER")
            self.has_moves = True
        todo = self.db.execute("SELECT id, data FROM logs WHERE moves IS NULL").fetchall()
        if todo:
            with self.db:
                for mid, data in todo:
                    self.db.execute("UPDATE logs SET moves = ? WHERE id = ?", (_moves(data), mid))
        self.empty = False

    def close(self):
        if self.write:
            # At rest the file is in rollback-journal mode again: a reader
            # then opens it read-only anywhere (WAL needs a folder it can
            # write its -shm in) and leaves no -wal/-shm beside it. Another
            # program reading it just now keeps it WAL: still correct.
            try:
                self.db.execute("PRAGMA journal_mode=DELETE")
            except sqlite3.Error:
                pass
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def get(self, board, name):
        """(id, data, complete) of a stored log, or None."""
        with self._failing():
            return self.db.execute(
                "SELECT id, data, complete FROM logs WHERE board = ? AND name = ?", (board, name)
            ).fetchone()

    def put(self, board, name, data):
        """Store a log's bytes (the whole or a good prefix). Refuses data
        whose records do not verify: nothing is changed then."""
        lines = SafeLines()
        verdict, good, count, _ = matchlog.read_log(data, lines)
        if verdict in (matchlog.CORRUPT, matchlog.BROKEN):
            raise ValueError("%s: %s at byte %d" % (name, matchlog.verdict_name(verdict), good))
        data = bytes(data[:good])
        complete = 1 if lines.result is not None else 0
        now = time.strftime("%Y-%m-%d %H:%M:%S")
        with self._failing(), self.db:
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
        with self._failing(), self.db:
            self.db.execute(
                "UPDATE logs SET name = ? WHERE board = ? AND name = ?", (kept, board, name)
            )
        return kept

    def list(self):
        """(id, board, name, moves, complete, result, pulled_at, size) rows;
        the moves counted from the bytes where an older file has no count."""
        if self.empty:
            return []
        moves = "moves" if self.has_moves else "NULL"
        with self._failing():
            rows = self.db.execute(
                "SELECT id, board, name, %s, complete, result, pulled_at, length(data), "
                "CASE WHEN %s IS NULL THEN data END FROM logs ORDER BY board, name" % (moves, moves)
            ).fetchall()
        return [
            (r[0], _text(r[1]), _text(r[2]), _moves(r[8]) if r[3] is None else r[3]) + tuple(r[4:8])
            for r in rows
        ]

    def load(self, match_id):
        """(board, name, Lines, verdict) of a stored match by its id."""
        if self.empty:
            raise KeyError(match_id)
        with self._failing():
            row = self.db.execute(
                "SELECT board, name, data FROM logs WHERE id = ?", (match_id,)
            ).fetchone()
        if row is None:
            raise KeyError(match_id)
        lines = SafeLines()
        verdict, _, _, _ = matchlog.read_log(_blob(row[2]), lines)
        return _text(row[0]), _text(row[1]), lines, verdict


# A file another version (or another program) wrote may hold any SQLite
# type in a column: what the host reads is made what it expects.
def _blob(v):
    return v if isinstance(v, bytes) else (v or "").encode() if isinstance(v, str) else b""


def _text(v):
    return v if isinstance(v, str) else "" if v is None else str(v)


def _moves(data):
    lines = SafeLines()
    matchlog.read_log(_blob(data), lines)
    return len(lines.moves)


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

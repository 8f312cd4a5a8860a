"""The local match database: one SQLite file in the user's data directory
(APIXAGON_DATA, else $XDG_DATA_HOME/apixagon, else ~/.local/share/apixagon;
%APPDATA%\\apixagon on Windows). A log is stored as the board's own bytes,
verified by the one reader (smartboard.logstore.records) — checksums and hash
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
import stat
import sys
import time

from smartboard.logstore import records

from .errors import EXIT_FAILED, EXIT_USAGE, CommandError
from .i18n import _

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
    date TEXT,
    UNIQUE (board, name)
);
CREATE TABLE IF NOT EXISTS tags (
    log INTEGER NOT NULL REFERENCES logs (id),
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (log, name)
);
CREATE TABLE IF NOT EXISTS pending_tags (
    board TEXT NOT NULL,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (board, number, name)
);
"""
# The tags `logs tag` may not set: the board's own (what it wrote and where).
BOARD_TAGS = ("Board", "BoardId", "Log", "Result")
MAX_TAG = 200  # characters of a tag's value (a name, an event)
SQLITE_HEADER = b"SQLite format 3\x00"  # the first bytes of every SQLite file
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
            _(
                "cannot write the match database %(path)s: the disk is full (%(why)s); what "
                "was stored before is kept, nothing is half-written: free some space and "
                "pull again"
            )
            % {"path": path, "why": text},
            EXIT_FAILED,
        )
    if isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError):
        return CommandError(
            _("%(path)s is not a match database: %(why)s") % {"path": path, "why": text},
            EXIT_USAGE,
        )
    if isinstance(e, OSError) or any(w in low for w in ("readonly", "unable to open")):
        if write:
            hint = _("a file in a folder you can write in? --db or APIXAGON_DATA choose another")
        elif _wal(path):
            hint = _(
                "it is in WAL mode, which SQLite cannot read in a read-only folder; "
                "an apixagon logs pull where it is writable turns that off"
            )
        else:
            hint = _("a file you can read?")
        if write:
            said = _("cannot write the match database %(path)s: %(why)s (%(hint)s)")
        else:
            said = _("cannot read the match database %(path)s: %(why)s (%(hint)s)")
        return CommandError(said % {"path": path, "why": text, "hint": hint}, EXIT_USAGE)
    return CommandError(
        _("the match database %(path)s failed: %(why)s") % {"path": path, "why": text},
        EXIT_FAILED,
    )


def check_path(path):
    """CommandError (exit 2) when --db's path cannot be a match database: a
    folder, a file in a folder that is not there, a file that is not
    SQLite. Said as such: a read would say "no match database", SQLite
    "unable to open" or "file is not a database"."""
    if os.path.isdir(path):
        raise CommandError(
            _("--db %(path)s is a folder: name a database file, e.g. %(file)s")
            % {"path": path, "file": os.path.join(path, "matches.sqlite")},
            EXIT_USAGE,
        )
    folder = os.path.dirname(os.path.abspath(path))
    try:
        is_folder = stat.S_ISDIR(os.stat(folder).st_mode)
    except FileNotFoundError:
        raise CommandError(
            _(
                "--db %(path)s is in a folder that is not there: %(folder)s (make it first, "
                "or name a file in a folder that is)"
            )
            % {"path": path, "folder": folder},
            EXIT_USAGE,
        ) from None
    except NotADirectoryError:
        is_folder = False
    except OSError:
        return  # (a folder one may not reach: the opening says so, naming it)
    if not is_folder:
        raise CommandError(
            _("--db %(path)s is in %(folder)s, which is not a folder (a file is in the way)")
            % {"path": path, "folder": folder},
            EXIT_USAGE,
        )
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return  # (not there yet: a pull makes it; a pipe is not read here)
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError:
        return
    if head and head != SQLITE_HEADER:  # (an empty file is an empty database to SQLite)
        raise CommandError(
            _("--db %s is not a match database: it is not an SQLite file") % path, EXIT_USAGE
        )


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


class SafeLines(records.Lines):
    """records.Lines that never fails on a payload that is not UTF-8 (a
    board writes ASCII; a damaged or hostile one may send anything whose
    checksums hold): such bytes read as U+FFFD."""

    def __call__(self, kind, payload):
        try:
            payload.decode()
        except UnicodeDecodeError:
            payload = payload.decode("utf-8", "replace").encode()
        records.Lines.__call__(self, kind, payload)


class Store:
    def __init__(self, path=None, write=True):
        """The database at path (default: the user's). write=False for the
        commands that only read: opened read-only, a missing file is
        FileNotFoundError (a mistyped --db is never a new empty file)."""
        self.path = path or default_path()
        self.write = write
        if path is not None:
            check_path(path)
        elif os.path.isdir(self.path):
            raise CommandError(
                _(
                    "the match database %s is a folder, not a file (APIXAGON_DATA or --db "
                    "choose another)"
                )
                % self.path,
                EXIT_USAGE,
            )
        folder = os.path.dirname(self.path)
        if path is None and os.path.exists(folder) and not os.path.isdir(folder):
            # (a read would otherwise say "nothing stored" of a mistyped
            # APIXAGON_DATA, and a pull fail on the folder it cannot make)
            raise CommandError(
                _(
                    "the data folder %s is a file, not a folder (APIXAGON_DATA or --db "
                    "choose another)"
                )
                % folder,
                EXIT_USAGE,
            )
        if write and path is None:
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as e:
                why = _("it is a file") if os.path.isfile(folder) else e.strerror or e
                raise CommandError(
                    _(
                        "cannot make the data folder %(folder)s: %(why)s (APIXAGON_DATA or --db "
                        "choose another)"
                    )
                    % {"folder": folder, "why": why},
                    EXIT_USAGE,
                ) from None
        if not write:
            self._readable(folder)
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
                    self.has_date = "date" in self._columns()
                    self._migrate()
        except BaseException:
            self.db.close()
            raise

    def _readable(self, folder):
        """A missing database is FileNotFoundError ("no matches stored
        yet"); one the user may not reach is an error naming the folder:
        os.path.isfile() says False for both, and a library of a thousand
        matches read as an empty one."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            raise FileNotFoundError(self.path) from None
        except OSError as e:
            raise CommandError(
                _(
                    "cannot read the data folder %(folder)s: %(why)s (a folder you may read? "
                    "APIXAGON_DATA or --db choose another)"
                )
                % {"folder": folder or ".", "why": e.strerror or e},
                EXIT_USAGE,
            ) from None
        if not stat.S_ISREG(st.st_mode):
            raise FileNotFoundError(self.path)

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
                _("%(path)s is not a match database: it holds other tables (%(tables)s), no logs")
                % {"path": self.path, "tables": ", ".join(sorted(tables)[:5])},
                EXIT_USAGE,
            )
        missing = [c for c in COLUMNS if cols and c not in cols]
        if missing:
            raise CommandError(
                _("%(path)s is not a match database: its logs table has no %(columns)s")
                % {"path": self.path, "columns": ", ".join(missing)},
                EXIT_USAGE,
            )
        self.empty = not cols  # a new file (or no table yet): nothing stored
        self.has_moves = "moves" in cols
        self.has_date = "date" in cols
        self.has_tags = "tags" in tables  # (made by a writer of this version)

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
        # Before the date column: the log's own Date tag, else the last
        # pull's time (the nearest to the match this file knows).
        if not self.has_date:
            with self.db:
                self.db.execute("ALTER TABLE logs ADD COLUMN date TEXT")
            self.has_date = True
        todo = self.db.execute("SELECT id, data, pulled_at FROM logs WHERE date IS NULL")
        todo = todo.fetchall()
        if todo:
            with self.db:
                for mid, data, at in todo:
                    lines = SafeLines()
                    records.read_log(_blob(data), lines)
                    when = log_date(lines) or _text(at)[:16]
                    self.db.execute("UPDATE logs SET date = ? WHERE id = ?", (when, mid))
        self.has_tags = True  # SCHEMA made the tables
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
        whose records do not verify: nothing is changed then. (records,
        finished: 1 or 0, bytes stored)."""
        lines = SafeLines()
        verdict, good, count, _end = records.read_log(data, lines)
        if verdict in (records.CORRUPT, records.BROKEN):
            raise ValueError(
                _("%(log)s: %(verdict)s at byte %(byte)d")
                % {"log": name, "verdict": records.verdict_name(verdict), "byte": good}
            )
        data = bytes(data[:good])
        complete = 1 if lines.result is not None else 0
        now = time.strftime("%Y-%m-%d %H:%M:%S")
        # The match's date: the board's (its log's Date tag) if it wrote
        # one, else this first pull's; a later pull keeps it.
        when = log_date(lines) or now[:16]
        with self._failing(), self.db:
            self.db.execute(
                "INSERT INTO logs (board, name, data, records, complete, result, pulled_at, moves,"
                " date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (board, name) DO UPDATE SET data = excluded.data,"
                " records = excluded.records, complete = excluded.complete,"
                " result = excluded.result, pulled_at = excluded.pulled_at,"
                " moves = excluded.moves",
                (board, name, data, count, complete, lines.result, now, len(lines.moves), when),
            )
            self._apply_pending(board, name)
        return count, complete, len(data)

    # ---- tags (NOTATION.md tag pairs: players, event, date) ----------------
    def set_tags(self, match_id, tags):
        """Set a stored match's tags from a {name: value} dict; an empty
        value (or None) removes the tag. All or nothing: ValueError for a
        name or value a record cannot hold (nothing changed), KeyError
        for no such match."""
        tags = check_tags(tags)
        with self._failing():
            if self.db.execute("SELECT 1 FROM logs WHERE id = ?", (match_id,)).fetchone() is None:
                raise KeyError(match_id)
            with self.db:
                self._set_tags(match_id, tags)

    def _set_tags(self, match_id, tags):
        for name, value in tags.items():
            self.db.execute("DELETE FROM tags WHERE log = ? AND name = ?", (match_id, name))
            if value:
                self.db.execute(
                    "INSERT INTO tags (log, name, value) VALUES (?, ?, ?)", (match_id, name, value)
                )
        if tags.get("Date"):
            # a Date set on the PC (by hand, or by the companion that saw
            # the match begin) is the match's date: listed and exported
            rows = self.db.execute(
                "SELECT name, value FROM tags WHERE log = ? AND name IN ('Date', 'Time')",
                (match_id,),
            ).fetchall()
            when = log_date(_Header(['[%s "%s"]' % (_text(n), _text(v)) for n, v in rows]))
            if when:
                self.db.execute("UPDATE logs SET date = ? WHERE id = ?", (when, match_id))

    def tags(self, match_id):
        """{name: value} of a stored match's tags (set with set_tags or
        applied from pend_tags), names in order; {} for none. KeyError for
        no such match."""
        if self.empty:
            raise KeyError(match_id)
        with self._failing():
            if self.db.execute("SELECT 1 FROM logs WHERE id = ?", (match_id,)).fetchone() is None:
                raise KeyError(match_id)
            if not self.has_tags:  # a file of an older version: none yet
                return {}
            rows = self.db.execute(
                "SELECT name, value FROM tags WHERE log = ? ORDER BY name", (match_id,)
            ).fetchall()
        return {_text(n): _text(v) for n, v in rows}

    def pend_tags(self, board, number, tags):
        """Tags for the match the board logs as number (7, or its name
        0007.alog) that is not pulled yet: kept, and set on it when a pull
        stores that log (Store.put). A match stored in play under that
        name is that match: its tags are set at once. Values as set_tags
        (empty: no tag); ValueError as set_tags."""
        tags = check_tags(tags)
        if isinstance(number, str) and log_number(number) is not None:
            number = log_number(number)  # its name, 0007.alog
        number = int(number)
        name = "%04d.alog" % number
        with self._failing(), self.db:
            row = self.get(board, name)
            if row is not None and not row[2]:
                self._set_tags(row[0], tags)
                return
            for k, v in tags.items():
                self.db.execute(
                    "DELETE FROM pending_tags WHERE board = ? AND number = ? AND name = ?",
                    (board, number, k),
                )
                if v:
                    self.db.execute(
                        "INSERT INTO pending_tags (board, number, name, value) VALUES (?, ?, ?, ?)",
                        (board, number, k, v),
                    )

    def _apply_pending(self, board, name):
        # (in put's transaction: the log and its tags are stored together)
        number = log_number(name)
        if number is None:
            return
        rows = self.db.execute(
            "SELECT name, value FROM pending_tags WHERE board = ? AND number = ?", (board, number)
        ).fetchall()
        if rows:
            mid = self.get(board, name)[0]
            self._set_tags(mid, dict(rows))
            self.db.execute(
                "DELETE FROM pending_tags WHERE board = ? AND number = ?", (board, number)
            )

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
        """(id, board, name, moves, complete, result, pulled_at, size, date)
        rows; the moves counted from the bytes where an older file has no
        count, the date its last pull where it has none."""
        if self.empty:
            return []
        moves = "moves" if self.has_moves else "NULL"
        date = "date" if self.has_date else "NULL"
        with self._failing():
            rows = self.db.execute(
                "SELECT id, board, name, %s, complete, result, pulled_at, length(data), "
                "CASE WHEN %s IS NULL THEN data END, %s FROM logs ORDER BY board, name"
                % (moves, moves, date)
            ).fetchall()
        return [
            (r[0], _text(r[1]), _text(r[2]), _moves(r[8]) if r[3] is None else r[3])
            + tuple(r[4:8])
            + (_text(r[9] or r[6])[:16],)
            for r in rows
        ]

    def date(self, match_id):
        """The stored match's date, "YYYY-MM-DD HH:MM" (or a day alone)."""
        date = "date" if self.has_date else "NULL"
        with self._failing():
            row = self.db.execute(
                "SELECT %s, pulled_at FROM logs WHERE id = ?" % date, (match_id,)
            ).fetchone()
        if row is None:
            raise KeyError(match_id)
        return _text(row[0] or row[1])[:16]

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
        verdict = records.read_log(_blob(row[2]), lines)[0]
        return _text(row[0]), _text(row[1]), lines, verdict


# A file another version (or another program) wrote may hold any SQLite
# type in a column: what the host reads is made what it expects.
def _blob(v):
    return v if isinstance(v, bytes) else (v or "").encode() if isinstance(v, str) else b""


def _text(v):
    return v if isinstance(v, str) else "" if v is None else str(v)


def _moves(data):
    lines = SafeLines()
    records.read_log(_blob(data), lines)
    return len(lines.moves)


def _tag_pair(line):
    """(name, value) of a tag line as record.parse_line reads it, or None."""
    if not line.startswith("["):
        return None
    q1 = line.find('"')
    q2 = line.find('"]', q1 + 1) if q1 > 0 else -1
    if q2 < 0:
        return None
    return line[1:q1].strip(), line[q1 + 1 : q2]


def record_tags(board, name, lines, date="", tags=None):
    """The tag pairs of a stored match's record, in order: the board's
    name as its log says it (its id where the log has none), the board's
    id, the log, the date (NOTATION.md's YYYY.MM.DD), the tags set on the
    PC (players, event: they win over the log's own), the result."""
    own = [t for t in (_tag_pair(x) for x in lines.header) if t]
    out = dict(own)
    out.setdefault("Board", board)
    out["BoardId"] = board
    out["Log"] = name
    if date and "Date" not in out:
        out["Date"] = date[:10].replace("-", ".")
        if len(date) > 10:
            out["Time"] = date[11:16]
    out.update(tags or {})
    if lines.result:
        out["Result"] = lines.result
    first = ("Board", "BoardId", "Log", "Date", "Time")
    order = [k for k in first if k in out] + [k for k in out if k not in first]
    return [(k, out[k]) for k in order]


def apx_lines(board, name, lines, date="", tags=None):
    """The .apx record of a stored match (NOTATION.md)."""
    out = ['[%s "%s"]' % t for t in record_tags(board, name, lines, date, tags)]
    return out + [x for x in lines.lines() if not _tag_pair(x)]


def as_json(match_id, board, name, lines, verdict, date="", tags=None):
    return json.dumps(
        {
            "id": match_id,
            "board": board,
            "log": name,
            "date": date,
            "tags": dict(record_tags(board, name, lines, date, tags)),
            "verified": records.verdict_name(verdict),
            "header": lines.header,
            "moves": lines.moves,
            "result": lines.result,
        },
        indent=1,
    )


def log_number(name):
    """The board's number of a log name (0007.alog: 7), or None."""
    stem = name[:-5] if name.endswith(".alog") else ""
    return int(stem) if stem.isdigit() and len(stem) == 4 else None


class _Header:
    def __init__(self, header):
        self.header = header


def log_date(lines):
    """ "YYYY-MM-DD[ HH:MM]" from a log's own Date (and Time) tags, or None."""
    tags = dict(t for t in (_tag_pair(x) for x in lines.header) if t)
    d = tags.get("Date", "")
    if not _is_date(d):
        return None
    t = tags.get("Time", "")
    day = d.replace(".", "-")
    ok = len(t) >= 5 and t[2] == ":" and t[:2].isdigit() and t[3:5].isdigit()
    return day + " " + t[:5] if ok else day


def _is_date(d):
    return len(d) == 10 and d[4] == d[7] == "." and (d[:4] + d[5:7] + d[8:]).isdigit()


def tag_pairs(pairs):
    """{name: value} of `Name=value` words, as typed (`logs tag`, the
    companion's `tag`): `Name=` removes that tag. ValueError for a word
    that is not one; the names and values are check_tags' to judge."""
    tags = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise ValueError(_("%r is not Name=value (Name= removes the tag)") % pair)
        tags[name.strip()] = value
    return tags


def check_tags(tags):
    """{name: value} checked for a record (NOTATION.md tag pairs): a name
    of letters, digits and _ starting with a letter, not one of the
    board's own; a value of printable text without '"' or '\\' (the
    record's quotes), Date as YYYY.MM.DD. ValueError says what is wrong."""
    out = {}
    for name, value in tags.items():
        value = "" if value is None else str(value).strip()
        if not (name[:1].isalpha() and name.isascii() and name.replace("_", "").isalnum()):
            raise ValueError(_("%r is not a tag name (letters, digits and _)") % name)
        if len(name) > 32:
            raise ValueError(_("tag name %s is longer than 32 characters") % name)
        if name in BOARD_TAGS:
            raise ValueError(_("%s is the board's own tag: it cannot be set") % name)
        if any(c in value for c in '"\\') or not value.isprintable():
            raise ValueError(
                _("the value of %s holds a quote, a backslash or a control character") % name
            )
        if len(value) > MAX_TAG:
            raise ValueError(
                _("the value of %(tag)s is longer than %(max)d characters")
                % {"tag": name, "max": MAX_TAG}
            )
        if name == "Date" and value and not _is_date(value):
            raise ValueError(_("Date must be YYYY.MM.DD (NOTATION.md), not %r") % value)
        out[name] = value
    return out

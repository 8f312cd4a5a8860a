"""The match library as the pages show it: the stored matches with date,
players, mode, result; one match's record, positions and downloads; its
tags. Only store.py's functions touch the database; ids are whole
numbers from the URL, never paths."""

from .. import render as R
from ..logs import game_at
from ..store import Store, apx_lines, as_json
from ..termtext import clean

# NOTATION.md tag pairs the library edits: the players (the sides of a
# 2-player match, the teams of a team game) and the event.
PLAYER_TAGS = {"BG": ("Black", "Gold"), "AB": ("A", "B")}
EDITABLE = ("Event",)


def has_tags(store):
    """Does this version's store keep tag pairs (Store.set_tags)?"""
    return hasattr(store, "set_tags")


def tags_of(store, match_id):
    return store.tags(match_id) if has_tags(store) else {}


def set_tags(store, match_id, tags):
    """Store.set_tags; ValueError with the reason when the store keeps no
    tags or a value is not one a record can hold (nothing changed)."""
    if not has_tags(store):
        raise ValueError("this version's match database keeps no tags")
    store.set_tags(match_id, tags)


def header_value(lines, key):
    """A header line's value (`mode beehive` -> beehive), or ''."""
    for line in lines.header:
        k, _, v = line.partition(" ")
        if k == key:
            return v.strip()
    return ""


def letters_of(lines):
    mode = header_value(lines, "mode")
    return "AB" if mode in ("silent-swarm", "beehive", "2v1", "3v2") else "BG"


def players_text(tags, letters):
    names = [tags.get(k, "") for k in PLAYER_TAGS[letters]]
    return " v ".join(n or "?" for n in names) if any(names) else ""


def matches(db):
    """Rows for the library, newest first: dicts of id, date, board, log,
    moves, state, mode, players, result."""
    try:
        store = Store(db, write=False)
    except FileNotFoundError:
        return []
    out = []
    with store:
        for row in store.list():
            mid, board, name, moves, complete, result, pulled = row[:7]
            date = row[8] if len(row) > 8 and row[8] else pulled
            _, _, lines, _ = store.load(mid)
            tags = tags_of(store, mid)
            out.append(
                {
                    "id": mid,
                    "date": str(date or "")[:16],
                    "board": board,
                    "log": name,
                    "moves": moves,
                    "state": "done" if complete else "in play",
                    "mode": header_value(lines, "mode") or "?",
                    "players": players_text(tags, letters_of(lines)),
                    "event": tags.get("Event", ""),
                    "result": result or "",
                }
            )
    out.sort(key=lambda r: (r["date"], r["id"]), reverse=True)
    return out


class Match:
    """One stored match (KeyError: no such id)."""

    def __init__(self, db, match_id):
        with Store(db, write=False) as store:
            self.board, self.name, self.lines, self.verdict = store.load(match_id)
            self.tags = tags_of(store, match_id)
            self.can_tag = has_tags(store)
        self.id = match_id
        self.moves = list(self.lines.moves)
        self.letters = letters_of(self.lines)

    def ply(self, text):
        """The ply a query asks for (default: the end), kept in range."""
        try:
            n = int(text) if text is not None else len(self.moves)
        except ValueError:
            n = len(self.moves)
        return max(0, min(n, len(self.moves)))

    def svg(self, ply, size=None, chrome=True, coordinates=True):
        title = clean(
            "%s \u00b7 %s \u00b7 move %d of %d" % (self.board, self.name, ply, len(self.moves))
        )
        game = game_at(self.lines, ply)
        return R.render_svg(game, title=title, size=size, coordinates=coordinates, chrome=chrome)

    def apx(self):
        return "\n".join(apx_lines(self.board, self.name, self.lines)) + "\n"

    def json(self):
        return as_json(self.id, self.board, self.name, self.lines, self.verdict) + "\n"

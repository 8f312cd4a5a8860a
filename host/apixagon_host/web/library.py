"""The match library as the pages show it: the stored matches with date,
players, mode, result; one match's record, positions and downloads; its
tags. Only store.py's functions touch the database; ids are whole
numbers from the URL, never paths."""

from apixagon import record
from apixagon.codes import MODES

from .. import logs, words
from .. import render as R
from ..i18n import _
from ..logs import game_at, stopped_at
from ..store import Store, apx_lines, as_json, record_tags
from ..termtext import clean

# NOTATION.md tag pairs the match page edits: the players (logs.PLAYER_TAGS:
# the sides of a 2-player match, the teams of a team game) and the event.
PLAYER_TAGS = {"BG": logs.PLAYER_TAGS[0], "AB": logs.PLAYER_TAGS[1]}
EDITABLE = ("Event",)


def header_value(lines, key):
    """A header line's value (`mode beehive` -> beehive), or ''."""
    for line in lines.header:
        k, _sp, v = line.partition(" ")
        if k == key:
            return v.strip()
    return ""


def letters_of(lines):
    """The record's side letters (BG, AB for teams, JJ junior)."""
    mode = header_value(lines, "mode")
    return record.mode_letters(MODES.index(mode) if mode in MODES else 0, 0)


def tag_names(letters):
    """The tags the match page edits: the players' (none in junior: one
    deck for everyone, §6), then the event."""
    return PLAYER_TAGS.get(letters, ()) + EDITABLE


def computer_text(tags):
    """The computer as its [Computer] and [Level] tags name it (the board
    writes them for a match against it), or ''."""
    if not tags.get("Computer"):
        return ""
    level = tags.get("Level", "")
    return _("computer, level {level}").format(level=level) if level else _("computer")


def players_text(tags, letters):
    """The players as the library lists them: each side's name from the
    match's tags, a side the computer holds said so (two players), the
    computer's seats after the teams (team games); '' when the record
    names nobody (Junior: one deck for everyone, §6)."""
    pair = PLAYER_TAGS.get(letters, ())
    seats = tags.get("Computer", "").split()
    comp = computer_text(tags)
    if not pair or not (comp or any(tags.get(t) for t in pair)):
        return ""
    names = []
    for letter, tag in zip(letters, pair):
        name = tags.get(tag) or ""
        if letters == "BG" and letter in seats:
            name = "%s (%s)" % (name, comp) if name else comp
        names.append(name or words.side_name(letter, letters))
    text = _("{one} v {two}").format(one=names[0], two=names[1])
    if letters != "BG" and comp:
        text += " \u00b7 %s: %s" % (comp, " ".join(seats))
    return text


def shown_tags(tags, letters):
    """The record's tags the match page shows (NOTATION.md tag pairs), not
    those it edits nor the result it says: [(name, value)], the
    computer's seats by name."""
    out = []
    for name, value in tags:
        if name in tag_names(letters) or name == "Result":
            continue
        if name == "Computer" and letters == "BG":
            value = ", ".join(words.side_name(s, letters) for s in value.split())
        out.append((name, value))
    return out


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
            mid, board, name, moves, complete, result, pulled, _n, date = row
            lines = store.load(mid)[2]
            # the board's own tags too ([Computer], [Level]): the players
            tags = dict(record_tags(board, name, lines, "", store.tags(mid)))
            out.append(
                {
                    "id": mid,
                    "date": str(date or pulled or "")[:16],
                    "board": board,
                    "log": name,
                    "moves": moves,
                    "state": _("done") if complete else _("in play"),
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
            self.tags = store.tags(match_id)
            self.date = store.date(match_id)
        self.id = match_id
        self.moves = list(self.lines.moves)
        self.letters = letters_of(self.lines)
        record = record_tags(self.board, self.name, self.lines, self.date, self.tags)
        self.players = players_text(dict(record), self.letters)
        self.record_tags = shown_tags(record, self.letters)

    def ply(self, text):
        """The ply a query asks for (default: the end), kept in range."""
        try:
            n = int(text) if text is not None else len(self.moves)
        except ValueError:
            n = len(self.moves)
        return max(0, min(n, len(self.moves)))

    def svg(self, ply, size=None, chrome=True, coordinates=True):
        title = clean(
            "%s \u00b7 %s \u00b7 %s"
            % (self.board, self.name, _("move {ply} of {n}").format(ply=ply, n=len(self.moves)))
        )
        game = game_at(self.lines, ply)
        return R.render_svg(
            game,
            title=title,
            size=size,
            coordinates=coordinates,
            chrome=chrome,
            stopped=stopped_at(self.lines, ply),
        )

    def apx(self):
        return "\n".join(apx_lines(self.board, self.name, self.lines, self.date, self.tags)) + "\n"

    def json(self):
        return (
            as_json(self.id, self.board, self.name, self.lines, self.verdict, self.date, self.tags)
            + "\n"
        )

"""What the live page shows, from what the board sent (monitor.Session):
the board as render.py draws it, each cell in its LED colour, and the
status in words (words.py, liveview.py). Pure functions of the session's
fields; the page gets them as one JSON object per change."""

import time

from apixagon.codes import MODES
from apixagon.deck import RAIN
from apixagon.game import Game
from apixagon.geometry import NCELLS, ROYAL
from smartboard import cbpalette, tag, view
from smartboard.sim.legend import LEGEND

from .. import words
from ..i18n import N_, _
from ..legend_words import legend_name
from ..liveview import status_notes
from ..logs import PLAYER_TAGS
from ..matchend import end_text
from ..render import render_svg
from ..worded import again

PALETTES = ("standard", "colour-blind")


def palette_bytes(name):
    """The board's LED palette by name (smartboard.view's, or
    smartboard.cbpalette's colour-blind-safe one; eye-linear RGB): the
    page shows the colours the board's LEDs show."""
    return cbpalette.PALETTE_CB if name == "colour-blind" else view.PALETTE


def led_colour(v, pal):
    """#rrggbb of LED layer value v; None for a dark cell (drawn as the
    renderer's own cell colour)."""
    i = 3 * (v & 0x3F)
    if not i or i + 2 >= len(pal):
        return None
    return "#%02x%02x%02x" % (pal[i], pal[i + 1], pal[i + 2])


def game_of(cells, status):
    """A core Game holding the cards the board senses, for the renderer:
    its board bytes are 1 + side * 32 + card (docs/rules-engine.md). A
    Beekeeper or Smoker lying on a cell is no game card: not drawn."""
    mode = MODES.index(status["mode"]) if status.get("mode") in MODES else 0
    try:
        game = Game(mode, 0, int(status.get("players") or 0) if mode >= 5 else 0)
    except (ValueError, IndexError):
        game = Game(mode)
    for x in range(NCELLS):
        c = cells[x] - 1 if cells[x] else -1
        if c < 0 or c >= 0xFB:
            continue
        kind = tag.kind_of(c)
        if kind == tag.NORMAL and tag.index_of(c) < RAIN:
            game.board[x] = 1 + tag.side_of(c) * 32 + tag.index_of(c)
        elif kind == tag.RAIN:
            game.board[x] = 1 + tag.side_of(c) * 32 + RAIN
    return game


def board_svg(cells, layer, status, palette="standard"):
    """The live board as SVG: render.py's drawing without its title and
    legend, each cell filled with the colour its LED shows (blinking ones
    marked for the page's animation), the cards with their symbols."""
    cells = cells or bytes(NCELLS)
    layer = layer or bytes(NCELLS)
    pal = palette_bytes(palette)

    def fill(x):
        v = layer[x]
        colour = led_colour(v, pal)
        if colour is None:
            return None
        blink = blink_of(v)
        return colour, ' data-led="%d"%s' % (
            v & 0x3F,
            ' data-blink="%s"' % blink if blink else "",
        )

    return render_svg(
        game_of(cells, status), fills=fill, chrome=False, royal=royal_of(layer[ROYAL])
    )


def royal_of(v):
    """The empty Royal Cell's state as its LED shows it (§3.1): open or
    locked in the hints and card query (smartboard.view), 'unknown' when it
    shows something else or nothing (the adult display, the set-up). The
    position sensed from the cells has no history to tell it."""
    v &= 0x3F
    return "open" if v == view.ROYAL_OPEN else "locked" if v == view.ROYAL_LOCKED else "unknown"


def turn_text(st):
    """Whose turn it is, or the result, in words."""
    winner = st.get("winner")
    sides = st.get("sides", "BG")
    if winner:
        return words.winner_text(winner, sides)
    if st.get("phase") == "play" and st.get("to_play"):
        if sides == "JJ":
            return _("anyone who names the symbol first")  # Junior has no turns (§6)
        return _("{side} to play").format(side=words.side_name(st["to_play"], sides))
    return ""


# the modes with a reserve deck and the code of silence (RULES §4, §5)
_RESERVE_MODES = ("silent-swarm", "beehive", "2v1", "3v2")


def declarations(st):
    """What the DECLARE button offers in the match on the board, as the
    page's buttons: [{label, line}], line a companion command (DECLARE).
    None outside a match in play."""
    if st.get("phase") != "play":
        return []
    mode = st.get("mode")
    sides = st.get("sides", "BG")
    if mode == "junior":  # §6 D-13: the player who has run out declares it
        n = int(st["players"]) if st.get("players", "").isdigit() else 2
        return [
            {"label": _("player {n} is out").format(n=i), "line": "out %d" % i}
            for i in range(1, n + 1)
        ]
    out = []
    if mode in _RESERVE_MODES:
        who = words.side_name(st.get("to_play", "?"), sides)
        out.append({"label": _("pass ({side})").format(side=who), "line": "pass"})  # §4 D-9
    letters = ("A", "B") if sides == "AB" else ("black", "gold")
    for i, letter in enumerate(letters):
        who = words.side_name(sides[i], sides)
        out.append(
            {
                "label": _("deck empty: {side}").format(side=who),
                "line": "declare deck-empty " + letter,
            }
        )
    if mode in _RESERVE_MODES:
        for i, letter in enumerate(letters):
            who = words.side_name(sides[i], sides)
            out.append(
                {
                    "label": _("forced removal: {side}").format(side=who),
                    "line": "declare forced-removal " + letter,
                }
            )
        # §4 D-14: the keeper's turn; no card lifted is the empty reserve
        out.append({"label": _("reserve (the cards lifted, or none)"), "line": "declare reserve"})
    return out


PHASES = {
    "setup": N_("setting up"),
    "play": N_("match in play"),
    "over": N_("match over"),
    "resume": N_("resuming: put the cards back"),
    "safe": N_("safe mode"),
}


_PHASE_WORDS = {
    "start": N_("the match started"),
    "over": N_("the match is over"),
    "resumed": N_("the match resumed"),
    "abandoned": N_("the match was abandoned"),
}


def event_words(t, kind, text):
    """One event of the log as the page lists it: {t, kind, text}, in the
    page's language: the monitor's lines in words (a refusal, a take-back,
    the cards to put back) are worded again for each page (worded.py), not
    left in the language of the thread that heard them."""
    text = again(text)
    if kind == "move":
        n, _sp, line = text.partition(" ")
        text = (
            _("move {n}: {action}").format(n=n, action=words.action(line))
            if line
            else _("move {n}").format(n=n)
        )
    elif kind == "phase":
        text = (
            _(_PHASE_WORDS[text])
            if text in _PHASE_WORDS
            else _("phase: {phase}").format(phase=text)
        )
    elif kind == "say" and text.startswith("refused:"):
        # firmware before the `refused` event: a message `refused: <code>`
        text = words.refusal(text.partition(":")[2].strip())
        return {"t": _clock(t), "kind": "refused", "text": text, "said": True}
    elif kind == "say":
        text = _("board: {text}").format(text=text)
    return {"t": _clock(t), "kind": kind, "text": text}


def _clock(t):
    return time.strftime("%H:%M:%S", time.localtime(t))


def blink_of(v):
    """How LED layer value v blinks: "", "slow" or "fast"."""
    return "fast" if v & view.FAST else "slow" if v & view.SLOW else ""


def legend(palette="standard"):
    """What each LED colour means (smartboard.sim.legend, the one table
    every legend is drawn from), in this palette: [(colour, name, blink)]."""
    pal = palette_bytes(palette)
    return [(led_colour(v, pal), legend_name(name), blink_of(v)) for v, name in LEGEND]


def link_text(session):
    """The link in words: which board on which port, or that none is there."""
    if not session.connected:
        return _("no board: looking for one…")
    info = session.info
    return _("connected to {board} {id} on {port}").format(
        board=info.get("board", ""), id=info.get("id", ""), port=session.port or ""
    )


def seat_names(mask, sides="BG"):
    """The computer's seats of CONF's mask (bit side * 3 + seat - 1) as SET
    computer takes them and the set-up's select offers them: `G`, `A2+B1`,
    `none`. A 2-player match has one seat a side (the bits of the other
    seats are a team game's, left in the settings)."""
    out = []
    for t in (0, 1):
        for seat in range(1 if sides == "BG" else 3):
            if mask >> (t * 3 + seat) & 1 and sides != "JJ":
                out.append(sides[t] + ("%d" % (seat + 1) if sides == "AB" else ""))
    return "+".join(out) or "none"


def setup_more(conf, st):
    """The set-up's computer, level, hints and hint limit as the board has
    them (its CONF), as the selects' values; '' where unknown. A board
    without them in CONF names the match's computer in STATUS (computer=
    G:1)."""
    conf = conf or {}
    out = {k: conf.get(k, "") if conf.get(k, "").isdigit() else "" for k in SETUP_MORE}
    if out["computer"]:
        out["computer"] = seat_names(int(out["computer"]), st.get("sides", "BG"))
    elif st.get("computer"):
        seats, _colon, level = st["computer"].partition(":")
        out["computer"] = seats
        out["level"] = out["level"] or level
    return out


SETUP_MORE = ("computer", "level", "assist", "hintlimit")


def snapshot(session, log, job=None, palette="standard", conf=None):
    """The live page's JSON: the link, the status in words, the set-up, the
    board drawn, the recent events. conf: the board's settings (CONF), for
    the set-up's computer and hints."""
    st = dict(session.status)
    info = session.info
    refusal = words.status_refusal(st["refused"], st.get("moves")) if st.get("refused") else ""
    events = [event_words(t, kind, text) for t, kind, text in list(log)[-30:]]
    # Firmware that says a refusal as a message (no STATUS refused=): the
    # last one, until a move, a take-back or a new phase follows it.
    last_refusal = ""
    for e in events:
        if e.get("said"):
            last_refusal = e["text"]
        elif e["kind"] in ("move", "take-back", "phase", "over"):
            last_refusal = ""
    return {
        "connected": session.connected,
        "link_text": link_text(session),
        "board": {k: info.get(k, "") for k in ("board", "id", "fw", "profile", "proto")},
        "port": session.port or "",
        "phase": st.get("phase", ""),
        "phase_text": _(PHASES[st["phase"]]) if st.get("phase") in PHASES else st.get("phase", ""),
        "setup": words.setup_text(st).replace("  ", " \u00b7 ") if st else "",
        "turn": turn_text(st),
        "moves": st.get("moves", st.get("ply", "")),
        "last": words.action(st["last"]) if st.get("last") else "",
        # at the end, who won and the rule that ended it (the board says
        # nothing of its own then)
        "message": session.message or (end_text(st) if st.get("phase") == "over" else ""),
        "refusal": refusal,
        "last_refusal": last_refusal,
        "notes": [n for n in status_notes(st) if n != refusal],  # the refusal has its own place
        "declarations": declarations(st),
        # the tags the players form gives (logs.PLAYER_TAGS: the sides of a
        # 2-player match, the teams of a team game)
        "player_tags": PLAYER_TAGS[1] if st.get("sides") == "AB" else PLAYER_TAGS[0],
        "fields": dict(
            {
                k: st.get(k, "")
                for k in (
                    "mode",
                    "start",
                    "option",
                    "players",
                    "display",
                    "sides",
                    "low",
                    "free",
                    "room",
                    "unlogged",
                    "lost",
                )
            },
            **setup_more(conf, st),
        ),
        "svg": board_svg(session.cells, session.layer, st, palette),
        "legend": legend(palette),
        "events": events,
        "job": job.as_dict() if job is not None else None,
    }

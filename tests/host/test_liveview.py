"""The live view's drawing (apixagon_host.liveview) from the bytes the
board sends, in the board's own palette; and the monitor's handling of
events, including malformed ones."""

import time

import pytest
from apixagon.codes import REASONS
from apixagon.geometry import NCELLS, parse_cell
from apixagon_host import words
from apixagon_host.link import BoardError
from apixagon_host.liveview import cells_text, hexagon, led_text, status_line, status_notes
from apixagon_host.monitor import Session, event_line
from smartboard import proto, tag, view
from smartboard.sim.console import card_code


def cells_with(**cards):
    b = bytearray(NCELLS)
    for name, code in cards.items():
        b[parse_cell(name)] = code
    return bytes(b)


def test_a_card_is_drawn_on_its_cell_in_its_led_colour():
    cells = cells_with(E4=1 + tag.code(0, tag.NORMAL, 12), E6=0xFC)
    layer = bytearray(NCELLS)
    layer[parse_cell("E4")] = view.LAST
    layer[parse_cell("E5")] = view.THREAT | view.SLOW
    rows = hexagon(layer, cells, "BG")
    assert len(rows) == 9 and rows[0].startswith("I ") and rows[-1].startswith("A ")
    e = rows[4]
    r, g, b = view.colour_of(view.LAST)
    assert "48;2;%d;%d;%dmB12 " % (r, g, b) in e  # the board's palette entry
    assert "\x1b[5m" in e and "e5 *" in e  # blinking: SGR 5 and the console's '*'
    assert " ? " in e  # a card the board cannot name yet
    plain = hexagon(layer, cells, "BG", colour=False)
    assert "\x1b" not in "".join(plain) and "B12" in plain[4]


def test_plain_log_forms():
    cells = cells_with(E4=1 + tag.code(1, tag.SMOKER, 0), A1=0xFE)
    assert cells_text(cells, "BG") == "A1=? E4=Gsm"
    assert cells_text(bytes(NCELLS), "AB") == "-"
    layer = bytearray(NCELLS)
    layer[0] = view.ERR_RED | view.FAST
    layer[1] = view.SIDE0
    assert led_text(layer) == "lB" + "." * (NCELLS - 2)


def test_status_line():
    st = {"phase": "play", "mode": "beehive", "to_play": "A2", "ply": "7", "last": "B1_3_E4"}
    assert status_line(st) == "[play]  mode beehive  to play: A2  moves 7  last: B1 3 E4"
    assert "Black (blue) wins" in status_line({"phase": "over", "winner": "B"})
    st = {"phase": "over", "winner": "B", "sides": "AB"}
    assert status_line(st).endswith("team B wins")
    st = {"phase": "over", "mode": "junior", "winner": "J3", "sides": "JJ", "players": "6"}
    assert status_line(st) == "[over]  mode junior  6 players  player 3 wins"
    assert status_line(dict(st, winner="none")).endswith("no winner (all cards placed)")
    st = {"phase": "play", "mode": "junior", "to_play": "J", "sides": "JJ", "moves": "2"}
    assert status_line(st) == "[play]  mode junior  moves 2"  # no turns in Junior (§6)
    st = {"phase": "play", "mode": "queens-gambit", "to_play": "G", "moves": "1"}
    assert "to play: Gold" in status_line(st)
    assert "STORAGE LOW" in status_line({"phase": "setup", "low": "1"})


def test_events_update_what_the_monitor_knows_and_bad_ones_are_ignored():
    heard = []
    s = Session(None, lambda kind, text: heard.append((kind, text)))
    cells = cells_with(E4=13)
    s._on_event("cells " + proto.hex_text(cells))
    assert s.cells == cells and heard[-1][0] == "cells"
    s._on_event("cells " + proto.hex_text(cells))  # the same again (a re-WATCH)
    assert len(heard) == 1
    for bad in ("cells 00", "leds " + "zz" * NCELLS, "cells"):
        s._on_event(bad)
        assert heard[-1] == ("link", "ignored a malformed %s event" % bad.split()[0])
    assert s.cells == cells and s.layer is None
    s._on_event("say refused: royal-locked")
    assert s.message == "refused: royal-locked"
    s._on_event("move 11 B 12 E4")
    assert s.stale and s.message == ""  # STATUS again at the next tick


# ---- refusals, declarations, set-up and resumes in words


def test_every_reason_code_has_player_words():
    # NOTATION's list, and the core's (apixagon.codes) the board sends
    notation = (
        "bad-syntax bad-cell unknown-card not-your-turn occupied royal-locked "
        "adjacent-opponent card-already-played specials-locked special-used not-open-end "
        "sealed royal-immovable bad-target game-over not-allowed-in-mode cannot-pass"
    ).split()
    for code in set(notation) | set(REASONS[1:]):
        assert words.REASON_WORDS.get(code), code
        assert words.reason(code).endswith("(%s)" % code)


@pytest.mark.parametrize(
    "text,line",
    [
        (
            "adjacent-opponent G 3 E6",
            "refused: G3 on E6: beside an opponent card without blocking or extending a run"
            " (adjacent-opponent)",
        ),
        ("not-your-turn G 5 E6", "refused: G5 on E6: it is the other side's turn (not-your-turn)"),
        ("occupied G rain E6", "refused: Grain on E6: the cell already holds a card (occupied)"),
        ("not-open-end B beekeeper D5 C3", "refused: Bbee D5 to C3: not a free open end"),
        ("special-used B smoker", "refused: Bsmoker: each special card is used once"),
        ("bad-target A deck-empty", "refused: A declares deck-empty: not something"),
        ("bad-target A reserve C3 D2", "refused: A reserve C3 D2: not something"),
        ("royal-locked A2 12 E5", "refused: A12 on E5 (A2): the Royal Cell (E5)"),
        ("brand-new-code B 3 E6", "refused: B3 on E6: brand-new-code"),
        ("cannot-pass B2 pass", "refused: B2 passes: a pass only in a tactical void"),
        ("bad-target A1 reserve", "refused: A1: the empty reserve: not something"),
        ("bad-target J3 out", "refused: player 3 is out of cards: not something"),
        (
            "not-allowed-in-mode G 5 E6",
            "refused: G5 on E6: Junior is played with the Black deck alone (not-allowed-in-mode)",
        ),
        ("not-allowed-in-mode J smoker", "refused: Jsmoker: not played in this game mode"),
        ("sealed", "refused: a sequence of 4 is sealed"),
    ],
)
def test_a_refused_event_reads_as_words(text, line):
    assert words.refusal(text).startswith(line)


def test_status_line_names_the_set_up_and_notes_say_the_rest():
    st = {"phase": "setup", "mode": "beehive", "start": "B", "option": "special_then_place"}
    assert status_line(st) == "[setup]  mode beehive  team B starts  option special_then_place"
    st = {"phase": "setup", "mode": "teen", "start": "gold", "option": "none", "players": "6"}
    assert status_line(st) == "[setup]  mode teen  Gold starts  6 players"
    assert status_notes(st) == []
    st = {
        "phase": "play",
        "refused": "adjacent-opponent:B_3_E6",
        "declare": "deck-empty:B",
        "want": "E4:B12,F5:G3",
    }
    assert status_notes(st) == [
        "refused: B3 on E6: beside an opponent card without blocking or extending a run"
        " (adjacent-opponent)",
        "DECLARE: deck empty for Black (blue) — press CONFIRM",
        "put back: E4 B12, F5 G3",
    ]
    st["sides"] = "AB"
    assert status_notes(st)[1] == "DECLARE: deck empty for team B — press CONFIRM"
    assert words.declaration("forced-removal:G") == (
        "DECLARE: a forced removal for Gold — press CONFIRM"
    )
    assert words.declaration("pass:A2", "AB") == "DECLARE: pass of A2 — press CONFIRM"
    assert words.declaration("out:J3", "JJ") == (
        "DECLARE: player 3 is out of cards and wins — press CONFIRM"
    )


def test_a_resume_shows_the_card_each_blinking_cell_takes_back():
    cells = cells_with(F5=1 + tag.code(1, tag.NORMAL, 3))  # already back
    want = words.want_cells("E4:B12 F5:G3 D2:Grain bad X9:B1 E6:Bnope")
    assert want[:3] == [("E4", "B12"), ("F5", "G3"), ("D2", "Grain")]
    rows = hexagon(bytes(NCELLS), cells, "BG", colour=False, want=want)
    assert "b12" in rows[4] and "G03" in rows[3] and "g~~" in rows[5]
    assert "e6 " in rows[4]  # a token the board cannot mean: the cell's name


def _session():
    heard = []
    s = Session(None, lambda kind, text: heard.append((kind, text)))
    return s, heard


def test_refused_want_and_changed_events():
    s, heard = _session()
    s._on_event("refused adjacent-opponent G 3 E6")
    assert heard[-1][0] == "refused" and s.stale
    assert event_line(*heard[-1]).startswith("refused: G3 on E6: beside an opponent card")
    s.stale = False
    s._on_event("want E4:B12 F5:G3")
    assert s.want == [("E4", "B12"), ("F5", "G3")]
    assert event_line(*heard[-1]) == "put back: E4 B12, F5 G3"
    s._on_event("want ")
    assert s.want == [] and heard[-1][1] == "put back: nothing left"
    s.stale = False
    n = len(heard)
    s._on_event("changed")
    assert s.stale and len(heard) == n  # nothing to show: STATUS again


def test_a_leds_event_asks_status_again():
    s, heard = _session()
    s._on_event("leds " + proto.hex_text(bytes(NCELLS)))
    assert s.stale and s.layer == bytes(NCELLS)


def test_a_move_event_with_a_lower_count_is_a_take_back():
    s, heard = _session()
    for text in ("1 B 12 E4", "2 G 3 F5", "3 B 13 G6"):
        s._on_event("move " + text)
    assert [k for k, _ in heard] == ["move"] * 3
    s._on_event("move 2 G 3 F5")  # `lift G6`
    assert event_line(*heard[-1]) == "take-back: B 13 G6 taken back (2 moves)"
    s._on_event("move 3 B 14 G6")
    assert heard[-1] == ("move", "3 B 14 G6")
    s._on_event("move 1 B 12 E4")  # two at once (a resume's state)
    assert heard[-1][1] == "take-back: G 3 F5, B 14 G6 taken back (1 move)"
    s._on_event("move 0")
    assert heard[-1][1] == "take-back: B 12 E4 taken back (0 moves)"


def test_a_take_back_of_a_move_seen_before_the_monitor_came():
    s, heard = _session()
    s.moves = 7  # from STATUS moves=, no move events seen
    s._on_event("move 6 G 3 F5")
    assert heard[-1] == ("take-back", "take-back: 1 move taken back (6 moves)")
    s._on_event("phase start")
    s._on_event("move 1 B 2 E4")
    assert heard[-1][0] == "move" and s.history == ["B 2 E4"]


def test_card_tokens_are_what_the_companion_reads():
    # words.card_token is card_code's inverse, in each game's letters
    for letters in ("BG", "AB"):
        for side in (0, 1):
            codes = [tag.code(side, tag.NORMAL, i) for i in range(31)]
            codes += [tag.code(side, k, 0) for k in (tag.RAIN, tag.BEEKEEPER, tag.SMOKER)]
            codes.append(tag.code(side, tag.RAIN, 1))
            for c in codes:
                token = words.card_token(c, letters)
                assert card_code(token, letters == "AB") == c, token
    assert words.card_token(tag.code(1, tag.RAIN, 0), "BG") == "Grain"
    assert words.card_token(0xFB, "BG") == "?"  # a card the board cannot name


def test_a_burst_of_leds_events_is_drawn_as_the_last_one():
    # The card query's frame, then the board's next frame in the same
    # read: the view shows the last (each is a whole layer, not a change).
    import io

    from apixagon_host.monitor import ScreenView

    ui = ScreenView(io.StringIO(), None)
    s = Session(None, ui.notify)
    ui.session = s
    query = bytearray(NCELLS)
    query[parse_cell("E4")] = view.THREAT | view.FAST
    after = bytearray(NCELLS)
    after[parse_cell("E4")] = view.LAST
    s._on_event("leds " + proto.hex_text(bytes(query)))
    s._on_event("leds " + proto.hex_text(bytes(after)))
    ui.redraw()
    frame = ui.out.getvalue()
    assert s.layer == bytes(after)
    row_e = [x for x in frame.split("\n") if x.startswith("E ")][0]
    r, g, b = view.colour_of(view.LAST)
    assert "48;2;%d;%d;%dme4  " % (r, g, b) in row_e and "\x1b[5m" not in row_e


def test_the_status_line_counts_the_records_moves_not_the_turns():
    # A match that ended on its 19th line: STATUS ply (turns) says 18, the
    # move events, the record and `logs` say 19; the line says what they say.
    st = {"phase": "over", "mode": "queens-gambit", "ply": "18", "moves": "19", "winner": "B"}
    line = status_line(st)
    assert "moves 19" in line and "moves 18" not in line


class _ClockLink:
    """A link that keeps what CLOCK was sent; old: firmware that takes no
    offset from UTC (ERR 6 for two numbers)."""

    def __init__(self, old=False):
        self.old = old
        self.sent = []

    def request(self, *args):
        self.sent.append(args)
        if self.old and len(args) > 2:
            raise BoardError("board: ERR 6 bad arguments: CLOCK", board_code=proto.E_ARGS)
        return "1"


def test_the_clock_goes_with_this_pcs_offset_from_utc_and_alone_to_older_firmware():
    # the board dates the matches it logs by this PC's day (docs/protocol.md CLOCK)
    s, _ = _session()
    s.link = _ClockLink()
    s._set_clock()
    ((verb, t, east),) = s.link.sent
    assert verb == "CLOCK" and abs(t - time.time()) < 5
    assert east == time.localtime(t).tm_gmtoff // 60
    s.link = _ClockLink(old=True)
    s._set_clock()
    assert [len(a) for a in s.link.sent] == [3, 2]


class _StatusLink:
    def __init__(self):
        self.status = "phase=play mode=beehive sides=AB to_play=A2"

    def request(self, *args):
        return self.status


def test_a_new_preview_is_a_line_in_words_once():
    # the plain log has no status line: the declaration DECLARE previews
    # (STATUS declare=) is said as a line when it changes
    s, heard = _session()
    s.link = _StatusLink()
    s.refresh()
    assert [k for k, _ in heard if k == "declare"] == []
    s.link.status += " declare=pass:A2"
    s.refresh()
    s.refresh()  # the same preview: not again
    said = [t for k, t in heard if k == "declare"]
    assert said == ["DECLARE: pass of A2 — press CONFIRM"]
    assert event_line("declare", said[0]) == said[0]
    s.link.status = s.link.status.replace("pass:A2", "deck-empty:B")
    s.refresh()
    assert heard[-1] == ("declare", "DECLARE: deck empty for team B — press CONFIRM")


def test_an_80_by_24_terminal_shows_every_word_and_adapts_to_a_resize():
    # At 80x24 the view cut the hands' last cards and the specials, a
    # refusal's code and the status line's end, and showed 6 rows of events
    import io
    import re

    from apixagon_host.monitor import MIN_COLS, MIN_ROWS, ScreenView

    size = [80, 24]
    ui = ScreenView(io.StringIO(), None, size=lambda: tuple(size))
    s = Session(None, ui.notify)
    ui.session = s
    s.status.update(
        phase="play", mode="beehive", sides="AB", start="A", to_play="B", moves="41",
        last="A2_12_E4", display="card_query", low="1",
    )  # fmt: skip
    s._on_event("refused royal-locked A 3 E5")
    hands = "A: 0 1 2 3 4 5 6 7 8 9 10 11 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30"
    ui.show(["move  %d A 7 C%d" % (n, n % 7 + 1) for n in range(6)])
    ui.show(["> hands", hands + "  specials: rain rain bee smoker"])

    def screen():
        ui.out.seek(0)
        ui.out.truncate()
        ui.dirty = True
        ui.redraw()
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", ui.out.getvalue())
        return [x.rstrip() for x in text.split("\n")]

    rows = screen()
    assert max(len(x) for x in rows) <= 80
    joined = " ".join(x.strip() for x in rows)
    assert "(royal-locked)" in joined and "STORAGE LOW: pull the matches" in joined
    assert "28 29 30  specials: rain rain bee smoker" in joined  # the hand whole
    events = rows[[x.startswith("[play]") for x in rows].index(True) :]
    assert len([x for x in events if x.startswith("move")]) >= 5  # more than 6 rows of events
    assert len(rows) <= 24 + 1  # the prompt's own row
    size[:] = [60, 20]  # a resize: the next draw takes the new size
    rows = screen()
    assert max(len(x) for x in rows) <= 60
    assert "specials: rain rain bee smoker" in " ".join(x.strip() for x in rows)
    size[:] = [MIN_COLS - 1, MIN_ROWS]
    said = " ".join(x.strip() for x in screen())
    assert "needs at least %dx%d" % (MIN_COLS, MIN_ROWS) in said


def test_a_junior_card_refused_for_its_cell_says_where_the_card_goes():
    # RULES §6: the first card on the Royal Cell, each next one beside the
    # last card; the board's bad-target says only that this cell is not it
    s, heard = _session()
    s.moves = 0
    s._on_event("refused bad-target J 5 E4")
    line = event_line(*heard[-1])
    assert line == (
        "refused: J5 on E4: Junior's first card goes on the Royal Cell, E5 (RULES §6) (bad-target)"
    ), line
    s.moves = 3
    s._on_event("refused bad-target J2 7 A1")
    assert "J7 on A1 (J2): each card goes on a free cell beside the last card" in heard[-1][1]
    st = {"refused": "bad-target:J_5_E4", "moves": "0", "sides": "JJ", "mode": "junior"}
    assert any("first card goes on the Royal Cell, E5" in n for n in status_notes(st))
    # the move count not known: both
    assert "first card" in words.refusal("bad-target J 5 E4") and "beside the last" in (
        words.refusal("bad-target J 5 E4")
    )
    # the other modes' bad-target is as before
    assert words.refusal("bad-target B beekeeper E5 E4").endswith(
        "not something this move can be made on now (bad-target)"
    )


def test_confirm_after_a_match_says_what_it_did_and_what_comes_next():
    # CONFIRM after a match is only a `changed` event from the board: the
    # step to set-up, the cards still down (the board refuses CONFIRM until
    # they are lifted) and how to lift them, in words at once
    from apixagon_host.companion import SIMULATOR

    s, heard = _session()
    s.link = _StatusLink()
    s.link.status = "phase=over mode=queens-gambit sides=BG winner=B"
    s.refresh()
    s.info = {"board": SIMULATOR}
    s.cells = cells_with(E4=1 + tag.code(0, tag.NORMAL, 12), F5=1 + tag.code(1, tag.NORMAL, 3))
    s.link.status = "phase=setup mode=queens-gambit sides=BG"
    s.refresh()
    assert heard[-1] == (
        "setup",
        "the match is put away: set-up for the next match. 2 cards are still on the board"
        " (they blink): lift them (clear lifts them all), then confirm starts it",
    )
    assert event_line(*heard[-1]) == heard[-1][1]
    n = len(heard)
    s.refresh()  # said once
    assert len([k for k, _ in heard[n:] if k == "setup"]) == 0
    # a real board (no clear), and a board already clear
    s.info = {"board": "APIXAGON_rev_A"}
    s.link.status = "phase=over mode=queens-gambit sides=BG winner=B"
    s.refresh()
    s.link.status = "phase=setup mode=queens-gambit sides=BG"
    s.refresh()
    assert heard[-1][1].endswith(
        "2 cards are still on the board (they blink): lift them, then confirm starts it"
    )
    s.cells = bytes(NCELLS)
    s.link.status = "phase=over mode=queens-gambit sides=BG winner=B"
    s.refresh()
    s.link.status = "phase=setup mode=queens-gambit sides=BG"
    s.refresh()
    assert heard[-1][1] == (
        "the match is put away: set-up for the next match. Choose it (mode, start, ...);"
        " confirm starts it"
    )

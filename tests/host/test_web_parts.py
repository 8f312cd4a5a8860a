"""The web companion's parts without a browser: `apixagon serve`'s
arguments, the live page's words and picture from what a board sent, the
same-origin rule, the progress callback, the renderer's board-only form.
The pages in a real browser: tests/web."""

import re
import socket

import pytest
from apixagon.geometry import NCELLS, parse_cell
from apixagon_host import cli, render
from apixagon_host.progress import Progress
from smartboard import cbpalette, tag, view

pytest.importorskip("starlette", reason="the web companion's packages (make installs them)")

from apixagon_host.web import guard, library, live  # noqa: E402


def test_serve_refuses_another_address_unless_told(capsys):
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "/dev/null"]) == 2
    assert "--allow-remote" in capsys.readouterr().err


def test_serve_says_a_busy_port_and_starts_nothing(capsys):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        port = s.getsockname()[1]
        assert cli.main(["serve", "--web-port", str(port), "--port", "/dev/null"]) == 2
        err = capsys.readouterr().err
        assert "cannot serve on 127.0.0.1 port %d" % port in err and "--web-port" in err
    finally:
        s.close()
    assert cli.main(["serve", "--web-port", "70000"]) == 2


def test_events_in_words_and_an_older_boards_refusal():
    words = [live.event_words(0, k, t) for k, t in (
        ("move", "3 B 12 E4"),
        ("phase", "start"),
        ("say", "clear the board first"),
        ("say", "refused: bad-target"),
    )]  # fmt: skip
    assert [w["text"] for w in words] == [
        "move 3: B12 on E4",
        "the match started",
        "board: clear the board first",
        "refused: not something this move can be made on now (bad-target)",
    ]
    assert words[3]["kind"] == "refused" and words[3]["said"]


class _Session:
    connected = True
    port = "/dev/pts/9"
    info = {"board": "fake", "id": "f-1", "fw": "0.7.0", "profile": "A", "proto": "4"}
    message = ""
    cells = None
    layer = None

    def __init__(self, status):
        self.status = status


def test_snapshot_says_the_refusal_in_force_the_declaration_and_the_turn():
    st = {
        "phase": "play",
        "mode": "queens-gambit",
        "start": "black",
        "option": "none",
        "to_play": "G",
        "moves": "2",
        "last": "G_3_F5",
        "refused": "adjacent-opponent:G_3_E6",
        "declare": "deck-empty:G",
    }
    snap = live.snapshot(_Session(st), [])
    assert snap["refusal"].startswith("refused: G3 on E6: beside an opponent card")
    assert snap["turn"] == "Gold to play" and snap["last"] == "G3 on F5"
    assert snap["setup"] == "mode queens-gambit \u00b7 Black (blue) starts"
    assert any("deck empty for Gold" in n for n in snap["notes"])
    # an older board's refusal (a message) holds until a move follows it
    log = [(0, "say", "refused: bad-target")]
    assert "bad-target" in live.snapshot(_Session({}), log)["last_refusal"]
    log.append((1, "move", "3 B 7 D4"))
    assert live.snapshot(_Session({}), log)["last_refusal"] == ""


def test_the_live_picture_has_the_cards_and_the_led_colours():
    cells = bytearray(NCELLS)
    layer = bytearray(NCELLS)
    cells[parse_cell("E4")] = 1 + tag.code(0, tag.NORMAL, 12)
    cells[parse_cell("E6")] = 1 + tag.code(1, tag.RAIN, 1)
    cells[parse_cell("D4")] = 1 + tag.code(1, tag.BEEKEEPER, 0)  # no game card: not drawn
    layer[parse_cell("E3")] = view.LEGAL
    layer[parse_cell("A1")] = view.ERR_RED | view.FAST
    svg = live.board_svg(cells, layer, {"mode": "queens-gambit"})
    assert 'data-cell="E4" data-side="0"' in svg and 'data-card="12"' in svg
    assert 'data-cell="E6" data-side="1"' in svg and 'data-kind="rain"' in svg
    assert 'g class="card" data-cell="D4"' not in svg
    e3 = re.search(r'<use[^>]*data-cell="E3"[^>]*>', svg).group(0)
    legal = live.led_colour(view.LEGAL, view.PALETTE)
    assert 'fill="%s"' % legal in e3 and 'data-led="3"' in e3
    a1 = re.search(r'<use[^>]*data-cell="A1"[^>]*>', svg).group(0)
    assert 'data-blink="fast"' in a1
    cb = live.board_svg(cells, layer, {}, "colour-blind")
    want = live.led_colour(view.LEGAL, cbpalette.PALETTE_CB)
    assert want != legal and 'fill="%s"' % want in cb
    assert "<title" not in svg.split("<defs>")[0] and 'viewBox="0 74 ' in svg  # no title band


def test_a_change_needs_this_servers_own_origin():
    def scope(**headers):
        return {
            "scheme": "http",
            "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
        }

    assert guard.same_origin(scope(host="127.0.0.1:8765", origin="http://127.0.0.1:8765"))
    assert not guard.same_origin(scope(host="127.0.0.1:8765", origin="http://127.0.0.1:9999"))
    assert not guard.same_origin(scope(host="127.0.0.1:8765", origin="null"))
    assert not guard.same_origin(scope(host="127.0.0.1:8765"))
    assert guard.same_origin(scope(host="127.0.0.1:8765", sec_fetch_site="same-origin"))
    assert not guard.same_origin(scope(host="127.0.0.1:8765", sec_fetch_site="same-site"))


def test_progress_can_tell_a_function_instead_of_drawing(capsys):
    seen = []
    p = Progress(10, lambda done, total: seen.append((done, total)))
    assert not p.add(4)  # nothing drawn
    p.add(6)
    p.end()
    assert seen == [(4, 10), (10, 10)] and capsys.readouterr().err == ""


def test_a_missing_database_is_an_empty_library(tmp_path):
    assert library.matches(str(tmp_path / "none.sqlite")) == []


def test_the_renderer_unchanged_unless_asked():
    from apixagon.game import Game

    g = Game(0)
    full = render.render_svg(g, "t")
    assert 'viewBox="0 0 ' in full and "data-led" not in full
    board = render.render_svg(g, chrome=False, fills=lambda x: ("#123456", ' data-led="3"'))
    assert board.count('fill="#123456"') == NCELLS and 'class="legend"' not in board


def test_the_declarations_the_match_offers_as_buttons():
    # what the DECLARE button cycles through, by mode, as companion lines
    assert live.declarations({"phase": "setup", "mode": "beehive"}) == []
    st = {"phase": "play", "mode": "beehive", "sides": "AB", "to_play": "A2"}
    got = [(d["label"], d["line"]) for d in live.declarations(st)]
    assert got == [
        ("pass (A2)", "pass"),  # §4 D-9
        ("deck empty: team A", "declare deck-empty A"),
        ("deck empty: team B", "declare deck-empty B"),
        ("forced removal: team A", "declare forced-removal A"),
        ("forced removal: team B", "declare forced-removal B"),
        ("reserve (the cards lifted, or none)", "declare reserve"),  # §4 D-14
    ]
    st = {"phase": "play", "mode": "queens-gambit", "sides": "BG", "to_play": "B"}
    got = [(d["label"], d["line"]) for d in live.declarations(st)]
    assert got == [
        ("deck empty: Black (blue)", "declare deck-empty black"),
        ("deck empty: Gold", "declare deck-empty gold"),
    ]
    st = {"phase": "play", "mode": "junior", "sides": "JJ", "players": "4"}
    got = [d["line"] for d in live.declarations(st)]
    assert got == ["out 1", "out 2", "out 3", "out 4"]  # §6 D-13
    snap = live.snapshot(_Session(dict(st, winner="J2", phase="over")), [])
    assert snap["turn"] == "player 2 wins" and snap["declarations"] == []

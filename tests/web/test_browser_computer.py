"""Playing against the board's computer from the web page, in a real
Chromium, while the simulated board (the firmware in the MicroPython unix
port on a pty) plays: the set-up's selects name the computer's seat and
level, the page names each move the board waits for ("Gold plays G12 on
F5 — take G12 from Gold's deck"), a wrong card is refused in words, and a
whole 2-player match against level 1 is played from set-up to its end,
every hand typed in the page's command box as a person would."""

import pytest
from apixagon import dealer, record
from apixagon import engine as E
from apixagon.codes import OK, PLACE
from apixagon.game import Game
from webkit import Server, screenshot

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")


@pytest.fixture(scope="module")
def server(board, tmp_path_factory):
    db = str(tmp_path_factory.mktemp("db") / "matches.sqlite")
    s = Server(board.port, db).start()
    s.wait(lambda st: st["connected"] and st["phase"] == "setup", 30)
    yield s
    s.stop()


def _type(page, line):
    box = page.locator("#command")
    box.fill(line)
    box.press("Enter")
    # the page clears the box once the command was taken (live.js)
    try:
        page.wait_for_function("document.getElementById('command').value === ''", timeout=20000)
    except sync_api.TimeoutError:
        raise AssertionError("%s: %s" % (line, page.locator("#command-out").text_content()))


def _moves(server):
    return int(server.get_json("/api/state").get("moves") or 0)


def _token(g, x):
    o = g.board[x]
    side, card = (o - 1) >> 5, (o - 1) & 31
    return "BG"[side] + ("rain" if card == 31 else str(card))


def test_a_whole_match_against_level_1_from_the_page(server, board, browser):
    ctx = browser.new_context(bypass_csp=True)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#link.ok", timeout=10000)
        page.select_option("select[name=computer]", "G")
        page.select_option("select[name=level]", "1")
        st = server.bridge.session
        _type(page, "confirm")
        server.wait(lambda s: s["phase"] == "play", 20)
        mirror = Game(0, 0)
        mine = dealer.Table(mirror, [(0, 1)], 5)
        me = E.Engine(1, 3)
        wrong_said = False
        n = 0
        while n < 150:
            n += 1
            state = server.get_json("/api/state")
            if state["phase"] == "over":
                break
            moves = _moves(server)
            if mirror.side_to_play() == 1:
                server.wait(lambda s: st.status.get("expect"), 20)
                line = st.status["expect"].replace("_", " ")
                notes = " ".join(server.get_json("/api/state")["notes"])
                assert "Gold plays" in notes, notes
                got = {}

                class V(record.Visitor):
                    def move(self, lineno, letter, seat, kind, card, cells):
                        got["m"] = (letter, seat, kind, card, cells)

                record.parse_line(line, 1, V())
                letter, seat, kind, card, cells = got["m"]
                if kind == PLACE and not wrong_said:
                    # another Gold card on its cell first: refused in words
                    other = [c for c in range(31) if not mirror.loc[31 + c] and c != card][0]
                    _type(page, "put %s G%d" % (record.cell_name(cells[0]), other))
                    server.wait(lambda s: "wrong-move" in (s.get("refusal") or ""), 20)
                    assert "not the computer's move" in server.get_json("/api/state")["refusal"]
                    _type(page, "lift %s" % record.cell_name(cells[0]))
                    wrong_said = True
                    server.wait(lambda s: not s.get("refusal"), 20)
                if kind == PLACE:
                    _type(page, "put %s G%d" % (record.cell_name(cells[0]), card))
                elif kind == 2:  # a Rain
                    _type(page, "put %s Grain" % record.cell_name(cells[0]))
                elif kind == 4:  # the Smoker
                    _type(page, "tap Gsmoker")
                    _type(page, "lift %s" % record.cell_name(cells[0]))
                elif kind == 3:  # the Beekeeper
                    tok = _token(mirror, cells[0])
                    _type(page, "tap Gbee")
                    _type(page, "lift %s" % record.cell_name(cells[0]))
                    _type(page, "put %s %s" % (record.cell_name(cells[1]), tok))
                assert record.apply_move(mirror, letter, seat, kind, card, cells) == OK
            else:
                if not mine.piles[0] and not mine.hand(0, 1):
                    _type(page, "declare deck-empty black")
                    assert mirror.deck_empty(0) == OK
                else:
                    m = dealer.choose(mirror, mine, me, 0, 1)
                    if not m:
                        _type(page, "declare deck-empty black")
                        assert mirror.deck_empty(0) == OK
                    else:
                        x = E.arg_b(m)
                        k = E.kind_of(m)
                        if k == PLACE:
                            _type(page, "put %s B%d" % (record.cell_name(x), E.arg_a(m)))
                            mine.played(0, 1, E.arg_a(m))
                        elif k == 2:
                            _type(page, "put %s Brain" % record.cell_name(x))
                        elif k == 4:
                            _type(page, "tap Bsmoker")
                            _type(page, "lift %s" % record.cell_name(x))
                        elif k == 3:
                            tok = _token(mirror, E.arg_a(m))
                            _type(page, "tap Bbee")
                            _type(page, "lift %s" % record.cell_name(E.arg_a(m)))
                            _type(page, "put %s %s" % (record.cell_name(x), tok))
                        assert E.play(mirror, m, 0) == OK
            server.wait(lambda s: int(s.get("moves") or 0) > moves or s["phase"] == "over", 20)
        state = server.wait(lambda s: s["phase"] == "over", 20)
        assert mirror.over() and wrong_said
        who = ("black", "gold", "draw")[mirror.winner()]
        assert who in state["turn"].lower(), (state["turn"], record.write(mirror))
        assert "computer=G:1" in " ".join("%s=%s" % kv for kv in st.status.items())
        screenshot(page, "web-computer.png")
    finally:
        ctx.close()

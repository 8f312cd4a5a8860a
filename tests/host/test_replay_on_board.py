"""`apixagon replay ID --board --review` against the board's own firmware
(smartboard's board, its serial link, the simulated cells and LED strip)
wired to the host's Link in this process: the host gives each recorded
move, a hand puts the card down where the board pulses, and after each
reviewed move the strip shows the better cell in the good-cell colour
while the host says the grade and the better move in words."""

import io

import pytest
from apixagon.codes import PLACE
from apixagon.geometry import cell_name, parse_cell
from apixagon_host import cli
from apixagon_host import link as L
from apixagon_host.store import Store
from boardkit import card
from eventkit import started, watched
from smartboard import cbpalette, proto, view
from smartboard.paint import GAMMA
from test_review import MISSED, log_bytes


class Wire:
    """The host Link's serial port with the board's link at the other end.
    Whenever the host reads and nothing is there to read, time goes by on
    the board, and a player puts down the card it waits for (its target
    pulsing). marks: each MARK answered, with the strip's LED of its cell
    in the lit phase and what the good-cell colour looks like there."""

    def __init__(self, bd):
        self.bd = bd
        self.rx = bytearray()
        self.timeout = 1
        self.asked = []
        self.marks = []

    @property
    def in_waiting(self):
        return len(self.rx)

    def write(self, data):
        for line in bytes(data).split(b"\n"):
            if line:
                assert proto.check(line) == 0, line
                text = proto.body(line)
                self.asked.append(text.split()[1:])
                self.bd.link.handle(text)
                if text.split()[1:3] != ["MARK", "none"] and text.split()[1] == "MARK":
                    self.marks.append(self._lit(text.split()[2]))
        self._pump()
        return len(data)

    def _lit(self, name):
        r = self.bd.r
        v = r.board.view
        p = r.board.hw.painter
        v.dirty = True
        v.frame(0)
        want = tuple(GAMMA[c] * p.brightness // 255 for c in view.colour_of(view.GOOD))
        return name, v.layer[parse_cell(name)], r.strip.rgb(r.layout.led[parse_cell(name)]), want

    def _pump(self):
        out = self.bd.port.out
        self.rx += b"".join(out)
        del out[:]

    def read(self, n):
        if not self.rx:
            self._hand()
        self._pump()
        got = bytes(self.rx[:n])
        del self.rx[:n]
        return got

    stop_at = -1  # the move count at which the person at the PC presses Ctrl-C

    def _hand(self):
        r = self.bd.r
        if r.board.ref is not None and r.board.ref.game.nmoves() == self.stop_at:
            raise KeyboardInterrupt
        ref = r.board.ref
        e = ref.expect if ref is not None else 0
        if e and e >> 16 == PLACE:
            r.put(cell_name(e & 255), card(ref.game.side_to_play(), (e >> 8) & 255))
        r.settle(100)

    def reset_input_buffer(self):
        del self.rx[:]

    def close(self):
        pass


def _linked(monkeypatch, bd):
    del bd.port.out[:]  # (the test's own requests' replies, numbered as the host's)
    wire = Wire(bd)
    link = L.Link.__new__(L.Link)
    link.ser, link.port, link.timeout, link.seq = wire, "wire", 3.0, 0
    link.info, link.events, link.noise, link.stray = {}, [], [], 0
    link._buf = bytearray()
    monkeypatch.setattr(L, "connect", lambda port=None, timeout=3.0: link)
    return wire


def _db(tmp_path, lines=MISSED):
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(lines))
    return db


def run(*argv):
    out = io.StringIO()
    code = cli.main(list(argv), cli.State(out=out))
    return code, out.getvalue()


@pytest.mark.parametrize("palette", (0, 1))
def test_each_move_is_put_down_then_its_better_cell_lit_and_its_grade_said(
    tmp_path, monkeypatch, palette
):
    bd = started("rb-review")
    cbpalette.use(bd.r.board, palette)
    try:
        wire = _linked(monkeypatch, bd)
        code, text = run("replay", "1", "--board", "--review", "--db", _db(tmp_path))
    finally:
        cbpalette.use(bd.r.board, 0)
    assert code == 0, text
    g = bd.r.board.ref.game
    assert g.nmoves() == len(MISSED) - 2  # every move put down, by hand
    assert ["REMOTE", "B+G"] in wire.asked
    lines = text.splitlines()
    assert "move 1 of 9: put B0 on A1 down" in lines, text
    # ply 7: the sequence of 4 left open (RULES.md §2): A4 was the cell
    seven = next(x for x in lines if x.startswith("move 7: "))
    assert seven.startswith("move 7: B20 on E8, ") and ("mistake" in seven or "blunder" in seven)
    assert seven.endswith(
        ("better: B15 on A4 (lit on the board)", "better: B20 on A4 (lit on the board)")
    )
    assert ["MARK", "A4"] in wire.asked
    # every cell marked was lit in the good-cell colour on the strip, after
    # its move and before the next one
    assert wire.marks and ("A4", view.GOOD) in [m[:2] for m in wire.marks]
    for name, layer, rgb, want in wire.marks:
        assert layer == view.GOOD and rgb == want and rgb != (0, 0, 0), (name, rgb, want)
    # a move the review found best is said so, nothing lit
    marked = sum(1 for x in lines if x.startswith("move ") and "better:" in x)
    assert marked == len(wire.marks)
    assert any(x.startswith("move ") and x.endswith(", best") for x in lines), text


def test_without_review_the_moves_are_put_down_and_nothing_marked(tmp_path, monkeypatch):
    bd = started("rb-plain")
    wire = _linked(monkeypatch, bd)
    code, text = run("replay", "1", "--board", "--db", _db(tmp_path))
    assert code == 0, text
    assert bd.r.board.ref.game.nmoves() == 9
    assert not wire.marks and "better" not in text and "grade" not in text


def test_a_declaration_is_carried_out_by_the_board_and_said(tmp_path, monkeypatch):
    bd = started("rb-declared")
    _linked(monkeypatch, bd)
    lines = MISSED[:3] + ["G deck-empty"]
    code, text = run("replay", "1", "--board", "--review", "--db", _db(tmp_path, lines))
    assert code == 0, text
    g = bd.r.board.ref.game
    assert g.nmoves() == 2 and g.over()
    assert "move 2 of 2: G declares deck-empty (carried out by the board)" in text, text


def test_a_board_not_at_the_start_of_the_match_is_told_what_to_set_up(
    tmp_path, monkeypatch, capsys
):
    bd = watched("rb-setup")  # set-up: no match started
    wire = _linked(monkeypatch, bd)
    code, text = run("replay", "1", "--board", "--db", _db(tmp_path))
    err = capsys.readouterr().err
    assert code == 1 and text == ""
    assert [a[0] for a in wire.asked] == ["STATUS"]  # nothing changed on the board
    assert "set up mode=queens-gambit start=black option=none on the cleared board" in err, err
    assert "(the board: phase=setup moves=-)" in err, err


def test_an_older_board_without_mark_is_said_once_and_the_replay_goes_on(tmp_path, monkeypatch):
    bd = started("rb-old")
    bd.link.VERBS = tuple(v for v in bd.link.VERBS if v != "mark")
    wire = _linked(monkeypatch, bd)
    code, text = run("replay", "1", "--board", "--review", "--db", _db(tmp_path))
    assert code == 0, text
    assert text.count("does not light the better cell") == 1
    assert bd.r.board.ref.game.nmoves() == 9
    # asked once (refused: ERR 5), then never again; nothing lit
    assert len([a for a in wire.asked if a[0] == "MARK"]) == 1
    assert [m[1] for m in wire.marks] == [0]
    assert "better: B15 on A4\n" in text or "better: B20 on A4\n" in text
    assert "lit on the board" not in text


def test_review_and_delay_are_refused_where_they_do_not_apply(tmp_path, capsys):
    db = _db(tmp_path)
    for argv, words in (
        (("--review",), "--review goes with --board"),
        (("--board", "--delay", "1"), "--delay is for the terminal"),
    ):
        code, text = run("replay", "1", "--db", db, *argv)
        err = capsys.readouterr().err
        assert code == 2 and text == "" and words in err, err
    (tmp_path / "j").mkdir()
    junior = _db(tmp_path / "j", ["mode junior", "players 2", "J1 0 E5"])
    code, text = run("replay", "1", "--board", "--db", junior)
    err = capsys.readouterr().err
    assert code == 2 and "a Junior match cannot be replayed on the board" in err, err


def test_ctrl_c_gives_the_seats_back_and_takes_the_mark_off(tmp_path, monkeypatch):
    bd = started("rb-stop")
    wire = _linked(monkeypatch, bd)
    wire.stop_at = 3
    code, text = run("replay", "1", "--board", "--review", "--db", _db(tmp_path))
    assert code == 130, text
    assert text.splitlines()[-1] == "replay stopped: the seats are the players' again"
    assert wire.asked[-2:] == [["MARK", "none"], ["REMOTE", "none"]]
    b = bd.r.board
    assert b.remote is None and b.ref.game.nmoves() == 3
    assert not [c for c in b.view.layer if c == view.GOOD]


def test_a_team_game_names_every_seat_far(tmp_path, monkeypatch):
    from apixagon.codes import BEEHIVE
    from smartboard import buttons, settings

    bd = watched("rb-teams", BEEHIVE)
    bd.r.board.settings.set(settings.START, 1, 0)  # team B starts, as the record
    bd.r.press(buttons.CONFIRM)
    wire = _linked(monkeypatch, bd)
    lines = ["mode beehive", "start B", "B1 8 H5", "A1 23 G3", "B2 25 E3"]
    code, text = run("replay", "1", "--board", "--db", _db(tmp_path, lines))
    assert code == 0, text
    assert ["REMOTE", "A1+A2+A3+B1+B2+B3"] in wire.asked
    assert bd.r.board.ref.game.nmoves() == 3
    assert "move 3 of 3: put B25 on E3 (B2) down" in text, text

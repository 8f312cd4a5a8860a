"""`apixagon logs render`: the SVG and PNG pictures of a stored match.

Matches are stored as the board's own log bytes (smartboard.logstore),
built here from .apx lines: the scripted 6-player game and a short
2-player game with a sealed sequence, the Royal Cell, a Rain, a Smoker
and a Beekeeper."""

import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from apixagon import record
from apixagon.codes import MODES
from apixagon.deck import symbols
from apixagon.game import Game
from apixagon.geometry import NCELLS, ROYAL, cell_name, parse_cell
from apixagon_host import cli, outfile, position
from apixagon_host import render as R
from apixagon_host import symbols as S
from apixagon_host.store import Store
from smartboard.logstore import records

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(os.path.dirname(sys.executable), "apixagon")
SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"

# Queens-gambit: black seals D3 E3 F3 G3 (move 15), takes the Royal Cell
# (19); gold plays a Rain (22) and a Smoker (24), black a Beekeeper (25).
TWO = """\
mode queens-gambit
start black
B 8 B3
G 22 H9
B 21 F3
G 5 I7
B 16 F7
G 28 C5
B 3 D3
G 21 A1
B 0 E1
G 18 B6
B 11 F2
G 25 F4
B 19 G3
G 11 H4
B 12 E3
G 19 C3
B 22 D7
G 12 B5
B 6 E5
G 3 A5
B 29 B4
G rain B2
B 28 D5
G smoker D5
B beekeeper A5 G6
""".splitlines()
TWO_MOVES = 25


def log_bytes(lines, board="sim-0042"):
    """The board's log of a record: header lines as H records, moves as M
    (smartboard.logstore.records' format, hash-chained)."""
    out = bytearray()
    prev = records.SEED
    for text in ['[Board "%s"]' % board] + lines:
        text = text.split("#")[0].strip()
        if not text:
            continue
        header = text.startswith("[") or text.split()[0] in ("mode", "start", "option")
        if text.startswith("[Result"):
            continue
        kind = records.HEADER if header else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    return bytes(out)


def beehive_lines():
    with open(os.path.join(ROOT, "tests", "data", "beehive_full.apx")) as f:
        return f.read().splitlines()


@pytest.fixture
def db(tmp_path):
    """A store holding match 1 (the 2-player game) and 2 (the 6-player)."""
    path = str(tmp_path / "matches.sqlite")
    store = Store(path)
    store.put("sim-0042", "0001.alog", log_bytes(TWO))
    store.put("sim-0042", "0002.alog", log_bytes(beehive_lines()))
    assert [r[0] for r in store.list()] == [1, 2]
    store.close()
    return path


def game_after(lines, n=None):
    heads = [x for x in lines if x.split() and x.split()[0] in ("mode", "start")]
    moves = [x for x in lines if x.split() and x.split()[0] not in ("mode", "start")]
    moves = [x for x in moves if not x.startswith("[")]
    game, verdicts = record.check(heads + moves[:n], Game)
    assert all(r == 0 for _, r in verdicts)
    return game


def parse(svg):
    return ET.fromstring(svg)


def groups(root, cls):
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def run_cli(args):
    out = io.StringIO()
    code = cli.main(args, cli.State(out=out))
    return code, out.getvalue()


# ---- the symbols' data file ------------------------------------------------


def test_symbols_file_names_the_manuals_ten_and_marks_the_rest_as_placeholders():
    data = S.load()
    syms = data["symbols"]
    assert len(syms) == 31
    named = [(s["en"], s["it"]) for s in syms if not s["placeholder"]]
    assert sorted(named) == sorted(
        [
            ("Queen Bee", "Ape Regina"),
            ("Worker Bee", "Ape Operaia"),
            ("Leaf", "Foglia"),
            ("Fire", "Fuoco"),
            ("Raccoon", "Procione"),
            ("Squirrel", "Scoiattolo"),
            ("Spider", "Ragno"),
            ("Skunk", "Puzzola"),
            ("Octopus", "Piovra"),
            ("Bee-eater", "Gruccione"),
        ]
    )
    assert len({s["en"] for s in syms}) == 31 and len({s["it"] for s in syms}) == 31
    assert len({s["color"] for s in syms}) == 31
    for s in syms:
        assert s["layers"] and all(layer["d"].startswith("M") for layer in s["layers"])
    assert set(data["specials"]) == {"rain", "beekeeper", "smoker"}
    assert S.load() is data  # read once


def test_symbols_json_is_in_the_built_package(tmp_path):
    # What a wheel would hold: setuptools' build_py with the project's own
    # configuration, then the module loads its data from that copy alone
    # (-S: no site-packages, so not the editable install).
    build = str(tmp_path / "lib")
    code = (
        "import sys; from setuptools import setup; "
        "sys.argv = ['setup.py', '-q', 'build_py', '--build-lib', %r]; setup()" % build
    )
    subprocess.run([sys.executable, "-W", "ignore", "-c", code], cwd=ROOT, check=True)
    assert os.path.isfile(os.path.join(build, "apixagon_host", "data", "symbols.json"))
    probe = (
        "import sys; sys.path.insert(0, %r); from apixagon_host import symbols; "
        "print(symbols.__file__); print(symbols.name(9, 'it'))" % build
    )
    p = subprocess.run(
        [sys.executable, "-S", "-c", probe], cwd=str(tmp_path), capture_output=True, text=True
    )
    assert p.returncode == 0, p.stderr
    where, name = p.stdout.split()
    assert where.startswith(build) and name == "Gruccione"


# ---- the SVG -----------------------------------------------------------------


def test_svg_has_61_cells_and_one_tile_per_card_with_its_symbols():
    game = game_after(beehive_lines(), 60)
    root = parse(R.render_svg(game, title="t"))
    cells = groups(root, "cell")
    assert sorted(c.get("data-cell") for c in cells) == sorted(cell_name(x) for x in range(61))
    cards = groups(root, "card")
    on_board = [x for x in range(NCELLS) if game.board[x]]
    assert sorted(c.get("data-cell") for c in cards) == sorted(cell_name(x) for x in on_board)
    normal = 0
    for g in cards:
        x = parse_cell(g.get("data-cell"))
        assert int(g.get("data-side")) == game.owner(x)
        if g.get("data-kind") == "rain":
            assert game.card_at(x) == 31
            continue
        normal += 1
        card = int(g.get("data-card"))
        assert card == game.card_at(x)
        shown = [int(s) for s in g.get("data-symbols").split(",")]
        assert sorted(shown) == sorted(symbols(card))
        # the pictograms drawn are those symbols, in that order
        uses = [u.get(XLINK) for u in g.iter(SVG_NS + "use") if u.get("class") == "symbol"]
        assert uses == ["#sym-%d" % s for s in shown]
    assert normal >= 50
    # each glyph defined once, in <defs>
    ids = [e.get("id") for e in root.find(SVG_NS + "defs")]
    assert len(ids) == len(set(ids))
    used = {u.get(XLINK)[1:] for u in root.iter(SVG_NS + "use")}
    assert {i for i in ids if i.startswith("sym-")} == {u for u in used if u.startswith("sym-")}


def test_a_runs_symbol_faces_along_the_run():
    # The manual's tip for learners: shared symbols on the same line.
    game = game_after(TWO, 15)
    root = parse(R.render_svg(game))
    slots = {g.get("data-cell"): g.get("data-symbols").split(",") for g in groups(root, "card")}
    links = groups(root, "seal")
    assert len(links) == 3  # D3-E3-F3-G3
    for link in links:
        a, b, s = link.get("data-from"), link.get("data-to"), link.get("data-symbol")
        for cell in (a, b):
            d = slots[cell].index(s)
            assert d % 3 == 2  # the (i+1, c) axis: up-left / down-right


def test_sealed_cards_marked_only_with_a_sequence_of_4():
    before = parse(R.render_svg(game_after(TWO, 14)))
    assert groups(before, "sealed") == [] and groups(before, "seal") == []
    game = game_after(TWO, 15)
    root = parse(R.render_svg(game))
    sealed = bytearray(NCELLS)
    assert game.sealed_cells(sealed) == 4
    marked = {g.get("data-cell") for g in groups(root, "sealed")}
    assert marked == {cell_name(x) for x in range(NCELLS) if sealed[x]}
    assert marked == {"D3", "E3", "F3", "G3"}
    assert len(groups(root, "seal-ring")) == 4  # the shared symbol on each card


def test_royal_cell_locked_open_then_occupied():
    def royal(n):
        root = parse(R.render_svg(game_after(TWO, n)))
        key = groups(root, "royal-key")[0].text
        mark = groups(root, "royal")
        return (mark[0].get("data-state") if mark else None), key, root

    state, key, _ = royal(0)
    assert state == "locked" and key == "Royal Cell locked"
    state, key, _ = royal(18)  # black has had a sequence of 3 (§3.1, D-5)
    assert state == "open" and key == "Royal Cell open for Black"
    state, key, root = royal(19)  # B 6 E5
    assert state is None and key == "Royal Cell taken, specials unlocked"
    (card,) = groups(root, "royal-card")
    assert card.get("data-cell") == "E5" and card.get("data-card") == "6"


def test_last_move_highlighted_and_specials_drawn():
    root = parse(R.render_svg(game_after(TWO, 22)))  # G rain B2
    (last,) = groups(root, "last-move")
    assert last.get("data-kind") == "rain" and last.get("data-cells") == "B2"
    (rain,) = [g for g in groups(root, "card") if g.get("data-kind") == "rain"]
    assert rain.get("data-cell") == "B2" and rain.get("data-side") == "1"
    icons = groups(root, "special-icon")
    # 2 Rains, a Beekeeper and a Smoker per side; gold's first Rain used
    assert len(icons) == 8
    used = {(i.get("data-side"), i.get("data-kind")) for i in icons if i.get("data-used") == "1"}
    assert used == {("1", "rain")}

    root = parse(R.render_svg(game_after(TWO, 24)))  # G smoker D5
    (last,) = groups(root, "last-move")
    assert last.get("data-kind") == "smoker" and last.get("data-cells") == "D5"
    assert [g.get("data-cell") for g in groups(root, "ghost")] == ["D5"]
    assert [u.get("data-kind") for u in groups(root, "special-used")] == ["smoker"]

    root = parse(R.render_svg(game_after(TWO, 25)))  # B beekeeper A5 G6
    (last,) = groups(root, "last-move")
    assert last.get("data-kind") == "beekeeper" and last.get("data-cells") == "A5 G6"
    assert len(groups(root, "arrow")) == 1
    assert [u.get("data-kind") for u in groups(root, "special-used")] == ["beekeeper"]


def test_title_says_whose_turn_or_the_result():
    svg = R.render_svg(game_after(TWO, 3), title="sim-0042 \u00b7 0001.alog \u00b7 move 3")
    texts = [t.text for t in groups(parse(svg), "title")[0].iter(SVG_NS + "text")]
    assert texts == [
        "sim-0042 \u00b7 0001.alog \u00b7 move 3",
        "Gold to play  \u00b7  last move: B 21 F3",
    ]
    game = game_after(beehive_lines())
    assert game.over()
    texts = [t.text for t in groups(parse(R.render_svg(game)), "title")[0].iter(SVG_NS + "text")]
    assert texts[1].startswith("Team A wins (cards run out; more sequences of 3: 6 to 5)")
    mid = game_after(beehive_lines(), 10)
    assert position.status_text(mid) == "Team B to play (seat B3)"  # start B: B1 A1 B2 A2 ..


def test_render_is_deterministic_and_pure():
    a = R.render_svg(game_after(beehive_lines(), 60), title="x")
    b = R.render_svg(game_after(beehive_lines(), 60), title="x")
    assert a == b
    game = game_after(TWO)
    before = (bytes(game.board), bytes(game.s), game.nlog)
    R.render_svg(game)
    assert (bytes(game.board), bytes(game.s), game.nlog) == before


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_renders(mode):
    lines = ["mode " + mode, "players 6"] if mode == "teen" else ["mode " + mode]
    if mode == "junior":
        lines += ["J 0 E5", "J 1 E6", "J 2 F7"]  # first on the Royal Cell (§6)
    game, _ = record.check(lines, Game)
    root = parse(R.render_svg(game))
    assert len(groups(root, "cell")) == 61
    assert len(groups(root, "card")) == (3 if mode == "junior" else 0)
    icons = groups(root, "special-icon")
    small = {"2v1": 2, "3v2": 2}.get(mode, 4)  # §5: the smaller team has 1 Rain, 1 Smoker
    assert len(icons) == (0 if mode == "junior" else 4 + small)


def test_size_and_coordinates_options():
    game = game_after(TWO)
    root = parse(R.render_svg(game, size=432))
    assert root.get("width") == "432" and root.get("height") == "472"
    assert len(groups(root, "coords")) == 1
    bare = parse(R.render_svg(game, coordinates=False))
    assert groups(bare, "coords") == [] and len(groups(bare, "cell")) == 61


# ---- the command -------------------------------------------------------------


def test_ply_picks_the_position(db, tmp_path):
    out = str(tmp_path / "p.svg")
    code, text = run_cli(["logs", "render", "1", "--db", db, "--ply", "5", "-o", out])
    assert code == 0 and text == "wrote %s\n" % out
    root = parse(open(out).read())
    assert len(groups(root, "card")) == 5
    assert (
        groups(root, "title")[0].find(SVG_NS + "text").text
        == "sim-0042 \u00b7 0001.alog \u00b7 move 5 of 25"
    )
    assert groups(root, "last-move")[0].get("data-cells") == "F7"  # B 16 F7


def test_default_output_name(db, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, text = run_cli(["logs", "render", "2", "--db", db])
    assert code == 0 and text == "wrote match-2-72.svg\n"
    assert parse(open(tmp_path / "match-2-72.svg").read()).tag == SVG_NS + "svg"


def test_console_script_writes_a_png_with_the_right_pixels(db, tmp_path):
    out = str(tmp_path / "two.png")
    p = subprocess.run(
        [BIN, "logs", "render", "1", "--db", db, "--ply", "19", "-o", out, "--size", "600"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout == "wrote %s\n" % out and p.stderr == ""
    from PIL import Image

    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    img = Image.open(out).convert("RGB")
    lay = R.Layout()
    assert img.size == R.pixel_size(lay, 600) == (600, 656)
    k = 600 / lay.width

    def pixel(cell, dy):
        # a point of the tile clear of the badges and the number
        cx, cy = lay.center(parse_cell(cell))
        return img.getpixel((int(cx * k), int((cy + dy) * k)))

    def near(rgb, hex_colour):
        want = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
        return all(abs(a - b) <= 12 for a, b in zip(rgb, want))

    assert near(pixel("B3", -33), R.SIDE_FILL[0])  # black card 8: dark
    assert sum(pixel("B3", -33)) < 150
    assert near(pixel("H9", -33), R.SIDE_FILL[1])  # gold card 22: gold
    assert near(pixel("A3", -30), R.CELL)  # empty cell: the board's colour
    assert near(pixel("E5", -33), R.SIDE_FILL[0])  # the Royal card, black


# ---- bad input: a message on stderr, the usage or failure code, no file -----


def _no_files(folder):
    return sorted(os.listdir(folder)) == []


def _files(folder):
    """What is in folder besides the test's database (and its WAL files)."""
    return sorted(n for n in os.listdir(folder) if not n.startswith("matches.sqlite"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["9"], "no stored match with id 9"),
        (["1", "--ply", "26"], "ply 26 out of range: the match has 25 moves"),
        (["1", "--ply", "-1"], "ply -1 out of range"),
        (["1", "-o", "{out}/two.txt"], "--output must end in .svg or .png"),
        (["1", "-o", "{out}/two"], "--output must end in .svg or .png"),
        (["1", "--size", "10", "-o", "{out}/two.svg"], "--size must be 64..8192"),
        (["1", "-o", "{out}/missing/two.svg"], "cannot write"),
    ],
)
def test_bad_arguments_exit_2_and_write_nothing(db, tmp_path, capsys, args, message):
    out = tmp_path / "out"
    out.mkdir()
    args = [a.replace("{out}", str(out)) for a in args]
    if "-o" not in args:
        args += ["-o", str(out / "x.svg")]
    code, text = run_cli(["logs", "render"] + args + ["--db", db])
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err.startswith("apixagon: ") and message in err and "Traceback" not in err
    assert _no_files(out)


def test_output_that_is_a_directory_leaves_no_temp_file(db, tmp_path, capsys):
    target = tmp_path / "taken.svg"
    target.mkdir()
    code, _ = run_cli(["logs", "render", "1", "--db", db, "-o", str(target)])
    assert code == 2 and "cannot write" in capsys.readouterr().err
    assert _files(tmp_path) == ["taken.svg"]
    assert target.is_dir() and list(target.iterdir()) == []


def test_a_failed_write_keeps_the_old_file_and_no_partial_one(tmp_path, monkeypatch):
    path = tmp_path / "a.svg"
    path.write_bytes(b"old")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(cli.CommandError) as e:
        outfile.write_atomic(str(path), b"new picture")
    assert "No space left on device" in str(e.value) and e.value.code == 2
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["a.svg"]


def _fake_cairosvg(folder, error):
    # A cairosvg that fails on import as a missing package or a missing
    # libcairo (cairocffi raises OSError) would.
    folder.mkdir()
    (folder / "cairosvg.py").write_text("raise %s\n" % error)
    return str(folder)


def test_png_without_cairosvg_says_how_to_get_it_and_writes_nothing(db, tmp_path):
    # Through the console script, with a cairosvg that is not there.
    shim = _fake_cairosvg(tmp_path / "shim", "ImportError('No module named cairosvg')")
    out = tmp_path / "old.png"
    out.write_bytes(b"an older picture")
    p = subprocess.run(
        [BIN, "logs", "render", "1", "--db", db, "-o", str(out)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=shim),
    )
    assert p.returncode == 1 and p.stdout == ""
    assert "Traceback" not in p.stderr
    assert "pip install 'apixagon[png]'" in p.stderr and "SVG output" in p.stderr
    assert out.read_bytes() == b"an older picture"
    assert _files(tmp_path) == ["old.png", "shim"]


class _NoLibcairo:
    """An import hook: cairosvg fails as it does when cairocffi finds no
    libcairo (an OSError, not an ImportError)."""

    def find_spec(self, name, path=None, target=None):
        if name == "cairosvg" or name.startswith("cairosvg."):
            raise OSError("no library called 'cairo-2' was found")
        return None


def test_png_without_libcairo_fails_cleanly(db, tmp_path, capsys, monkeypatch):
    monkeypatch.delitem(sys.modules, "cairosvg", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_NoLibcairo()] + sys.meta_path)
    out = tmp_path / "two.png"
    code, text = run_cli(["logs", "render", "1", "--db", db, "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1 and text == ""
    assert "no library called 'cairo-2'" in err and "apt install libcairo2" in err
    assert _files(tmp_path) == []


def test_svg_needs_no_cairosvg(db, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # any import of it fails
    out = tmp_path / "ok.svg"
    code, _ = run_cli(["logs", "render", "2", "--db", db, "-o", str(out)])
    assert code == 0 and parse(out.read_text()).tag == SVG_NS + "svg"


def test_royal_constant_matches_the_layout():
    # The Royal Cell is drawn at the board's centre.
    lay = R.Layout()
    assert lay.center(ROYAL) == (lay.cx, lay.cy)


def test_an_abandoned_match_is_drawn_and_checked_as_abandoned(tmp_path):
    # Its last position read "Gold to play", and check said "in progress",
    # for a match the board logged as abandoned.
    path = str(tmp_path / "m.sqlite")
    store = Store(path)
    lines = [x for x in TWO[:6] if x.split()]
    out, prev = bytearray(), records.SEED
    for text in ['[Board "sim-0042"]'] + lines:
        kind = records.HEADER if text[0] in "[ms" else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    rec, prev = records.encode(prev, records.END, b"abandoned")
    store.put("sim-0042", "0001.alog", bytes(out + rec))
    store.close()
    svg = str(tmp_path / "end.svg")
    assert run_cli(["logs", "render", "1", "--db", path, "-o", svg])[0] == 0
    with open(svg) as f:
        texts = [t.text for t in groups(parse(f.read()), "title")[0].iter(SVG_NS + "text")]
    assert texts[1].startswith("Abandoned (") and "to play" not in texts[1].replace("was to", "")
    earlier = str(tmp_path / "early.svg")
    assert run_cli(["logs", "render", "1", "--db", path, "--ply", "1", "-o", earlier])[0] == 0
    with open(earlier) as f:
        texts = [t.text for t in groups(parse(f.read()), "title")[0].iter(SVG_NS + "text")]
    assert " to play" in texts[1]  # before the end, the turn as it was
    apx = str(tmp_path / "m.apx")
    assert run_cli(["logs", "export", "1", "--db", path, "-o", apx])[0] == 0
    code, text = run_cli(["check", apx])
    assert text.splitlines()[-1].startswith("result: abandoned ("), text
    code, text = run_cli(["check", "--json", apx])
    assert '"status": "abandoned"' in text

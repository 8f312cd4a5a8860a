"""The boot selector (firmware/bootsel.py) under the real MicroPython unix
port: a flash folder with slots of a tiny stand-in firmware (the packages
smartboard and boards, with a Link whose poll is the loop's first pass),
a "factory" folder playing the image's frozen modules, and every path of
the choice: no record, a new deploy's trial, a trial cut short, a slot
incomplete or failing to start, both slots bad, another image flashed."""

import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import devboard  # noqa: E402

LINK = """\
class Link:
    def poll(self, now):
        pass
"""

# boards/start.py of the stand-in: says which version each module comes
# from, runs one pass of the "loop", then leaves (or fails where told).
START = """\
import sys
import smartboard
from smartboard import link

FAIL = %(fail)r


def run(rev):
    if FAIL == "before":
        raise ValueError("broken %(fw)s")
    l = link.Link()
    l.poll(0)
    try:
        import bootsel

        booted, running = bootsel.booted, bootsel.running
    except ImportError:  # a main.py that found no selector
        booted, running = "-", False
    mods = sorted(
        "%%s=%%s" %% (k, getattr(m, "__file__", "?"))
        for k, m in sys.modules.items()
        if k.split(".")[0] in ("smartboard", "boards")
    )
    print("RUN", smartboard.FW, rev, booted, running, " ".join(mods))
    if FAIL == "after":
        raise ValueError("a bug in the loop")
    raise SystemExit  # the board reboots (the simulator's way)
"""


def write_firmware(top, fw, fail=None, manifest=True):
    """A stand-in firmware in folder top (a slot or the factory)."""
    files = {
        "smartboard/__init__.py": "FW = %r\n" % fw,
        "smartboard/link.py": LINK,
        "boards/__init__.py": "",
        "boards/start.py": START % {"fail": fail, "fw": fw},
    }
    sums = {}
    for rel, text in files.items():
        path = os.path.join(top, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        data = text.encode()
        sums[rel] = [len(data), hashlib.sha256(data).hexdigest()]
    if manifest:
        with open(os.path.join(top, "FIRMWARE.json"), "w") as f:
            json.dump({"fw": fw, "files": sums}, f)


class Board:
    def __init__(self, tmp_path, factory_fw="factory", image="IMG1"):
        self.flash = str(tmp_path / "flash")
        self.lib = str(tmp_path / "lib")  # the selector, as on a stock board's /lib
        self.factory = str(tmp_path / "factory")
        os.makedirs(os.path.join(self.flash, "fw"))
        os.makedirs(self.lib)
        shutil.copy(os.path.join(ROOT, "firmware", "bootsel.py"), self.lib)
        if factory_fw:
            write_firmware(self.factory, factory_fw, manifest=False)
            if image:
                with open(os.path.join(self.factory, "fwimage.py"), "w") as f:
                    f.write("ID = %r\n" % image)

    def slot(self, name, fw, **kw):
        d = os.path.join(self.flash, "fw", name)
        shutil.rmtree(d, ignore_errors=True)
        write_firmware(d, fw, **kw)
        return d

    def record(self, rec=None):
        path = os.path.join(self.flash, "fw", "BOOT")
        if rec is not None:
            with open(path, "w") as f:
                json.dump(rec, f)
        try:
            with open(path) as f:
                return json.load(f)
        except OSError:
            return None

    def boot(self):
        """Boot once: (the RUN line's fields, stderr and what came after
        RUN: an uncaught exception's traceback)."""
        env = dict(os.environ, MICROPYPATH=self.factory + ":" + self.lib)
        p = subprocess.run(
            [devboard.micropython(), "-c", "import bootsel\nbootsel.boot('rev_a')"],
            cwd=self.flash,
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        runs = [line.split(" ", 5) for line in p.stdout.splitlines() if line.startswith("RUN ")]
        return (runs[-1][1:] if runs else None), p.stderr + p.stdout.split("RUN ")[-1]


def run_of(fields):
    fw, rev, booted, running, mods = fields
    return fw, booted


def modules_from(fields, where):
    mods = dict(m.split("=", 1) for m in fields[4].split())
    assert mods, "no module of ours loaded"
    bad = {k: v for k, v in mods.items() if not v.startswith(where)}
    assert not bad, "modules from elsewhere than %s: %s" % (where, bad)


@pytest.fixture
def board(tmp_path):
    return Board(tmp_path)


def test_no_record_runs_the_factory_firmware(board):
    fields, err = board.boot()
    assert run_of(fields) == ("factory", "None")
    assert fields[3] == "True"  # its loop ran
    assert board.record() is None  # nothing written


def test_a_confirmed_slot_runs_and_nothing_is_written(board):
    board.slot("a", "v1")
    rec = {"cur": "a", "state": "ok", "prev": None, "image": "IMG1"}
    board.record(rec)
    mtime = os.stat(os.path.join(board.flash, "fw", "BOOT")).st_mtime_ns
    fields, err = board.boot()
    assert run_of(fields) == ("v1", "a")
    modules_from(fields, "fw/a/")
    assert board.record() == rec
    assert os.stat(os.path.join(board.flash, "fw", "BOOT")).st_mtime_ns == mtime


def test_a_new_slot_is_tried_then_confirmed_by_its_loop(board):
    board.slot("a", "v1")
    board.slot("b", "v2")
    board.record({"cur": "b", "state": "new", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("v2", "b")
    modules_from(fields, "fw/b/")
    assert board.record() == {"cur": "b", "state": "ok", "prev": "a", "image": "IMG1"}
    assert not os.path.exists(os.path.join(board.flash, "fw", "BOOT.new"))


def test_a_trial_cut_short_is_set_aside(board):
    board.slot("a", "v1")
    board.slot("b", "v2")
    board.record({"cur": "b", "state": "trial", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("v1", "a")
    rec = board.record()
    assert (rec["cur"], rec["state"], rec["prev"], rec["bad"]) == ("a", "ok", None, "b")
    assert "cut short" in rec["why"] and "set aside" in err


def test_a_slot_failing_to_start_falls_back_with_no_module_of_it_left(board):
    board.slot("a", "v1")
    board.slot("b", "v2", fail="before")
    board.record({"cur": "b", "state": "new", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("v1", "a")
    modules_from(fields, "fw/a/")  # smartboard, imported by b's start, went with it
    assert "ValueError: broken v2" in err  # its traceback, on stderr
    rec = board.record()
    assert (rec["cur"], rec["prev"], rec["bad"]) == ("a", None, "b")
    assert rec["why"] == "ValueError: broken v2"
    fields, err = board.boot()  # and it stays aside
    assert run_of(fields) == ("v1", "a") and "set aside" not in err


def manifest_sum(d):
    with open(os.path.join(d, "FIRMWARE.json"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


DAMAGE = {
    # what is done to slot b after its deploy: what the record then says
    "missing": "smartboard/link.py missing",  # a file gone
    "size": "smartboard/link.py is",  # a file grown (torn, appended to)
    "no-manifest": "no manifest",
    "half-manifest": "its manifest is not the one deployed",  # cut short mid-write
    "corrupt-manifest": "its manifest is not the one deployed",  # other bytes, same size
    "rewritten": "its manifest is not the one deployed",  # a file and its manifest edited
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_slot_is_set_aside(board, damage):
    board.slot("a", "v1")
    b = board.slot("b", "v2")
    sums = {"a": manifest_sum(os.path.join(board.flash, "fw", "a")), "b": manifest_sum(b)}
    link = os.path.join(b, "smartboard", "link.py")
    manifest = os.path.join(b, "FIRMWARE.json")
    with open(manifest) as f:
        text = f.read()
    if damage == "missing":
        os.remove(link)
    elif damage == "size":
        with open(link, "a") as f:
            f.write("# torn\n")
    elif damage == "no-manifest":
        os.remove(manifest)
    elif damage == "half-manifest":
        with open(manifest, "w") as f:
            f.write(text[: len(text) // 2])
    elif damage == "corrupt-manifest":
        with open(manifest, "w") as f:
            f.write(text.replace("link.py", "link.pz"))
    elif damage == "rewritten":  # sizes that agree, but not what was deployed
        with open(link, "a") as f:
            f.write("# edited\n")
        write_firmware(b, "v2")
        with open(link, "a") as f:
            f.write("# edited\n")
        files = json.loads(text)["files"]
        files["smartboard/link.py"][0] += len("# edited\n")
        with open(manifest, "w") as f:
            json.dump({"fw": "v2", "files": files}, f)
    board.record({"cur": "b", "state": "ok", "prev": "a", "image": "IMG1", "sums": sums})
    fields, err = board.boot()
    assert run_of(fields) == ("v1", "a")
    modules_from(fields, "fw/a/")
    rec = board.record()
    assert (rec["cur"], rec["prev"], rec["bad"]) == ("a", None, "b")
    assert rec["why"].startswith(DAMAGE[damage]), rec["why"]


@pytest.mark.parametrize("damage", ["torn", "garbage", "shape"])
def test_a_manifest_that_does_not_parse_is_set_aside(board, damage):
    # With no sum in the record (a record of before the sums): the
    # manifest's own shape is checked.
    board.slot("a", "v1")
    b = board.slot("b", "v2")
    manifest = os.path.join(b, "FIRMWARE.json")
    with open(manifest) as f:
        text = f.read()
    bad = {
        "torn": text[:40],
        "garbage": "\x00\xff" * 20,
        "shape": json.dumps({"fw": "v2", "files": {"smartboard/link.py": "big"}}),
    }[damage]
    with open(manifest, "w") as f:
        f.write(bad)
    board.record({"cur": "b", "state": "ok", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("v1", "a")
    rec = board.record()
    assert rec["bad"] == "b" and rec["why"] == "its manifest does not parse"


def test_a_trial_boot_checks_every_file_by_its_sha256(board):
    # Same size, other bytes: only a sha256 tells; the first boot of a
    # deploy pays for it, once.
    board.slot("a", "v1")
    b = board.slot("b", "v2")
    start = os.path.join(b, "boards", "start.py")
    with open(start) as f:
        text = f.read()
    with open(start, "w") as f:
        f.write(text.replace("import sys", "import szs"))
    board.record({"cur": "b", "state": "new", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("v1", "a")
    rec = board.record()
    assert rec["bad"] == "b" and rec["why"] == "boards/start.py differs from its sha256"


def test_both_slots_bad_leave_the_factory_firmware(board):
    board.slot("a", "v1", fail="before")
    board.slot("b", "v2", fail="before")
    board.record({"cur": "b", "state": "ok", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("factory", "None")
    modules_from(fields, board.factory)
    rec = board.record()
    assert (rec["cur"], rec["prev"], rec["bad"]) == (None, None, "a")


def test_a_failure_after_the_loop_ran_is_no_failure_to_start(board):
    board.slot("a", "v1")
    board.slot("b", "v2", fail="after")
    board.record({"cur": "b", "state": "new", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("v2", "b")
    assert "a bug in the loop" in err  # raised to the REPL, as before
    assert board.record() == {"cur": "b", "state": "ok", "prev": "a", "image": "IMG1"}


def test_another_image_flashed_since_the_deploy_runs_its_own(board):
    board.slot("a", "v1")
    board.record({"cur": "a", "state": "ok", "prev": None, "image": "IMG0"})
    fields, err = board.boot()
    assert run_of(fields) == ("factory", "None")
    assert "another image" in err
    assert board.record()["cur"] == "a"  # kept: that image flashed back, the slot runs


def test_a_stock_board_has_no_image_to_compare(tmp_path):
    board = Board(tmp_path, image=None)
    board.slot("a", "v1")
    board.record({"cur": "a", "state": "ok", "prev": None, "image": "IMG0"})
    fields, err = board.boot()
    assert run_of(fields) == ("v1", "a")


def test_a_record_that_does_not_parse_is_no_record(board):
    board.slot("a", "v1")
    with open(os.path.join(board.flash, "fw", "BOOT"), "w") as f:
        f.write('{"cur": "a", "sta')
    fields, err = board.boot()
    assert run_of(fields) == ("factory", "None")


@pytest.mark.parametrize("selector", [True, False])
def test_a_stock_boards_main_py_with_and_without_the_selector(tmp_path, selector):
    # firmware/main.py as a stock MicroPython runs it, the firmware of
    # before the slots in /lib. Without lib/bootsel (a deploy onto such a
    # board cut after main.py's rename, before the selector's), /lib's
    # firmware starts as it did; with it, the slot the record names.
    flash = tmp_path / "flash"
    lib = str(flash / "lib")
    write_firmware(lib, "lib-fw", manifest=False)
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        (flash / "main.py").write_text(f.read().replace('BOARD = "rev_a"', 'BOARD = "rev_b"'))
    if selector:
        shutil.copy(os.path.join(ROOT, "firmware", "bootsel.py"), lib)
        write_firmware(str(flash / "fw" / "a"), "v1")
        (flash / "fw" / "BOOT").write_text(json.dumps({"cur": "a", "state": "ok"}))
    p = subprocess.run(
        [devboard.micropython(), "main.py"],
        cwd=str(flash),
        env=dict(os.environ, MICROPYPATH=lib),
        capture_output=True,
        text=True,
        timeout=30,
    )
    runs = [line.split(" ", 5)[1:] for line in p.stdout.splitlines() if line.startswith("RUN ")]
    assert runs, p.stdout + p.stderr
    fw, rev, booted, running, mods = runs[-1]
    assert rev == "rev_b"
    if selector:
        assert (fw, booted) == ("v1", "a")
        modules_from(runs[-1], "fw/a/")
    else:
        assert (fw, booted) == ("lib-fw", "-")
        modules_from(runs[-1], lib)


def run_mp(board, code):
    env = dict(os.environ, MICROPYPATH=board.factory + ":" + board.lib)
    return subprocess.run(
        [devboard.micropython(), "-c", code],
        cwd=board.flash,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_the_watchdog_twin_watches_a_trial_and_a_host(board):
    # The simulated board's watchdog (FileDog): the file whose age
    # tools/devboard.py's supervisor enforces. A trial arms it for its
    # import and the loop's first pass ends it; a host taking the board
    # over (a Ctrl-C) arms it for HOST_IDLE_MS + the chip's 8 s, alive()
    # renews it, stay() ends it.
    dog = os.path.join(board.flash, ".watchdog")
    board.slot("a", "v1")
    board.slot("b", "v2")
    board.record({"cur": "b", "state": "new", "prev": "a", "image": "IMG1"})
    fields, err = board.boot()
    assert run_of(fields) == ("v2", "b") and not os.path.exists(dog)
    p = run_mp(
        board,
        "import os, bootsel\n"
        "try:\n"
        "    raise KeyboardInterrupt\n"
        "except KeyboardInterrupt:\n"
        "    bootsel.handover()\n"
        "print('W', open('.watchdog').read())\n"
        "bootsel.alive()\n"
        "print('A', open('.watchdog').read())\n"
        "bootsel.stay()\n"
        "print('S', '.watchdog' in os.listdir())\n",
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["W", "38000", "A", "38000", "S", "False"], p.stdout


def test_boot_py_starts_the_watch_and_never_raises(board, tmp_path):
    # boot.py (frozen in every image) runs at every reset: with the
    # selector, it starts the watch of a host; without one, or with one
    # that fails, it says nothing (MicroPython would skip main.py).
    with open(os.path.join(ROOT, "firmware", "boot.py")) as f:
        code = f.read()
    p = run_mp(board, code + "print('DOG', open('.watchdog').read())\n")
    assert p.returncode == 0 and "DOG 38000" in p.stdout, (p.stdout, p.stderr)
    os.remove(os.path.join(board.flash, ".watchdog"))
    broken = str(tmp_path / "broken")
    os.makedirs(broken)
    with open(os.path.join(broken, "bootsel.py"), "w") as f:
        f.write("def handover():\n    raise OSError('no timer')\n")
    for path in (broken, str(tmp_path / "nothing")):
        env = dict(os.environ, MICROPYPATH=path)
        p = subprocess.run(
            [devboard.micropython(), "-c", code + "print('MAIN')\n"],
            cwd=board.flash,
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert p.returncode == 0 and p.stdout.strip() == "MAIN", (p.stdout, p.stderr)

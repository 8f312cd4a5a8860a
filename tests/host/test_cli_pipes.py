"""The command line as a shell user meets it: output into a pipe that
closes early (`apixagon logs list | head -1`), Ctrl-C at any moment of the
start, and what `--help` or `logs list` loads before it answers."""

import os
import subprocess
import sys

from apixagon_host.store import Store
from smartboard.logstore import records

EXE = os.path.join(os.path.dirname(sys.executable), "apixagon")
RECORD = ["mode queens-gambit", "start black", "B 12 E4", "G 3 A1", "B 13 I9"]


def _db(tmp_path, n=300):
    path = str(tmp_path / "m.sqlite")
    s = Store(path)
    for i in range(n):
        out, prev = bytearray(), records.SEED
        for text in RECORD:
            kind = records.HEADER if text[0] in "ms[" else records.MOVE
            rec, prev = records.encode(prev, kind, text.encode())
            out += rec
        rec, prev = records.encode(prev, records.END, b"abandoned")
        s.put("sim-A", "%04d.alog" % (i + 1), bytes(out + rec))
    s.close()
    return path


def _closed_pipe(args, tmp_path):
    # the reader has gone before the command writes a byte: every write fails
    rec = tmp_path / "r.apx"
    rec.write_text("\n".join(RECORD) + "\n")
    p = subprocess.Popen(
        [EXE] + [str(rec) if a == "RECORD" else a for a in args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    p.stdout.close()
    err = p.stderr.read()
    return p.wait(30), err


def test_a_closed_pipe_ends_quietly(tmp_path):
    db = _db(tmp_path)
    for args in (
        ["logs", "list", "--db", db],
        ["logs", "show", "1", "--db", db],
        ["logs", "export", "1", "--db", db],
        ["check", "RECORD"],
        ["replay", "1", "--delay", "0", "--db", db],
    ):
        code, err = _closed_pipe(args, tmp_path)
        assert err == "" and code == 141, (args, code, err)


def test_ctrl_c_while_a_command_loads_is_an_interrupt_not_a_traceback(tmp_path, capsys):
    # Every command's module is imported inside main's handling: a Ctrl-C
    # then (the first half second, when the imports were up front) is the
    # command's "interrupted", exit 130. (A Ctrl-C inside Python's own
    # start, before any of this runs, is the interpreter's.)
    import importlib

    from apixagon_host import cli

    real = importlib.import_module

    def interrupted(name, package=None):
        if name.startswith("."):
            raise KeyboardInterrupt
        return real(name, package)

    db = _db(tmp_path, 1)
    importlib.import_module = interrupted
    try:
        for argv in (["logs", "list", "--db", db], ["check", "x.apx"], ["monitor", "-p", "x"]):
            assert cli.main(argv) == 130, argv
            assert capsys.readouterr().err == "apixagon: interrupted\n"
    finally:
        importlib.import_module = real


def test_help_and_logs_list_load_neither_the_simulator_nor_the_web_server(tmp_path):
    db = _db(tmp_path, 1)
    probe = (
        "import sys, io\n"
        "from apixagon_host import cli\n"
        "try:\n"
        "    cli.main(sys.argv[1:], cli.State(out=io.StringIO()))\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('smartboard.sim.console', 'apixagon_host.monitor', 'apixagon_host.companion',"
        " 'starlette', 'uvicorn', 'apixagon_host.web.app')\n"
        "sys.stderr.write('LOADED:' + ' '.join(m for m in heavy if m in sys.modules))\n"
    )
    for argv in (["--help"], ["logs", "list", "--db", db], ["check", "--help"]):
        out = subprocess.run(
            [sys.executable, "-c", probe] + argv, capture_output=True, text=True, timeout=60
        )
        assert out.stderr.endswith("LOADED:"), (argv, out.stderr)

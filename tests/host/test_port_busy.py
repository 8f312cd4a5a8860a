"""A port another program holds (`apixagon monitor`, the companion): the
second opener is told the port is busy at once, never a traceback nor a
wait for a board that answers the other program."""

import io
import os
import time

import pytest
from apixagon_host import cli
from apixagon_host import link as L

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="POSIX pseudo-terminals")


@pytest.fixture
def pty_port():
    master, slave = os.openpty()
    name = os.ttyname(slave)
    yield name
    os.close(slave)
    os.close(master)


def test_a_port_held_by_another_link_is_busy(pty_port, capsys, monkeypatch):
    with L.Link(pty_port, 0.5):  # the monitor, holding the port
        with pytest.raises(L.PortBusy) as e:
            L.Link(pty_port, 0.5)
        assert e.value.code == 1 and "is busy" in str(e.value)
        out = io.StringIO()
        t = time.monotonic()
        rc = cli.main(["status", "-p", pty_port], cli.State(out=out))
        assert rc == 1 and time.monotonic() - t < 0.5  # at once, no wait for a reply
        assert capsys.readouterr().err == (
            "apixagon: the port %s is busy: another program (apixagon monitor?) is reading "
            "it; quit that program, or pull from inside it\n" % pty_port
        )
        monkeypatch.setenv(L.PORT_ENV, pty_port)
        rc = cli.main(["ports"], cli.State(out=out))
        assert rc == 3 and "%s  busy: another program" % pty_port in out.getvalue()
    L.Link(pty_port, 0.5).close()  # free again once the first one closed it


def test_silence_on_the_port_names_another_reader_as_a_cause(pty_port):
    # A program that reads without the lock (a serial terminal) takes the
    # board's replies: all the host can see is silence, and it says so.
    link = L.Link(pty_port, 0.3)
    try:
        with pytest.raises(L.BoardError) as e:
            link.hello()
    finally:
        link.close()
    assert e.value.code == 3
    assert "is no other program, such as a serial terminal, reading the port?" in str(e.value)


@pytest.mark.parametrize(
    "port, words",
    [
        ("/dev/apixagon-nonexistent", "no such port (is the board plugged in?"),
        ("/dev/null", "that is not a serial port"),
        ("/", "that is a folder, not a serial port"),
    ],
)
def test_a_port_that_will_not_open_is_one_plain_sentence(port, words, capsys):
    # pyserial's own text said the port and the errno twice, or an ioctl's
    # tuple: "[Errno 2] could not open port X: [Errno 2] No such file ..."
    assert cli.main(["status", "-p", port]) == 3
    err = capsys.readouterr().err
    assert err.startswith("apixagon: cannot open %s: %s" % (port, words)), err
    assert "Errno" not in err and "ioctl" not in err and err.count(port) == 1

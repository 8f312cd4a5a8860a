"""The broker's password is never shown: every URL said or logged has it
as ***, it comes from APIXAGON_MQTT_PASSWORD or the terminal (never
needed on the command line), and every bad broker URL or CA file is a
sentence and exit code 4, never a traceback."""

import io
import os
import subprocess
import sys

import devboard
import pytest
from apixagon_host import link as L
from apixagon_host.online import broker as B
from apixagon_host.online import transport as T
from apixagon_host.online.transport import EXIT_NETWORK, NetworkError, Transport, parse_url

SECRET = "s3cretPW"
CLI = [sys.executable, "-m", "apixagon_host.cli", "online"]


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_redact_keeps_the_user_and_hides_the_password():
    assert T.redact("mqtt://alice:s3cretPW@h:1883") == "mqtt://alice:***@h:1883"
    assert T.redact("mqtts://alice@h") == "mqtts://alice@h"
    assert T.redact("mqtt://h") == "mqtt://h"
    assert T.redact("mqtt://alice:p@ss/w?rd@h") == "mqtt://alice:***@h"
    assert T.redact("mqtt://alice:s3cretPW@[::1") == "mqtt://alice:***@[::1"
    assert T.redact("alice:s3cretPW@h") == "alice:***@h"
    assert T.redact(None) == ""


@pytest.mark.parametrize(
    "url, why",
    [
        ("mqtt://[::1", "host or port"),
        ("mqtt://alice:s3cretPW@[::1", "host or port"),
        ("mqtt://alice:s3cretPW@h:99999", "host or port"),
        ("mqtt://alice:s3cretPW@h:port", "host or port"),
        ("http://alice:s3cretPW@h", "mqtt:// or mqtts://"),
        ("mqtt://alice:s3cretPW@", "no host"),
        ("mqtt://alice:s3cretPW@h/topic", "no path"),
    ],
)
def test_a_bad_url_is_said_without_its_password(url, why):
    with pytest.raises(NetworkError, match="bad broker URL") as e:
        parse_url(url)
    assert why in str(e.value) and e.value.code == EXIT_NETWORK
    assert SECRET not in str(e.value)
    assert "mqtt://[USER@]HOST[:PORT]" in str(e.value)  # what is allowed


def test_an_ipv6_broker_url_is_read():
    assert parse_url("mqtt://[::1]:1884") == ("::1", 1884, False, None, None)


@pytest.fixture
def no_env(monkeypatch):
    monkeypatch.delenv(T.PASSWORD_ENV, raising=False)
    monkeypatch.setattr(T, "_asked", {})
    monkeypatch.setattr(T.sys, "stdin", io.StringIO())  # never a prompt, even under -s


def test_the_password_comes_from_the_environment_or_the_terminal(no_env, monkeypatch):
    assert T.password_for("alice", "h", 1883, environ={T.PASSWORD_ENV: "x1"}) == "x1"
    assert T.password_for("alice", "h", 1883, stdin=io.StringIO()) is None  # not a terminal
    prompts = []
    monkeypatch.setattr(T.getpass, "getpass", lambda p: prompts.append(p) or "typed")
    assert T.password_for("alice", "h", 1883, stdin=Tty()) == "typed"
    assert T.password_for("alice", "h", 1883, stdin=Tty()) == "typed"  # asked once
    assert len(prompts) == 1 and "alice" in prompts[0] and T.PASSWORD_ENV in prompts[0]

    def eof(p):
        raise EOFError

    monkeypatch.setattr(T.getpass, "getpass", eof)
    with pytest.raises(NetworkError, match="no broker password"):
        T.password_for("bob", "h", 1883, stdin=Tty())


@pytest.fixture
def users_broker():
    if B.mosquitto() is None:
        pytest.skip("mosquitto is not installed (make installs it)")
    with B.Broker(users={"alice": SECRET}) as b:
        yield b


def test_a_user_without_a_password_in_the_url(users_broker, no_env, monkeypatch):
    b = users_broker
    url = "mqtt://alice@127.0.0.1:%d" % b.port
    monkeypatch.setenv(T.PASSWORD_ENV, SECRET)
    Transport(url, "t-env").start(timeout=5).stop()
    monkeypatch.delenv(T.PASSWORD_ENV)
    # not at a terminal and no password anywhere: refused, and told where it goes
    with pytest.raises(NetworkError, match="refused the connection") as e:
        Transport(url, "t-none").start(timeout=5)
    assert T.PASSWORD_ENV in str(e.value) and e.value.code == EXIT_NETWORK


def _cert(tmp_path):
    if subprocess.run(["which", "openssl"], capture_output=True).returncode:
        pytest.skip("openssl missing")
    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
        check=True,
        capture_output=True,
    )
    return cert


def test_a_bad_ca_file_is_said(tmp_path, no_env):
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    url = "mqtts://alice:s3cretPW@127.0.0.1:1"
    for ca, why in (
        (str(tmp_path / "none.pem"), "does not exist"),
        (str(tmp_path), "is a folder"),
        (str(junk), "holds no certificate"),
    ):
        with pytest.raises(NetworkError, match=why) as e:
            Transport(url, "t-ca", ca=ca)
        assert e.value.code == EXIT_NETWORK and SECRET not in str(e.value)
    with pytest.raises(NetworkError, match="is for an mqtts:// broker") as e:
        Transport("mqtt://alice:s3cretPW@127.0.0.1:1", "t-ca", ca=str(junk))
    assert "alice:***@" in str(e.value) and SECRET not in str(e.value)
    Transport(url, "t-ca", ca=_cert(tmp_path))  # a real certificate is taken


def a_code(old):
    """A match code in the protocol's form of the day (seal's 16 symbols
    with a check, or the first version's short code)."""
    try:
        from apixagon_host.online import seal
    except ImportError:
        return old
    return seal.new_code()


def board(tmp_path, fw, name):
    flash = os.path.join(str(tmp_path), name)
    os.makedirs(flash)
    devboard.install(flash, fw)
    b = devboard.DevBoard(flash, "A").start()
    link = L.connect(b.port, timeout=5)
    link.request("HAND", "press", "confirm")  # queens-gambit, black starts
    link.close()
    return b


def _run(*args, env=None, timeout=60):
    return subprocess.run(
        CLI + list(args),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=subprocess.DEVNULL,  # no terminal: never a password prompt
    )


def test_a_run_with_a_password_never_shows_it(tmp_path, firmware_mpy, users_broker):
    """Everything two players' runs print, the broker's and the boards'
    logs, for a match whose password is in the URL, in the environment,
    wrong, or beside a bad URL or CA: the password is nowhere."""
    b = users_broker
    env = dict(os.environ)
    env.pop(T.PASSWORD_ENV, None)
    withpw = "mqtt://alice:%s@127.0.0.1:%d" % (SECRET, b.port)
    bare = "mqtt://alice@127.0.0.1:%d" % b.port
    black = board(tmp_path, firmware_mpy, "b")
    gold = board(tmp_path, firmware_mpy, "g")
    runs = []
    code, unknown = a_code("PWX7"), a_code("ZZZZ")
    try:
        host = subprocess.Popen(
            CLI + ["host", code, "--broker", withpw, "-p", black.port, "--seconds", "5"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        joined = _run(
            "join",
            code,
            "--broker",
            bare,
            "-p",
            gold.port,
            "--seconds",
            "2",
            env=dict(env, **{T.PASSWORD_ENV: SECRET}),
        )
        out, err = host.communicate(timeout=60)
        assert host.returncode == 0 and joined.returncode == 0, (err, joined.stderr)
        runs += [out, err, joined.stdout, joined.stderr]
        # each way of getting it wrong: a sentence and exit code 4 or 2
        junk = tmp_path / "junk.pem"
        junk.write_text("no certificate here\n")
        tls = "mqtts://alice:%s@127.0.0.1:%d" % (SECRET, b.port)
        for args, code, said in (
            (["--broker", "mqtt://alice:%s@[::1" % SECRET], 4, "bad broker URL"),
            (["--broker", "mqtt://alice:%s@h:x" % SECRET], 4, "bad broker URL"),
            (["--broker", tls, "--ca", str(tmp_path / "none.pem")], 4, "does not exist"),
            (["--broker", tls, "--ca", str(junk)], 4, "holds no certificate"),
            (["--broker", withpw.replace(SECRET, "wrong" + SECRET)], 4, "refused"),
            (["--broker", withpw, "--wait", "1"], 2, "no match"),
        ):
            r = _run("join", unknown, "-p", gold.port, *args, env=env)
            assert r.returncode == code and said in r.stderr, (args, r.stderr)
            assert "Traceback" not in r.stderr, r.stderr
            runs += [r.stdout, r.stderr]
        assert "mqtt://alice:***@" in "".join(runs)  # shown, but without the password
    finally:
        black.stop()
        gold.stop()
    logs = []
    for root, _dirs, files in os.walk(str(tmp_path)):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                logs.append(f.read().decode("latin-1"))
    with open(b.log, encoding="latin-1") as f:
        logs.append(f.read())
    for text in runs + logs:
        assert SECRET not in text
    assert "alice" in "".join(runs)

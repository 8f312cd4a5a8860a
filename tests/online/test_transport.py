"""The transport over TLS with a user and password (mosquitto with a
self-signed certificate made here by openssl): mqtts:// works with the
certificate's CA given, and every way of getting it wrong is a clear
NetworkError (exit code 4), never a hang."""

import shutil
import subprocess

import pytest
from apixagon_host.online import broker as B
from apixagon_host.online import protocol as P
from apixagon_host.online.transport import EXIT_NETWORK, NetworkError, Transport, parse_url


def test_broker_urls():
    assert parse_url("mqtt://h") == ("h", 1883, False, None, None)
    assert parse_url("mqtts://ann:s%40cret@broker.example.org") == (
        "broker.example.org",
        8883,
        True,
        "ann",
        "s@cret",
    )
    assert parse_url("mqtt://127.0.0.1:2000")[1] == 2000
    for bad in ("http://h", "h:1883", "mqtt://", "mqtt://h:99999", "mqtt://h:x"):
        with pytest.raises(NetworkError, match="bad broker URL") as e:
            parse_url(bad)
        assert e.value.code == EXIT_NETWORK


@pytest.fixture
def tls_broker(tmp_path):
    if B.mosquitto() is None or shutil.which("openssl") is None:
        pytest.skip("mosquitto or openssl missing (make installs mosquitto)")
    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        + ["-keyout", key, "-out", cert],
        check=True,
        capture_output=True,
    )
    with B.Broker(tls=(cert, key), users={"ann": "s3cret"}) as b:
        yield b, cert


def test_tls_with_user_and_password(tls_broker):
    b, cert = tls_broker
    assert b.url.startswith("mqtts://")
    a = Transport(b.url, "t-a", ca=cert, user="ann", password="s3cret").start()
    z = Transport(b.url, "t-z", ca=cert, user="ann", password="s3cret").start()
    try:
        z.subscribe(P.topic_from("TLSX", "B"))
        got = None
        for _ in range(20):  # until the subscription is in place
            a.publish(P.topic_from("TLSX", "B"), b"hello")
            item = z.get(0.5)
            while item is not None and item[0] != "msg":
                item = z.get(0.2)
            if item is not None:
                got = item
                break
        assert got == ("msg", P.topic_from("TLSX", "B"), b"hello")
    finally:
        a.stop()
        z.stop()


@pytest.mark.parametrize(
    "kw, why",
    [
        ({"user": "ann", "password": "wrong"}, "refused the connection"),
        ({}, "refused the connection"),
        ({"user": "ann", "password": "s3cret", "ca": "system"}, "CERTIFICATE_VERIFY_FAILED"),
    ],
)
def test_tls_mistakes_are_clear(tls_broker, kw, why):
    b, cert = tls_broker
    ca = None if kw.get("ca") == "system" else cert
    kw = dict(kw, ca=ca)
    with pytest.raises(NetworkError, match=why) as e:
        Transport(b.url, "t-bad", **kw).start(timeout=3)
    assert e.value.code == EXIT_NETWORK

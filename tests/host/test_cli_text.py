"""What the CLI prints for a person: --version, STATUS values in words."""

import io
import time

from apixagon_host import cli, logs


def test_version_prints_the_package_version_and_exits_zero():
    out = io.StringIO()
    assert cli.main(["--version"], cli.State(out=out)) == 0
    assert out.getvalue() == "apixagon %s\n" % cli.version()
    assert cli.version()[0].isdigit()  # the installed package's, e.g. 0.1.0


def test_status_values_in_words():
    v = logs.status_value
    assert v("last", "B_28_C4") == "B 28 C4"
    assert v("display", "card_query") == "card query"
    t = 1795000000
    assert v("clock", str(t)) == time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))
    assert v("clock", "12") == "not set (12 s since the board started)"
    assert v("free", "1468006") == "1.4 MB" and v("free", "700") == "700 bytes"
    assert v("free", "-1").startswith("unknown")
    assert v("phase", "play") == "play"

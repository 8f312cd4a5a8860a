"""The companion's own frames in the reader's language: the refusal line,
the event labels and phases the monitor prints, the status fields. In
English they stay the board's words (logs and tests read them)."""

from apixagon_host import i18n, logs, monitor
from apixagon_host.errors import error_line, is_error


def test_a_refusal_line_is_said_and_known_in_either_language():
    assert error_line("no such cell") == "error: no such cell"
    with i18n.using("it"):
        line = error_line("nessuna casella così")
        assert line.startswith("errore: "), line
        assert is_error(line) and is_error("error: old line")
    assert not is_error("move  1 B 5 E4")


def test_event_lines_label_and_phase_in_the_readers_language():
    line = monitor.event_line("phase", "start")
    assert line == "phase start"
    with i18n.using("it"):
        assert monitor.event_line("phase", "start") == "fase  inizio"
        assert monitor.event_line("move", "1 B 5 E4").startswith("mossa ")
        # a page words the same line again in its own language
        assert line.again() == "fase  inizio"
    assert line.again() == "phase start"


def test_status_fields_have_italian_labels():
    with i18n.using("it"):
        for key in ("clock", "phase", "mode", "sides", "winner"):
            assert i18n._(logs.STATUS_LABELS[key]) != key, key

"""The rules in short in the terminal: the companion's `help rules` (the
summary on the eight rows of events an 80x24 terminal shows, each topic
within 80 columns, a pointer to the manual's How to play page), from
rules_summary's text, and a clear error for a topic it does not have."""

import pytest
from apixagon_host import rules_summary
from apixagon_host.companion import Companion


class Session:
    """The least of a live link the help needs: it sends nothing."""

    info = {"board": "x", "id": "x"}
    status = {"sides": "BG"}
    connected = True
    sent = ()

    def request(self, *args):
        raise AssertionError("help sends nothing: %r" % (args,))


def run(line):
    return Companion(Session(), db=None).command(line)


def test_help_names_the_rules_topic():
    go_on, out = run("help")
    assert go_on and len(out) <= 8 and "rules" in out[-1]


def test_help_rules_is_a_short_summary_pointing_to_the_manual():
    go_on, out = run("help rules")
    assert go_on and out == rules_summary.summary_lines()
    assert len(out) <= 8 and all(len(x) <= 80 for x in out)
    text = "\n".join(out)
    for word in ("two sequences of 4", "Royal Cell", "Rain", "Beekeeper", "Smoker"):
        assert word in text, word
    assert "How to play" in out[-1]
    for name in rules_summary.TOPIC_NAMES:
        assert name in out[-1], name


@pytest.mark.parametrize("topic", rules_summary.TOPIC_NAMES)
def test_each_rules_topic_fits_80_columns(topic):
    go_on, out = run("help rules " + topic.upper())
    assert go_on and out == rules_summary.summary_lines(topic)
    assert 3 <= len(out) <= 8 and all(len(x) <= 80 for x in out), out


def test_topics_say_the_modes_silence_reserve_and_junior():
    text = {name: "\n".join(lines) for name, lines in rules_summary.topics()}
    for mode in ("queens-gambit", "silent-swarm", "beehive", "2v1", "3v2", "teen", "junior"):
        assert mode in text["modes"], mode
    assert "silence" in text["teams"] and "reserve deck" in text["teams"]
    assert "First out of cards wins" in text["junior"]


@pytest.mark.parametrize(
    "line,says",
    [
        ("help rules chess", "error: no rules topic 'chess': help rules modes | turn"),
        ("help rules turn now", "error: no help on 'rules'"),
    ],
)
def test_a_bad_rules_topic_says_what_there_is(line, says):
    go_on, out = run(line)
    assert go_on and out[0].startswith(says), out

"""Team games on two boards (RULES.md §4, §5): each board plays one team's
seats, the host's team A and the joiner's team B, over a real broker. The
scripted 3v2 record played to its end (its deck-empty declarations and
reserves crossing boards); a forced removal declared at the guilty team's
board and carried out at the other; a move the receiving board refuses;
Junior refused in words."""

import os

import pytest
from apixagon.codes import JUNIOR, SILENT_SWARM, TEEN, THREE_VS_TWO
from apixagon_host.errors import CommandError
from apixagon_host.online import protocol as P
from apixagon_host.online import seal
from onlinekit import DATA, Home, record_lines, wait_for
from test_online_match import newest_log

LINES = record_lines(os.path.join(DATA, "3v2_full.apx"))
MOVES = [x for x in LINES if P.is_move(x)]
CARRIED = ("pass", "deck-empty", "forced-removal")  # the board makes them itself


@pytest.fixture
def teams(request, tmp_path, firmware_mpy, mqtt):
    mode = getattr(request, "param", THREE_VS_TWO)
    h = {t: Home(tmp_path, firmware_mpy, "team-" + t, mode=mode) for t in "AB"}
    yield h
    for home in h.values():
        home.stop()


def play(homes, lines, k):
    """Move k of lines at its team's board, then at the other once it waits
    for it (a declaration it carries out itself)."""
    line = [x for x in lines if P.is_move(x)][k - 1]
    x, y = homes[line[0]], homes["B" if line[0] == "A" else "A"]
    x.hands(lines, k)
    wait_for(lambda: x.moves >= k, what="move %d %s on its own board" % (k, line))
    wait_for(
        lambda: y.moves >= k or y.session.side.expecting == k,
        what="the other board to wait for move %d %s" % (k, line),
    )
    if y.moves < k and line.split()[1] not in CARRIED:
        y.hands(lines, k)
    wait_for(lambda: y.moves >= k and x.session.side.acked >= k, what="move %d acked" % k)


def meet(homes, url, seats=("B1+B2", "A1+A2+A3")):
    code = seal.new_code()
    homes["A"].connect(url, code, "host")
    homes["B"].connect(url, code, "join")
    a, b = homes["A"].session, homes["B"].session
    wait_for(lambda: a.peer_online and b.peer_online, what="presence")
    assert (a.side.side, a.far_seats, b.side.side, b.far_seats) == ("A", seats[0], "B", seats[1])
    return code


def test_a_3v2_game_on_two_boards_ends_the_same_on_both(teams, mqtt):
    meet(teams, mqtt.url)
    assert teams["A"].status()["remote"] == "B1+B2"
    for k in range(1, len(MOVES) + 1):
        play(teams, LINES, k)
    a, b = teams["A"], teams["B"]
    wait_for(lambda: a.session.finished and b.session.finished, what="both sides to finish")
    assert a.error is None and b.error is None, (a.error, b.error)
    assert a.session.errors == b.session.errors == [] and a.session.refused == []
    assert a.session.finished == b.session.finished != "?"
    logs = [newest_log(h) for h in (a, b)]
    for got in logs:
        assert [P.norm(x) for x in got.moves] == [P.norm(x) for x in MOVES]
        assert got.result is not None and got.result.startswith("team B wins"), got.result
    # the declarations crossed: each team's deck-empty, then its keeper's reserve
    assert {"A deck-empty", "B deck-empty", "B1 reserve A5 B4"} <= set(MOVES)
    assert "team B" in a.session.end_text and a.session.end_text == b.session.end_text


SWARM = ["mode silent-swarm", "start A", "A1 12 E3", "B forced-removal", "B1 5 E6"]


@pytest.mark.parametrize("teams", [SILENT_SWARM], indirect=True)
def test_a_forced_removal_and_a_refused_move_cross_boards(teams, mqtt):
    a, b = teams["A"], teams["B"]
    meet(teams, mqtt.url, ("B1+B2", "A1+A2"))
    play(teams, SWARM, 1)
    # team A's board may not declare team B's penalty: its deck is at B's
    assert a.request("DECLARE", "forced-removal", "B") == "refused wrong-move B forced-removal"
    # at team B's board, on its own turn: carried out at A's board too
    play(teams, SWARM, 2)
    assert a.status()["moves"] == "2" and a.session.side.moves[-1] == "B forced-removal"
    # a move A's board refuses (E3 holds A1's card), as a bad board would
    # send it: nothing changes there, and B's side is told why
    b.session.call(
        lambda link: b.session.send("move", n=3, line="B1 5 E3", head=b.session.side.head())
    )
    wait_for(lambda: a.session.refused, what="A's board to refuse the move")
    assert a.session.refused[0][2].startswith("refused occupied"), a.session.refused
    wait_for(
        lambda: any("the other board refused move 3 (B1 5 E3): occupied" in t for t in b.said),
        what="B to hear it",
    )
    assert a.status()["moves"] == "2"
    play(teams, SWARM, 3)  # B's real move still crosses
    assert newest_log(a).moves[-1] == "B1 5 E6"


def test_junior_is_refused_in_words(tmp_path, firmware_mpy, mqtt):
    home = Home(tmp_path, firmware_mpy, "junior", mode=JUNIOR)
    try:
        with pytest.raises(CommandError, match="Junior is not played online"):
            home.connect(mqtt.url, seal.new_code(), "host")
    finally:
        home.stop()


def test_teen_boards_set_for_another_number_of_players_do_not_meet(tmp_path, firmware_mpy, mqtt):
    homes = [Home(tmp_path, firmware_mpy, "teen%d" % n, mode=TEEN, players=n) for n in (4, 6)]
    try:
        code = seal.new_code()
        homes[0].connect(mqtt.url, code, "host")
        with pytest.raises(CommandError, match="players is 4 there, 6 here"):
            homes[1].connect(mqtt.url, code, "join")
    finally:
        for h in homes:
            h.stop()


def test_typed_hands_name_a_team_games_cards_by_team():
    import io
    import threading

    from apixagon_host.online import hands
    from smartboard import tag

    sent = []

    class Session:
        teams = True
        done = threading.Event()

        def call(self, fn):
            return fn(self)

        def request(self, *args):
            sent.append(args)

    hands.typed_hands(Session(), io.StringIO("put E3 B12\n"), print).join(5)
    assert sent == [("HAND", "put", "E3", tag.code(1, tag.NORMAL, 12))]  # team B's, not Black's

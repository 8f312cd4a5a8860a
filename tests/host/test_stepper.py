"""replay's keys (stepper.Stepper): bytes as a terminal sends them in, the
ply shown out."""

from apixagon_host.stepper import Stepper


def fed(*chunks, last=10):
    s = Stepper(last)
    for c in chunks:
        s.feed(c)
    return s


def test_next_and_back_keys_stop_at_the_ends():
    assert fed(b"n", b" ", b"\x1b[C").ply == 3
    assert fed(b"nnn", b"p", b"\x1b[D").ply == 1
    assert fed(b"pp\x1b[D").ply == 0
    assert fed(b"n" * 20).ply == 10


def test_home_end_and_their_keys():
    for end in (b"$", b"\x1b[F", b"\x1bOF", b"\x1b[4~", b"\x1b[8~"):
        assert fed(end).ply == 10, end
    for home in (b"0", b"\x1b[H", b"\x1bOH", b"\x1b[1~", b"\x1b[7~"):
        assert fed(b"$", home).ply == 0, home


def test_an_escape_sequence_split_across_reads():
    assert fed(b"\x1b", b"[", b"C").ply == 1
    assert fed(b"\x1b[", b"4", b"~").ply == 10


def test_go_to_a_move():
    assert fed(b"g7\r").ply == 7
    assert fed(b"g 7\n").ply == 7  # `g 7` as one says it
    assert fed(b"g", b"3", b"0", b"\r", last=40).ply == 30
    s = fed(b"g12\x7f\r")  # Backspace
    assert s.ply == 1 and s.typing is None
    s = fed(b"g99\r")
    assert s.ply == 10 and s.message == "move 99: the match has 10 moves"
    s = fed(b"nn", b"g5\x1b[D")  # an arrow cancels it
    assert s.ply == 2 and s.typing is None
    s = fed(b"g")
    assert s.typing == "" and s.ply == 0
    assert fed(b"g\r").typing is None  # Enter with no number: nothing


def test_quit_keys_and_nothing_after_them():
    for q in (b"q", b"\x03", b"\x04", b"gq"):
        s = fed(q + b"nnn")
        assert s.done and s.ply == 0, q


def test_other_keys_change_nothing():
    s = Stepper(5)
    assert not s.feed(b"xz\x1bx\x1b[A")  # up arrow, Alt-x
    assert s.ply == 0 and not s.done
    assert s.feed(b"n") and s.ply == 1

import binascii
import os

from apixagon_host import link as L


def play_record(link, path, upto=None):
    """Send a .apx record in PLAY frames; the board plays it from hands."""
    with open(path) as f:
        lines = f.read().splitlines()
    if upto is not None:
        keep, moves = [], 0
        for line in lines:
            if line and line[0] in "ABGJ" and line[1:2] in " 123" and not line.startswith("["):
                moves += 1
                if moves > upto:
                    break
            keep.append(line)
        lines = keep
    text = binascii.b2a_base64("\n".join(lines).encode(), newline=False).decode()
    for i in range(0, len(text), 180):
        link.request("PLAY", text[i : i + 180])
    return link.request("PLAY", "END", timeout=120)


RECORD = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "beehive_full.apx"
)


def connect(board):
    return L.connect(board.port, timeout=5)

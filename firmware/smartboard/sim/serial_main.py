# The simulated board on a serial line: the real loop (board, match logs,
# serial link) over the simulated parts, speaking the protocol on stdin /
# stdout — a pseudo-terminal in tests and in `make run`, as USB CDC on the
# board. Run from the board's "flash" directory:
#
#   micropython -i -m smartboard.sim.serial_main [A|B]
#
# (-i: after Ctrl-C the unix port drops to its REPL, as the board does, so
# mpremote can take over.) Besides the board's commands it answers HAND
# commands — hands that put, lift and tap cards and press buttons — and
# PLAY, which plays a whole .apx record from hands in simulated time.
import binascii
import gc
import sys
import time

from .. import link, loop, proto, tag
from ..board import SETUP
from ..logstore import writer
from . import replay
from .rig import Rig

_HAND_BUTTONS = ("mode", "confirm", "declare")
_HAND_ARGS = {"put": 3, "lift": 2, "tap": 2, "wait": 2, "press": 2, "clear": 1}
CLEAR_MS = 60  # between two lifts of HAND clear: a hand taking the cards off
_PLAY_MAX = 65536  # base64 of a PLAY record: far more than any match
AHEAD_MS = 20  # Pace: the simulation runs at most this far ahead of the wall
BEHIND_MS = 100  # .. or behind it (a tick at least every 100 ms: smartboard.loop)


class SimLink(link.Link):
    VERBS = link.Link.VERBS + ("hand", "play")

    def __init__(self, port, rig, log, profile):
        link.Link.__init__(
            self, port, rig.board, log, "APIXAGON simulator", profile, "sim-" + profile
        )
        self.rig = rig
        self._record = []

    def cmd_hand(self, args):
        from apixagon.geometry import NONE, cell_name, parse_cell

        rig = self.rig
        what = args[0]
        # a word too many is bad arguments, as for the board's own verbs
        n = len(args)
        if n != _HAND_ARGS.get(what, 0) and not (what == "press" and n == 3):
            raise ValueError(what)
        if what == "put":
            x = parse_cell(args[1])
            if x == NONE:
                raise ValueError(args[1])
            c = _card(args[2])
            if rig.cells.cells[rig.layout.sensor[x]]:
                # a hand cannot put a card on a card (the old one was
                # silently replaced: a change no player can make)
                self._err(self._seq, proto.E_ARGS, args[1] + " holds a card: lift it first")
                return link._SENT
            c, w = rig.card_to_put(c)
            if w >= 0:
                # nor one card on two cells (it was taken, and both cells
                # then read a card the board could not place): the host
                # words `card on CELL`
                self._err(self._seq, proto.E_ARGS, "card on " + cell_name(w))
                return link._SENT
            rig.put(args[1], c)
        elif what == "lift":
            if parse_cell(args[1]) == NONE:
                raise ValueError(args[1])
            rig.lift(args[1])
        elif what == "tap":
            rig.tap(_card(args[1]))
        elif what == "clear":
            return self._clear()
        elif what == "wait":
            # Nobody touches the board: the scanners' time goes by (the
            # console's `wait MS`); a test's way to let the board settle.
            rig.settle(link.number(args[1], 1, 60000))
            return "ok"
        elif what == "press":
            if len(args) > 3 or len(args) == 3 and args[2] != "long":
                raise ValueError(args[2])
            rig.press(_HAND_BUTTONS.index(args[1]), len(args) == 3)
        else:
            raise ValueError(what)
        rig.settle(400)
        return "ok"

    def _clear(self):
        # Every card lifted, one after the other, each lift sensed through
        # the board's loop as a player's: in set-up only, where it readies
        # the board for the next match (in a match a lift is a take-back,
        # and in the end's position it would reopen the match)
        from apixagon.geometry import NCELLS, cell_name

        rig = self.rig
        if rig.board.phase != SETUP:
            self._err(self._seq, proto.E_STATE, "clear in set-up only")
            return link._SENT
        n = 0
        for x in range(NCELLS):
            if rig.cells.cells[rig.layout.sensor[x]]:
                rig.lift(cell_name(x))
                rig.run(CLEAR_MS)
                n += 1
        rig.settle(400)
        return "lifted %d" % n

    def cmd_play(self, args):
        # PLAY <base64 chunk> ... then PLAY END: the record arrives in
        # frames (MAX_IN), then is played from hands (sim time, unpaced).
        if len(args) != 1:
            raise ValueError("PLAY")
        if args[0] == "END":
            chunks = self._record
            self._record = []
            gc.collect()  # the match is played in a heap made compact first
            try:
                p = replay.play(self.rig, _lines(chunks), None, False)
            except replay.ReplayError as e:
                # a record the hands cannot play: the host's mistake
                # (answered bad arguments), not a fault of the board
                raise ValueError(str(e))
            self.rig.settle(600)
            return "played %d" % p.lines
        if sum(len(c) for c in self._record) > _PLAY_MAX:
            self._record = []
            raise ValueError("record too long")
        self._record.append(args[0])
        return "more"


def _lines(chunks):
    # The record's lines from its base64 chunks, decoded a chunk at a time:
    # neither the whole record nor a list of its lines is ever in the heap
    # (in a simulator at 96 wK, after a resume, a 3 KB block is not always
    # to be had: PLAY ran out of memory now and then).
    carry = ""
    line = b""
    for c in chunks:
        c = carry + c
        k = len(c) - len(c) % 4
        carry = c[k:]
        data = binascii.a2b_base64(c[:k]) if k else b""
        while data:
            j = data.find(b"\n")
            if j < 0:
                line += data
                break
            yield (line + data[:j]).decode()
            line = b""
            data = data[j + 1 :]
    if carry:
        raise ValueError("base64")
    yield line.decode()


def _card(text):
    # A card's tag code (smartboard.tag), or ValueError: a bytearray would
    # silently keep the low byte of a bad number on MicroPython.
    c = link.number(text, 0, 255)
    if tag.decode(tag.encode(tag.side_of(c), tag.kind_of(c), tag.index_of(c))) != c:
        raise ValueError(text)
    return c


def main(argv):
    profile = argv[1] if len(argv) > 1 else "A"
    rig = Rig(profile, "settings.bin", "layout.json")
    from ..stdio import StdioPort
    from .folderflash import FolderFlash

    log = writer.MatchLog("logs", (("Board", "simulator " + profile),), FolderFlash())

    port = StdioPort()
    lk = SimLink(port, rig, log, profile)
    lk.reboot = _reboot
    from ..cbpalette import follow

    follow(lk)  # the LED palette setting, kept and SET
    rig.board.listener = link.Fanout((log, lk))
    rig.board.log = log
    rig.board.resume_from(log)
    wall = loop.Millis(time.ticks_ms, time.ticks_diff)
    pace = Pace()
    while True:
        # the simulator's tick (its sensors' time), then the board's own
        # guarded pass over the link (smartboard.loop: as on the board).
        # The link keeps the wall clock, as on the board: a host's silence
        # is real time.
        loop.step(rig.board, lk, wall(), rig.tick)
        ahead = pace.ahead(rig.now(), wall())
        if ahead > 0:
            port.poller.poll(ahead)  # the wait ends when the PC writes


class Pace:
    """The simulated clock kept to the wall's: the loop sleeps while the
    simulation is ahead. A HAND or a PLAY runs ahead in simulated time, and
    a busy spell (a long reply) leaves it behind: either way the clock is
    re-anchored, never slept off nor raced through. Raced, the board's
    timers lapsed in a few ms of the wall (a 15 s card query went dark at
    once after a HAND tap, which had put the simulation 800 ms ahead)."""

    def __init__(self):
        self.base = 0  # wall ms at which the simulated clock read 0

    def ahead(self, sim, wall):
        """ms the simulation is ahead of the wall (at most AHEAD_MS: the
        sleep due), after re-anchoring."""
        ahead = sim - (wall - self.base)
        if ahead > AHEAD_MS:
            self.base += AHEAD_MS - ahead
            ahead = AHEAD_MS
        elif ahead < -BEHIND_MS:
            self.base -= BEHIND_MS + ahead
            ahead = -BEHIND_MS
        return ahead


def _reboot():
    # The process ends; tools/devboard.py starts it again, as a board boots.
    # Not by SystemExit alone: the unix port runs with -i (so that Ctrl-C
    # leaves mpremote a REPL), and -i turns SystemExit into the REPL too:
    # the board sat at ">>> ", deaf to its host, and never booted again.
    import os

    os.system("kill -TERM $PPID")  # the shell's parent: this process
    sys.exit(0)  # (where the shell could not)


if __name__ == "__main__":
    main(sys.argv)

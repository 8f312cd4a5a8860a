"""A real match against the board's computer on the emulated RP2040 (the
engine part): both seats of a 2-player match the computer's, so that
every move is one of its searches, the hands carrying out each move the
board names (STATUS expect=, docs/protocol.md "Playing against the
computer") until the match is over. Twice: from the set-up (the
computer alone ends a match in a dozen moves), and late in the engine
part's scripted game (its log on the flash, naming the computer's seats
and level, its cards on the cells: the board resumes it), where the
match's log and the board's state are largest. The board says the heap free at the
end of its searches, each run with the collector held off (STATUS
searchheap=): the lowest heap during a search, measured in the match
rather than estimated from its parts."""

from bench.emulated import PROFILE, Board, data_path, hello_after_boot, record_script
from bench.matchlogs import cards_of, write_log
from bench.memory import HeapHands

RECORD = "queens_gambit_full.apx"
# the scripted game's moves played by people before the computer takes
# both seats (of its 64: ~20 searches left, the cards running out)
RESUME_AT = 44

# Gold's seat 1 and Black's (bit side*3 + seat-1: 8 and 1)
BOTH_SEATS = 9
# A match has 62 cards; declarations and the reserve add a few moves
MOST_MOVES = 120
# ms of the chip's time for one move: the level's dearest search (within
# the 2 s budget, docs/figures.md) and the hands carrying it out
MOVE_MS = 20000


class ComputerHands(HeapHands):
    """The hands of a match whose every move the board names: no
    take-backs of their own, a move known done when the board's move
    count grows (the board carries out the computer's declarations
    itself, so the count may grow by more than one)."""

    MOVE_TIMEOUT_MS = MOVE_MS

    def __init__(self, board, link, profile, say):
        HeapHands.__init__(self, board, link, profile, say, every=1)
        self.search_low = None

    def status(self):
        st = HeapHands.status(self)
        if "searchheap" in st:
            v = int(st["searchheap"])
            if self.search_low is None or v < self.search_low:
                self.search_low = v
        return st

    def _moved(self, nmoves, ply):
        st = self.status()
        if st["phase"] == "over" or int(st.get("moves", -1)) >= nmoves:
            return st
        return None

    def after(self, i, steps):
        self.heap_by_move.append(self.heap_end)


def step_of(line, sides, moves):
    """The expect= line (`G_12_F5`, `G_rain_D4`, `G_smoker_E4`,
    `G_beekeeper_D5_C3`, `A3_reserve_C3_D2`) as a step of Hands.play."""
    from apixagon.codes import BEEKEEPER, PLACE, RAIN_MOVE, RESERVE, SMOKER
    from apixagon.geometry import parse_cell

    w = line.split("_")
    side = sides.index(w[0][0])
    kinds = {"rain": RAIN_MOVE, "smoker": SMOKER, "beekeeper": BEEKEEPER, "reserve": RESERVE}
    if w[1] in kinds:
        kind, card, cells = kinds[w[1]], 0, [parse_cell(x) for x in w[2:]]
    else:
        kind, card, cells = PLACE, int(w[1]), [parse_cell(w[2])]
    return (0, kind, side, card, cells, side, moves + 1, -1)


def computer_log(rev, tmp, level, upto=RESUME_AT):
    """(name, bytes, game): the scripted game's first `upto` moves as the
    board's log of a match whose two seats are the computer's."""
    from apixagon import record
    from apixagon.game import Game
    from smartboard import computer

    def play(log):
        with open(data_path(RECORD)) as f:
            g = record.check(f, Game)[0]
        while g.nmoves() > upto:
            g.undo()
        # the seed its hands are dealt from (any: the bench names the moves)
        log.match_tags = computer.tags(g, computer.seats_of(g, BOTH_SEATS), level, 1)
        log.begin(g)
        log.flush_all()
        return g

    return write_log(rev, play, tmp)


def _free_rain(hands, side):
    # a Rain card of the side not on the board (tag index 0 or 1)
    from smartboard import tag

    for i in (0, 1):
        if tag.code(side, tag.RAIN, i) not in hands.table.values():
            hands.rains[side] = i
            return


def _next(st):
    return st.get("expect") or st["phase"] == "over"


def computer_match(image, rev, workdir, level, say, late=True):
    """The match, on a fresh board running the image, late in the scripted
    game or (late False) from the set-up: {moves, searches,
    search_heap_lowest, heap_lowest, level, from_move}."""
    from apixagon.codes import RAIN_MOVE

    if late:
        name, data, game = computer_log(rev, workdir, level)
        b = Board(image, rev, workdir, (("logs/" + name, data),))
    else:
        game = None
        b = Board(image, rev, workdir)
    try:
        cards = cards_of(game) if late else {}
        for x, code in cards.items():
            b.put(x, code)
        link = hello_after_boot(b)[0]
        hands = ComputerHands(b, link, PROFILE[rev], say)
        hands.table.update(cards)
        if late:
            hands.until(lambda: hands.status()["phase"] != "resume", "the resume")
        else:
            for verb in (("SET", "computer", str(BOTH_SEATS)), ("SET", "level", str(level))):
                link.request(*verb)
            hands.setup(record_script(data_path(RECORD))[0])  # its 2-player set-up
        searched = 0
        while True:
            st = hands.status()
            if st["phase"] == "over":
                break
            moves = int(st["moves"])
            if moves > MOST_MOVES:
                raise RuntimeError("the computer's match did not end in %d moves" % MOST_MOVES)
            e = st.get("expect")
            if not e:
                # thinking, or carrying out its own declaration
                hands.until(
                    lambda: _next(hands.status()), "the computer's move after move %d" % moves
                )
                continue
            searched += 1
            step = step_of(e, st["sides"], moves)
            if step[1] == RAIN_MOVE:
                _free_rain(hands, step[2])
            hands.play([step])
        link.close()
    finally:
        b.close()
    if hands.search_low is None:
        raise RuntimeError("the board never said searchheap=: %r" % st)
    return {
        "record": RECORD,
        "from_move": game.nmoves() if late else 0,
        "level": level,
        "moves": int(st["moves"]),
        "searches": searched,
        "search_heap_lowest": hands.search_low,
        "heap_lowest": hands.heap_lowest,
        "winner": st.get("winner"),
    }

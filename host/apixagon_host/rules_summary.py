"""The rules in short, for the companion's `help rules` and the web page's
How to play: a summary that fits the eight rows of events an 80x24
terminal shows, and a few topics said in full. The manual's How to play
page (docs/guide/how-to-play.md) teaches the game with pictures; RULES.md
is the specification both follow."""

from .i18n import N_, _

# Where the whole text is: the page in the manual (make docs builds it; the
# web page serves it at /manual/ then) and the web page's own summary.
MANUAL_PAGE = "guide/how-to-play/"

SUMMARY = N_(
    """\
Goal: be first to own two sequences of 4: four of your cards in a straight
  line sharing one symbol (any two cards of a deck share exactly one).
Turn: draw (4 cards in hand at most), then put one card on a free cell. Beside
  an opponent card only to block its run (with its symbol) or to extend yours.
Royal Cell E5: after a sequence of 3, any card may go there; that unlocks the
  specials: Rain blocks a run's end, Beekeeper moves a card, Smoker removes one.
End: two sequences of 4 win at once; cards run out: most sequences of 3 wins.
More: help rules modes|turn|specials|teams|junior; manual page: How to play"""
)

# (name, text): the order the web page shows them in
TOPICS = (
    (
        "modes",
        N_(
            """\
The modes (mode NAME):
  queens-gambit  2 players, Black against Gold: the base game
  silent-swarm   4 players in 2 teams of 2, in silence (help rules teams)
  beehive        6 players in 2 teams of 3, in silence
  2v1, 3v2       uneven teams: the smaller plays more often, with 2 specials
  teen           a team game without the silence; it ends when the deck does
  junior         2 to 6 players and one deck: a race to match symbols"""
        ),
    ),
    (
        "turn",
        N_(
            """\
A turn: draw a card (never more than 4 in hand), then put one on a free cell.
  The first card may go anywhere but on the Royal Cell (E5). Where no
  opponent card touches the cell, any card will do. Touching one, only to
  block (the cell ends an opponent run and your card has the run's symbol)
  or to extend (it ends a run of yours and your card has that run's symbol).
A run: 2 or more cards of a side in a straight line with a symbol in common.
  Sequence of 3: a run of 3. Sequence of 4: sealed, its cards never move."""
        ),
    ),
    (
        "specials",
        N_(
            """\
Specials, 4 a side, face down until a card is on the Royal Cell; then one
may be played instead of drawing and placing (after the taker's turn):
  Rain       on a free end of an opponent run: it stays there and blocks it
  Beekeeper  moves a card (either side's) to a cell its owner could use
  Smoker     takes an opponent card off the board for good
Never the Royal card or a sealed sequence of 4; each special is used once.
On the board: hold it on the action pad (tap CARD here), then make the move."""
        ),
    ),
    (
        "teams",
        N_(
            """\
Team games: seats A1 B1 A2 B2 (A3 B3) play in turn; each team shares one
  31-card deck and 4 specials; each player holds 3 cards, 4 at most.
Code of silence: no hints to teammates. Talking costs a forced removal: the
  opponents lock away your deck's top card (declare forced-removal SIDE).
Deck empty (declare deck-empty SIDE): once a game, the team's keeper (player
  1 in teams of 2, player 3 in teams of 3) takes back own cards that stand
  alone or in pairs as a reserve deck (declare reserve); more than 6 cards in
  it gives the opponents one of their used specials back."""
        ),
    ),
    (
        "junior",
        N_(
            """\
Junior (2 to 6 players): one deck; its first card goes on the Royal Cell,
  the rest is dealt out. All turn their top card together; the first to call
  the symbol it shares with the last card on the board puts it on a free
  cell beside that card, the new last card. First out of cards wins (out N).
  No specials, no sequences, no silence."""
        ),
    ),
)

TOPIC_NAMES = tuple(name for name, _text in TOPICS)

# The web page's own words around the summary (web/templates/rules.html)
PAGE_TITLE = N_("How to play")
PAGE_MANUAL = N_("The manual's How to play page teaches the whole game, with pictures.")
PAGE_NO_MANUAL = N_(
    "The manual's How to play page teaches the whole game, with pictures: "
    "make docs builds the manual, and this page then links to it."
)
PAGE_SHORT = N_("In short, as the companion's help rules says it:")


def summary_lines(topic=None):
    """The summary (topic None) or one topic, as lines in the language in
    use. An unknown topic is a ValueError that names the ones there are."""
    if topic is None:
        return _(SUMMARY).splitlines()
    for name, text in TOPICS:
        if name == topic.lower():
            return _(text).splitlines()
    raise ValueError(
        _("no rules topic '{topic}': help rules {names}").format(
            topic=topic, names=" | ".join(TOPIC_NAMES)
        )
    )


def page_words(manual_built):
    """The web page's words, in the language in use: its title, the
    sentence about the manual (a link once the manual is built) and the
    one before the summary."""
    return {
        "title": _(PAGE_TITLE),
        "manual_text": _(PAGE_MANUAL if manual_built else PAGE_NO_MANUAL),
        "short": _(PAGE_SHORT),
    }


def topics():
    """(name, lines) of every topic, in the language in use."""
    return [(name, _(text).splitlines()) for name, text in TOPICS]
